package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// MCP Apps (the extension io.modelcontextprotocol/ui, SEP-1865): a tool
// links an HTML view, a ui:// resource of type AppMIMEType, which a client
// that renders apps shows in a sandboxed frame under the Content Security
// Policy the resource asks for; the view calls the server's tools through
// the client. A client declares the extension, with the MIME types it
// renders, in its capabilities; one that does not gets each tool without
// its link, and does not see the tools that only a view may call. A tool
// with a view still answers with a text result, which such a client shows.

// AppMIMEType is the MIME type of an MCP App's view: HTML that a client
// which declares the extension renders.
const AppMIMEType = wire.AppMIMEType

// UIToolMeta links a tool to its MCP App view. tools/list sends it as the
// tool's _meta.ui, and the view's URI also as _meta["ui/resourceUri"],
// which hosts written before the nested form read, to clients that declare
// the extension; other clients get the tool without it.
type UIToolMeta struct {
	// ResourceURI is the ui:// URI of the view, a Resource whose UI is set.
	ResourceURI string `json:"resourceUri,omitempty"`
	// Visibility says who may see and call the tool: "model" (the model,
	// through the client), "app" (the views of this server). Nil means
	// both. A tool without "model" is listed only to clients that declare
	// the extension, and only they may call it.
	Visibility []string `json:"visibility,omitempty"`
}

// UIResourceMeta is the _meta.ui of an MCP App's view: how the client
// should sandbox and show it. It is sent in resources/list and with each
// content of resources/read, where hosts read it.
type UIResourceMeta struct {
	// CSP lists the origins the view may reach; a client allows no other.
	CSP *UIResourceCSP `json:"csp,omitempty"`
	// Permissions are the browser features the view asks for.
	Permissions *UIResourcePermissions `json:"permissions,omitempty"`
	// Domain is a dedicated origin for the view's sandbox, in the form
	// the client documents.
	Domain string `json:"domain,omitempty"`
	// PrefersBorder, if set, asks for a visible border and background
	// (true) or none (false).
	PrefersBorder *bool `json:"prefersBorder,omitempty"`
}

// UIResourceCSP lists the origins (scheme://host[:port], the host perhaps
// *.name) that a view may reach, each list for one CSP directive; an empty
// list allows none.
type UIResourceCSP struct {
	// ConnectDomains are for fetch, XHR and WebSocket (connect-src).
	ConnectDomains []string `json:"connectDomains,omitempty"`
	// ResourceDomains are for scripts, styles, images, fonts and media.
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	// FrameDomains are for nested frames (frame-src).
	FrameDomains []string `json:"frameDomains,omitempty"`
	// BaseURIDomains are for the document's base URI (base-uri).
	BaseURIDomains []string `json:"baseUriDomains,omitempty"`
}

// UIResourcePermissions are the browser features a view asks the client
// to allow its frame.
type UIResourcePermissions struct {
	Camera, Microphone, Geolocation, ClipboardWrite bool
}

// MarshalJSON writes each feature asked for as the extension does, a
// member whose value is {}.
func (p UIResourcePermissions) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for _, f := range []struct {
		name string
		on   bool
	}{{"camera", p.Camera}, {"microphone", p.Microphone}, {"geolocation", p.Geolocation}, {"clipboardWrite", p.ClipboardWrite}} {
		if !f.on {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), f.name...), `":{}`...)
	}
	return append(b, '}'), nil
}

// checkUI returns why t's link to a view is malformed, or nil.
func (t *Tool) checkUI() error {
	if t.UI == nil {
		return nil
	}
	if !strings.HasPrefix(t.UI.ResourceURI, "ui://") {
		return fmt.Errorf("tool %q: UI.ResourceURI %q must be a ui:// URI", t.Name, t.UI.ResourceURI)
	}
	for _, v := range t.UI.Visibility {
		if v != "model" && v != "app" {
			return fmt.Errorf("tool %q: UI.Visibility %q: want \"model\" or \"app\"", t.Name, v)
		}
	}
	if t.UI.Visibility != nil && len(t.UI.Visibility) == 0 {
		return fmt.Errorf("tool %q: UI.Visibility is empty: no one could call the tool (nil means model and app)", t.Name)
	}
	return nil
}

// checkUI returns why r, a view, is malformed, or nil.
func (r *Resource) checkUI() error {
	if r.UI == nil {
		return nil
	}
	if !strings.HasPrefix(r.URI, "ui://") {
		return fmt.Errorf("resource %s has UI set, which is for an MCP App's view: its URI must be a ui:// URI", r.URI)
	}
	if r.MIMEType != AppMIMEType {
		return fmt.Errorf("resource %s is an MCP App's view: its MIME type must be %s, not %q", r.URI, AppMIMEType, r.MIMEType)
	}
	if csp := r.UI.CSP; csp != nil {
		for _, list := range [][]string{csp.ConnectDomains, csp.ResourceDomains, csp.FrameDomains, csp.BaseURIDomains} {
			for _, origin := range list {
				if err := wire.CheckOrigin(origin); err != nil {
					return fmt.Errorf("resource %s: CSP: %w", r.URI, err)
				}
			}
		}
	}
	return nil
}

// modelHidden reports whether t is for views only: clients that do not
// render apps neither see nor call it.
func (t *Tool) modelHidden() bool {
	return t.UI != nil && t.UI.Visibility != nil && !slices.Contains(t.UI.Visibility, "model")
}

// uiMeta adds t's link to its view to meta, for a client that renders
// apps: the nested object and the flat key that older hosts read.
func (t *Tool) uiMeta(meta map[string]any) {
	meta[wire.MetaUI] = t.UI
	meta[wire.MetaUIResourceURI] = t.UI.ResourceURI
}

// rendersApps reports whether the client of c declared the extension
// with AppMIMEType: in the request's capabilities under the per-request
// revision, in initialize's under a session one. A request of a session
// revision served without its session (Streamable HTTP without
// sessions) comes from a client whose initialize the server did not
// keep: it is taken to render apps, as the links are what the extension
// lets a client that does not ignore, and a client that does needs them.
func (c *call) rendersApps() bool {
	if c.meta != nil {
		return c.meta.Caps.Apps
	}
	ss := c.ss
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.caps.Apps || ss.revision == ""
}

// appOnly answers a call of a tool that only views may call from a client
// that does not render apps, which was not shown the tool.
func appOnly(t *Tool) response {
	return invalidParams("tool %s is called only by MCP Apps (visibility app): the client did not declare the extension %s with %s", t.Name, wire.ExtUI, AppMIMEType)
}

// hasAppTools reports whether a tool of s links a view: the server then
// declares the extension.
func (s *Server) hasAppTools() bool {
	return slices.ContainsFunc(s.tools.all(), func(t *Tool) bool { return t.UI != nil })
}

// withUIMeta returns r's _meta for resources/list, with its UI.
func (r *Resource) withUIMeta() map[string]any {
	if r.UI == nil {
		return r.Meta
	}
	meta := make(map[string]any, len(r.Meta)+1)
	for k, v := range r.Meta {
		meta[k] = v
	}
	meta[wire.MetaUI] = r.UI
	return meta
}

// handler returns the function that reads r: its Handler, which for a
// view also gives every content of type AppMIMEType without a UI of its
// own the resource's, where hosts read it.
func (r *Resource) handler() ResourceHandler {
	if r.UI == nil {
		return r.Handler
	}
	return func(ctx context.Context, req *ResourceRequest) (*ResourceResult, error) {
		res, err := r.Handler(ctx, req)
		if err != nil || res == nil {
			return res, err
		}
		// The result may be shared (a view's HTML, built once): it is
		// copied before a content is given the resource's UI.
		var out *ResourceResult
		for i, c := range res.Contents {
			if c.MIMEType != AppMIMEType || c.UI != nil {
				continue
			}
			if out == nil {
				copied := *res
				copied.Contents = slices.Clone(res.Contents)
				out = &copied
			}
			out.Contents[i].UI = r.UI
		}
		if out == nil {
			return res, nil
		}
		return out, nil
	}
}

// appendMeta writes ,"_meta":{"ui":m}. Encoding m cannot fail: it holds
// strings, booleans and UIResourcePermissions, which encodes itself.
func (m *UIResourceMeta) appendMeta(b []byte) []byte {
	data, _ := json.Marshal(m)
	b = append(b, `,"_meta":{"`+wire.MetaUI+`":`...)
	return append(append(b, data...), '}')
}
