package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A Violation is one way in which an instance fails its schema.
type Violation struct {
	Path string // e.g. "labels[2]" or "address.city"; "" is the root
	Msg  string
}

// MaxViolations bounds the report for one instance.
const MaxViolations = 20

type validator struct {
	out     []Violation
	omitted int // violations beyond MaxViolations
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
	if len(vd.out) < MaxViolations {
		vd.out = append(vd.out, Violation{vd.pathString(), fmt.Sprintf(format, args...)})
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

// Validate reports every violation of s by v, up to MaxViolations, and
// then how many more there are, so that a long report does not look
// complete.
func (s *Schema) Validate(v *jsonvalue.Value) []Violation {
	var vd validator
	vd.check(s, v)
	if vd.omitted > 0 {
		vd.out = append(vd.out, Violation{"", plural(vd.omitted, "more violation") + " not listed"})
	}
	return vd.out
}

// valid reports whether v satisfies s.
func (s *Schema) valid(v *jsonvalue.Value) bool {
	var vd validator
	vd.check(s, v)
	return len(vd.out) == 0
}

func (vd *validator) check(s *Schema, v *jsonvalue.Value) {
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
		vd.add("must be %s; got %s", truncate(s.constVal.Raw), describe(v))
	}
	if s.enum != nil && !slices.ContainsFunc(s.enum, func(e jsonvalue.Value) bool { return equalJSON(&e, v) }) {
		vd.add("must be one of %s; got %s", enumList(s.enum), describe(v))
	}
	switch v.Kind {
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
func (vd *validator) alternatives(alts []*Schema, v *jsonvalue.Value, msg string) {
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
		vd.add("must be %s; got %s", types, describe(v))
		return
	}
	vd.add("%s; got %s", msg, describe(v))
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

func (t typeSet) has(v *jsonvalue.Value) bool {
	switch v.Kind {
	case jsonvalue.Null:
		return t&typeNull != 0
	case jsonvalue.Bool:
		return t&typeBoolean != 0
	case jsonvalue.Number:
		return t&typeNumber != 0 || t&typeInteger != 0 && isInteger(v.Raw)
	case jsonvalue.String:
		return t&typeString != 0
	case jsonvalue.Array:
		return t&typeArray != 0
	default:
		return t&typeObject != 0
	}
}

func (vd *validator) object(s *Schema, v *jsonvalue.Value) {
	vd.duplicateMembers(v)
	for i := range v.Members {
		m := &v.Members[i]
		if s.propertyNames != nil {
			name := jsonvalue.Value{Kind: jsonvalue.String, Raw: jsonvalue.AppendString(nil, m.Name)}
			if !s.propertyNames.valid(&name) {
				vd.addAt(m.Name, "is not an allowed property name")
			}
		}
		matched := false
		for _, p := range s.properties {
			if p.name == m.Name {
				vd.push(m.Name)
				vd.check(p.schema, &m.Value)
				vd.pop()
				matched = true
				break
			}
		}
		for _, pp := range s.patternProps {
			if pp.re.MatchString(m.Name) {
				vd.push(m.Name)
				vd.check(pp.schema, &m.Value)
				vd.pop()
				matched = true
			}
		}
		if !matched && s.additional != nil {
			if s.additional.bool != nil && !*s.additional.bool {
				vd.addAt(m.Name, "unknown property%s", s.knownProperties())
			} else {
				vd.push(m.Name)
				vd.check(s.additional, &m.Value)
				vd.pop()
			}
		}
	}
	for _, name := range s.required {
		if v.Get(name) == nil {
			vd.addAt(name, "is required")
		}
	}
	for name, deps := range s.depRequired {
		if v.Get(name) != nil {
			for _, d := range deps {
				if v.Get(d) == nil {
					vd.addAt(d, "is required when %q is present", name)
				}
			}
		}
	}
	if len(v.Members) < s.minProps {
		vd.add("must have at least %s; got %d", plural(s.minProps, "property"), len(v.Members))
	}
	if s.maxProps >= 0 && len(v.Members) > s.maxProps {
		vd.add("must have at most %s; got %d", plural(s.maxProps, "property"), len(v.Members))
	}
}

// duplicateMembers reports names that occur more than once in an object.
// encoding/json would silently keep the last one, so a caller could hide a
// value from review; rejecting them keeps what is validated and what the
// handler receives the same.
func (vd *validator) duplicateMembers(v *jsonvalue.Value) {
	if len(v.Members) < 2 {
		return
	}
	if len(v.Members) <= 16 {
		for i := range v.Members {
			for j := range v.Members[:i] {
				if v.Members[j].Name == v.Members[i].Name {
					vd.addAt(v.Members[i].Name, "appears more than once")
					break
				}
			}
		}
		return
	}
	seen := make(map[string]bool, len(v.Members))
	for i := range v.Members {
		name := v.Members[i].Name
		if seen[name] {
			vd.addAt(name, "appears more than once")
		}
		seen[name] = true
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

func (vd *validator) array(s *Schema, v *jsonvalue.Value) {
	n := len(v.Elems)
	for i := range v.Elems {
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
		vd.check(sub, &v.Elems[i])
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
		for i := range v.Elems {
			key := canonical(nil, &v.Elems[i])
			if j, ok := seen[string(key)]; ok {
				vd.add("items must be unique; items %d and %d are equal", j, i)
				break
			}
			seen[string(key)] = i
		}
	}
	if s.contains != nil {
		c := 0
		for i := range v.Elems {
			if s.contains.valid(&v.Elems[i]) {
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

func (vd *validator) string(s *Schema, v *jsonvalue.Value) {
	if s.minLength == 0 && s.maxLength < 0 && s.pattern == nil {
		return
	}
	str := v.Str()
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

func (vd *validator) number(s *Schema, v *jsonvalue.Value) {
	if s.minimum == nil && s.maximum == nil && s.exclusiveMinimum == nil && s.exclusiveMaximum == nil && s.multipleOf == nil {
		return
	}
	x := parseDecimal(v.Raw)
	got := truncate(v.Raw)
	if s.minimum != nil && s.minimum.cmp(&x) < 0 {
		vd.add("must be at least %s; got %s", s.minimum.text, got)
	}
	if s.maximum != nil && s.maximum.cmp(&x) > 0 {
		vd.add("must be at most %s; got %s", s.maximum.text, got)
	}
	if s.exclusiveMinimum != nil && s.exclusiveMinimum.cmp(&x) <= 0 {
		vd.add("must be greater than %s; got %s", s.exclusiveMinimum.text, got)
	}
	if s.exclusiveMaximum != nil && s.exclusiveMaximum.cmp(&x) >= 0 {
		vd.add("must be less than %s; got %s", s.exclusiveMaximum.text, got)
	}
	if s.multipleOf != nil && !s.multipleOf.isMultiple(&x) {
		vd.add("must be a multiple of %s; got %s", s.multipleOf.text, got)
	}
}

// canonical appends a form of v in which equal JSON values (equalJSON) have
// equal bytes: numbers normalised, object members sorted.
func canonical(b []byte, v *jsonvalue.Value) []byte {
	switch v.Kind {
	case jsonvalue.Number:
		d := parseDecimal(v.Raw)
		return d.appendCanonical(append(b, 'n'))
	case jsonvalue.String:
		return jsonvalue.AppendString(b, v.Str())
	case jsonvalue.Array:
		b = append(b, '[')
		for i := range v.Elems {
			b = append(canonical(b, &v.Elems[i]), ',')
		}
		return append(b, ']')
	case jsonvalue.Object:
		ms := slices.Clone(v.Members)
		slices.SortFunc(ms, func(x, y jsonvalue.Member) int { return strings.Compare(x.Name, y.Name) })
		b = append(b, '{')
		for i := range ms {
			b = jsonvalue.AppendString(b, ms[i].Name)
			b = append(canonical(append(b, ':'), &ms[i].Value), ',')
		}
		return append(b, '}')
	default:
		return append(b, v.Raw...)
	}
}

// equalJSON reports whether a and b are the same JSON value: numbers
// compare by value, objects regardless of member order.
func equalJSON(a, b *jsonvalue.Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case jsonvalue.Null:
		return true
	case jsonvalue.Bool:
		return string(a.Raw) == string(b.Raw)
	case jsonvalue.Number:
		if string(a.Raw) == string(b.Raw) {
			return true
		}
		x, y := parseDecimal(a.Raw), parseDecimal(b.Raw)
		return equalDecimal(&x, &y)
	case jsonvalue.String:
		return string(a.Raw) == string(b.Raw) || a.Str() == b.Str()
	case jsonvalue.Array:
		return slices.EqualFunc(a.Elems, b.Elems, func(x, y jsonvalue.Value) bool { return equalJSON(&x, &y) })
	default:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for i := range a.Members {
			bv := b.Get(a.Members[i].Name)
			if bv == nil || !equalJSON(&a.Members[i].Value, bv) {
				return false
			}
		}
		return true
	}
}
