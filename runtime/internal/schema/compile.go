package schema

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// Compile compiles the JSON Schema text data.
func Compile(data []byte) (*Schema, error) {
	root, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, err
	}
	c := &compiler{root: root, byPointer: map[string]*Schema{}}
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
	state := map[*Schema]int{}
	for _, sc := range c.byPointer {
		if err := checkInPlaceCycle(sc, state); err != nil {
			return nil, err
		}
	}
	for _, sc := range c.byPointer {
		for _, p := range sc.properties {
			s.hasDefaults = s.hasDefaults || p.schema.defaultVal.Exists()
		}
	}
	return s, nil
}

// checkInPlaceCycle rejects schemas that apply themselves to the same
// instance without descending into it ({"$ref":"#"} at the root, or two
// definitions referring to each other), which would never terminate.
func checkInPlaceCycle(s *Schema, state map[*Schema]int) error {
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
	root      jsonvalue.Value
	byPointer map[string]*Schema // compiled subschemas by JSON pointer
	refs      []*Schema          // schemas whose $ref must be resolved
}

// keywords the compiler knows; anything else is an annotation (description,
// title, default, examples, contentEncoding, $schema, $id, x-…), as is a
// format that format.go does not check.
// These assert something that this validator does not implement, so a
// schema using them is refused rather than silently weakened.
var unsupportedKeywords = []string{
	"if", "then", "else", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
	"$dynamicRef", "$recursiveRef",
}

func (c *compiler) compile(v jsonvalue.Value, ptr string) (*Schema, error) {
	s := &Schema{maxProps: -1, maxItems: -1, maxLength: -1, maxContains: -1, minContains: 1}
	c.byPointer[ptr] = s
	switch v.Kind() {
	case jsonvalue.Bool:
		b := string(v.Raw()) == "true"
		s.bool = &b
		return s, nil
	case jsonvalue.Object:
	default:
		return nil, fmt.Errorf("schema at %s: must be an object or boolean, not %s", ptr, v.Kind())
	}
	at := func(kw string) string { return ptr + "/" + escapePointer(kw) }
	for kw, kv := range v.Members() {
		var err error
		if !slices.Contains(annotations, kw) {
			s.assertions++
		}
		switch kw {
		case "default":
			s.defaultVal = kv
		case "title":
			if kv.Kind() == jsonvalue.String {
				s.title = kv.Str()
			}
		case "type":
			s.types, err = compileTypes(kv)
		case "enum":
			if kv.Kind() != jsonvalue.Array {
				err = fmt.Errorf("must be an array")
			}
			for _, e := range kv.Elems() {
				s.enum = append(s.enum, e)
			}
		case "const":
			s.constVal = kv
		case "properties":
			err = c.each(kv, at(kw), func(name string, sub *Schema) error {
				s.properties = append(s.properties, propertySchema{name, sub})
				return nil
			})
		case "patternProperties":
			err = c.each(kv, at(kw), func(name string, sub *Schema) error {
				re, err := regexp.Compile(name)
				if err != nil {
					return err
				}
				s.patternProps = append(s.patternProps, patternSchema{re, sub})
				return nil
			})
		case "additionalProperties":
			s.additional, err = c.compile(kv, at(kw))
		case "propertyNames":
			s.propertyNames, err = c.compile(kv, at(kw))
		case "required":
			s.required, err = stringList(kv)
		case "dependentRequired":
			if kv.Kind() != jsonvalue.Object {
				err = fmt.Errorf("must be an object")
				break
			}
			s.depRequired = map[string][]string{}
			for name, dm := range kv.Members() {
				if s.depRequired[name], err = stringList(dm); err != nil {
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
			s.uniqueItems = string(kv.Raw()) == "true"
		case "minLength":
			s.minLength, err = nonNegative(kv)
		case "maxLength":
			s.maxLength, err = nonNegative(kv)
		case "pattern":
			if kv.Kind() != jsonvalue.String {
				err = fmt.Errorf("must be a string")
				break
			}
			s.pattern, err = regexp.Compile(kv.Str())
		case "format":
			if kv.Kind() != jsonvalue.String {
				err = fmt.Errorf("must be a string")
				break
			}
			s.format = formats[kv.Str()]
		case "minimum":
			s.minimum, err = compileNumber(kv)
		case "maximum":
			s.maximum, err = compileNumber(kv)
		case "exclusiveMinimum":
			s.exclusiveMinimum, err = compileNumber(kv)
		case "exclusiveMaximum":
			s.exclusiveMaximum, err = compileNumber(kv)
		case "multipleOf":
			if kv.Kind() != jsonvalue.Number {
				err = fmt.Errorf("must be a number")
				break
			}
			s.multipleOf, err = newMultiple(kv.Raw())
		case "allOf":
			err = c.list(kv, at(kw), &s.allOf)
		case "anyOf":
			err = c.list(kv, at(kw), &s.anyOf)
		case "oneOf":
			err = c.list(kv, at(kw), &s.oneOf)
		case "not":
			s.not, err = c.compile(kv, at(kw))
		case "$ref":
			if kv.Kind() != jsonvalue.String {
				err = fmt.Errorf("must be a string")
				break
			}
			s.ref = kv.Str()
			c.refs = append(c.refs, s)
		case "$defs", "definitions":
			err = c.each(kv, at(kw), func(string, *Schema) error { return nil })
		default:
			if slices.Contains(unsupportedKeywords, kw) {
				err = fmt.Errorf("keyword is not supported by the mcpgen runtime")
			}
		}
		if err != nil {
			return nil, fmt.Errorf("schema at %s: %w", at(kw), err)
		}
	}
	s.titledEnum()
	return s, nil
}

// annotations are the keywords that say something about an instance
// without constraining it.
var annotations = []string{"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment", "$schema", "$id", "$anchor", "$defs", "definitions", "contentEncoding", "contentMediaType"}

// titledEnum compiles a oneOf whose alternatives are each a const with a
// title ({"const": 2, "title": "High"}, how mcpgen lists an integer
// type's constants) as the enum it is, so that a violation names the
// allowed values and their titles in one line ("must be one of 1 (Low),
// 2 (High)") rather than reporting each alternative's failure. The
// constants are distinct in such a list, so exactly one matches when any
// does: the enum accepts what the oneOf accepts.
func (s *Schema) titledEnum() {
	if s.oneOf == nil || s.enum != nil {
		return
	}
	vals := make([]jsonvalue.Value, len(s.oneOf))
	names := make([]string, len(s.oneOf))
	for i, alt := range s.oneOf {
		if alt.assertions != 1 || !alt.constVal.Exists() || alt.title == "" {
			return
		}
		for _, prev := range vals[:i] {
			if equalJSON(prev, alt.constVal) {
				return // not distinct: the oneOf refuses it, an enum would not
			}
		}
		vals[i], names[i] = alt.constVal, alt.title
	}
	s.enum, s.enumNames, s.oneOf = vals, names, nil
}

// each compiles every member of the object v as a subschema.
func (c *compiler) each(v jsonvalue.Value, ptr string, f func(string, *Schema) error) error {
	if v.Kind() != jsonvalue.Object {
		return fmt.Errorf("must be an object")
	}
	for name, m := range v.Members() {
		sub, err := c.compile(m, ptr+"/"+escapePointer(name))
		if err != nil {
			return err
		}
		if err := f(strings.Clone(name), sub); err != nil {
			return err
		}
	}
	return nil
}

// list compiles every element of the array v as a subschema.
func (c *compiler) list(v jsonvalue.Value, ptr string, dst *[]*Schema) error {
	if v.Kind() != jsonvalue.Array || v.Len() == 0 {
		return fmt.Errorf("must be a non-empty array")
	}
	for i, e := range v.Elems() {
		sub, err := c.compile(e, ptr+"/"+strconv.Itoa(i))
		if err != nil {
			return err
		}
		*dst = append(*dst, sub)
	}
	return nil
}

// resolve finds the target of a local reference ("#", "#/$defs/Name", …).
func (c *compiler) resolve(ref string) (*Schema, error) {
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

func compileTypes(v jsonvalue.Value) (typeSet, error) {
	one := func(v jsonvalue.Value) (typeSet, error) {
		if v.Kind() == jsonvalue.String {
			name := v.Str()
			for _, tn := range typeNames {
				if tn.name == name {
					return tn.t, nil
				}
			}
		}
		return 0, fmt.Errorf("unknown type %s", v.Raw())
	}
	if v.Kind() != jsonvalue.Array {
		return one(v)
	}
	var ts typeSet
	for _, e := range v.Elems() {
		t, err := one(e)
		if err != nil {
			return 0, err
		}
		ts |= t
	}
	return ts, nil
}

func stringList(v jsonvalue.Value) ([]string, error) {
	if v.Kind() != jsonvalue.Array {
		return nil, fmt.Errorf("must be an array of strings")
	}
	out := make([]string, 0, v.Len())
	for _, e := range v.Elems() {
		if e.Kind() != jsonvalue.String {
			return nil, fmt.Errorf("must be an array of strings")
		}
		out = append(out, e.Str())
	}
	return out, nil
}

func nonNegative(v jsonvalue.Value) (int, error) {
	if v.Kind() == jsonvalue.Number && isInteger(v.Raw()) {
		if n, err := strconv.Atoi(string(v.Raw())); err == nil && n >= 0 {
			return n, nil
		}
		if f, err := strconv.ParseFloat(string(v.Raw()), 64); err == nil && f >= 0 && f < 1<<53 {
			return int(f), nil
		}
	}
	return 0, fmt.Errorf("must be a non-negative integer")
}

func compileNumber(v jsonvalue.Value) (*number, error) {
	if v.Kind() != jsonvalue.Number {
		return nil, fmt.Errorf("must be a number")
	}
	return newNumber(v.Raw())
}
