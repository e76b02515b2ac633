package schema

import (
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// FillNulls returns data, the JSON text that v was parsed from, with every
// null that s requires to be exactly an array or an object replaced by []
// or {}. encoding/json writes a nil slice or map as null; a tool's output
// schema says array or object, and the value means an empty one. data is
// returned as it is when there is nothing to replace.
//
// Only places that s determines are filled: properties, additional and
// pattern properties, items and prefixItems, through $ref and allOf; a
// null inside anyOf or oneOf, where the branch is a choice, stays.
func (s *Schema) FillNulls(v jsonvalue.Value, data []byte) []byte {
	var f filler
	f.walk(s, v)
	if len(f.edits) == 0 {
		return nil
	}
	// $ref and allOf can reach a null twice, and out of input order.
	slices.SortFunc(f.edits, func(a, b fill) int { return a.start - b.start })
	f.edits = slices.CompactFunc(f.edits, func(a, b fill) bool { return a.start == b.start })
	out := make([]byte, 0, len(data)+len(f.edits))
	last := 0
	for _, e := range f.edits {
		out = append(append(out, data[last:e.start]...), e.text...)
		last = e.end
	}
	return append(out, data[last:]...)
}

type filler struct {
	edits []fill
	// added are the members FillDefaults added, by object start and name,
	// so that an object reached twice ($ref and allOf) gets each once;
	// grown are the objects, by start, that it added members to.
	added map[addedMember]bool
	grown map[int]bool
}

type addedMember struct {
	start int
	name  string
}

// fill replaces data[start:end], a null, with text.
type fill struct {
	start, end int
	text       string
}

func (f *filler) walk(s *Schema, v jsonvalue.Value) {
	if s == nil || s.bool != nil {
		return
	}
	switch v.Kind() {
	case jsonvalue.Null:
		text := ""
		switch s.effectiveTypes() {
		case typeArray:
			text = "[]"
		case typeObject:
			text = "{}"
		default:
			return
		}
		start, end := v.Span()
		f.edits = append(f.edits, fill{start, end, text})
		return
	case jsonvalue.Object:
		for name, m := range v.Members() {
			f.walk(s.memberSchema(name), m)
		}
	case jsonvalue.Array:
		for i, e := range v.Elems() {
			if i < len(s.prefixItems) {
				f.walk(s.prefixItems[i], e)
			} else {
				f.walk(s.items, e)
			}
		}
	}
	if s.refTo != nil {
		f.walk(s.refTo, v)
	}
	for _, sub := range s.allOf {
		f.walk(sub, v)
	}
}

// memberSchema is the schema that applies to the member name of an
// object that s describes: its property, else its additionalProperties.
func (s *Schema) memberSchema(name string) *Schema {
	for _, p := range s.properties {
		if p.name == name {
			return p.schema
		}
	}
	for _, pp := range s.patternProps {
		if pp.re.MatchString(name) {
			return pp.schema
		}
	}
	return s.additional
}

// HasDefaults reports whether some property of s has a default, which
// FillDefaults would fill in where it is left out.
func (s *Schema) HasDefaults() bool { return s.hasDefaults }

// FillDefaults returns v's JSON text with every member that s gives a
// default, and that v leaves out, added with its default: what a tool's
// handler receives for an optional argument the client did not send. It
// returns nil when there is nothing to add. v must be valid against s.
//
// Only places that s determines are filled, as FillNulls fills them: the
// properties of objects that are there (a default inside an object that
// is left out is not used), through $ref and allOf.
func (s *Schema) FillDefaults(v jsonvalue.Value) []byte {
	base, _ := v.Span()
	data := v.Raw()
	var f filler
	f.defaults(s, v, base)
	if len(f.edits) == 0 {
		return nil
	}
	slices.SortStableFunc(f.edits, func(a, b fill) int { return a.start - b.start })
	out := make([]byte, 0, len(data)+64)
	last := 0
	for _, e := range f.edits {
		out = append(append(out, data[last:e.start]...), e.text...)
		last = e.end
	}
	return append(out, data[last:]...)
}

// defaults adds, for an object v, the members its schema s gives a
// default and v leaves out, inserted before the object's closing brace;
// positions are relative to base, where the filled text starts.
func (f *filler) defaults(s *Schema, v jsonvalue.Value, base int) {
	if s == nil || s.bool != nil {
		return
	}
	switch v.Kind() {
	case jsonvalue.Object:
		start, end := v.Span()
		text := ""
		empty := v.Len() == 0 && !f.grown[start]
		for _, p := range s.properties {
			if !p.schema.defaultVal.Exists() || v.Get(p.name).Exists() || f.added[addedMember{start, p.name}] {
				continue
			}
			if f.added == nil {
				f.added, f.grown = map[addedMember]bool{}, map[int]bool{}
			}
			f.added[addedMember{start, p.name}] = true
			if !empty || text != "" {
				text += ","
			}
			text += string(jsonvalue.AppendString(nil, p.name)) + ":" + string(p.schema.defaultVal.Raw())
		}
		if text != "" {
			f.grown[start] = true
			f.edits = append(f.edits, fill{end - 1 - base, end - 1 - base, text})
		}
		for name, m := range v.Members() {
			f.defaults(s.memberSchema(name), m, base)
		}
	case jsonvalue.Array:
		for i, e := range v.Elems() {
			if i < len(s.prefixItems) {
				f.defaults(s.prefixItems[i], e, base)
			} else {
				f.defaults(s.items, e, base)
			}
		}
	}
	if s.refTo != nil {
		f.defaults(s.refTo, v, base)
	}
	for _, sub := range s.allOf {
		f.defaults(sub, v, base)
	}
}
