package surface

import (
	"encoding/json"
	"maps"
	"strconv"
	"strings"
)

// A schemaDoc is a JSON Schema document decoded, numbers kept as
// written.
type schemaDoc struct {
	root any
}

func parseSchemaDoc(raw Schema) (*schemaDoc, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, err
	}
	return &schemaDoc{root: root}, nil
}

// at is the value at a JSON pointer (RFC 6901) in the document.
func (d *schemaDoc) at(ptr string) (any, bool) {
	v := d.root
	if ptr == "" {
		return v, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// A schemaNode is a value in a schema document and its JSON pointer
// there: after a reference is followed, the pointer is the target's, so
// that the positions of the target's parts are found.
type schemaNode struct {
	doc *schemaDoc
	v   any // a schema (an object, true or false), or nil where there is none
	ptr string
}

// child is the node of a member or element of n (for a list, key is
// the index).
func (n schemaNode) child(key string) schemaNode {
	c := schemaNode{doc: n.doc, ptr: n.ptr + "/" + pointerToken(key)}
	switch x := n.v.(type) {
	case map[string]any:
		c.v = x[key]
	case []any:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(x) {
			c.v = x[i]
		}
	}
	return c
}

// refOf is the target of a local reference, "#/$defs/T" as "/$defs/T".
func refOf(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	ref, ok := m["$ref"].(string)
	if !ok || !strings.HasPrefix(ref, "#") {
		return "", false
	}
	return ref[1:], true
}

// maxRefChain bounds a chain of references to references.
const maxRefChain = 32

// deref follows local references until a schema that is not one: the
// keywords written beside a reference apply with the target's (in 2020-12
// they are both checked), so they are laid over a copy of it. A reference
// that cannot be resolved is left as written.
func deref(n schemaNode) schemaNode {
	for range maxRefChain {
		ref, ok := refOf(n.v)
		if !ok {
			return n
		}
		target, ok := n.doc.at(ref)
		if !ok {
			return n
		}
		siblings := n.v.(map[string]any)
		if tm, isMap := target.(map[string]any); isMap && len(siblings) > 1 {
			merged := maps.Clone(tm)
			for k, v := range siblings {
				if k != "$ref" {
					merged[k] = v
				}
			}
			target = merged
		}
		n = schemaNode{doc: n.doc, v: target, ptr: ref}
	}
	return n
}

// pointerToken escapes a name for a JSON pointer: ~ is ~0, / is ~1.
func pointerToken(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

func itoa(i int) string { return strconv.Itoa(i) }
