package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonpath"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A Violation is one way in which an instance fails its schema.
type Violation struct {
	Path string // e.g. "labels[2]" or "address.city"; "" is the root
	Msg  string
}

// Rule returns what the value must be, without what it was: Msg up to
// "; got", for a value that must not be shown (a secret).
//
// Invariant: a message shows the value it received only after its first
// "; got " (every add whose format ends "; got %s" or "; got %d"); a
// "; got " in what comes before (a pattern's text, say) only cuts more.
func (v Violation) Rule() string {
	rule, _, _ := strings.Cut(v.Msg, "; got ")
	return rule
}

// MaxViolations bounds the report for one instance.
const MaxViolations = 20

type validator struct {
	out     []Violation
	omitted int  // violations beyond MaxViolations
	quiet   bool // only whether there is a violation matters
	failed  bool // a violation was found while quiet
	// path is where the check is, a step per level; it is written out
	// only for a violation (jsonpath.Format, in time linear in its
	// length), so that a valid value costs no string building.
	path []jsonpath.Step
}

// push, pushIndex and pop track the path, except in a check of validity
// alone, which reports no path.
func (vd *validator) push(name string) {
	if !vd.quiet {
		vd.path = append(vd.path, jsonpath.Member(name))
	}
}

func (vd *validator) pushIndex(i int) {
	if !vd.quiet {
		vd.path = append(vd.path, jsonpath.Index(i))
	}
}

func (vd *validator) pop() {
	if !vd.quiet {
		vd.path = vd.path[:len(vd.path)-1]
	}
}

// add reports a violation at the current path.
//
// Callers first ask room, so that the message's arguments are not even
// computed for the violations left out: a hostile array of a million bad
// elements then costs no garbage.
func (vd *validator) add(format string, args ...any) {
	vd.out = append(vd.out, Violation{jsonpath.Format(vd.path), fmt.Sprintf(format, args...)})
}

// room reports whether a violation found now is to be written out. When it
// is not, room counts it (or, for a check of validity alone, notes it).
func (vd *validator) room() bool {
	switch {
	case vd.quiet:
		vd.failed = true
		return false
	case len(vd.out) < MaxViolations:
		return true
	default:
		vd.omitted++
		return false
	}
}

// addAt reports a violation at the member name of the current object.
func (vd *validator) addAt(name string, format string, args ...any) {
	vd.push(name)
	if vd.room() {
		vd.add(format, args...)
	}
	vd.pop()
}

// Validate reports every violation of s by v, up to MaxViolations, and
// then how many more there are, so that a long report does not look
// complete.
func (s *Schema) Validate(v jsonvalue.Value) []Violation {
	stored := s.paths.get()
	vd := validator{path: (*stored)[:0]}
	vd.check(s, v)
	*stored = vd.path
	s.paths.put(stored)
	if vd.omitted > 0 {
		vd.out = append(vd.out, Violation{"", plural(vd.omitted, "more violation") + " not listed"})
	}
	return vd.out
}

// valid reports whether v satisfies s.
func (s *Schema) valid(v jsonvalue.Value) bool {
	vd := validator{quiet: true}
	vd.check(s, v)
	return !vd.failed
}

func (vd *validator) check(s *Schema, v jsonvalue.Value) {
	if s.bool != nil {
		if !*s.bool && vd.room() {
			vd.add("is not allowed")
		}
		return
	}
	if s.refTo != nil {
		vd.check(s.refTo, v)
	}
	if s.types != 0 && !s.types.has(v) {
		if vd.room() {
			vd.add("must be %s; got %s", s.types, describe(v))
		}
		return // the remaining keywords would only repeat the type error
	}
	if s.constVal.Exists() && !equalJSON(s.constVal, v) && vd.room() {
		vd.add("must be %s; got %s", truncate(s.constVal.Raw()), describe(v))
	}
	if s.enum != nil && !slices.ContainsFunc(s.enum, func(e jsonvalue.Value) bool { return equalJSON(e, v) }) {
		if vd.room() {
			vd.add("must be one of %s; got %s", enumList(s.enum, s.enumNames), describe(v))
		}
	}
	switch v.Kind() {
	case jsonvalue.Object:
		vd.object(s, v)
	case jsonvalue.Array:
		vd.array(s, v)
	case jsonvalue.String:
		vd.string(s, v)
	case jsonvalue.Number:
		vd.number(s, v)
	}
	for _, sub := range s.allOf {
		vd.check(sub, v)
	}
	if s.anyOf != nil && !slices.ContainsFunc(s.anyOf, func(sub *Schema) bool { return sub.valid(v) }) {
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
			if vd.room() {
				vd.add("must match exactly one of the allowed schemas; matches %d", n)
			}
		}
	}
	if s.not != nil && s.not.valid(v) && vd.room() {
		vd.add("must not match the excluded schema")
	}
}

// alternatives reports a failed anyOf/oneOf. When exactly one alternative
// has the value's type (the common "T or null" case), its own violations
// are the most useful explanation.
func (vd *validator) alternatives(alts []*Schema, v jsonvalue.Value, msg string) {
	var candidate *Schema
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
		if vd.room() {
			vd.add("must be %s; got %s", types, describe(v))
		}
		return
	}
	if vd.room() {
		vd.add("%s; got %s", msg, describe(v))
	}
}

// effectiveTypes is the type set that s constrains a value to, looking
// through $ref (a branch such as {"$ref":"#/$defs/Point"} is an object
// schema); 0 when s does not constrain the type.
func (s *Schema) effectiveTypes() typeSet {
	for range 64 { // Compile rejects $ref cycles that stay in place
		if s.types != 0 || s.refTo == nil {
			return s.types
		}
		s = s.refTo
	}
	return 0
}

func (t typeSet) has(v jsonvalue.Value) bool {
	switch v.Kind() {
	case jsonvalue.Null:
		return t&typeNull != 0
	case jsonvalue.Bool:
		return t&typeBoolean != 0
	case jsonvalue.Number:
		return t&typeNumber != 0 || t&typeInteger != 0 && isInteger(v.Raw())
	case jsonvalue.String:
		return t&typeString != 0
	case jsonvalue.Array:
		return t&typeArray != 0
	default:
		return t&typeObject != 0
	}
}

func (vd *validator) object(s *Schema, v jsonvalue.Value) {
	n := 0
	for name, m := range v.Members() {
		n++
		if s.propertyNames != nil {
			key, _ := jsonvalue.Parse(jsonvalue.AppendString(nil, name))
			if !s.propertyNames.valid(key) && vd.room() {
				vd.addAt(name, "is not an allowed property name")
			}
		}
		matched := false
		for _, p := range s.properties {
			if p.name == name {
				vd.push(name)
				vd.check(p.schema, m)
				vd.pop()
				matched = true
				break
			}
		}
		for _, pp := range s.patternProps {
			if pp.re.MatchString(name) {
				vd.push(name)
				vd.check(pp.schema, m)
				vd.pop()
				matched = true
			}
		}
		if !matched && s.additional != nil {
			if s.additional.bool != nil && !*s.additional.bool {
				if vd.room() {
					vd.addAt(name, "unknown property%s", s.knownProperties())
				}
			} else {
				vd.push(name)
				vd.check(s.additional, m)
				vd.pop()
			}
		}
	}
	for _, name := range s.required {
		if !v.Get(name).Exists() && vd.room() {
			vd.addAt(name, "is required")
		}
	}
	for name, deps := range s.depRequired {
		if v.Get(name).Exists() {
			for _, d := range deps {
				if !v.Get(d).Exists() && vd.room() {
					vd.addAt(d, "is required when %q is present", name)
				}
			}
		}
	}
	if n < s.minProps && vd.room() {
		vd.add("must have at least %s; got %d", plural(s.minProps, "property"), n)
	}
	if s.maxProps >= 0 && n > s.maxProps && vd.room() {
		vd.add("must have at most %s; got %d", plural(s.maxProps, "property"), n)
	}
}

// knownProperties lists the declared property names, to help a caller who
// misspelled one.
func (s *Schema) knownProperties() string {
	if len(s.properties) == 0 {
		return " (this object takes no properties)"
	}
	names := make([]string, len(s.properties))
	for i, p := range s.properties {
		names[i] = p.name
	}
	return " (allowed: " + strings.Join(names, ", ") + ")"
}

func (vd *validator) array(s *Schema, v jsonvalue.Value) {
	n := 0
	for i, e := range v.Elems() {
		n++
		var sub *Schema
		switch {
		case i < len(s.prefixItems):
			sub = s.prefixItems[i]
		case s.items != nil:
			sub = s.items
		default:
			continue
		}
		vd.pushIndex(i)
		vd.check(sub, e)
		vd.pop()
	}
	if n < s.minItems && vd.room() {
		vd.add("must have at least %s; got %d", plural(s.minItems, "item"), n)
	}
	if s.maxItems >= 0 && n > s.maxItems && vd.room() {
		vd.add("must have at most %s; got %d", plural(s.maxItems, "item"), n)
	}
	if s.uniqueItems {
		seen := make(map[string]int, n)
		for i, e := range v.Elems() {
			key := canonical(nil, e)
			if j, ok := seen[string(key)]; ok {
				if vd.room() {
					vd.add("items must be unique; items %d and %d are equal", j, i)
				}
				break
			}
			seen[string(key)] = i
		}
	}
	if s.contains != nil {
		c := 0
		for _, e := range v.Elems() {
			if s.contains.valid(e) {
				c++
			}
		}
		if c < s.minContains && vd.room() {
			vd.add("must contain at least %s; got %d", plural(s.minContains, "matching item"), c)
		}
		if s.maxContains >= 0 && c > s.maxContains && vd.room() {
			vd.add("must contain at most %s; got %d", plural(s.maxContains, "matching item"), c)
		}
	}
}

func (vd *validator) string(s *Schema, v jsonvalue.Value) {
	if s.format != nil && !s.format.valid(v) && vd.room() {
		vd.add("must be %s; got %s", s.format.like, describe(v))
	}
	if s.minLength == 0 && s.maxLength < 0 && s.pattern == nil {
		return
	}
	str := v.Str()
	n := utf8.RuneCountInString(str)
	if n < s.minLength && vd.room() {
		vd.add("must be at least %s long; got %d", plural(s.minLength, "character"), n)
	}
	if s.maxLength >= 0 && n > s.maxLength && vd.room() {
		vd.add("must be at most %s long; got %d", plural(s.maxLength, "character"), n)
	}
	if s.pattern != nil && !s.pattern.MatchString(str) && vd.room() {
		vd.add("must match the pattern %s; got %s", strconv.Quote(s.pattern.String()), describe(v))
	}
}

func (vd *validator) number(s *Schema, v jsonvalue.Value) {
	if s.minimum == nil && s.maximum == nil && s.exclusiveMinimum == nil && s.exclusiveMaximum == nil && s.multipleOf == nil {
		return
	}
	x := parseDecimal(v.Raw())
	if s.minimum != nil && s.minimum.cmp(&x) < 0 && vd.room() {
		vd.add("must be at least %s; got %s", s.minimum.text, truncate(v.Raw()))
	}
	if s.maximum != nil && s.maximum.cmp(&x) > 0 && vd.room() {
		vd.add("must be at most %s; got %s", s.maximum.text, truncate(v.Raw()))
	}
	if s.exclusiveMinimum != nil && s.exclusiveMinimum.cmp(&x) <= 0 && vd.room() {
		vd.add("must be greater than %s; got %s", s.exclusiveMinimum.text, truncate(v.Raw()))
	}
	if s.exclusiveMaximum != nil && s.exclusiveMaximum.cmp(&x) >= 0 && vd.room() {
		vd.add("must be less than %s; got %s", s.exclusiveMaximum.text, truncate(v.Raw()))
	}
	if s.multipleOf != nil && !s.multipleOf.isMultiple(&x) && vd.room() {
		vd.add("must be a multiple of %s; got %s", s.multipleOf.text, truncate(v.Raw()))
	}
}

// canonical appends a form of v in which equal JSON values (equalJSON) have
// equal bytes: numbers normalised, object members sorted.
func canonical(b []byte, v jsonvalue.Value) []byte {
	switch v.Kind() {
	case jsonvalue.Number:
		d := parseDecimal(v.Raw())
		return d.appendCanonical(append(b, 'n'))
	case jsonvalue.String:
		return jsonvalue.AppendString(b, v.Str())
	case jsonvalue.Array:
		b = append(b, '[')
		for _, e := range v.Elems() {
			b = append(canonical(b, e), ',')
		}
		return append(b, ']')
	case jsonvalue.Object:
		type member struct {
			name  string
			value jsonvalue.Value
		}
		var ms []member
		for name, m := range v.Members() {
			ms = append(ms, member{name, m})
		}
		slices.SortFunc(ms, func(x, y member) int { return strings.Compare(x.name, y.name) })
		b = append(b, '{')
		for _, m := range ms {
			b = jsonvalue.AppendString(b, m.name)
			b = append(canonical(append(b, ':'), m.value), ',')
		}
		return append(b, '}')
	default:
		return append(b, v.Raw()...)
	}
}

// equalJSON reports whether a and b are the same JSON value: numbers
// compare by value, objects regardless of member order.
func equalJSON(a, b jsonvalue.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case jsonvalue.Null:
		return true
	case jsonvalue.Bool:
		return a.IsTrue() == b.IsTrue()
	case jsonvalue.Number:
		if string(a.Raw()) == string(b.Raw()) {
			return true
		}
		x, y := parseDecimal(a.Raw()), parseDecimal(b.Raw())
		return equalDecimal(&x, &y)
	case jsonvalue.String:
		return string(a.Raw()) == string(b.Raw()) || a.Str() == b.Str()
	case jsonvalue.Array:
		if a.Len() != b.Len() {
			return false
		}
		var bs []jsonvalue.Value
		for _, e := range b.Elems() {
			bs = append(bs, e)
		}
		for i, e := range a.Elems() {
			if !equalJSON(e, bs[i]) {
				return false
			}
		}
		return true
	default:
		if a.Len() != b.Len() {
			return false
		}
		for name, m := range a.Members() {
			bv := b.Get(name)
			if !bv.Exists() || !equalJSON(m, bv) {
				return false
			}
		}
		return true
	}
}
