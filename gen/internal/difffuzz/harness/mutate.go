package harness

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"
	"unicode"
)

// A typedPlace is a value in a tree and the Go type it is decoded into.
type typedPlace struct {
	place
	step
}

// A mutation changes one value of a tree, in place, and reports whether
// it applied.
type mutation struct {
	name string
	// weight is how often it is tried, against the others.
	weight int
	apply  func(h *harness, t *tool, p typedPlace) bool
}

// mutations are the ways a valid value is bent: each targets a rule where
// the schema, the runtime and encoding/json might part.
var mutations = []mutation{
	{"drop", 2, func(h *harness, t *tool, p typedPlace) bool {
		if p.n.kind != kObject || len(p.n.mem) == 0 {
			return false
		}
		i := h.rng.IntN(len(p.n.mem))
		p.n.mem = append(p.n.mem[:i:i], p.n.mem[i+1:]...)
		return true
	}},
	{"unknown", 1, func(h *harness, t *tool, p typedPlace) bool {
		if p.n.kind != kObject {
			return false
		}
		p.n.mem = append(p.n.mem, member{"zzUnknown", num("1")})
		return true
	}},
	{"case", 2, func(h *harness, t *tool, p typedPlace) bool {
		if p.n.kind != kObject || len(p.n.mem) == 0 {
			return false
		}
		i := h.rng.IntN(len(p.n.mem))
		name := p.n.mem[i].name
		other := swapCase(name)
		if other == name {
			return false
		}
		p.n.mem[i].name = other
		return true
	}},
	{"duplicate", 1, func(h *harness, t *tool, p typedPlace) bool {
		if p.n.kind != kObject || len(p.n.mem) == 0 {
			return false
		}
		m := p.n.mem[h.rng.IntN(len(p.n.mem))]
		p.n.mem = append(p.n.mem, member{m.name, m.val.clone()})
		return true
	}},
	{"null", 2, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil || p.n.kind == kNull {
			return false
		}
		p.set(nullNode)
		return true
	}},
	{"kind", 2, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil {
			return false
		}
		alts := []*node{str("x"), num("1"), trueNode, arr(), obj(), str("")}
		a := alts[h.rng.IntN(len(alts))]
		if a.kind == p.n.kind {
			return false
		}
		p.set(a)
		return true
	}},
	{"number", 4, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil || p.n.kind != kNumber && !isNumberType(p.t) {
			return false
		}
		edges := numberEdges(p.t)
		p.set(num(edges[h.rng.IntN(len(edges))]))
		return true
	}},
	{"quoted", 2, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil {
			return false
		}
		switch {
		case p.n.kind == kNumber || p.n.kind == kBool:
			p.set(str(p.n.text))
		case p.n.kind == kString && isJSONNumber(p.n.text):
			p.set(num(p.n.text))
		case p.n.kind == kString && (p.n.text == "true" || p.n.text == "false"):
			p.set(&node{kind: kBool, text: p.n.text})
		default:
			return false
		}
		return true
	}},
	{"stringOption", 6, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil || p.field == nil || !strings.Contains(p.field.Tag.Get("json"), ",string") {
			return false
		}
		alts := []*node{str(`"x"`), str(" 1"), str("1.0"), str("null"), str("true"), str("1e2"), num("1"), str(""), str(`"1"`), str("-0")}
		p.set(alts[h.rng.IntN(len(alts))])
		return true
	}},
	{"bytes", 6, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil || !isByteSlice(p.t) {
			return false
		}
		switch p.n.kind {
		case kString:
			a := arr()
			for _, n := range []string{"1", "255", "0"}[:h.rng.IntN(4)] {
				a.elems = append(a.elems, num(n))
			}
			p.set(a)
		case kArray:
			p.set(str(h.f().base64Of()))
		default:
			alts := []*node{str("AQID"), str("AQI"), str("not base64!"), arr(num("256")), arr(num("-1")), str("AQID\n")}
			p.set(alts[h.rng.IntN(len(alts))])
		}
		return true
	}},
	{"mapKey", 6, func(h *harness, t *tool, p typedPlace) bool {
		mt := p.t
		for mt.Kind() == reflect.Pointer {
			mt = mt.Elem()
		}
		if p.n.kind != kObject || mt.Kind() != reflect.Map {
			return false
		}
		keys := []string{"+1", "01", "-0", "1e2", " 1", "99999999999999999999", "-1", "0x10", "", "1.0", "300", "-129", "4294967296", "18446744073709551616", "-9223372036854775809", "a"}
		val := num("0")
		if len(p.n.mem) > 0 {
			val = p.n.mem[0].val.clone()
		} else {
			val = h.instanceFor(mt.Elem())
		}
		p.n.mem = append(p.n.mem, member{keys[h.rng.IntN(len(keys))], val})
		return true
	}},
	{"enum", 8, func(h *harness, t *tool, p typedPlace) bool {
		e, ok := h.cfg.Enums[deref(p.t).String()]
		if p.set == nil || !ok {
			return false
		}
		var alts []json.RawMessage
		alts = append(alts, e.Outside...)
		alts = append(alts, e.Constants...)
		alts = append(alts, json.RawMessage(`"zz"`), json.RawMessage(`99`), json.RawMessage(`-1`))
		n, _ := parse(alts[h.rng.IntN(len(alts))])
		if n == nil {
			return false
		}
		p.set(n)
		return true
	}},
	{"time", 6, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil || !isTimeLike(p.t) {
			return false
		}
		alts := []string{"2026-07-28t09:30:00z", "2026-07-28T09:30:00+00:00", "2026-07-28T09:30:00", "2026-07-28T09:30:00.123456789Z",
			"2026-02-30T00:00:00Z", " 2026-07-28T09:30:00Z", "2026-07-28T23:59:60Z", "2026-07-28T09:30:00.1234567891Z", "2026-07-28", "0000-01-01T00:00:00Z",
			"2026-07-28T09:30:00+24:00", "2026-07-28T09:30:00-00:00", "2026-07-28 09:30:00Z", "2026-07-28T09:30:00,5Z"}
		p.set(str(alts[h.rng.IntN(len(alts))]))
		return true
	}},
	{"duration", 6, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil || deref(p.t) != reflect.TypeFor[time.Duration]() {
			return false
		}
		alts := []*node{str("30s"), num("1.5"), num("1e3"), num("-1"), num("30000000000"), str("1h")}
		p.set(alts[h.rng.IntN(len(alts))])
		return true
	}},
	{"raw", 6, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil || deref(p.t) != rawType {
			return false
		}
		alts := []*node{nullNode, obj(member{"a", nullNode}), arr(), str(""), num("1e400")}
		p.set(alts[h.rng.IntN(len(alts))])
		return true
	}},
	{"default", 8, func(h *harness, t *tool, p typedPlace) bool {
		if p.del == nil || p.field == nil || !strings.Contains(p.field.Tag.Get("jsonschema"), "default=") {
			return false
		}
		p.del()
		return true
	}},
	{"string", 2, func(h *harness, t *tool, p typedPlace) bool {
		if p.set == nil || p.n.kind != kString {
			return false
		}
		alts := []*node{str(""), str(strings.Repeat("ab", 40)), str("\x00"), str("é"), str("2026-07-28T09:30:00Z"), str("AQID")}
		p.set(alts[h.rng.IntN(len(alts))])
		return true
	}},
}

// mutate returns a mutated copy of base, and the mutation's name, or nil.
// It picks a mutation first, then a value it applies to, so that the
// mutations for rarer types (a json.RawMessage, a map with integer keys)
// find them.
func (h *harness) mutate(t *tool, base *node) (*node, string) {
	total := 0
	for _, m := range mutations {
		total += m.weight
	}
	for range 8 {
		pick := h.rng.IntN(total)
		var m mutation
		for _, m = range mutations {
			if pick -= m.weight; pick < 0 {
				break
			}
		}
		tree := base.clone()
		ps := places(tree)
		h.rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		for _, p := range ps {
			if m.apply(h, t, typedPlace{p, typeAt(t.In, p.path)}) {
				return tree, m.name
			}
		}
	}
	return nil, ""
}

func (h *harness) f() *filler { return &filler{rng: h.rng, enums: h.cfg.Enums, samples: h.cfg.Samples} }

// instanceFor returns a JSON value for a Go type, made by the filler.
func (h *harness) instanceFor(t reflect.Type) *node {
	v := h.f().value(t)
	b, err := marshal(v.Interface())
	if err != nil {
		return nullNode
	}
	n, _ := parse(b)
	if n == nil {
		return nullNode
	}
	return n
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func swapCase(s string) string {
	r := []rune(s)
	for i, c := range r {
		if unicode.IsUpper(c) {
			r[i] = unicode.ToLower(c)
			return string(r)
		}
		if unicode.IsLower(c) {
			r[i] = unicode.ToUpper(c)
			return string(r)
		}
	}
	return s
}

func isNumberType(t reflect.Type) bool {
	switch deref(t).Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func isJSONNumber(s string) bool {
	return json.Valid([]byte(s)) && s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9')
}

func isByteSlice(t reflect.Type) bool {
	t = deref(t)
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
}

// isTimeLike reports a time.Time, or a type that embeds one (and so
// takes its methods).
func isTimeLike(t reflect.Type) bool {
	t = deref(t)
	if t == timeType {
		return true
	}
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			if f := t.Field(i); f.Anonymous && deref(f.Type) == timeType {
				return true
			}
		}
	}
	return false
}

// numberEdges are numbers at and past the range of t's kind, and numbers
// written in forms that encoding/json reads differently.
func numberEdges(t reflect.Type) []string {
	edges := []string{"1.0", "1e2", "-0", "1.5", "1e400", "0.0000001", "1E2", "-1", "0"}
	switch deref(t).Kind() {
	case reflect.Int8:
		edges = append(edges, "-129", "128", "-128", "127")
	case reflect.Int16:
		edges = append(edges, "-32769", "32768")
	case reflect.Int32:
		edges = append(edges, "-2147483649", "2147483648")
	case reflect.Int, reflect.Int64:
		edges = append(edges, "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e19")
	case reflect.Uint8:
		edges = append(edges, "256", "255")
	case reflect.Uint16:
		edges = append(edges, "65536")
	case reflect.Uint32:
		edges = append(edges, "4294967296")
	case reflect.Uint, reflect.Uint64:
		edges = append(edges, "18446744073709551615", "18446744073709551616")
	case reflect.Float32:
		edges = append(edges, "3.5e38", "1e-46", "3.4028234663852886e38")
	case reflect.Float64:
		edges = append(edges, "1.7976931348623157e308", "1.8e308", "5e-324")
	}
	return edges
}
