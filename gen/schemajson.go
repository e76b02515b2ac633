package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// encodeSchema writes s as indented JSON, exactly as invopop/jsonschema's
// MarshalJSON orders and omits its fields (a test holds the two to the
// same output), but in one pass instead of a reflective encode followed by
// re-indenting, with <, > and & left readable (encoding/json escapes them
// for HTML) and short lists of scalars, such as an enum or required, kept
// on one line.
func encodeSchema(s *jsonschema.Schema) string {
	w := &schemaWriter{}
	w.b.Grow(2 << 10) // the size of a typical tool's schema
	w.schema(s, 0)
	return w.b.String()
}

type schemaWriter struct {
	b bytes.Buffer
}

// object writes the members of one JSON object as they are added.
type object struct {
	w     *schemaWriter
	depth int
	n     int
}

func (w *schemaWriter) open(depth int) *object {
	w.b.WriteByte('{')
	return &object{w: w, depth: depth}
}

func (o *object) key(k string) {
	if o.n > 0 {
		o.w.b.WriteByte(',')
	}
	o.n++
	o.w.newline(o.depth + 1)
	o.w.str(k)
	o.w.b.WriteString(": ")
}

func (o *object) close() {
	if o.n > 0 {
		o.w.newline(o.depth)
	}
	o.w.b.WriteByte('}')
}

func (w *schemaWriter) newline(depth int) {
	w.b.WriteByte('\n')
	for range depth {
		w.b.WriteString("  ")
	}
}

// str writes a JSON string without HTML escaping.
func (w *schemaWriter) str(s string) {
	if plainString(s) {
		w.b.WriteByte('"')
		w.b.WriteString(s)
		w.b.WriteByte('"')
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	w.b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// plainString reports whether s needs no escaping in JSON.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			return false
		}
	}
	return true
}

// value writes any JSON value: scalars as they are, lists of scalars on
// one line when short, anything else indented.
func (w *schemaWriter) value(v any, depth int) {
	switch v := v.(type) {
	case string:
		w.str(v)
		return
	case json.Number:
		w.b.WriteString(v.String())
		return
	case bool:
		w.b.WriteString(strconv.FormatBool(v))
		return
	case []string:
		if n := inlineLen(v); n <= maxInlineList {
			w.b.WriteByte('[')
			for i, s := range v {
				if i > 0 {
					w.b.WriteString(", ")
				}
				w.str(s)
			}
			w.b.WriteByte(']')
			return
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("encoding schema value: %v", err)) // tags only produce encodable values
	}
	p := jsonPrinter{in: bytes.TrimSuffix(buf.Bytes(), []byte("\n")), out: &w.b}
	p.value(depth)
}

func (w *schemaWriter) list(items []*jsonschema.Schema, depth int) {
	w.b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.newline(depth + 1)
		w.schema(it, depth+1)
	}
	w.newline(depth)
	w.b.WriteByte(']')
}

func (w *schemaWriter) schemaMap(m map[string]*jsonschema.Schema, depth int) {
	o := w.open(depth)
	for _, k := range slices.Sorted(mapsKeys(m)) {
		o.key(k)
		w.schema(m[k], depth+1)
	}
	o.close()
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// schema writes one schema, its fields in the order of invopop's Schema
// struct, which is the order its MarshalJSON writes them.
func (w *schemaWriter) schema(s *jsonschema.Schema, depth int) {
	if s == nil {
		w.b.WriteString("null")
		return
	}
	if s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		w.b.WriteString(strconv.FormatBool(s == jsonschema.TrueSchema))
		return
	}
	o := w.open(depth)
	strField := func(k, v string) {
		if v != "" {
			o.key(k)
			w.str(v)
		}
	}
	schemaField := func(k string, v *jsonschema.Schema) {
		if v != nil {
			o.key(k)
			w.schema(v, depth+1)
		}
	}
	listField := func(k string, v []*jsonschema.Schema) {
		if len(v) > 0 {
			o.key(k)
			w.list(v, depth+1)
		}
	}
	mapField := func(k string, v map[string]*jsonschema.Schema) {
		if len(v) > 0 {
			o.key(k)
			w.schemaMap(v, depth+1)
		}
	}
	anyField := func(k string, v any) {
		if v != nil {
			o.key(k)
			w.value(v, depth+1)
		}
	}
	numField := func(k string, v json.Number) {
		if v != "" {
			o.key(k)
			w.b.WriteString(v.String())
		}
	}
	uintField := func(k string, v *uint64) {
		if v != nil {
			o.key(k)
			w.b.WriteString(strconv.FormatUint(*v, 10))
		}
	}
	boolField := func(k string, v bool) {
		if v {
			o.key(k)
			w.b.WriteString("true")
		}
	}

	strField("$schema", s.Version)
	strField("$id", string(s.ID))
	strField("$anchor", s.Anchor)
	strField("$ref", s.Ref)
	strField("$dynamicRef", s.DynamicRef)
	mapField("$defs", s.Definitions)
	strField("$comment", s.Comments)
	listField("allOf", s.AllOf)
	listField("anyOf", s.AnyOf)
	listField("oneOf", s.OneOf)
	schemaField("not", s.Not)
	schemaField("if", s.If)
	schemaField("then", s.Then)
	schemaField("else", s.Else)
	mapField("dependentSchemas", s.DependentSchemas)
	listField("prefixItems", s.PrefixItems)
	schemaField("items", s.Items)
	schemaField("contains", s.Contains)
	if s.Properties != nil {
		o.key("properties")
		po := w.open(depth + 1)
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			po.key(p.Key)
			w.schema(p.Value, depth+2)
		}
		po.close()
	}
	mapField("patternProperties", s.PatternProperties)
	schemaField("additionalProperties", s.AdditionalProperties)
	schemaField("propertyNames", s.PropertyNames)
	strField("type", s.Type)
	if len(s.Enum) > 0 {
		anyField("enum", s.Enum)
	}
	anyField("const", s.Const)
	numField("multipleOf", s.MultipleOf)
	numField("maximum", s.Maximum)
	numField("exclusiveMaximum", s.ExclusiveMaximum)
	numField("minimum", s.Minimum)
	numField("exclusiveMinimum", s.ExclusiveMinimum)
	uintField("maxLength", s.MaxLength)
	uintField("minLength", s.MinLength)
	strField("pattern", s.Pattern)
	uintField("maxItems", s.MaxItems)
	uintField("minItems", s.MinItems)
	boolField("uniqueItems", s.UniqueItems)
	uintField("maxContains", s.MaxContains)
	uintField("minContains", s.MinContains)
	uintField("maxProperties", s.MaxProperties)
	uintField("minProperties", s.MinProperties)
	if len(s.Required) > 0 {
		anyField("required", s.Required)
	}
	if len(s.DependentRequired) > 0 {
		anyField("dependentRequired", s.DependentRequired)
	}
	strField("format", s.Format)
	strField("contentEncoding", s.ContentEncoding)
	strField("contentMediaType", s.ContentMediaType)
	schemaField("contentSchema", s.ContentSchema)
	strField("title", s.Title)
	strField("description", s.Description)
	anyField("default", s.Default)
	boolField("deprecated", s.Deprecated)
	boolField("readOnly", s.ReadOnly)
	boolField("writeOnly", s.WriteOnly)
	if len(s.Examples) > 0 {
		anyField("examples", s.Examples)
	}
	if len(s.Extras) > 0 {
		for _, k := range slices.Sorted(mapsKeys(s.Extras)) {
			anyField(k, s.Extras[k])
		}
	}
	if o.n == 0 {
		w.b.Truncate(w.b.Len() - 1) // an empty schema is written true, as invopop does
		w.b.WriteString("true")
		return
	}
	o.close()
}

// inlineLen is the length of a list of plain strings written on one line,
// or more than maxInlineList when it cannot be.
func inlineLen(list []string) int {
	n := 1
	for _, s := range list {
		if !plainString(s) {
			return maxInlineList + 1
		}
		n += len(s) + 4
	}
	return n
}

// jsonPrinter indents compact, valid JSON.
type jsonPrinter struct {
	in  []byte
	pos int
	out *bytes.Buffer
}

// maxInlineList is the longest list of scalars printed on one line.
const maxInlineList = 72

func (p *jsonPrinter) value(depth int) {
	switch p.in[p.pos] {
	case '{':
		p.container(depth, '}', true)
	case '[':
		if end, ok := p.scalarList(); ok && end-p.pos <= maxInlineList {
			p.inlineList(end)
			return
		}
		p.container(depth, ']', false)
	default:
		start := p.pos
		p.skipScalar()
		p.out.Write(p.in[start:p.pos])
	}
}

func (p *jsonPrinter) container(depth int, closer byte, object bool) {
	p.out.WriteByte(p.in[p.pos])
	p.pos++
	if p.in[p.pos] == closer {
		p.out.WriteByte(closer)
		p.pos++
		return
	}
	indent := func(d int) {
		p.out.WriteByte('\n')
		p.out.WriteString(strings.Repeat("  ", d))
	}
	for {
		indent(depth + 1)
		if object {
			start := p.pos
			p.skipScalar() // the key
			p.out.Write(p.in[start:p.pos])
			p.out.WriteString(": ")
			p.pos++ // ':'
		}
		p.value(depth + 1)
		if p.in[p.pos] == ',' {
			p.out.WriteByte(',')
			p.pos++
			continue
		}
		indent(depth)
		p.out.WriteByte(closer)
		p.pos++
		return
	}
}

// scalarList reports whether the list at pos holds only scalars, and
// where it ends.
func (p *jsonPrinter) scalarList() (end int, ok bool) {
	save := p.pos
	defer func() { p.pos = save }()
	p.pos++ // '['
	for p.in[p.pos] != ']' {
		if c := p.in[p.pos]; c == '{' || c == '[' {
			return 0, false
		}
		p.skipScalar()
		if p.in[p.pos] == ',' {
			p.pos++
		}
	}
	return p.pos + 1, true
}

func (p *jsonPrinter) inlineList(end int) {
	p.out.WriteByte('[')
	p.pos++
	for p.pos < end-1 {
		start := p.pos
		p.skipScalar()
		p.out.Write(p.in[start:p.pos])
		if p.in[p.pos] == ',' {
			p.out.WriteString(", ")
			p.pos++
		}
	}
	p.out.WriteByte(']')
	p.pos = end
}

// skipScalar moves past a string, number or literal.
func (p *jsonPrinter) skipScalar() {
	if p.in[p.pos] == '"' {
		p.pos++
		for p.in[p.pos] != '"' {
			if p.in[p.pos] == '\\' {
				p.pos++
			}
			p.pos++
		}
		p.pos++
		return
	}
	for p.pos < len(p.in) && !strings.ContainsRune(",]}:", rune(p.in[p.pos])) {
		p.pos++
	}
}
