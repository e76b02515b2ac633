package gen

import (
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/surface"
)

// encodeSurface writes the snapshot as the schemas are written (through
// schemajson.go's writer): indented by two spaces, members in the order
// of surface's types, <, > and & left readable, short lists of strings on
// one line, and a final newline. The schemas, written already, are
// copied with their lines moved right to their place, in one pass.
func encodeSurface(s *surface.Surface) []byte {
	// The size, near enough that the buffer grows once: the schemas'
	// lines move right by three levels (six spaces).
	size := 1 << 10
	for _, t := range s.Tools {
		for _, schema := range []surface.Schema{t.InputSchema, t.OutputSchema} {
			size += len(schema) + 6*strings.Count(string(schema), "\n")
		}
		size += len(t.Description) + 1<<9
	}
	w := &schemaWriter{}
	w.b.Grow(size)
	o := w.open(0)
	o.text("//", surface.Header)
	o.key("format")
	w.b.WriteString(strconv.Itoa(surface.Format))
	o.key("server")
	so := w.open(1)
	so.key("name")
	w.str(s.Server.Name)
	so.text("version", s.Server.Version)
	so.text("title", s.Server.Title)
	so.text("instructions", s.Server.Instructions)
	so.close()
	if len(s.Tools) > 0 {
		o.key("tools")
		w.elements(len(s.Tools), 1, func(i, depth int) { w.surfaceTool(s.Tools[i], depth) })
	}
	if len(s.Resources) > 0 {
		o.key("resources")
		w.elements(len(s.Resources), 1, func(i, depth int) {
			r := s.Resources[i]
			ro := w.open(depth)
			ro.resource("uri", r.URI, r.Name, r.Title, r.Description, r.MIMEType, r.Scopes)
			ro.resourceUI(r.UI)
			ro.close()
		})
	}
	if len(s.ResourceTemplates) > 0 {
		o.key("resourceTemplates")
		w.elements(len(s.ResourceTemplates), 1, func(i, depth int) {
			r := s.ResourceTemplates[i]
			ro := w.open(depth)
			ro.resource("uriTemplate", r.URITemplate, r.Name, r.Title, r.Description, r.MIMEType, r.Scopes)
			ro.arguments("variables", r.Variables)
			ro.close()
		})
	}
	if len(s.Prompts) > 0 {
		o.key("prompts")
		w.elements(len(s.Prompts), 1, func(i, depth int) {
			p := s.Prompts[i]
			po := w.open(depth)
			po.key("name")
			w.str(p.Name)
			po.text("title", p.Title)
			po.text("description", p.Description)
			po.strings("scopes", p.Scopes)
			po.arguments("arguments", p.Arguments)
			po.close()
		})
	}
	if len(s.Skills) > 0 {
		o.key("skills")
		w.elements(len(s.Skills), 1, func(i, depth int) {
			so := w.open(depth)
			so.key("name")
			w.str(s.Skills[i].Name)
			so.text("description", s.Skills[i].Description)
			so.close()
		})
	}
	o.close()
	w.b.WriteByte('\n')
	return w.b.Bytes()
}

func (w *schemaWriter) surfaceTool(t *surface.Tool, depth int) {
	o := w.open(depth)
	o.key("name")
	w.str(t.Name)
	o.text("title", t.Title)
	o.text("description", t.Description)
	if a := t.Annotations; a != nil {
		o.key("annotations")
		ao := w.open(depth + 1)
		ao.flag("readOnlyHint", a.ReadOnlyHint)
		ao.flag("destructiveHint", a.DestructiveHint)
		ao.flag("idempotentHint", a.IdempotentHint)
		ao.flag("openWorldHint", a.OpenWorldHint)
		ao.close()
	}
	o.strings("scopes", t.Scopes)
	o.text("taskSupport", t.TaskSupport)
	o.text("searchHint", t.SearchHint)
	if t.AlwaysLoad {
		o.key("alwaysLoad")
		w.b.WriteString("true")
	}
	o.icons(t.Icons)
	if t.UI != nil {
		o.key("ui")
		uo := w.open(depth + 1)
		uo.key("resourceUri")
		w.str(t.UI.ResourceURI)
		uo.strings("visibility", t.UI.Visibility)
		uo.close()
	}
	o.key("inputSchema")
	w.indented(string(t.InputSchema), depth+1)
	if t.OutputSchema != "" {
		o.key("outputSchema")
		w.indented(string(t.OutputSchema), depth+1)
	}
	o.close()
}

// resource writes what resources and templates share; uriKey is "uri" or
// "uriTemplate".
func (o *object) resource(uriKey, uri, name, title, description, mimeType string, scopes []string) {
	o.key(uriKey)
	o.w.str(uri)
	o.key("name")
	o.w.str(name)
	o.text("title", title)
	o.text("description", description)
	o.text("mimeType", mimeType)
	o.strings("scopes", scopes)
}

// icons writes a tool's icons, unless it has none.
func (o *object) icons(icons []surface.Icon) {
	if len(icons) == 0 {
		return
	}
	o.key("icons")
	w := o.w
	w.elements(len(icons), o.depth+1, func(i, depth int) {
		io := w.open(depth)
		io.key("src")
		w.str(icons[i].Src)
		io.text("mimeType", icons[i].MIMEType)
		io.strings("sizes", icons[i].Sizes)
		io.text("theme", icons[i].Theme)
		io.close()
	})
}

// resourceUI writes a view's _meta.ui, unless the resource is no view.
func (o *object) resourceUI(ui *surface.ResourceUI) {
	if ui == nil {
		return
	}
	o.key("ui")
	uo := o.w.open(o.depth + 1)
	uo.strings("connectDomains", ui.ConnectDomains)
	uo.strings("resourceDomains", ui.ResourceDomains)
	uo.strings("frameDomains", ui.FrameDomains)
	uo.strings("baseUriDomains", ui.BaseURIDomains)
	uo.strings("permissions", ui.Permissions)
	uo.text("domain", ui.Domain)
	uo.flag("prefersBorder", ui.PrefersBorder)
	uo.close()
}

// arguments writes a prompt's arguments or a template's variables.
func (o *object) arguments(key string, args []surface.Argument) {
	if len(args) == 0 {
		return
	}
	o.key(key)
	w := o.w
	w.elements(len(args), o.depth+1, func(i, depth int) {
		a := &args[i]
		ao := w.open(depth)
		ao.key("name")
		w.str(a.Name)
		ao.text("description", a.Description)
		if a.Required {
			ao.key("required")
			w.b.WriteString("true")
		}
		ao.key("type")
		w.str(a.Type)
		ao.strings("enum", a.Enum)
		ao.close()
	})
}

// text writes a string member, unless it is empty.
func (o *object) text(k, v string) {
	if v != "" {
		o.key(k)
		o.w.str(v)
	}
}

// flag writes a boolean member, unless it is nil.
func (o *object) flag(k string, v *bool) {
	if v != nil {
		o.key(k)
		o.w.b.WriteString(strconv.FormatBool(*v))
	}
}

// strings writes a list of strings on one line, unless it is empty.
func (o *object) strings(k string, vs []string) {
	if len(vs) > 0 {
		o.key(k)
		o.w.value(vs, o.depth+1)
	}
}

// elements writes a list of n elements, each by elem at depth+1.
func (w *schemaWriter) elements(n, depth int, elem func(i, depth int)) {
	w.b.WriteByte('[')
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.newline(depth + 1)
		elem(i, depth+1)
	}
	w.newline(depth)
	w.b.WriteByte(']')
}

// indented writes JSON indented from the margin, as encodeSchema writes
// it, at depth: each of its lines after the first moves right by depth
// levels.
func (w *schemaWriter) indented(s string, depth int) {
	s = strings.TrimSpace(s)
	nl := "\n" + strings.Repeat("  ", depth)
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			w.b.WriteString(s)
			return
		}
		w.b.WriteString(s[:i])
		w.b.WriteString(nl)
		s = s[i+1:]
	}
}
