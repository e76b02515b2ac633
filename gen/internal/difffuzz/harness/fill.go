package harness

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp/syntax"
	"strconv"
	"strings"
	"time"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// constraints are the jsonschema tag keywords of a field that a value must
// honour for its schema to accept it, as the tag applies them: to the
// field, or for a JSON array to its items, except the array's own.
type constraints struct {
	enum               []string
	min, max           *float64
	exclMin, exclMax   *float64
	multipleOf         float64
	minLen, maxLen     int // maxLen -1: none
	pattern            string
	format             string
	minItems, maxItems int // maxItems -1: none
	unique             bool
}

func noConstraints() constraints { return constraints{maxLen: -1, maxItems: -1} }

// tagConstraints reads a field's jsonschema tag. items are the
// constraints of a JSON array's elements.
func tagConstraints(tag reflect.StructTag, isArray bool) (own, items constraints) {
	own, items = noConstraints(), noConstraints()
	js, ok := tag.Lookup("jsonschema")
	if !ok {
		return own, items
	}
	for _, kv := range splitTag(js) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		target := &own
		if isArray && k != "minItems" && k != "maxItems" && k != "uniqueItems" && k != "default" {
			target = &items
		}
		f, ferr := strconv.ParseFloat(v, 64)
		n, nerr := strconv.Atoi(v)
		switch k {
		case "enum":
			target.enum = append(target.enum, v)
		case "minimum":
			if ferr == nil {
				target.min = &f
			}
		case "maximum":
			if ferr == nil {
				target.max = &f
			}
		case "exclusiveMinimum":
			if ferr == nil {
				target.exclMin = &f
			}
		case "exclusiveMaximum":
			if ferr == nil {
				target.exclMax = &f
			}
		case "multipleOf":
			if ferr == nil {
				target.multipleOf = f
			}
		case "minLength":
			if nerr == nil {
				target.minLen = n
			}
		case "maxLength":
			if nerr == nil {
				target.maxLen = n
			}
		case "pattern":
			target.pattern = v
		case "format":
			target.format = v
		case "minItems":
			if nerr == nil {
				target.minItems = n
			}
		case "maxItems":
			if nerr == nil {
				target.maxItems = n
			}
		case "uniqueItems":
			target.unique = true
		}
	}
	return own, items
}

// splitTag splits a jsonschema tag as invopop does: "\," is a comma inside
// a value.
func splitTag(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if n := len(out); n > 0 && strings.HasSuffix(out[n-1], `\`) {
			out[n-1] = strings.TrimSuffix(out[n-1], `\`) + "," + part
			continue
		}
		out = append(out, part)
	}
	return out
}

// A filler makes random Go values of a type that encoding/json encodes
// and its schema accepts: enum types take their constants, tagged fields
// honour their keywords.
type filler struct {
	rng   *rand.Rand
	enums map[string]Enum
	// samples are JSON values of types whose state a filler cannot set
	// (unexported fields: netip.Addr, big.Int), by reflect.Type.String().
	samples map[string][]json.RawMessage
}

var (
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	timeType      = reflect.TypeFor[time.Time]()
	rawType       = reflect.TypeFor[json.RawMessage]()
	numberType    = reflect.TypeFor[json.Number]()
)

// isArray reports whether encoding/json writes a value of type t as an
// array, for the tag rule that passes keywords on to the items.
func isArray(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if hasOwnJSON(t) {
		return false
	}
	switch t.Kind() {
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8 || hasOwnJSON(t.Elem())
	case reflect.Array:
		return true
	}
	return false
}

// hasOwnJSON reports whether t or *t marshals itself.
func hasOwnJSON(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || t.Implements(textMarshaler) || p.Implements(jsonMarshaler) || p.Implements(textMarshaler)
}

// value returns a new random value of type t.
func (f *filler) value(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	f.fill(v, noConstraints(), noConstraints(), 0, false)
	return v
}

// fill sets v to a random value. c constrains v, items its elements;
// optional says that the field may be left out (omitempty), so a nil
// there costs nothing.
func (f *filler) fill(v reflect.Value, c, items constraints, depth int, optional bool) {
	if !v.CanSet() && v.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	if s := f.samples[t.String()]; len(s) > 0 {
		f.unmarshal(v, s[f.rng.IntN(len(s))])
		return
	}
	if e, ok := f.enums[t.String()]; ok && len(e.Constants) > 0 && len(c.enum) == 0 {
		f.unmarshal(v, e.Constants[f.rng.IntN(len(e.Constants))])
		return
	}
	if len(c.enum) > 0 && t.Kind() != reflect.Pointer {
		f.fromEnum(v, c.enum)
		return
	}
	switch t {
	case timeType:
		v.Set(reflect.ValueOf(f.time()))
		return
	case rawType:
		v.SetBytes([]byte(f.anyJSON(depth)))
		return
	case numberType:
		v.SetString(f.numberText())
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(f.rng.IntN(2) == 0)
	case reflect.String:
		v.SetString(f.string(c))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := f.int(t.Bits(), c)
		if m := int64(c.multipleOf); m >= 1 && float64(m) == c.multipleOf {
			n -= n % m
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n := f.uint(t.Bits(), c)
		if m := uint64(c.multipleOf); m >= 1 && float64(m) == c.multipleOf {
			n -= n % m
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(f.float(t.Bits(), c))
	case reflect.Pointer:
		if depth > 5 || f.rng.IntN(100) < nilPercent(optional) {
			v.SetZero()
			return
		}
		p := reflect.New(t.Elem())
		f.fill(p.Elem(), c, items, depth+1, false)
		v.Set(p)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !isArray(t) {
			if f.rng.IntN(100) < nilPercent(optional) {
				v.SetZero()
				return
			}
			s := reflect.MakeSlice(t, f.rng.IntN(6), 6)
			for i := range s.Len() {
				f.fill(s.Index(i), items, noConstraints(), depth+1, false)
			}
			v.Set(s)
			return
		}
		if c.minItems == 0 && f.rng.IntN(100) < nilPercent(optional) {
			v.SetZero()
			return
		}
		n := f.length(c, depth)
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			f.fill(s.Index(i), items, noConstraints(), depth+1, false)
		}
		if c.unique {
			s = dedupe(s)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i), items, noConstraints(), depth+1, false)
		}
	case reflect.Map:
		if f.rng.IntN(100) < nilPercent(optional) {
			v.SetZero()
			return
		}
		m := reflect.MakeMap(t)
		n := f.rng.IntN(4)
		if depth > 4 {
			n = 0
		}
		for range n {
			k := reflect.New(t.Key()).Elem()
			f.fill(k, noConstraints(), noConstraints(), depth+1, false)
			e := reflect.New(t.Elem()).Elem()
			f.fill(e, c, noConstraints(), depth+1, false)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		f.fillStruct(v, depth)
	case reflect.Interface:
		if t.NumMethod() == 0 && v.CanSet() {
			var x any
			json.Unmarshal([]byte(f.anyJSON(depth)), &x)
			if x != nil {
				v.Set(reflect.ValueOf(x))
			}
		}
	}
}

// nilPercent is how often a nil pointer, slice or map is chosen: rarely
// where encoding/json would write null for it, since the schema refuses
// that null (a documented policy).
func nilPercent(optional bool) int {
	if optional {
		return 30
	}
	return 5
}

func (f *filler) fillStruct(v reflect.Value, depth int) {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		fv := v.Field(i)
		if !sf.IsExported() && !(sf.Anonymous && sf.Type.Kind() == reflect.Struct) {
			continue
		}
		if sf.Anonymous && !sf.IsExported() && sf.Type.Kind() == reflect.Struct {
			f.fillStruct(fv, depth+1)
			continue
		}
		jsonTag := sf.Tag.Get("json")
		// An embedded pointer is often nil: encoding/json then leaves out
		// the fields it would promote.
		optional := strings.Contains(jsonTag, ",omitempty") || strings.Contains(jsonTag, ",omitzero") || sf.Anonymous
		own, items := tagConstraints(sf.Tag, isArray(sf.Type))
		f.fill(fv, own, items, depth+1, optional)
	}
}

// unmarshal sets v from JSON, ignoring failures.
func (f *filler) unmarshal(v reflect.Value, data json.RawMessage) {
	p := reflect.New(v.Type())
	if unmarshal(data, p.Interface()) == nil && v.CanSet() {
		v.Set(p.Elem())
	}
}

// fromEnum sets v to one of a tag's enum values.
func (f *filler) fromEnum(v reflect.Value, enum []string) {
	e := enum[f.rng.IntN(len(enum))]
	if v.Kind() == reflect.String {
		v.SetString(e)
		return
	}
	f.unmarshal(v, json.RawMessage(e))
}

func (f *filler) length(c constraints, depth int) int {
	lo, hi := c.minItems, 3
	if depth > 4 {
		hi = lo
	}
	if c.maxItems >= 0 && hi > c.maxItems {
		hi = c.maxItems
	}
	if hi < lo {
		hi = lo
	}
	return lo + f.rng.IntN(hi-lo+1)
}

// dedupe removes repeated elements (as JSON) from a slice.
func dedupe(s reflect.Value) reflect.Value {
	out := reflect.MakeSlice(s.Type(), 0, s.Len())
	seen := map[string]bool{}
	for i := range s.Len() {
		b, _ := marshal(s.Index(i).Interface())
		if !seen[string(b)] {
			seen[string(b)] = true
			out = reflect.Append(out, s.Index(i))
		}
	}
	return out
}

func (f *filler) int(bits int, c constraints) int64 {
	lo, hi := int64(math.MinInt64)>>(64-bits), int64(math.MaxInt64)>>(64-bits)
	lo, hi = clampInt(lo, hi, c)
	if f.rng.IntN(4) == 0 {
		edges := []int64{lo, hi, 0, 1, -1, lo + 1, hi - 1}
		if e := edges[f.rng.IntN(len(edges))]; e >= lo && e <= hi {
			return e
		}
	}
	if f.rng.IntN(2) == 0 {
		small := int64(f.rng.IntN(201) - 100)
		if small >= lo && small <= hi {
			return small
		}
	}
	span := uint64(hi - lo)
	if span == math.MaxUint64 {
		return int64(f.rng.Uint64())
	}
	return lo + int64(f.rng.Uint64N(span+1))
}

func (f *filler) uint(bits int, c constraints) uint64 {
	lo, hi := uint64(0), uint64(math.MaxUint64)>>(64-bits)
	if c.min != nil && *c.min > 0 {
		lo = uint64(math.Ceil(*c.min))
	}
	if c.max != nil && *c.max >= 0 && *c.max < float64(hi) {
		hi = uint64(*c.max)
	}
	if c.exclMax != nil && *c.exclMax > 0 && *c.exclMax <= float64(hi) {
		hi = uint64(math.Ceil(*c.exclMax)) - 1
	}
	if c.exclMin != nil && *c.exclMin >= float64(lo) {
		lo = uint64(math.Floor(*c.exclMin)) + 1
	}
	if hi < lo {
		return lo
	}
	if f.rng.IntN(4) == 0 {
		edges := []uint64{lo, hi, 0, 1, hi - 1}
		if e := edges[f.rng.IntN(len(edges))]; e >= lo && e <= hi {
			return e
		}
	}
	if f.rng.IntN(2) == 0 {
		if small := uint64(f.rng.IntN(101)); small >= lo && small <= hi {
			return small
		}
	}
	if hi-lo == math.MaxUint64 {
		return f.rng.Uint64()
	}
	return lo + f.rng.Uint64N(hi-lo+1)
}

// clampInt narrows [lo, hi] to a tag's bounds, and to what a float64
// carries exactly, when there are bounds.
func clampInt(lo, hi int64, c constraints) (int64, int64) {
	if c.min != nil && *c.min > float64(lo) {
		lo = int64(math.Ceil(*c.min))
	}
	if c.exclMin != nil && *c.exclMin >= float64(lo) {
		lo = int64(math.Floor(*c.exclMin)) + 1
	}
	if c.max != nil && *c.max < float64(hi) {
		hi = int64(math.Floor(*c.max))
	}
	if c.exclMax != nil && *c.exclMax <= float64(hi) {
		hi = int64(math.Ceil(*c.exclMax)) - 1
	}
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

func (f *filler) float(bits int, c constraints) float64 {
	var x float64
	switch f.rng.IntN(6) {
	case 0:
		x = float64(f.rng.IntN(2001) - 1000)
	case 1:
		x = f.rng.NormFloat64() * math.Pow(10, float64(f.rng.IntN(40)-20))
	case 2:
		x = []float64{0, 1, -1, 0.1, 1e21, 1e-7, math.MaxFloat32, math.SmallestNonzeroFloat64}[f.rng.IntN(8)]
	default:
		x = f.rng.Float64()*200 - 100
	}
	if c.min != nil && x < *c.min || c.max != nil && x > *c.max || c.exclMin != nil && x <= *c.exclMin || c.exclMax != nil && x >= *c.exclMax {
		lo, hi := -1000.0, 1000.0
		if c.min != nil {
			lo = *c.min
		}
		if c.exclMin != nil {
			lo = *c.exclMin + 1e-3
		}
		if c.max != nil {
			hi = *c.max
		}
		if c.exclMax != nil {
			hi = *c.exclMax - 1e-3
		}
		x = lo + f.rng.Float64()*(hi-lo)
		if hi < lo {
			x = lo
		}
	}
	if c.multipleOf > 0 {
		x = math.Round(x/c.multipleOf) * c.multipleOf
		for c.max != nil && x > *c.max || c.exclMax != nil && x >= *c.exclMax {
			x -= c.multipleOf
		}
	}
	if bits == 32 {
		x = float64(float32(x))
	}
	return x
}

// numberText is a json.Number's text.
func (f *filler) numberText() string {
	return []string{"0", "-1", "3.25", "1e3", "123456789012345678901234567890", "-0.5E-3"}[f.rng.IntN(6)]
}

var stringAlphabet = []string{"a", "b", "z", "A", "Q", "0", "7", " ", "-", "_", ".", "é", "€", "日", "😀", "\"", "\\", "/", "\n", "\t", "<", "&", "\u2028"}

func (f *filler) string(c constraints) string {
	if c.pattern != "" {
		if s, ok := f.matching(c.pattern); ok {
			return s
		}
	}
	if c.format != "" {
		if s, ok := f.formatted(c.format); ok {
			return s
		}
	}
	lo, hi := c.minLen, c.minLen+8
	if c.maxLen >= 0 && hi > c.maxLen {
		hi = c.maxLen
	}
	if hi < lo {
		hi = lo
	}
	n := lo + f.rng.IntN(hi-lo+1)
	var b strings.Builder
	for range n {
		b.WriteString(stringAlphabet[f.rng.IntN(len(stringAlphabet))])
	}
	return b.String()
}

// formatted returns a string in one of the formats the runtime checks.
func (f *filler) formatted(format string) (string, bool) {
	switch format {
	case "date-time":
		return f.time().Format(time.RFC3339Nano), true
	case "date":
		return f.time().Format(time.DateOnly), true
	case "email":
		return []string{"a@example.com", "first.last@sub.example.org", "x+y@b.co"}[f.rng.IntN(3)], true
	case "uri":
		return []string{"https://example.com/a?b=c", "urn:isbn:0451450523", "mailto:a@b.c", "http://[::1]:8080/"}[f.rng.IntN(4)], true
	case "uuid":
		b := make([]byte, 16)
		for i := range b {
			b[i] = byte(f.rng.IntN(256))
		}
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[:4], b[4:6], b[6:8], b[8:10], b[10:]), true
	case "ipv4":
		return fmt.Sprintf("%d.%d.%d.%d", f.rng.IntN(256), f.rng.IntN(256), f.rng.IntN(256), f.rng.IntN(256)), true
	case "ipv6":
		return []string{"::1", "2001:db8::8a2e:370:7334", "fe80::1", "::ffff:192.0.2.1"}[f.rng.IntN(4)], true
	}
	return "", false
}

// time returns a random instant that encoding/json can write: a year of
// four digits and an offset of less than a day.
func (f *filler) time() time.Time {
	sec := f.rng.Int64N(253402300799-(-62135596800)) + -62135596800
	t := time.Unix(sec, int64(f.rng.IntN(1e9)))
	switch f.rng.IntN(3) {
	case 0:
		return t.UTC()
	case 1:
		return t.Truncate(time.Second).UTC()
	}
	off := (f.rng.IntN(28*60) - 14*60) * 60
	return t.In(time.FixedZone("", off))
}

// anyJSON returns a small random JSON text.
func (f *filler) anyJSON(depth int) string {
	switch n := f.rng.IntN(8); {
	case n == 0:
		return "null"
	case n == 1:
		return []string{"true", "false"}[f.rng.IntN(2)]
	case n == 2:
		return f.numberText()
	case n == 3:
		b, _ := json.Marshal(f.string(noConstraints()))
		return string(b)
	case n == 4 && depth < 4:
		return "[" + f.anyJSON(depth+1) + "," + f.anyJSON(depth+1) + "]"
	case n == 5 && depth < 4:
		return `{"k":` + f.anyJSON(depth+1) + `,"l m":` + f.anyJSON(depth+1) + "}"
	case n == 6:
		return "{}"
	}
	return "[]"
}

// matching returns a string that matches the regular expression re.
func (f *filler) matching(re string) (string, bool) {
	r, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if !f.gen(&b, r.Simplify(), 0) {
		return "", false
	}
	return b.String(), true
}

func (f *filler) gen(b *strings.Builder, r *syntax.Regexp, depth int) bool {
	if depth > 20 {
		return false
	}
	switch r.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
	case syntax.OpLiteral:
		b.WriteString(string(r.Rune))
	case syntax.OpCharClass:
		if len(r.Rune) == 0 {
			return false
		}
		i := f.rng.IntN(len(r.Rune)/2) * 2
		lo, hi := r.Rune[i], r.Rune[i+1]
		if hi > lo+200 {
			hi = lo + 200
		}
		b.WriteRune(lo + rune(f.rng.IntN(int(hi-lo)+1)))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte("abcXYZ019 -"[f.rng.IntN(11)])
	case syntax.OpCapture:
		return f.gen(b, r.Sub[0], depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch r.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = r.Min, r.Max
			if hi < 0 {
				hi = lo + 3
			}
		}
		for range lo + f.rng.IntN(hi-lo+1) {
			if !f.gen(b, r.Sub[0], depth+1) {
				return false
			}
		}
	case syntax.OpConcat:
		for _, s := range r.Sub {
			if !f.gen(b, s, depth+1) {
				return false
			}
		}
	case syntax.OpAlternate:
		return f.gen(b, r.Sub[f.rng.IntN(len(r.Sub))], depth+1)
	default:
		return false
	}
	return true
}

// base64Of returns the base64 of a few random bytes.
func (f *filler) base64Of() string {
	b := make([]byte, f.rng.IntN(5))
	for i := range b {
		b[i] = byte(f.rng.IntN(256))
	}
	return base64.StdEncoding.EncodeToString(b)
}
