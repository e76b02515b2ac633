package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
)

// A Resource is one MCP resource with a fixed URI, which resources/list
// lists and resources/read reads. mcpgen generates Resources from
// functions marked //mcp:resource with a URI that has no variables.
type Resource struct {
	// URI identifies the resource, such as "app://status" or
	// "file:///etc/app.json".
	URI string
	// Name identifies the resource to people and models; Title, if set,
	// is for display.
	Name  string
	Title string
	// Description tells the model what the resource holds.
	Description string
	// MIMEType is the type of the resource's contents, if known.
	MIMEType string
	// Size is the size of the contents in bytes; 0 means unknown.
	Size        int64
	Annotations *ResourceAnnotations
	Icons       []Icon
	// Meta holds _meta entries for resources/list.
	Meta map[string]any
	// Handler reads the resource. A Resource in a lister's page needs
	// none: a template, or another Resource, reads it.
	Handler ResourceHandler
}

// A ResourceTemplate is a family of resources whose URIs match an RFC
// 6570 template with {var} and {+var} expressions, such as
// "repo://{owner}/{name}/issues/{number}": resources/templates/list lists
// it, and it reads any URI that matches.
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Annotations *ResourceAnnotations
	Icons       []Icon
	Meta        map[string]any
	// Handler reads a URI that matches the template; the request holds
	// the values of the template's variables.
	Handler ResourceHandler
	// Complete, if set, proposes values of a variable (completion/complete
	// with a ref/resource reference to this template).
	Complete CompleteHandler

	template *uritemplate.Template
}

// ResourceAnnotations tell a client how to use a resource.
type ResourceAnnotations struct {
	// Audience lists who the resource is for: "user", "assistant".
	Audience []string `json:"audience,omitempty"`
	// Priority ranks the resource from 0 (optional) to 1 (required).
	Priority *float64 `json:"priority,omitempty"`
	// LastModified is when the resource last changed.
	LastModified time.Time `json:"lastModified,omitzero"`
}

// An Icon is an image a client may show for a resource, a prompt or a
// tool.
type Icon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"` // "light" or "dark"
}

// A ResourceHandler reads a resource. An error becomes a JSON-RPC error
// with the error's text: -32603, or -32602 if the error has a method
// InvalidParams() bool that returns true; return a *ResourceNotFoundError
// for a URI that names nothing.
type ResourceHandler func(ctx context.Context, req *ResourceRequest) (*ResourceResult, error)

// A ResourceRequest is one resources/read as a handler sees it.
type ResourceRequest struct {
	// URI is the URI the client asked for.
	URI string
	// Vars holds the values of a template's variables, percent-decoded;
	// nil for a Resource with a fixed URI.
	Vars map[string]string
	// Meta is the request's _meta object, if any.
	Meta json.RawMessage
}

// A ResourceResult is what resources/read answers.
type ResourceResult struct {
	Contents []ResourceContents
	Meta     map[string]any
	// Cache, if set, tells clients of revision 2026-07-28 how long they
	// may reuse the contents. Nil means not at all, and only for the same
	// user: contents may depend on who asks.
	Cache *CacheHint
}

// ResourceContents are the contents of one resource: Text for a text
// resource, or Blob (sent base64-encoded) when Blob is non-nil.
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
}

// A ResourceNotFoundError answers a read of a URI that names no resource:
// the client gets the protocol's resource-not-found error (-32002, with
// the URI in its data).
type ResourceNotFoundError struct {
	URI string
}

func (e *ResourceNotFoundError) Error() string { return "resource not found: " + e.URI }

// codeResourceNotFound is MCP's error code for a URI that names nothing.
const codeResourceNotFound = -32002

// TextResource returns the result of reading a text resource.
func TextResource(uri, mimeType, text string) *ResourceResult {
	return &ResourceResult{Contents: []ResourceContents{{URI: uri, MIMEType: mimeType, Text: text}}}
}

// A ResourceLister lists resources known only at run time (the files of
// a folder, the rows of a table), a page at a time: cursor is "" for the
// first page, and next is "" after the last. A template or a Resource
// reads them.
type ResourceLister func(ctx context.Context, cursor string) (page []*Resource, next string, err error)

// AddResource registers r. It panics if r is malformed (no URI, name or
// handler, or a duplicate URI), as these are programming errors. Clients
// that are connected learn that the list changed.
func (s *Server) AddResource(r *Resource) {
	if err := s.addResource(r); err != nil {
		panic("runtime: AddResource: " + err.Error())
	}
	s.listChanged("resources")
}

func (s *Server) addResource(r *Resource) error {
	switch {
	case r.URI == "":
		return fmt.Errorf("resource without a URI")
	case r.Name == "":
		return fmt.Errorf("resource %s has no name", r.URI)
	case r.Handler == nil:
		return fmt.Errorf("resource %s has no handler", r.URI)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resourceByURI[r.URI] != nil {
		return fmt.Errorf("duplicate resource URI %q", r.URI)
	}
	if s.resourceByURI == nil {
		s.resourceByURI = map[string]*Resource{}
	}
	s.resources = append(s.resources, r)
	s.resourceByURI[r.URI] = r
	return nil
}

// RemoveResource removes the resource with the given URI, and reports
// whether there was one. Clients that are connected learn that the list
// changed.
func (s *Server) RemoveResource(uri string) bool {
	s.mu.Lock()
	r := s.resourceByURI[uri]
	if r != nil {
		delete(s.resourceByURI, uri)
		s.resources = deleteFirst(s.resources, r)
	}
	s.mu.Unlock()
	if r != nil {
		s.listChanged("resources")
	}
	return r != nil
}

// AddResourceTemplate registers t. It panics if t is malformed (a
// template that does not parse, no name or handler, a duplicate
// template).
func (s *Server) AddResourceTemplate(t *ResourceTemplate) {
	if err := s.addResourceTemplate(t); err != nil {
		panic("runtime: AddResourceTemplate: " + err.Error())
	}
	s.listChanged("resources")
}

func (s *Server) addResourceTemplate(t *ResourceTemplate) error {
	tmpl, err := uritemplate.Parse(t.URITemplate)
	switch {
	case err != nil:
		return err
	case t.Name == "":
		return fmt.Errorf("resource template %s has no name", t.URITemplate)
	case t.Handler == nil:
		return fmt.Errorf("resource template %s has no handler", t.URITemplate)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, other := range s.templates {
		if other.URITemplate == t.URITemplate {
			return fmt.Errorf("duplicate resource template %q", t.URITemplate)
		}
	}
	t.template = tmpl
	s.templates = append(s.templates, t)
	return nil
}

// RemoveResourceTemplate removes the template with the given text, and
// reports whether there was one.
func (s *Server) RemoveResourceTemplate(uriTemplate string) bool {
	s.mu.Lock()
	var found *ResourceTemplate
	for _, t := range s.templates {
		if t.URITemplate == uriTemplate {
			found = t
		}
	}
	if found != nil {
		s.templates = deleteFirst(s.templates, found)
	}
	s.mu.Unlock()
	if found != nil {
		s.listChanged("resources")
	}
	return found != nil
}

// deleteFirst returns list without its first element equal to x.
func deleteFirst[T comparable](list []T, x T) []T {
	for i, e := range list {
		if e == x {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// ResourceListChanged tells the connected clients that the set of
// resources changed, with notifications/resources/list_changed: call it
// when what ListResources lists changes. AddResource and RemoveResource
// send it themselves.
func (s *Server) ResourceListChanged() {
	s.listChanged("resources")
}

// ResourceUpdated tells the clients that subscribed to uri
// (resources/subscribe) that the resource changed, with
// notifications/resources/updated.
func (s *Server) ResourceUpdated(uri string) {
	msg := jsonvalue.AppendString([]byte(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":`), uri)
	msg = append(msg, "}}"...)
	for _, ss := range s.liveSessions() {
		if ss.subscribed(uri) {
			ss.send(msg)
		}
	}
	s.notifyUpdated(uri)
}

// findResource returns the handler of uri and the request for it: a
// Resource with that URI, else the first template that matches it.
func (s *Server) findResource(uri string) (ResourceHandler, *ResourceRequest) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if r := s.resourceByURI[uri]; r != nil {
		return r.Handler, &ResourceRequest{URI: uri}
	}
	for _, t := range s.templates {
		if vars, ok := t.template.Match(uri); ok {
			return t.Handler, &ResourceRequest{URI: uri, Vars: vars}
		}
	}
	return nil, nil
}

// appendJSON writes r as resources/list lists it.
func (r *Resource) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"uri":`...)
	b = jsonvalue.AppendString(b, r.URI)
	b = appendField(b, "name", r.Name)
	b = appendField(b, "title", r.Title)
	b = appendField(b, "description", r.Description)
	b = appendField(b, "mimeType", r.MIMEType)
	if r.Size > 0 {
		b = fmt.Appendf(b, `,"size":%d`, r.Size)
	}
	b, err := appendDescriptors(b, r.Annotations, r.Icons, r.Meta)
	return append(b, '}'), err
}

// appendJSON writes t as resources/templates/list lists it.
func (t *ResourceTemplate) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"uriTemplate":`...)
	b = jsonvalue.AppendString(b, t.URITemplate)
	b = appendField(b, "name", t.Name)
	b = appendField(b, "title", t.Title)
	b = appendField(b, "description", t.Description)
	b = appendField(b, "mimeType", t.MIMEType)
	b, err := appendDescriptors(b, t.Annotations, t.Icons, t.Meta)
	return append(b, '}'), err
}

// appendField writes ,"name":value when value is not empty.
func appendField(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return jsonvalue.AppendString(b, value)
}

// appendDescriptors writes the annotations, icons and _meta of a listed
// item, those that are set.
func appendDescriptors(b []byte, annotations any, icons []Icon, meta map[string]any) ([]byte, error) {
	for _, f := range []struct {
		name  string
		value any
		set   bool
	}{
		{"annotations", annotations, annotations != nil && annotations != (*ResourceAnnotations)(nil)},
		{"icons", icons, len(icons) > 0},
		{"_meta", meta, len(meta) > 0},
	} {
		if !f.set {
			continue
		}
		data, err := json.Marshal(f.value)
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", f.name, err)
		}
		b = append(b, `,"`...)
		b = append(b, f.name...)
		b = append(b, `":`...)
		b = append(b, data...)
	}
	return b, nil
}

// appendJSON writes the result of resources/read.
func (r *ResourceResult) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"contents":[`...)
	for i, c := range r.Contents {
		if i > 0 {
			b = append(b, ',')
		}
		b = c.appendJSON(b)
	}
	b = append(b, ']')
	if len(r.Meta) > 0 {
		data, err := json.Marshal(r.Meta)
		if err != nil {
			return nil, fmt.Errorf("encoding _meta: %w", err)
		}
		b = append(append(b, `,"_meta":`...), data...)
	}
	return append(b, '}'), nil
}

// appendJSON writes the contents of one resource.
func (c ResourceContents) appendJSON(b []byte) []byte {
	b = append(b, `{"uri":`...)
	b = jsonvalue.AppendString(b, c.URI)
	b = appendField(b, "mimeType", c.MIMEType)
	if c.Blob != nil {
		b = append(b, `,"blob":"`...)
		b = base64.StdEncoding.AppendEncode(b, c.Blob)
		b = append(b, '"')
	} else {
		b = append(b, `,"text":`...)
		b = jsonvalue.AppendString(b, c.Text)
	}
	return append(b, '}')
}

// isInvalidParams reports whether a resource or prompt handler's error
// blames the request: an error with a method InvalidParams() bool that
// returns true (as the argument errors of generated code have) is answered
// with -32602 rather than -32603.
func isInvalidParams(err error) bool {
	var ip interface{ InvalidParams() bool }
	return errors.As(err, &ip) && ip.InvalidParams()
}
