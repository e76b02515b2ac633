package surface

import (
	"encoding/json"
	"slices"
	"strings"
)

// pairRenames takes a removed subject and an added one for one renamed
// when they look alike and neither looks like any other: each is the
// other's only look-alike among those removed and added. It returns the
// pairs, by index in removed and added. What looks alike is similar's to
// say: for tools, the same description, or names that share a word and
// the same schemas; for members of a schema, the same schema. A rename
// breaks clients as a removal does, so a wrong pairing changes the words
// of the report, never whether it breaks.
func pairRenames[T any](removed, added []T, similar func(a, b T) bool) map[int]int {
	pairs := map[int]int{}
	for i, r := range removed {
		match, n := -1, 0
		for j, a := range added {
			if similar(r, a) {
				match, n = j, n+1
			}
		}
		if n != 1 {
			continue
		}
		m := 0
		for _, r2 := range removed {
			if similar(r2, added[match]) {
				m++
			}
		}
		if m == 1 {
			pairs[i] = match
		}
	}
	return pairs
}

// toolSimilar: the same description (a name= changed, the function
// kept), or names that share a word (create_ticket, open_ticket) and the
// same input and output schemas, descriptions aside.
func toolSimilar(a, b *Tool) bool {
	if a.Description != "" && a.Description == b.Description {
		return true
	}
	return sharesWord(a.Name, b.Name) && sameSchema(a.InputSchema, b.InputSchema) && sameSchema(a.OutputSchema, b.OutputSchema)
}

// resourceSimilar: the same name (its URI changed) or description.
func resourceSimilar(a, b *Resource) bool {
	return a.Name == b.Name || a.Description != "" && a.Description == b.Description
}

// templateSimilar: the same name (its URI template changed) or
// description.
func templateSimilar(a, b *ResourceTemplate) bool {
	return a.Name == b.Name || a.Description != "" && a.Description == b.Description
}

// promptSimilar: the same description, or names that share a word and
// the same arguments.
func promptSimilar(a, b *Prompt) bool {
	if a.Description != "" && a.Description == b.Description {
		return true
	}
	return sharesWord(a.Name, b.Name) && slices.EqualFunc(a.Arguments, b.Arguments, func(x, y Argument) bool {
		return x.Name == y.Name && x.Type == y.Type && x.Required == y.Required && slices.Equal(x.Enum, y.Enum)
	})
}

// sharesWord reports whether two names have a word in common, words
// being what _ and - separate.
func sharesWord(a, b string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '_' || r == '-' })
	}
	bw := split(b)
	for _, w := range split(a) {
		if slices.Contains(bw, w) {
			return true
		}
	}
	return false
}

// sameSchema reports whether two schemas say the same thing, their
// references resolved and their descriptions, titles and examples aside.
func sameSchema(a, b Schema) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	da, errA := parseSchemaDoc(a)
	db, errB := parseSchemaDoc(b)
	if errA != nil || errB != nil {
		return false
	}
	return canonical(schemaNode{doc: da, v: da.root}) == canonical(schemaNode{doc: db, v: db.root})
}

// canonical is a node's meaning as one string: references inlined (a
// recursive one left as a reference), the keywords that only describe
// dropped, keys sorted.
func canonical(n schemaNode) string {
	data, _ := json.Marshal(meaning(n, map[string]bool{}))
	return string(data)
}

// describing are the keywords that say nothing about which values are
// valid.
var describing = []string{"description", "title", "examples", "$comment", "$schema", "$defs", "definitions", "default", "deprecated", "readOnly", "writeOnly"}

func meaning(n schemaNode, inside map[string]bool) any {
	if ref, ok := refOf(n.v); ok && inside[ref] {
		return map[string]any{"$ref": ref}
	}
	d := deref(n)
	v, ok := d.v.(map[string]any)
	if !ok {
		return d.v // true, false
	}
	if d.ptr != n.ptr {
		inside[d.ptr] = true
		defer delete(inside, d.ptr)
	}
	out := map[string]any{}
	for k, x := range v {
		child := d.child(k)
		switch {
		case slices.Contains(describing, k) || k == "$ref":
		case slices.Contains(schemaMaps, k):
			m, _ := x.(map[string]any)
			named := map[string]any{}
			for name := range m {
				named[name] = meaning(child.child(name), inside)
			}
			out[k] = named
		case slices.Contains(schemaLists, k):
			l, _ := x.([]any)
			list := make([]any, len(l))
			for i := range l {
				list[i] = meaning(child.child(itoa(i)), inside)
			}
			out[k] = list
		case slices.Contains(schemaValued, k):
			out[k] = meaning(child, inside)
		default:
			out[k] = x
		}
	}
	return out
}

// The keywords whose values are schemas, lists of schemas, or objects
// whose members are schemas.
var (
	schemaValued = []string{"items", "additionalProperties", "propertyNames", "not", "contains", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"}
	schemaLists  = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaMaps   = []string{"properties", "patternProperties", "dependentSchemas"}
)
