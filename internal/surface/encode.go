package surface

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Encode writes s as its snapshot: indented by two spaces, members in the
// order of the types' fields, <, > and & left readable, and a final
// newline. The schemas are written as they are, each line indented to its
// place, which takes one pass over them rather than a re-encoding: give
// them as mcpgen writes them, indented by two spaces from the margin.
// Encode sorts nothing; the lists must be in order already.
func Encode(s *Surface) []byte {
	// The size, near enough that the buffer grows once: the schemas'
	// lines move right by three levels (six spaces).
	size := 1 << 10
	for _, t := range s.Tools {
		for _, schema := range []Schema{t.InputSchema, t.OutputSchema} {
			size += len(schema) + 6*strings.Count(string(schema), "\n")
		}
		size += len(t.Description) + 1<<9
	}
	w := &writer{}
	w.b.Grow(size)
	o := w.open(0)
	o.str("//", Header)
	o.key("format")
	w.b.WriteString(strconv.Itoa(Format))
	o.key("server")
	w.server(&s.Server, 1)
	if len(s.Tools) > 0 {
		o.key("tools")
		w.list(len(s.Tools), 1, func(i, depth int) { w.tool(s.Tools[i], depth) })
	}
	if len(s.Resources) > 0 {
		o.key("resources")
		w.list(len(s.Resources), 1, func(i, depth int) { w.resource(s.Resources[i], depth) })
	}
	if len(s.ResourceTemplates) > 0 {
		o.key("resourceTemplates")
		w.list(len(s.ResourceTemplates), 1, func(i, depth int) { w.template(s.ResourceTemplates[i], depth) })
	}
	if len(s.Prompts) > 0 {
		o.key("prompts")
		w.list(len(s.Prompts), 1, func(i, depth int) { w.prompt(s.Prompts[i], depth) })
	}
	if len(s.Skills) > 0 {
		o.key("skills")
		w.list(len(s.Skills), 1, func(i, depth int) {
			so := w.open(depth)
			so.str("name", s.Skills[i].Name)
			so.str("description", s.Skills[i].Description)
			so.close()
		})
	}
	o.close()
	w.b.WriteByte('\n')
	return w.b.Bytes()
}

func (w *writer) server(s *Server, depth int) {
	o := w.open(depth)
	o.key("name")
	w.quote(s.Name)
	o.str("version", s.Version)
	o.str("title", s.Title)
	o.str("instructions", s.Instructions)
	o.close()
}

func (w *writer) tool(t *Tool, depth int) {
	o := w.open(depth)
	o.key("name")
	w.quote(t.Name)
	o.str("title", t.Title)
	o.str("description", t.Description)
	if a := t.Annotations; a != nil {
		o.key("annotations")
		ao := w.open(depth + 1)
		ao.flag("readOnlyHint", a.ReadOnlyHint)
		ao.flag("destructiveHint", a.DestructiveHint)
		ao.flag("idempotentHint", a.IdempotentHint)
		ao.flag("openWorldHint", a.OpenWorldHint)
		ao.close()
	}
	o.strs("scopes", t.Scopes)
	o.str("taskSupport", t.TaskSupport)
	o.str("searchHint", t.SearchHint)
	if t.AlwaysLoad {
		o.key("alwaysLoad")
		w.b.WriteString("true")
	}
	o.key("inputSchema")
	w.raw(t.InputSchema, depth+1)
	if len(t.OutputSchema) > 0 {
		o.key("outputSchema")
		w.raw(t.OutputSchema, depth+1)
	}
	o.close()
}

func (w *writer) resource(r *Resource, depth int) {
	o := w.open(depth)
	o.key("uri")
	w.quote(r.URI)
	o.key("name")
	w.quote(r.Name)
	o.str("title", r.Title)
	o.str("description", r.Description)
	o.str("mimeType", r.MIMEType)
	o.strs("scopes", r.Scopes)
	o.close()
}

func (w *writer) template(r *ResourceTemplate, depth int) {
	o := w.open(depth)
	o.key("uriTemplate")
	w.quote(r.URITemplate)
	o.key("name")
	w.quote(r.Name)
	o.str("title", r.Title)
	o.str("description", r.Description)
	o.str("mimeType", r.MIMEType)
	o.strs("scopes", r.Scopes)
	o.arguments("variables", r.Variables)
	o.close()
}

func (w *writer) prompt(p *Prompt, depth int) {
	o := w.open(depth)
	o.key("name")
	w.quote(p.Name)
	o.str("title", p.Title)
	o.str("description", p.Description)
	o.strs("scopes", p.Scopes)
	o.arguments("arguments", p.Arguments)
	o.close()
}

// arguments writes a list of arguments, each on its lines.
func (o *object) arguments(key string, args []Argument) {
	if len(args) == 0 {
		return
	}
	o.key(key)
	w := o.w
	w.list(len(args), o.depth+1, func(i, depth int) {
		a := &args[i]
		ao := w.open(depth)
		ao.key("name")
		w.quote(a.Name)
		ao.str("description", a.Description)
		if a.Required {
			ao.key("required")
			w.b.WriteString("true")
		}
		ao.key("type")
		w.quote(a.Type)
		ao.strs("enum", a.Enum)
		ao.close()
	})
}

// A writer writes indented JSON, one member at a time.
type writer struct {
	b bytes.Buffer
}

// An object is a JSON object being written at a depth.
type object struct {
	w     *writer
	depth int
	n     int
}

func (w *writer) open(depth int) *object {
	w.b.WriteByte('{')
	return &object{w: w, depth: depth}
}

// key starts a member.
func (o *object) key(k string) {
	if o.n > 0 {
		o.w.b.WriteByte(',')
	}
	o.n++
	o.w.newline(o.depth + 1)
	o.w.quote(k)
	o.w.b.WriteString(": ")
}

// str writes a string member, unless it is empty.
func (o *object) str(k, v string) {
	if v != "" {
		o.key(k)
		o.w.quote(v)
	}
}

// flag writes a boolean member, unless it is nil.
func (o *object) flag(k string, v *bool) {
	if v != nil {
		o.key(k)
		o.w.b.WriteString(strconv.FormatBool(*v))
	}
}

// strs writes a list of strings on one line, unless it is empty.
func (o *object) strs(k string, vs []string) {
	if len(vs) == 0 {
		return
	}
	o.key(k)
	o.w.b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			o.w.b.WriteString(", ")
		}
		o.w.quote(v)
	}
	o.w.b.WriteByte(']')
}

func (o *object) close() {
	if o.n > 0 {
		o.w.newline(o.depth)
	}
	o.w.b.WriteByte('}')
}

// list writes n elements, each by elem at depth+1.
func (w *writer) list(n, depth int, elem func(i, depth int)) {
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

func (w *writer) newline(depth int) {
	w.b.WriteString(lineStart(depth))
}

// indents is a line break and the indentation of the deepest line a
// snapshot has outside its schemas.
const indents = "\n                "

// lineStart is a line break and the indentation of depth levels.
func lineStart(depth int) string {
	if 1+2*depth <= len(indents) {
		return indents[:1+2*depth]
	}
	return "\n" + strings.Repeat("  ", depth)
}

// raw writes an indented JSON value at depth: each of its lines after the
// first moves right by depth levels.
func (w *writer) raw(v Schema, depth int) {
	s := strings.TrimSpace(string(v))
	nl := lineStart(depth)
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

// quote writes s as a JSON string, with <, > and & as they are.
func (w *writer) quote(s string) {
	if plain(s) {
		w.b.WriteByte('"')
		w.b.WriteString(s)
		w.b.WriteByte('"')
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	w.b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// plain reports whether s needs no escaping in JSON.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			return false
		}
	}
	return true
}
