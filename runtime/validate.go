package runtime

import (
	"bytes"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A schema is a compiled JSON Schema (draft 2020-12). It implements the
// validation vocabulary that mcpgen emits and that hand-written tool
// schemas commonly use; compileSchema rejects keywords it cannot honour, so
// a tool never advertises a constraint that is not enforced.
type schema struct {
	bool *bool // the schema is the literal true or false

	types    typeSet
	enum     []value
	constVal *value

	properties    []propertySchema
	required      []string
	additional    *schema // nil: any additional property is allowed
	patternProps  []patternSchema
	propertyNames *schema
	minProps      int
	maxProps      int // -1: no limit
	depRequired   map[string][]string

	items       *schema
	prefixItems []*schema
	contains    *schema
	minContains int
	maxContains int // -1: no limit
	minItems    int
	maxItems    int // -1: no limit
	uniqueItems bool

	minLength int
	maxLength int // -1: no limit
	pattern   *regexp.Regexp

	minimum, maximum                   *number
	exclusiveMinimum, exclusiveMaximum *number
	multipleOf                         *number

	allOf, anyOf, oneOf []*schema
	not                 *schema

	ref   string  // "$ref" as written
	refTo *schema // resolved $ref
}

type propertySchema struct {
	name   string
	schema *schema
}

type patternSchema struct {
	re     *regexp.Regexp
	schema *schema
}

// typeSet is a set of JSON Schema type names.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeInteger
	typeNumber
	typeString
	typeArray
	typeObject
)

var typeNames = []struct {
	t    typeSet
	name string
}{
	{typeNull, "null"}, {typeBoolean, "boolean"}, {typeInteger, "integer"}, {typeNumber, "number"},
	{typeString, "string"}, {typeArray, "array"}, {typeObject, "object"},
}

func (t typeSet) String() string {
	if t&typeNumber != 0 {
		t &^= typeInteger // "a number" covers it
	}
	var names []string
	for _, tn := range typeNames {
		if t&tn.t != 0 && tn.t != typeNull {
			names = append(names, article(tn.name)+" "+tn.name)
		}
	}
	if t&typeNull != 0 {
		names = append(names, "null")
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// plural writes n with word, pluralised when n is not 1.
func plural(n int, word string) string {
	switch {
	case n == 1:
		return "1 " + word
	case strings.HasSuffix(word, "y"):
		return strconv.Itoa(n) + " " + strings.TrimSuffix(word, "y") + "ies"
	default:
		return strconv.Itoa(n) + " " + word + "s"
	}
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// A decimal is a JSON number held exactly, as ±0.d₁d₂…dₙ × 10^exp with
// d₁ ≠ 0 and dₙ ≠ 0 (n = 0 for zero). Its digits are the significant parts
// of the literal before and after the decimal point, slices of the
// literal itself: reading a number neither allocates nor does arithmetic
// on its digits, so what validation costs grows with the literal's length,
// never with its value. (big.Rat would compute 10^exp, and refuses
// exponents beyond ±1e6; strconv.ParseFloat rounds.)
type decimal struct {
	neg    bool
	hi, lo []byte // significant digits: hi (integer part) then lo (fraction)
	point  int64  // exp without the literal's exponent
	exp    int64
	// extreme: the literal's exponent has more than maxExpDigits digits.
	// exp is then ±extremeExp+point, beyond every exponent a schema may
	// hold, so ordering against a schema's numbers stays exact; expLit
	// keeps the exponent's digits for exact equality between two such
	// numbers.
	extreme bool
	expNeg  bool
	expLit  []byte
}

const (
	maxExpDigits = 17      // exponents up to 10^17 are kept exactly
	extremeExp   = 1 << 60 // stands for any longer exponent
	maxSchemaExp = 1 << 50 // the largest |exp| a schema's number may have
)

// parseDecimal reads raw, which must follow the JSON number grammar (the
// parser has checked it).
func parseDecimal(raw []byte) decimal {
	var d decimal
	i := 0
	if i < len(raw) && raw[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(raw) && isDigit(raw[i]) {
		i++
	}
	hi := raw[start:i]
	var lo []byte
	if i < len(raw) && raw[i] == '.' {
		i++
		start = i
		for i < len(raw) && isDigit(raw[i]) {
			i++
		}
		lo = raw[start:i]
	}
	var e int64
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			d.expNeg = raw[i] == '-'
			i++
		}
		for i < len(raw)-1 && raw[i] == '0' {
			i++
		}
		d.expLit = raw[i:]
		if len(d.expLit) > maxExpDigits {
			d.extreme = true
			e = extremeExp
		} else {
			for _, c := range d.expLit {
				e = e*10 + int64(c-'0')
			}
		}
		if d.expNeg {
			e = -e
		}
	}
	// Only "0" starts with a zero: then the fraction's leading zeros go.
	point := int64(len(hi))
	if len(hi) > 0 && hi[0] == '0' {
		hi, point = nil, 0
		for len(lo) > 0 && lo[0] == '0' {
			lo = lo[1:]
			point--
		}
	}
	for len(lo) > 0 && lo[len(lo)-1] == '0' {
		lo = lo[:len(lo)-1]
	}
	if len(lo) == 0 {
		for len(hi) > 0 && hi[len(hi)-1] == '0' {
			hi = hi[:len(hi)-1]
		}
	}
	if len(hi)+len(lo) == 0 {
		return decimal{} // zero, however written: -0, 0.0e99
	}
	d.hi, d.lo, d.point, d.exp = hi, lo, point, point+e
	return d
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func (d *decimal) digits() int { return len(d.hi) + len(d.lo) }

func (d *decimal) digit(i int) byte {
	if i < len(d.hi) {
		return d.hi[i]
	}
	return d.lo[i-len(d.hi)]
}

func (d *decimal) sign() int {
	switch {
	case d.digits() == 0:
		return 0
	case d.neg:
		return -1
	default:
		return 1
	}
}

// isInt reports whether d has no fractional part.
func (d *decimal) isInt() bool {
	return d.digits() == 0 || d.exp >= int64(d.digits())
}

// cmpDecimal compares x and y. It is exact unless both are extreme, which
// cannot happen when one of them comes from a schema.
func cmpDecimal(x, y *decimal) int {
	sx, sy := x.sign(), y.sign()
	if sx != sy || sx == 0 {
		return compareInts(int64(sx), int64(sy))
	}
	if x.exp != y.exp {
		return sx * compareInts(x.exp, y.exp)
	}
	for i := range max(x.digits(), y.digits()) {
		a, b := byte('0'), byte('0')
		if i < x.digits() {
			a = x.digit(i)
		}
		if i < y.digits() {
			b = y.digit(i)
		}
		if a != b {
			return sx * compareInts(int64(a), int64(b))
		}
	}
	return 0
}

func compareInts(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// appendCanonical appends a form of d that equals that of every other way
// of writing the same number.
func (d *decimal) appendCanonical(b []byte) []byte {
	if d.digits() == 0 {
		return append(b, '0')
	}
	if d.neg {
		b = append(b, '-')
	}
	b = append(append(b, d.hi...), d.lo...)
	b = append(b, 'e')
	if !d.extreme {
		return strconv.AppendInt(b, d.exp, 10)
	}
	// exp = ±expLit + point, exactly; |expLit| ≥ 10^17 > |point|, so the
	// sign is expLit's and the magnitude is expLit ± |point|.
	if d.expNeg {
		b = append(b, '-')
	}
	delta := d.point
	if d.expNeg {
		delta = -delta
	}
	return appendAddSmall(b, d.expLit, delta)
}

// appendAddSmall appends the decimal digits of the integer digits+delta,
// where digits (no leading zeros) is far larger than |delta|.
func appendAddSmall(b, digits []byte, delta int64) []byte {
	out := make([]byte, len(digits)+1)
	carry := delta
	for i := len(digits) - 1; i >= 0; i-- {
		v := int64(digits[i]-'0') + carry%10
		carry /= 10
		switch {
		case v < 0:
			v += 10
			carry--
		case v > 9:
			v -= 10
			carry++
		}
		out[i+1] = byte('0' + v)
	}
	out[0] = byte('0' + carry) // carry is 0 or 1 here
	i := 0
	for i < len(out)-1 && out[i] == '0' {
		i++
	}
	return append(b, out[i:]...)
}

// equalDecimal reports whether x and y are the same number.
func equalDecimal(x, y *decimal) bool {
	if x.extreme || y.extreme {
		return string(x.appendCanonical(nil)) == string(y.appendCanonical(nil))
	}
	return cmpDecimal(x, y) == 0
}

// number is a numeric keyword's value: a bound, or multipleOf.
type number struct {
	raw string
	d   decimal
	// For multipleOf, the value is M × 10^scale with M = 2^twos × 5^fives
	// × rest and rest coprime to 10: see isMultiple.
	scale       int64
	twos, fives int64
	rest        *big.Int
	restSmall   uint64 // rest, when it is below 2^32; else 0
}

func newNumber(raw []byte) (*number, error) {
	n := &number{raw: string(raw)}
	n.d = parseDecimal([]byte(n.raw))
	if n.d.extreme || n.d.exp > maxSchemaExp || n.d.exp < -maxSchemaExp {
		return nil, fmt.Errorf("number %s is out of the supported range", truncate(raw))
	}
	return n, nil
}

// cmp compares the instance number x with n.
func (n *number) cmp(x *decimal) int {
	return cmpDecimal(x, &n.d)
}

func newMultiple(raw []byte) (*number, error) {
	n, err := newNumber(raw)
	if err != nil {
		return nil, err
	}
	if n.d.sign() <= 0 {
		return nil, fmt.Errorf("must be greater than 0")
	}
	m, ok := new(big.Int).SetString(string(n.d.hi)+string(n.d.lo), 10)
	if !ok {
		return nil, fmt.Errorf("invalid number %s", truncate(raw))
	}
	n.scale = n.d.exp - int64(n.d.digits())
	two, five, r := big.NewInt(2), big.NewInt(5), new(big.Int)
	for r.Mod(m, two).Sign() == 0 {
		m.Quo(m, two)
		n.twos++
	}
	for r.Mod(m, five).Sign() == 0 {
		m.Quo(m, five)
		n.fives++
	}
	n.rest = m
	if m.BitLen() <= 32 {
		n.restSmall = m.Uint64()
	}
	return n, nil
}

// isMultiple reports whether x is an integer multiple of n. With x = X ×
// 10^e (X an integer without trailing zeros) and n = M × 10^scale, x/n is
// an integer when M divides X × 10^(e-scale). That needs e ≥ scale (X has
// no factor 10), and then 2^(twos-k) × 5^(fives-k) × rest must divide X,
// where k = e-scale: one pass over X's digits, however large k is.
func (n *number) isMultiple(x *decimal) bool {
	if x.digits() == 0 {
		return true
	}
	k := x.exp - int64(x.digits()) - n.scale
	if k < 0 {
		return false
	}
	twos, fives := max(n.twos-k, 0), max(n.fives-k, 0)
	if d, ok := n.smallDivisor(twos, fives); ok {
		var r uint64
		for i := range x.digits() {
			r = (r*10 + uint64(x.digit(i)-'0')) % d
		}
		return r == 0
	}
	d := new(big.Int).Set(n.rest)
	d.Mul(d, new(big.Int).Exp(big.NewInt(2), big.NewInt(twos), nil))
	d.Mul(d, new(big.Int).Exp(big.NewInt(5), big.NewInt(fives), nil))
	// X mod d, 18 digits at a time.
	r, chunk, ten18 := new(big.Int), new(big.Int), big.NewInt(1e18)
	var acc uint64
	var nacc int
	for i := range x.digits() {
		acc = acc*10 + uint64(x.digit(i)-'0')
		nacc++
		if nacc == 18 || i == x.digits()-1 {
			scale := ten18
			if nacc < 18 {
				scale = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(nacc)), nil)
			}
			r.Mul(r, scale)
			r.Add(r, chunk.SetUint64(acc))
			r.Mod(r, d)
			acc, nacc = 0, 0
		}
	}
	return r.Sign() == 0
}

// smallDivisor returns rest × 2^twos × 5^fives if it is below 2^59, so
// that r*10+9 cannot overflow in isMultiple.
func (n *number) smallDivisor(twos, fives int64) (uint64, bool) {
	d := n.restSmall
	if d == 0 {
		return 0, false
	}
	for range twos {
		if d >= 1<<58 {
			return 0, false
		}
		d *= 2
	}
	for range fives {
		if d >= 1<<56 {
			return 0, false
		}
		d *= 5
	}
	return d, true
}

// isInteger reports whether the JSON number raw has no fractional part.
func isInteger(raw []byte) bool {
	if bytes.IndexAny(raw, ".eE") < 0 {
		return true
	}
	d := parseDecimal(raw)
	return d.isInt()
}

// compileSchema compiles the JSON Schema text data.
func compileSchema(data []byte) (*schema, error) {
	root, err := parseValue(data)
	if err != nil {
		return nil, err
	}
	c := &compiler{root: root, byPointer: map[string]*schema{}}
	s, err := c.compile(root, "#")
	if err != nil {
		return nil, err
	}
	for _, r := range c.refs {
		target, err := c.resolve(r.ref)
		if err != nil {
			return nil, err
		}
		r.refTo = target
	}
	state := map[*schema]int{}
	for _, sc := range c.byPointer {
		if err := checkInPlaceCycle(sc, state); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkInPlaceCycle rejects schemas that apply themselves to the same
// instance without descending into it ({"$ref":"#"} at the root, or two
// definitions referring to each other), which would never terminate.
func checkInPlaceCycle(s *schema, state map[*schema]int) error {
	const visiting, done = 1, 2
	switch state[s] {
	case visiting:
		return fmt.Errorf("schema: $ref cycle through %q never reaches a property or item", s.ref)
	case done:
		return nil
	}
	state[s] = visiting
	next := slices.Concat(s.allOf, s.anyOf, s.oneOf)
	if s.refTo != nil {
		next = append(next, s.refTo)
	}
	if s.not != nil {
		next = append(next, s.not)
	}
	for _, n := range next {
		if err := checkInPlaceCycle(n, state); err != nil {
			return err
		}
	}
	state[s] = done
	return nil
}

type compiler struct {
	root      value
	byPointer map[string]*schema // compiled subschemas by JSON pointer
	refs      []*schema          // schemas whose $ref must be resolved
}

// keywords the compiler knows; anything else is an annotation (description,
// title, default, examples, format, contentEncoding, $schema, $id, x-…).
// These assert something that this validator does not implement, so a
// schema using them is refused rather than silently weakened.
var unsupportedKeywords = []string{
	"if", "then", "else", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
	"$dynamicRef", "$recursiveRef",
}

func (c *compiler) compile(v value, ptr string) (*schema, error) {
	s := &schema{maxProps: -1, maxItems: -1, maxLength: -1, maxContains: -1, minContains: 1}
	c.byPointer[ptr] = s
	switch v.kind {
	case kindBool:
		b := string(v.raw) == "true"
		s.bool = &b
		return s, nil
	case kindObject:
	default:
		return nil, fmt.Errorf("schema at %s: must be an object or boolean, not %s", ptr, v.kind)
	}
	at := func(kw string) string { return ptr + "/" + escapePointer(kw) }
	for i := range v.members {
		m := &v.members[i]
		kw, kv := m.name, m.value
		var err error
		switch kw {
		case "type":
			s.types, err = compileTypes(kv)
		case "enum":
			if kv.kind != kindArray {
				err = fmt.Errorf("must be an array")
			}
			s.enum = kv.elems
		case "const":
			cv := kv
			s.constVal = &cv
		case "properties":
			err = c.each(kv, at(kw), func(name string, sub *schema) {
				s.properties = append(s.properties, propertySchema{name, sub})
			})
		case "patternProperties":
			err = c.each(kv, at(kw), func(name string, sub *schema) {
				re, rerr := regexp.Compile(name)
				if rerr != nil {
					err = rerr
					return
				}
				s.patternProps = append(s.patternProps, patternSchema{re, sub})
			})
		case "additionalProperties":
			s.additional, err = c.compile(kv, at(kw))
		case "propertyNames":
			s.propertyNames, err = c.compile(kv, at(kw))
		case "required":
			s.required, err = stringList(kv)
		case "dependentRequired":
			if kv.kind != kindObject {
				err = fmt.Errorf("must be an object")
				break
			}
			s.depRequired = map[string][]string{}
			for _, dm := range kv.members {
				if s.depRequired[dm.name], err = stringList(dm.value); err != nil {
					break
				}
			}
		case "minProperties":
			s.minProps, err = nonNegative(kv)
		case "maxProperties":
			s.maxProps, err = nonNegative(kv)
		case "items":
			s.items, err = c.compile(kv, at(kw))
		case "prefixItems":
			err = c.list(kv, at(kw), &s.prefixItems)
		case "contains":
			s.contains, err = c.compile(kv, at(kw))
		case "minContains":
			s.minContains, err = nonNegative(kv)
		case "maxContains":
			s.maxContains, err = nonNegative(kv)
		case "minItems":
			s.minItems, err = nonNegative(kv)
		case "maxItems":
			s.maxItems, err = nonNegative(kv)
		case "uniqueItems":
			s.uniqueItems = string(kv.raw) == "true"
		case "minLength":
			s.minLength, err = nonNegative(kv)
		case "maxLength":
			s.maxLength, err = nonNegative(kv)
		case "pattern":
			if kv.kind != kindString {
				err = fmt.Errorf("must be a string")
				break
			}
			s.pattern, err = regexp.Compile(kv.str())
		case "minimum":
			s.minimum, err = compileNumber(kv)
		case "maximum":
			s.maximum, err = compileNumber(kv)
		case "exclusiveMinimum":
			s.exclusiveMinimum, err = compileNumber(kv)
		case "exclusiveMaximum":
			s.exclusiveMaximum, err = compileNumber(kv)
		case "multipleOf":
			if kv.kind != kindNumber {
				err = fmt.Errorf("must be a number")
				break
			}
			s.multipleOf, err = newMultiple(kv.raw)
		case "allOf":
			err = c.list(kv, at(kw), &s.allOf)
		case "anyOf":
			err = c.list(kv, at(kw), &s.anyOf)
		case "oneOf":
			err = c.list(kv, at(kw), &s.oneOf)
		case "not":
			s.not, err = c.compile(kv, at(kw))
		case "$ref":
			if kv.kind != kindString {
				err = fmt.Errorf("must be a string")
				break
			}
			s.ref = kv.str()
			c.refs = append(c.refs, s)
		case "$defs", "definitions":
			err = c.each(kv, at(kw), func(string, *schema) {})
		default:
			if slices.Contains(unsupportedKeywords, kw) {
				err = fmt.Errorf("keyword is not supported by the mcpgen runtime")
			}
		}
		if err != nil {
			return nil, fmt.Errorf("schema at %s: %w", at(kw), err)
		}
	}
	return s, nil
}

// each compiles every member of the object v as a subschema.
func (c *compiler) each(v value, ptr string, f func(string, *schema)) error {
	if v.kind != kindObject {
		return fmt.Errorf("must be an object")
	}
	for _, m := range v.members {
		sub, err := c.compile(m.value, ptr+"/"+escapePointer(m.name))
		if err != nil {
			return err
		}
		f(m.name, sub)
	}
	return nil
}

// list compiles every element of the array v as a subschema.
func (c *compiler) list(v value, ptr string, dst *[]*schema) error {
	if v.kind != kindArray || len(v.elems) == 0 {
		return fmt.Errorf("must be a non-empty array")
	}
	for i, e := range v.elems {
		sub, err := c.compile(e, ptr+"/"+strconv.Itoa(i))
		if err != nil {
			return err
		}
		*dst = append(*dst, sub)
	}
	return nil
}

// resolve finds the target of a local reference ("#", "#/$defs/Name", …).
func (c *compiler) resolve(ref string) (*schema, error) {
	if s, ok := c.byPointer[ref]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("schema: cannot resolve $ref %q: only references into the same schema are supported", ref)
}

// escapePointer escapes a name for a JSON pointer (RFC 6901).
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscaper.Replace(s)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func compileTypes(v value) (typeSet, error) {
	one := func(v value) (typeSet, error) {
		if v.kind == kindString {
			name := v.str()
			for _, tn := range typeNames {
				if tn.name == name {
					return tn.t, nil
				}
			}
		}
		return 0, fmt.Errorf("unknown type %s", v.raw)
	}
	if v.kind != kindArray {
		return one(v)
	}
	var ts typeSet
	for _, e := range v.elems {
		t, err := one(e)
		if err != nil {
			return 0, err
		}
		ts |= t
	}
	return ts, nil
}

func stringList(v value) ([]string, error) {
	if v.kind != kindArray {
		return nil, fmt.Errorf("must be an array of strings")
	}
	out := make([]string, 0, len(v.elems))
	for _, e := range v.elems {
		if e.kind != kindString {
			return nil, fmt.Errorf("must be an array of strings")
		}
		out = append(out, e.str())
	}
	return out, nil
}

func nonNegative(v value) (int, error) {
	if v.kind == kindNumber && isInteger(v.raw) {
		if n, err := strconv.Atoi(string(v.raw)); err == nil && n >= 0 {
			return n, nil
		}
		if f, err := strconv.ParseFloat(string(v.raw), 64); err == nil && f >= 0 && f < 1<<53 {
			return int(f), nil
		}
	}
	return 0, fmt.Errorf("must be a non-negative integer")
}

func compileNumber(v value) (*number, error) {
	if v.kind != kindNumber {
		return nil, fmt.Errorf("must be a number")
	}
	return newNumber(v.raw)
}

// A violation is one way in which an instance fails its schema.
type violation struct {
	path string // e.g. "labels[2]" or "address.city"; "" is the root
	msg  string
}

// maxViolations bounds the report for one instance.
const maxViolations = 20

type validator struct {
	out     []violation
	omitted int // violations beyond maxViolations
	// path is where the check is, a step per level; it is written out
	// only for a violation, so that a valid value costs no string
	// building.
	path []pathStep
}

// A pathStep is a member name, or an element index.
type pathStep struct {
	name  string
	index int
	elem  bool
}

func (vd *validator) push(name string) { vd.path = append(vd.path, pathStep{name: name}) }
func (vd *validator) pushIndex(i int)  { vd.path = append(vd.path, pathStep{index: i, elem: true}) }
func (vd *validator) pop()             { vd.path = vd.path[:len(vd.path)-1] }

// add reports a violation at the current path.
func (vd *validator) add(format string, args ...any) {
	if len(vd.out) < maxViolations {
		vd.out = append(vd.out, violation{vd.pathString(), fmt.Sprintf(format, args...)})
	} else {
		vd.omitted++
	}
}

// addAt reports a violation at the member name of the current object.
func (vd *validator) addAt(name string, format string, args ...any) {
	vd.push(name)
	vd.add(format, args...)
	vd.pop()
}

// pathString writes the current path as violations show it:
// address.city, labels[2], counts["a b"].
func (vd *validator) pathString() string {
	path := ""
	for _, st := range vd.path {
		if st.elem {
			path += "[" + strconv.Itoa(st.index) + "]"
		} else {
			path = joinPath(path, st.name)
		}
	}
	return path
}

// validate reports every violation of s by v, up to maxViolations, and
// then how many more there are, so that a long report does not look
// complete.
func (s *schema) validate(v *value) []violation {
	var vd validator
	vd.check(s, v)
	if vd.omitted > 0 {
		vd.out = append(vd.out, violation{"", plural(vd.omitted, "more violation") + " not listed"})
	}
	return vd.out
}

// valid reports whether v satisfies s.
func (s *schema) valid(v *value) bool {
	var vd validator
	vd.check(s, v)
	return len(vd.out) == 0
}

func (vd *validator) check(s *schema, v *value) {
	if s.bool != nil {
		if !*s.bool {
			vd.add("is not allowed")
		}
		return
	}
	if s.refTo != nil {
		vd.check(s.refTo, v)
	}
	if s.types != 0 && !s.types.has(v) {
		vd.add("must be %s; got %s", s.types, describe(v))
		return // the remaining keywords would only repeat the type error
	}
	if s.constVal != nil && !equalJSON(s.constVal, v) {
		vd.add("must be %s; got %s", truncate(s.constVal.raw), describe(v))
	}
	if s.enum != nil && !slices.ContainsFunc(s.enum, func(e value) bool { return equalJSON(&e, v) }) {
		vd.add("must be one of %s; got %s", enumList(s.enum), describe(v))
	}
	switch v.kind {
	case kindObject:
		vd.object(s, v)
	case kindArray:
		vd.array(s, v)
	case kindString:
		vd.string(s, v)
	case kindNumber:
		vd.number(s, v)
	}
	for _, sub := range s.allOf {
		vd.check(sub, v)
	}
	if s.anyOf != nil && !slices.ContainsFunc(s.anyOf, func(sub *schema) bool { return sub.valid(v) }) {
		vd.alternatives(s.anyOf, v, "must match at least one of the allowed schemas")
	}
	if s.oneOf != nil {
		n := 0
		for _, sub := range s.oneOf {
			if sub.valid(v) {
				n++
			}
		}
		switch {
		case n == 0:
			vd.alternatives(s.oneOf, v, "must match exactly one of the allowed schemas")
		case n > 1:
			vd.add("must match exactly one of the allowed schemas; matches %d", n)
		}
	}
	if s.not != nil && s.not.valid(v) {
		vd.add("must not match the excluded schema")
	}
}

// alternatives reports a failed anyOf/oneOf. When exactly one alternative
// has the value's type (the common "T or null" case), its own violations
// are the most useful explanation.
func (vd *validator) alternatives(alts []*schema, v *value, msg string) {
	var candidate *schema
	for _, a := range alts {
		if t := a.effectiveTypes(); a.bool == nil && (t == 0 || t.has(v)) {
			if candidate != nil {
				candidate = nil
				break
			}
			candidate = a
		}
	}
	if candidate != nil {
		vd.check(candidate, v)
		return
	}
	var types typeSet
	for _, a := range alts {
		t := a.effectiveTypes()
		if t == 0 {
			types = 0 // an alternative of any type: no type to name
			break
		}
		types |= t
	}
	if types != 0 && !types.has(v) {
		vd.add("must be %s; got %s", types, describe(v))
		return
	}
	vd.add("%s; got %s", msg, describe(v))
}

// effectiveTypes is the type set that s constrains a value to, looking
// through $ref (a branch such as {"$ref":"#/$defs/Point"} is an object
// schema); 0 when s does not constrain the type.
func (s *schema) effectiveTypes() typeSet {
	for range 64 { // compileSchema rejects $ref cycles that stay in place
		if s.types != 0 || s.refTo == nil {
			return s.types
		}
		s = s.refTo
	}
	return 0
}

func (t typeSet) has(v *value) bool {
	switch v.kind {
	case kindNull:
		return t&typeNull != 0
	case kindBool:
		return t&typeBoolean != 0
	case kindNumber:
		return t&typeNumber != 0 || t&typeInteger != 0 && isInteger(v.raw)
	case kindString:
		return t&typeString != 0
	case kindArray:
		return t&typeArray != 0
	default:
		return t&typeObject != 0
	}
}

func (vd *validator) object(s *schema, v *value) {
	vd.duplicateMembers(v)
	for i := range v.members {
		m := &v.members[i]
		if s.propertyNames != nil {
			name := value{kind: kindString, raw: appendString(nil, m.name)}
			if !s.propertyNames.valid(&name) {
				vd.addAt(m.name, "is not an allowed property name")
			}
		}
		matched := false
		for _, p := range s.properties {
			if p.name == m.name {
				vd.push(m.name)
				vd.check(p.schema, &m.value)
				vd.pop()
				matched = true
				break
			}
		}
		for _, pp := range s.patternProps {
			if pp.re.MatchString(m.name) {
				vd.push(m.name)
				vd.check(pp.schema, &m.value)
				vd.pop()
				matched = true
			}
		}
		if !matched && s.additional != nil {
			if s.additional.bool != nil && !*s.additional.bool {
				vd.addAt(m.name, "unknown property%s", s.knownProperties())
			} else {
				vd.push(m.name)
				vd.check(s.additional, &m.value)
				vd.pop()
			}
		}
	}
	for _, name := range s.required {
		if v.get(name) == nil {
			vd.addAt(name, "is required")
		}
	}
	for name, deps := range s.depRequired {
		if v.get(name) != nil {
			for _, d := range deps {
				if v.get(d) == nil {
					vd.addAt(d, "is required when %q is present", name)
				}
			}
		}
	}
	if len(v.members) < s.minProps {
		vd.add("must have at least %s; got %d", plural(s.minProps, "property"), len(v.members))
	}
	if s.maxProps >= 0 && len(v.members) > s.maxProps {
		vd.add("must have at most %s; got %d", plural(s.maxProps, "property"), len(v.members))
	}
}

// duplicateMembers reports names that occur more than once in an object.
// encoding/json would silently keep the last one, so a caller could hide a
// value from review; rejecting them keeps what is validated and what the
// handler receives the same.
func (vd *validator) duplicateMembers(v *value) {
	if len(v.members) < 2 {
		return
	}
	if len(v.members) <= 16 {
		for i := range v.members {
			for j := range v.members[:i] {
				if v.members[j].name == v.members[i].name {
					vd.addAt(v.members[i].name, "appears more than once")
					break
				}
			}
		}
		return
	}
	seen := make(map[string]bool, len(v.members))
	for i := range v.members {
		name := v.members[i].name
		if seen[name] {
			vd.addAt(name, "appears more than once")
		}
		seen[name] = true
	}
}

// knownProperties lists the declared property names, to help a caller who
// misspelled one.
func (s *schema) knownProperties() string {
	if len(s.properties) == 0 {
		return " (this object takes no properties)"
	}
	names := make([]string, len(s.properties))
	for i, p := range s.properties {
		names[i] = p.name
	}
	return " (allowed: " + strings.Join(names, ", ") + ")"
}

func (vd *validator) array(s *schema, v *value) {
	n := len(v.elems)
	for i := range v.elems {
		var sub *schema
		switch {
		case i < len(s.prefixItems):
			sub = s.prefixItems[i]
		case s.items != nil:
			sub = s.items
		default:
			continue
		}
		vd.pushIndex(i)
		vd.check(sub, &v.elems[i])
		vd.pop()
	}
	if n < s.minItems {
		vd.add("must have at least %s; got %d", plural(s.minItems, "item"), n)
	}
	if s.maxItems >= 0 && n > s.maxItems {
		vd.add("must have at most %s; got %d", plural(s.maxItems, "item"), n)
	}
	if s.uniqueItems {
		seen := make(map[string]int, n)
		for i := range v.elems {
			key := canonical(nil, &v.elems[i])
			if j, ok := seen[string(key)]; ok {
				vd.add("items must be unique; items %d and %d are equal", j, i)
				break
			}
			seen[string(key)] = i
		}
	}
	if s.contains != nil {
		c := 0
		for i := range v.elems {
			if s.contains.valid(&v.elems[i]) {
				c++
			}
		}
		if c < s.minContains {
			vd.add("must contain at least %s; got %d", plural(s.minContains, "matching item"), c)
		}
		if s.maxContains >= 0 && c > s.maxContains {
			vd.add("must contain at most %s; got %d", plural(s.maxContains, "matching item"), c)
		}
	}
}

func (vd *validator) string(s *schema, v *value) {
	if s.minLength == 0 && s.maxLength < 0 && s.pattern == nil {
		return
	}
	str := v.str()
	n := utf8.RuneCountInString(str)
	if n < s.minLength {
		vd.add("must be at least %s long; got %d", plural(s.minLength, "character"), n)
	}
	if s.maxLength >= 0 && n > s.maxLength {
		vd.add("must be at most %s long; got %d", plural(s.maxLength, "character"), n)
	}
	if s.pattern != nil && !s.pattern.MatchString(str) {
		vd.add("must match the pattern %s; got %s", strconv.Quote(s.pattern.String()), describe(v))
	}
}

func (vd *validator) number(s *schema, v *value) {
	if s.minimum == nil && s.maximum == nil && s.exclusiveMinimum == nil && s.exclusiveMaximum == nil && s.multipleOf == nil {
		return
	}
	x := parseDecimal(v.raw)
	got := truncate(v.raw)
	if s.minimum != nil && s.minimum.cmp(&x) < 0 {
		vd.add("must be at least %s; got %s", s.minimum.raw, got)
	}
	if s.maximum != nil && s.maximum.cmp(&x) > 0 {
		vd.add("must be at most %s; got %s", s.maximum.raw, got)
	}
	if s.exclusiveMinimum != nil && s.exclusiveMinimum.cmp(&x) <= 0 {
		vd.add("must be greater than %s; got %s", s.exclusiveMinimum.raw, got)
	}
	if s.exclusiveMaximum != nil && s.exclusiveMaximum.cmp(&x) >= 0 {
		vd.add("must be less than %s; got %s", s.exclusiveMaximum.raw, got)
	}
	if s.multipleOf != nil && !s.multipleOf.isMultiple(&x) {
		vd.add("must be a multiple of %s; got %s", s.multipleOf.raw, got)
	}
}

// joinPath extends a path with a member name.
func joinPath(path, name string) string {
	switch {
	case !isIdentifier(name):
		return path + "[" + strconv.Quote(name) + "]"
	case path == "":
		return name
	default:
		return path + "." + name
	}
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '$' || r == '/' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}

// describe shows a received value in a violation message: scalars as
// JSON, so that a string is quoted and a number is not.
func describe(v *value) string {
	switch v.kind {
	case kindObject:
		return "an object"
	case kindArray:
		return "an array"
	default:
		return truncate(v.raw)
	}
}

func enumList(vals []value) string {
	var b strings.Builder
	for i := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(truncate(vals[i].raw))
	}
	return b.String()
}

func truncate(raw []byte) string {
	const limit = 60
	if len(raw) <= limit {
		return string(raw)
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "…"
}

// canonical appends a form of v in which equal JSON values (equalJSON) have
// equal bytes: numbers normalised, object members sorted.
func canonical(b []byte, v *value) []byte {
	switch v.kind {
	case kindNumber:
		d := parseDecimal(v.raw)
		return d.appendCanonical(append(b, 'n'))
	case kindString:
		return appendString(b, v.str())
	case kindArray:
		b = append(b, '[')
		for i := range v.elems {
			b = append(canonical(b, &v.elems[i]), ',')
		}
		return append(b, ']')
	case kindObject:
		ms := slices.Clone(v.members)
		slices.SortFunc(ms, func(x, y member) int { return strings.Compare(x.name, y.name) })
		b = append(b, '{')
		for i := range ms {
			b = appendString(b, ms[i].name)
			b = append(canonical(append(b, ':'), &ms[i].value), ',')
		}
		return append(b, '}')
	default:
		return append(b, v.raw...)
	}
}

// equalJSON reports whether a and b are the same JSON value: numbers
// compare by value, objects regardless of member order.
func equalJSON(a, b *value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kindNull:
		return true
	case kindBool:
		return string(a.raw) == string(b.raw)
	case kindNumber:
		if string(a.raw) == string(b.raw) {
			return true
		}
		x, y := parseDecimal(a.raw), parseDecimal(b.raw)
		return equalDecimal(&x, &y)
	case kindString:
		return string(a.raw) == string(b.raw) || a.str() == b.str()
	case kindArray:
		return slices.EqualFunc(a.elems, b.elems, func(x, y value) bool { return equalJSON(&x, &y) })
	default:
		if len(a.members) != len(b.members) {
			return false
		}
		for i := range a.members {
			bv := b.get(a.members[i].name)
			if bv == nil || !equalJSON(&a.members[i].value, bv) {
				return false
			}
		}
		return true
	}
}
