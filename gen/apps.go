package gen

import (
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/internal/surface"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// MCP Apps from directives (the extension io.modelcontextprotocol/ui): a
// tool's ui= links it to a view, a //mcp:resource with a ui:// URI whose
// options say how the client should sandbox it. What the generator checks,
// so that no client meets a broken app:
//   - the link names a ui:// resource of the package (a view's URI is
//     fixed: no {variables});
//   - the view's MIME type is text/html;profile=mcp-app, the one hosts
//     render (the default for a ui:// URI; and a ui:// URI for that type);
//   - its contents are HTML: a string, []byte or *runtime.ResourceResult,
//     or a string or []byte variable (a //go:embed file, which should
//     begin as an HTML document does);
//   - every CSP entry is an origin, as the runtime's check has it (a host
//     pastes them into a Content-Security-Policy header);
//   - the tool still answers with a text block, which a client that does
//     not render the view shows: its Go result is a string or a JSON value
//     (mcpimpl writes the text block beside structuredContent); an
//     error-only tool is refused, and a *runtime.ToolResult, whose blocks
//     the generator cannot see, is warned about.

// toolAppOptions link a tool to its view: ui= and visibility=.
type toolAppOptions struct {
	ui            string
	uiPos         token.Pos
	visibility    []string
	visibilityPos token.Pos
}

// toolAppOption reads ui=ui://… or visibility=model,app of //mcp:tool.
func (p *pass) toolAppOption(o *toolAppOptions, key string, a arg) bool {
	if key == "ui" {
		if !strings.HasPrefix(a.value, "ui://") || len(a.value) == len("ui://") {
			p.errorf(a.valPos, "//mcp:tool: ui=%s: want the URI of the tool's MCP App view, a ui:// resource such as ui://tickets/board", a.value)
			return false
		}
		o.ui, o.uiPos = a.value, a.valPos
		return true
	}
	o.visibilityPos = a.valPos
	for _, v := range strings.Split(a.value, ",") {
		if v != "model" && v != "app" || slices.Contains(o.visibility, v) {
			p.errorf(a.valPos, "//mcp:tool: visibility=%s: want model, app or model,app (who may call the tool: the model, the tool's MCP App view)", a.value)
			return false
		}
		o.visibility = append(o.visibility, v)
	}
	return true
}

// appResourceOptions say how a view asks to be shown: its CSP's origins,
// the browser features it asks for, its domain and border.
type appResourceOptions struct {
	first         string    // the first option given, for a resource that is no view
	firstAt       token.Pos // where it is
	connect       []string
	resource      []string
	frame         []string
	baseURI       []string
	permissions   []string
	domain        string
	prefersBorder *bool
}

const appResourceOptionNames = "connectDomains, resourceDomains, frameDomains, baseUriDomains, permissions, domain, prefersBorder"

// isAppResourceOption reports whether key, in lower case, is an option of
// a view.
func isAppResourceOption(key string) bool {
	return slices.Contains(strings.Split(strings.ToLower(appResourceOptionNames), ", "), key)
}

// appPermissions are the browser features a view may ask for, as the
// extension names them.
var appPermissions = []string{"camera", "microphone", "geolocation", "clipboardWrite"}

// appResourceOption reads one option of a view.
func (p *pass) appResourceOption(o *appResourceOptions, key string, a arg) bool {
	if o.first == "" {
		o.first, o.firstAt = a.key, a.pos
	}
	list := func() []string { return strings.FieldsFunc(a.value, func(r rune) bool { return r == ',' }) }
	switch key {
	case "connectdomains", "resourcedomains", "framedomains", "baseuridomains":
		origins := list()
		for _, origin := range origins {
			if err := mcpimpl.CheckOrigin(origin); err != nil {
				p.errorf(a.valPos, "//mcp:resource: %s=%s: %v; the client allows the view to reach these origins and no other", a.key, a.value, err)
				return false
			}
		}
		dst := map[string]*[]string{"connectdomains": &o.connect, "resourcedomains": &o.resource, "framedomains": &o.frame, "baseuridomains": &o.baseURI}[key]
		*dst = append(*dst, origins...)
	case "permissions":
		for _, perm := range list() {
			i := slices.IndexFunc(appPermissions, func(s string) bool { return strings.EqualFold(s, perm) })
			if i < 0 {
				p.errorf(a.valPos, "//mcp:resource: permissions=%s: %q is not a feature a view may ask for (camera, microphone, geolocation, clipboardWrite)", a.value, perm)
				return false
			}
			if !slices.Contains(o.permissions, appPermissions[i]) {
				o.permissions = append(o.permissions, appPermissions[i])
			}
		}
	case "domain":
		if mcpimpl.CheckOrigin("https://"+a.value) != nil || strings.Contains(a.value, "*") {
			p.errorf(a.valPos, "//mcp:resource: domain=%s: a host name for the view's sandbox, such as abc.claudemcpcontent.com, without a scheme (its form is the client's)", a.value)
			return false
		}
		o.domain = a.value
	case "prefersborder":
		b, err := strconv.ParseBool(a.value)
		if err != nil {
			p.errorf(a.valPos, "//mcp:resource: prefersBorder=%s: want true or false", a.value)
			return false
		}
		o.prefersBorder = &b
	}
	return true
}

// isView reports whether r is an MCP App's view: its URI is ui://.
func (r *resource) isView() bool { return strings.HasPrefix(r.opts.uri, "ui://") }

// checkView checks what makes r a view, or not one, once its contents
// are classified: its URI, MIME type and contents. It sets the view's
// MIME type, which is the extension's unless the directive said another
// (a mistake it reports).
func (p *pass) checkView(r *resource, outputPos token.Pos) bool {
	o := r.opts
	if !r.isView() {
		switch {
		case o.app.first != "":
			p.errorf(o.app.firstAt, "//mcp:resource: %s= is for an MCP App's view, a resource with a ui:// URI, not %s", o.app.first, o.uri)
			return false
		case o.mimeType == runtime.AppMIMEType:
			p.errorf(o.mimeTypePos, "//mcp:resource: mimeType=%s is an MCP App's view's, whose URI must be ui://, not %s", o.mimeType, o.uri)
			return false
		}
		return true
	}
	ok := true
	if r.vars != nil {
		p.errorf(o.uriPos, "//mcp:resource %s: an MCP App's view has a fixed URI, which tools link with ui=: remove the {variables}", o.uri)
		ok = false
	}
	if o.mimeType != "" && o.mimeType != runtime.AppMIMEType {
		p.errorf(o.mimeTypePos, "//mcp:resource %s: mimeType=%s: an MCP App's view is %s, the type hosts render; leave mimeType= out", o.uri, o.mimeType, runtime.AppMIMEType)
		ok = false
	}
	if r.contents == "JSONContents" {
		p.errorf(outputPos, "resource %s: an MCP App's view returns its HTML: a string, []byte or *runtime.ResourceResult, not %s", r.name, typeString(r.output, r.fn.Pkg()))
		ok = false
	}
	r.mimeType = runtime.AppMIMEType
	return ok
}

// checkAppLinks checks each tool's link to its view, once the resources
// are built: it names a view of the package, and the tool still answers
// with a text block.
func (m *model) checkAppLinks() {
	p := m.pass
	var declared []string // every ui:// URI a //mcp:resource names, with errors or not
	for _, f := range p.files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == directiveResource {
					if fs := strings.Fields(d.Args); len(fs) > 0 && strings.HasPrefix(fs[0], "ui://") {
						declared = append(declared, fs[0])
					}
				}
			}
		}
	}
	for _, t := range m.tools {
		a := t.opts.app
		if a.ui == "" {
			if a.visibility != nil {
				p.errorf(a.visibilityPos, "//mcp:tool %s: visibility= says who may call a tool with an MCP App view: add ui=ui://…", t.name)
			}
			continue
		}
		if !slices.ContainsFunc(m.resources, func(r *resource) bool { return r.opts.uri == a.ui }) && !slices.Contains(declared, a.ui) {
			msg := "//mcp:tool %s: ui=%s links no view: the package has no //mcp:resource %[2]s"
			if near := nearest(a.ui, declared); near != "" {
				msg += "; did you mean " + near + "?"
			}
			p.errorf(a.uiPos, msg+" (a function returning the HTML, or a //go:embed variable)", t.name, a.ui)
		}
		switch t.out {
		case outNone:
			p.errorf(a.uiPos, "//mcp:tool %s: a tool with an MCP App view must still answer with text, which clients that do not render the view show: return (string, error) or a JSON value, which is sent as structuredContent and as text", t.name)
		case outResult:
			p.warnf(a.uiPos, "//mcp:tool %s returns a *runtime.ToolResult, whose content mcpgen cannot see: give it a text block, which clients that do not render the MCP App view show", t.name)
		}
	}
}

// uiToolMeta is &runtime.UIToolMeta{…}, or nil for a tool without a view.
func (e *emitter) uiToolMeta(t *tool) jen.Code {
	a := t.opts.app
	if a.ui == "" {
		return nil
	}
	fs := []jen.Code{field("ResourceURI", jen.Lit(a.ui))}
	if a.visibility != nil {
		fs = append(fs, field("Visibility", stringsLit(a.visibility)))
	}
	return jen.Op("&").Add(e.rt("UIToolMeta")).Add(elements(fs...))
}

// uiResourceMeta is &runtime.UIResourceMeta{…}, or nil for a resource that
// is no view.
func (e *emitter) uiResourceMeta(r *resource) jen.Code {
	if !r.isView() {
		return nil
	}
	o := r.opts.app
	var fs []jen.Code
	var csp []jen.Code
	for _, l := range []struct {
		name    string
		origins []string
	}{{"ConnectDomains", o.connect}, {"ResourceDomains", o.resource}, {"FrameDomains", o.frame}, {"BaseURIDomains", o.baseURI}} {
		if l.origins != nil {
			csp = append(csp, field(l.name, stringsLit(l.origins)))
		}
	}
	if csp != nil {
		fs = append(fs, field("CSP", jen.Op("&").Add(e.rt("UIResourceCSP")).Add(elements(csp...))))
	}
	if o.permissions != nil {
		var perms []jen.Code
		for _, name := range appPermissions {
			if slices.Contains(o.permissions, name) {
				perms = append(perms, field(strings.ToUpper(name[:1])+name[1:], jen.True()))
			}
		}
		fs = append(fs, field("Permissions", jen.Op("&").Add(e.rt("UIResourcePermissions")).Values(perms...)))
	}
	if o.domain != "" {
		fs = append(fs, field("Domain", jen.Lit(o.domain)))
	}
	if o.prefersBorder != nil {
		fs = append(fs, field("PrefersBorder", jen.New(jen.Lit(*o.prefersBorder))))
	}
	if fs == nil {
		return jen.Op("&").Add(e.rt("UIResourceMeta")).Values()
	}
	return jen.Op("&").Add(e.rt("UIResourceMeta")).Add(elements(fs...))
}

// mimeTypeLit is a resource's MIME type as generated code writes it:
// runtime.AppMIMEType for a view's, a string otherwise.
func (e *emitter) mimeTypeLit(mimeType string) jen.Code {
	if mimeType == runtime.AppMIMEType {
		return e.rt("AppMIMEType")
	}
	return jen.Lit(mimeType)
}

// surfaceToolUI is a tool's link to its view in the surface snapshot.
func surfaceToolUI(a toolAppOptions) *surface.ToolUI {
	if a.ui == "" {
		return nil
	}
	return &surface.ToolUI{ResourceURI: a.ui, Visibility: a.visibility}
}

// surfaceResourceUI is a view's _meta.ui in the surface snapshot, its
// lists as the directive gives them and its permissions in the
// extension's order.
func surfaceResourceUI(r *resource) *surface.ResourceUI {
	if !r.isView() {
		return nil
	}
	o := r.opts.app
	ui := &surface.ResourceUI{ConnectDomains: o.connect, ResourceDomains: o.resource, FrameDomains: o.frame, BaseURIDomains: o.baseURI, Domain: o.domain, PrefersBorder: o.prefersBorder}
	for _, name := range appPermissions {
		if slices.Contains(o.permissions, name) {
			ui.Permissions = append(ui.Permissions, name)
		}
	}
	return ui
}

// supportVersion is the version of the mcpimpl package the generated file
// needs, the oldest that has what it uses: 4 for variables served as
// resources, MCP Apps and tool icons, 3 otherwise, so that files that use
// none of them still build with an mcpimpl of version 3.
func (m *model) supportVersion() string {
	uses := slices.ContainsFunc(m.tools, func(t *tool) bool { return t.opts.icons != nil || t.opts.app.ui != "" }) ||
		slices.ContainsFunc(m.resources, func(r *resource) bool { return r.isView() || r.embedded != nil })
	if uses {
		return "SupportPackageIsVersion4"
	}
	return "SupportPackageIsVersion3"
}
