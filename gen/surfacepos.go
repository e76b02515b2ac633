package gen

import (
	"go/token"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// note records that the user declared the part s of the schema at pos,
// when positions are asked for.
func (b *schemaBuilder) note(s *jsonschema.Schema, pos token.Pos) {
	if b.at != nil && pos.IsValid() {
		b.at[s] = pos
	}
}

// positions returns where the user declared the parts of the schema
// finished last, by their JSON pointer in it ("" for the root, as
// "/properties/labels/items" or "/$defs/Address/properties/city"): nil
// unless positions are asked for.
func (b *schemaBuilder) positions() map[string]token.Pos {
	if b.at == nil || b.built == nil {
		return nil
	}
	out := map[string]token.Pos{}
	var walk func(s *jsonschema.Schema, ptr string)
	walk = func(s *jsonschema.Schema, ptr string) {
		if s == nil {
			return
		}
		if pos, ok := b.at[s]; ok {
			out[ptr] = pos
		}
		if s.Properties != nil {
			for p := s.Properties.Oldest(); p != nil; p = p.Next() {
				walk(p.Value, ptr+"/properties/"+pointerToken(p.Key))
			}
		}
		walk(s.Items, ptr+"/items")
		walk(s.AdditionalProperties, ptr+"/additionalProperties")
		walk(s.PropertyNames, ptr+"/propertyNames")
		for _, list := range []struct {
			key string
			l   []*jsonschema.Schema
		}{{"prefixItems", s.PrefixItems}, {"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
			for i, e := range list.l {
				walk(e, ptr+"/"+list.key+"/"+strconv.Itoa(i))
			}
		}
		for name, d := range s.Definitions {
			walk(d, ptr+"/$defs/"+pointerToken(name))
		}
	}
	walk(b.built, "")
	return out
}

// pointerToken escapes a name for a JSON pointer (RFC 6901): ~ is ~0, /
// is ~1.
func pointerToken(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}
