package harness

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// An instancer makes JSON values from a schema document: mostly values
// the schema accepts, by following its keywords; the reference validator
// gives the verdict, so an instance that misses is only a weaker test.
type instancer struct {
	f    *filler
	root map[string]any
}

func decodeSchema(data []byte) any {
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	var v any
	d.Decode(&v)
	return v
}

// instance returns a value of schema s.
func (in *instancer) instance(s any, depth int) *node {
	m, ok := s.(map[string]any)
	if !ok {
		if s == false {
			return nullNode // nothing matches; any value will do
		}
		return in.anyValue(depth)
	}
	if ref, ok := m["$ref"].(string); ok {
		if def := in.resolve(ref); def != nil {
			return in.instance(def, depth+1)
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts, ok := m[k].([]any); ok && len(alts) > 0 {
			return in.instance(alts[in.f.rng.IntN(len(alts))], depth+1)
		}
	}
	if c, ok := m["const"]; ok {
		return fromAny(c)
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return fromAny(e[in.f.rng.IntN(len(e))])
	}
	typ := ""
	switch t := m["type"].(type) {
	case string:
		typ = t
	case []any:
		if len(t) > 0 {
			typ, _ = t[in.f.rng.IntN(len(t))].(string)
		}
	}
	switch typ {
	case "null":
		return nullNode
	case "boolean":
		if in.f.rng.IntN(2) == 0 {
			return trueNode
		}
		return falseNode
	case "integer", "number":
		return in.number(m, typ == "integer")
	case "string":
		return str(in.string(m))
	case "array":
		return in.array(m, depth)
	case "object":
		return in.object(m, depth)
	case "":
		if _, ok := m["properties"]; ok {
			return in.object(m, depth)
		}
		return in.anyValue(depth)
	}
	return nullNode
}

func (in *instancer) resolve(ref string) any {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if ref == "#" {
		return in.root
	}
	if !ok {
		return nil
	}
	defs, _ := in.root["$defs"].(map[string]any)
	return defs[name]
}

func (in *instancer) anyValue(depth int) *node {
	n, _ := parse([]byte(in.f.anyJSON(depth)))
	if n == nil {
		return nullNode
	}
	return n
}

func bound(m map[string]any, k string) *float64 {
	n, ok := m[k].(json.Number)
	if !ok {
		return nil
	}
	f, err := n.Float64()
	if err != nil {
		return nil
	}
	return &f
}

func (in *instancer) number(m map[string]any, integer bool) *node {
	c := noConstraints()
	c.min, c.max, c.exclMin, c.exclMax = bound(m, "minimum"), bound(m, "maximum"), bound(m, "exclusiveMinimum"), bound(m, "exclusiveMaximum")
	if mo := bound(m, "multipleOf"); mo != nil {
		c.multipleOf = *mo
	}
	if integer {
		lo, hi := clampInt(math.MinInt64, math.MaxInt64, c)
		if c.min == nil && c.max == nil && in.f.rng.IntN(8) == 0 {
			return num([]string{"0", "-1", "9223372036854775807", "-9223372036854775808", "18446744073709551615"}[in.f.rng.IntN(5)])
		}
		if c.min == nil && c.max == nil {
			lo, hi = -1000, 1000
		}
		x := lo + int64(in.f.rng.Uint64N(uint64(hi-lo)+1))
		if c.multipleOf >= 1 {
			x = int64(math.Round(float64(x)/c.multipleOf) * c.multipleOf)
		}
		return num(strconv.FormatInt(x, 10))
	}
	return num(strconv.FormatFloat(in.f.float(64, c), 'g', -1, 64))
}

func (in *instancer) string(m map[string]any) string {
	c := noConstraints()
	c.pattern, _ = m["pattern"].(string)
	c.format, _ = m["format"].(string)
	if n := bound(m, "minLength"); n != nil {
		c.minLen = int(*n)
	}
	if n := bound(m, "maxLength"); n != nil {
		c.maxLen = int(*n)
	}
	if m["contentEncoding"] == "base64" {
		return in.f.base64Of()
	}
	return in.f.string(c)
}

func (in *instancer) array(m map[string]any, depth int) *node {
	c := noConstraints()
	if n := bound(m, "minItems"); n != nil {
		c.minItems = int(*n)
	}
	if n := bound(m, "maxItems"); n != nil {
		c.maxItems = int(*n)
	}
	n := in.f.length(c, depth)
	if c.minItems > 64 {
		n = c.minItems
	}
	a := arr()
	items, ok := m["items"]
	if !ok {
		items = true
	}
	for range n {
		a.elems = append(a.elems, in.instance(items, depth+1))
	}
	return a
}

func (in *instancer) object(m map[string]any, depth int) *node {
	o := obj()
	props, _ := m["properties"].(map[string]any)
	required := map[string]bool{}
	if r, ok := m["required"].([]any); ok {
		for _, name := range r {
			if s, ok := name.(string); ok {
				required[s] = true
			}
		}
	}
	// Properties in the order of the schema document are lost by the
	// decoding into a map; the order of members does not matter to a
	// validator, nor to encoding/json.
	for _, name := range sortedKeys(props) {
		if required[name] || depth < 4 && in.f.rng.IntN(2) == 0 {
			o.mem = append(o.mem, member{name, in.instance(props[name], depth+1)})
		}
	}
	if ap, ok := m["additionalProperties"]; ok && ap != false && depth < 4 {
		pn, _ := m["propertyNames"].(map[string]any)
		for range in.f.rng.IntN(3) {
			name := in.f.string(noConstraints())
			if pn != nil {
				name = in.string(pn)
			}
			o.mem = append(o.mem, member{name, in.instance(ap, depth+1)})
		}
	}
	return o
}

// fromAny turns a value decoded with UseNumber into a node.
func fromAny(v any) *node {
	b, _ := json.Marshal(v)
	n, err := parse(b)
	if err != nil {
		return nullNode
	}
	return n
}
