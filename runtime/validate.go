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
	multipleOf                         *big.Rat

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
	var names []string
	for _, tn := range typeNames {
		if t&tn.t != 0 {
			names = append(names, tn.name)
		}
	}
	switch len(names) {
	case 1:
		return article(names[0]) + " " + names[0]
	default:
		return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// number is a numeric bound, kept both as float64 for fast comparison and
// exactly for ties.
type number struct {
	f   float64
	rat *big.Rat
	raw string
}

func newNumber(raw []byte) (*number, error) {
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !isRangeErr(err) {
		return nil, err
	}
	r, ok := new(big.Rat).SetString(string(raw))
	if !ok {
		return nil, fmt.Errorf("invalid number %s", raw)
	}
	return &number{f: f, rat: r, raw: string(raw)}, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// cmp compares the JSON number raw with n exactly.
func (n *number) cmp(raw []byte) int {
	f, err := strconv.ParseFloat(string(raw), 64)
	if err == nil && f != n.f {
		if f < n.f {
			return -1
		}
		return 1
	}
	if string(raw) == n.raw {
		return 0
	}
	r, ok := new(big.Rat).SetString(string(raw))
	if !ok {
		return 0
	}
	return r.Cmp(n.rat)
}

// isInteger reports whether the JSON number raw has no fractional part.
func isInteger(raw []byte) bool {
	if bytes.IndexAny(raw, ".eE") < 0 {
		return true
	}
	r, ok := new(big.Rat).SetString(string(raw))
	return ok && r.IsInt()
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
			var n *number
			if n, err = compileNumber(kv); err == nil {
				if n.rat.Sign() <= 0 {
					err = fmt.Errorf("must be greater than 0")
				}
				s.multipleOf = n.rat
			}
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

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

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
	out []violation
}

func (vd *validator) add(path, format string, args ...any) {
	if len(vd.out) < maxViolations {
		vd.out = append(vd.out, violation{path, fmt.Sprintf(format, args...)})
	}
}

// validate reports every violation of s by v.
func (s *schema) validate(v *value) []violation {
	var vd validator
	vd.check(s, v, "")
	return vd.out
}

// valid reports whether v satisfies s.
func (s *schema) valid(v *value) bool {
	var vd validator
	vd.check(s, v, "")
	return len(vd.out) == 0
}

func (vd *validator) check(s *schema, v *value, path string) {
	if s.bool != nil {
		if !*s.bool {
			vd.add(path, "is not allowed")
		}
		return
	}
	if s.refTo != nil {
		vd.check(s.refTo, v, path)
	}
	if s.types != 0 && !s.types.has(v) {
		vd.add(path, "must be %s; got %s", s.types, describe(v))
		return // the remaining keywords would only repeat the type error
	}
	if s.constVal != nil && !equalJSON(s.constVal, v) {
		vd.add(path, "must be %s; got %s", truncate(s.constVal.raw), describe(v))
	}
	if s.enum != nil && !slices.ContainsFunc(s.enum, func(e value) bool { return equalJSON(&e, v) }) {
		vd.add(path, "must be one of %s; got %s", enumList(s.enum), describe(v))
	}
	switch v.kind {
	case kindObject:
		vd.object(s, v, path)
	case kindArray:
		vd.array(s, v, path)
	case kindString:
		vd.string(s, v, path)
	case kindNumber:
		vd.number(s, v, path)
	}
	for _, sub := range s.allOf {
		vd.check(sub, v, path)
	}
	if s.anyOf != nil && !slices.ContainsFunc(s.anyOf, func(sub *schema) bool { return sub.valid(v) }) {
		vd.alternatives(s.anyOf, v, path, "must match at least one of the allowed schemas")
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
			vd.alternatives(s.oneOf, v, path, "must match exactly one of the allowed schemas")
		case n > 1:
			vd.add(path, "must match exactly one of the allowed schemas; matches %d", n)
		}
	}
	if s.not != nil && s.not.valid(v) {
		vd.add(path, "must not match the excluded schema")
	}
}

// alternatives reports a failed anyOf/oneOf. When exactly one alternative
// has the value's type (the common "T or null" case), its own violations
// are the most useful explanation.
func (vd *validator) alternatives(alts []*schema, v *value, path, msg string) {
	var candidate *schema
	for _, a := range alts {
		if a.bool == nil && (a.types == 0 || a.types.has(v)) {
			if candidate != nil {
				candidate = nil
				break
			}
			candidate = a
		}
	}
	if candidate != nil {
		vd.check(candidate, v, path)
		return
	}
	var types typeSet
	for _, a := range alts {
		types |= a.types
	}
	if types != 0 && !types.has(v) {
		vd.add(path, "must be %s; got %s", types, describe(v))
		return
	}
	vd.add(path, "%s; got %s", msg, describe(v))
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

func (vd *validator) object(s *schema, v *value, path string) {
	vd.duplicateMembers(v, path)
	for i := range v.members {
		m := &v.members[i]
		if s.propertyNames != nil {
			name := value{kind: kindString, raw: appendString(nil, m.name)}
			if !s.propertyNames.valid(&name) {
				vd.add(join(path, m.name), "is not an allowed property name")
			}
		}
		matched := false
		for _, p := range s.properties {
			if p.name == m.name {
				vd.check(p.schema, &m.value, join(path, m.name))
				matched = true
				break
			}
		}
		for _, pp := range s.patternProps {
			if pp.re.MatchString(m.name) {
				vd.check(pp.schema, &m.value, join(path, m.name))
				matched = true
			}
		}
		if !matched && s.additional != nil {
			if s.additional.bool != nil && !*s.additional.bool {
				vd.add(join(path, m.name), "unknown property%s", s.knownProperties())
			} else {
				vd.check(s.additional, &m.value, join(path, m.name))
			}
		}
	}
	for _, name := range s.required {
		if v.get(name) == nil {
			vd.add(join(path, name), "is required")
		}
	}
	for name, deps := range s.depRequired {
		if v.get(name) != nil {
			for _, d := range deps {
				if v.get(d) == nil {
					vd.add(join(path, d), "is required when %q is present", name)
				}
			}
		}
	}
	if len(v.members) < s.minProps {
		vd.add(path, "must have at least %d properties; got %d", s.minProps, len(v.members))
	}
	if s.maxProps >= 0 && len(v.members) > s.maxProps {
		vd.add(path, "must have at most %d properties; got %d", s.maxProps, len(v.members))
	}
}

// duplicateMembers reports names that occur more than once in an object.
// encoding/json would silently keep the last one, so a caller could hide a
// value from review; rejecting them keeps what is validated and what the
// handler receives the same.
func (vd *validator) duplicateMembers(v *value, path string) {
	if len(v.members) < 2 {
		return
	}
	if len(v.members) <= 16 {
		for i := range v.members {
			for j := range v.members[:i] {
				if v.members[j].name == v.members[i].name {
					vd.add(join(path, v.members[i].name), "appears more than once")
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
			vd.add(join(path, name), "appears more than once")
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

func (vd *validator) array(s *schema, v *value, path string) {
	n := len(v.elems)
	for i := range v.elems {
		p := path + "[" + strconv.Itoa(i) + "]"
		switch {
		case i < len(s.prefixItems):
			vd.check(s.prefixItems[i], &v.elems[i], p)
		case s.items != nil:
			vd.check(s.items, &v.elems[i], p)
		}
	}
	if n < s.minItems {
		vd.add(path, "must have at least %d items; got %d", s.minItems, n)
	}
	if s.maxItems >= 0 && n > s.maxItems {
		vd.add(path, "must have at most %d items; got %d", s.maxItems, n)
	}
	if s.uniqueItems {
		seen := make(map[string]int, n)
		for i := range v.elems {
			key := canonical(nil, &v.elems[i])
			if j, ok := seen[string(key)]; ok {
				vd.add(path, "items must be unique; items %d and %d are equal", j, i)
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
			vd.add(path, "must contain at least %d matching items; got %d", s.minContains, c)
		}
		if s.maxContains >= 0 && c > s.maxContains {
			vd.add(path, "must contain at most %d matching items; got %d", s.maxContains, c)
		}
	}
}

func (vd *validator) string(s *schema, v *value, path string) {
	if s.minLength == 0 && s.maxLength < 0 && s.pattern == nil {
		return
	}
	str := v.str()
	n := utf8.RuneCountInString(str)
	if n < s.minLength {
		vd.add(path, "must be at least %d characters long; got %d", s.minLength, n)
	}
	if s.maxLength >= 0 && n > s.maxLength {
		vd.add(path, "must be at most %d characters long; got %d", s.maxLength, n)
	}
	if s.pattern != nil && !s.pattern.MatchString(str) {
		vd.add(path, "must match the pattern %s; got %s", strconv.Quote(s.pattern.String()), describe(v))
	}
}

func (vd *validator) number(s *schema, v *value, path string) {
	if s.minimum != nil && s.minimum.cmp(v.raw) < 0 {
		vd.add(path, "must be at least %s; got %s", s.minimum.raw, v.raw)
	}
	if s.maximum != nil && s.maximum.cmp(v.raw) > 0 {
		vd.add(path, "must be at most %s; got %s", s.maximum.raw, v.raw)
	}
	if s.exclusiveMinimum != nil && s.exclusiveMinimum.cmp(v.raw) <= 0 {
		vd.add(path, "must be greater than %s; got %s", s.exclusiveMinimum.raw, v.raw)
	}
	if s.exclusiveMaximum != nil && s.exclusiveMaximum.cmp(v.raw) >= 0 {
		vd.add(path, "must be less than %s; got %s", s.exclusiveMaximum.raw, v.raw)
	}
	if s.multipleOf != nil {
		r, ok := new(big.Rat).SetString(string(v.raw))
		if ok && !new(big.Rat).Quo(r, s.multipleOf).IsInt() {
			vd.add(path, "must be a multiple of %s; got %s", s.multipleOf.RatString(), v.raw)
		}
	}
}

// join extends a property path with a member name.
func join(path, name string) string {
	if !isIdentifier(name) {
		name = "[" + strconv.Quote(name) + "]"
		return path + name
	}
	if path == "" {
		return name
	}
	return path + "." + name
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
		if r, ok := new(big.Rat).SetString(string(v.raw)); ok {
			return append(append(b, 'n'), r.RatString()...)
		}
		return append(b, v.raw...)
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
		x, ok1 := new(big.Rat).SetString(string(a.raw))
		y, ok2 := new(big.Rat).SetString(string(b.raw))
		return ok1 && ok2 && x.Cmp(y) == 0
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
