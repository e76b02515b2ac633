package runtime

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
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
	// UI, for an MCP App's view (a ui:// URI of type AppMIMEType), is how
	// the client should sandbox and show it: sent as _meta.ui in
	// resources/list and with each content of that type that
	// resources/read returns (see UIResourceMeta).
	UI *UIResourceMeta
	// Handler reads the resource. A Resource in a lister's page needs
	// none: a template, or another Resource, reads it.
	Handler ResourceHandler
	// Scopes are the OAuth scopes a token must hold to read the resource, over
	// Streamable HTTP with Authorization; a token without them gets 403
	// and a challenge that names them. Requests without a token (stdio,
	// the Claude host) need none.
	Scopes []string
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
	// Scopes are the OAuth scopes a token must hold to read the resources of the template, or complete its variables, over
	// Streamable HTTP with Authorization; a token without them gets 403
	// and a challenge that names them. Requests without a token (stdio,
	// the Claude host) need none.
	Scopes []string

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
	// nil for a Resource with a fixed URI. A {var} matches one segment of
	// the URI as the client wrote it, so that %2F in it decodes to a "/":
	// check a value as any input before it names a file or a key
	// (filepath.IsLocal, os.Root).
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
	// UI, for the HTML of an MCP App's view, is sent as the content's
	// _meta.ui, where clients read how to sandbox it; reading a Resource
	// whose UI is set fills it in (see Resource.UI).
	UI *UIResourceMeta
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
	s.listChanged(resources)
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
	if err := r.checkUI(); err != nil {
		return err
	}
	return s.resources.add(r.URI, r)
}

// RemoveResource removes the resource with the given URI, and reports
// whether there was one. Clients that are connected learn that the list
// changed.
func (s *Server) RemoveResource(uri string) bool {
	if !s.resources.remove(uri) {
		return false
	}
	s.listChanged(resources)
	return true
}

// AddResourceTemplate registers t. It panics if t is malformed (a
// template that does not parse, no name or handler, a duplicate
// template).
func (s *Server) AddResourceTemplate(t *ResourceTemplate) {
	if err := s.addResourceTemplate(t); err != nil {
		panic("runtime: AddResourceTemplate: " + err.Error())
	}
	s.listChanged(resources)
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
	t.template = tmpl
	return s.templates.add(t.URITemplate, t)
}

// RemoveResourceTemplate removes the template with the given text, and
// reports whether there was one.
func (s *Server) RemoveResourceTemplate(uriTemplate string) bool {
	if !s.templates.remove(uriTemplate) {
		return false
	}
	s.listChanged(resources)
	return true
}

// ResourceListChanged tells the connected clients that the set of
// resources changed, with notifications/resources/list_changed: call it
// when what ListResources lists changes. AddResource and RemoveResource
// send it themselves.
func (s *Server) ResourceListChanged() {
	s.listChanged(resources)
}

// ResourceUpdated tells the clients that subscribed to uri
// (resources/subscribe, or subscriptions/listen under revision
// 2026-07-28) that the resource changed, with
// notifications/resources/updated.
func (s *Server) ResourceUpdated(uri string) {
	s.updated(uri)
}

// findResource returns the handler of uri, the request for it and the
// scopes reading it needs: a Resource with that URI, else the first
// template that matches it.
func (s *Server) findResource(uri string) (ResourceHandler, *ResourceRequest, []string) {
	if r, ok := s.resources.get(uri); ok {
		return r.handler(), &ResourceRequest{URI: uri}, r.Scopes
	}
	for _, t := range s.templates.all() {
		if vars, ok := t.template.Match(uri); ok {
			return t.Handler, &ResourceRequest{URI: uri, Vars: vars}, t.Scopes
		}
	}
	return nil, nil, nil
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
	b, err := appendDescriptors(b, r.Annotations, r.Icons, r.withUIMeta())
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

// appendResult writes the members of the result of resources/read.
func (r *ResourceResult) appendResult(b []byte) ([]byte, error) {
	b = append(b, `"contents":[`...)
	for i, c := range r.Contents {
		if i > 0 {
			b = append(b, ',')
		}
		b = c.appendJSON(b)
	}
	return appendMeta(append(b, ']'), r.Meta)
}

// size estimates the encoded size of r.
func (r *ResourceResult) size() int {
	n := 32
	for _, c := range r.Contents {
		n += len(c.URI) + len(c.Text) + len(c.Text)/8 + len(c.Blob)*4/3 + 64
	}
	return n
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
	if c.UI != nil {
		b = c.UI.appendMeta(b)
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

// listResources answers resources/list: the resources added with
// AddResource, then those of ListResources, whose cursors it passes on.
func (ss *session) listResources(c *call) response {
	srv := ss.srv
	cursor, bad := stringParam(c.msg.Params, "cursor", false)
	if bad != nil {
		return *bad
	}
	var page []*Resource
	if cursor == "" {
		page = append(page, srv.resources.all()...)
	}
	next := ""
	if srv.ListResources != nil {
		var listed []*Resource
		var n string
		err := ss.invoke(&c.ctx, handlerRun{kind: "resource lister", target: "ListResources"}, func(ctx context.Context) (err error) {
			listed, n, err = srv.ListResources(ctx, cursor)
			return err
		})
		if err != nil {
			return errorResponse(jsonrpc.InternalError, "listing resources: %v", err)
		}
		page, next = append(page, listed...), n
	} else if cursor != "" {
		return invalidParams("unknown cursor %q", cursor)
	}
	b := []byte(`"resources":[`)
	for i, r := range page {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = r.appendJSON(b); err != nil {
			return errorResponse(jsonrpc.InternalError, "listing resource %s: %v", r.URI, err)
		}
	}
	b = append(b, ']')
	return rawResult(appendField(b, "nextCursor", next))
}

// listTemplates answers resources/templates/list.
func (ss *session) listTemplates(*call) response {
	return listResult(&ss.srv.templates, 0, "resourceTemplates", func(b []byte, t *ResourceTemplate) ([]byte, error) {
		b, err := t.appendJSON(b)
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", t.URITemplate, err)
		}
		return b, nil
	})
}

// readResource answers resources/read. A URI that no resource or template
// answers gets the resource-not-found error, with the URI in its data.
func (ss *session) readResource(c *call) response {
	uri, bad := stringParam(c.msg.Params, "uri", true)
	if bad != nil {
		return *bad
	}
	handler, req, scopes := ss.srv.findResource(uri)
	if handler == nil {
		return resourceNotFound(uri, c.perRequest())
	}
	if resp, ok := c.allow("resource", uri, scopes); !ok {
		return resp
	}
	if mv := c.msg.Params.Get("_meta"); mv.Kind() == jsonvalue.Object {
		req.Meta = mv.Raw()
	}
	var res *ResourceResult
	err, stop, resp := ss.runHandler(c, handlerRun{kind: "resource", target: uri}, func(ctx context.Context) error {
		var err error
		res, err = handler(ctx, req)
		return err
	})
	var notFound *ResourceNotFoundError
	switch {
	case stop:
		return resp
	case errors.As(err, &notFound):
		return resourceNotFound(cmp.Or(notFound.URI, uri), c.perRequest())
	case isInvalidParams(err):
		return errorResponse(jsonrpc.InvalidParams, "reading %s: %v", uri, err)
	case err != nil:
		return errorResponse(jsonrpc.InternalError, "reading %s: %v", uri, err)
	case res == nil:
		return errorResponse(jsonrpc.InternalError, "reading %s: the handler returned no result", uri)
	}
	return response{result: res, cache: cmp.Or(res.Cache, &privateNow)}
}

// privateNow is the cache hint of a read whose result sets none: stale at
// once, and for its user only.
var privateNow = CacheHint{Private: true}

// resourceNotFound is the error answer to a read of a URI that names
// nothing, with the URI in its data: -32002 under a session revision,
// invalid params (-32602) under the per-request one, which dropped -32002.
func resourceNotFound(uri string, perRequest bool) response {
	data := jsonvalue.AppendString([]byte(`{"uri":`), uri)
	code := wire.ResourceNotFound
	if perRequest {
		code = jsonrpc.InvalidParams
	}
	return errorWithData(code, "resource not found: "+uri, append(data, '}'))
}

// subscribe answers resources/subscribe: the session is told when the
// resource changes (see Server.ResourceUpdated). A URI that no resource or
// template matches is refused, and a session keeps at most
// maxSubscriptions of them, of maxSubscriptionBytes in all.
func (ss *session) subscribe(c *call) response {
	uri, bad := stringParam(c.msg.Params, "uri", true)
	if bad != nil {
		return *bad
	}
	h, _, scopes := ss.srv.findResource(uri)
	if h == nil {
		return resourceNotFound(uri, false)
	}
	if resp, ok := c.allow("resource", uri, scopes); !ok {
		return resp
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.subs.add(uri); err != nil {
		return invalidParams("%v", err)
	}
	return emptyResult
}

// unsubscribe answers resources/unsubscribe.
func (ss *session) unsubscribe(c *call) response {
	uri, bad := stringParam(c.msg.Params, "uri", true)
	if bad != nil {
		return *bad
	}
	ss.mu.Lock()
	ss.subs.remove(uri)
	ss.mu.Unlock()
	return emptyResult
}
