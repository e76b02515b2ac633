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
