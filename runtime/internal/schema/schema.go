// Package schema compiles JSON Schema (draft 2020-12) documents and
// validates parsed JSON values against them, reporting each violation
// with its path and a message that a person or a model can act on.
//
// It implements the validation vocabulary that mcpgen emits and that
// hand-written tool schemas commonly use. Compile refuses the keywords it
// cannot honour, so that a server never advertises a constraint that it
// does not enforce. Numbers are compared exactly, as decimals (decimal.go),
// whatever their size.
package schema

import (
	"regexp"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonpath"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A Schema is a compiled JSON Schema (draft 2020-12). It implements the
// validation vocabulary that mcpgen emits and that hand-written tool
// schemas commonly use; Compile rejects keywords it cannot honour, so
// a tool never advertises a constraint that is not enforced.
type Schema struct {
	bool *bool // the schema is the literal true or false

	types    typeSet
	enum     []jsonvalue.Value
	constVal jsonvalue.Value
	// enumNames are the titles of the values of an enum written as a oneOf
	// of {"const": …, "title": …}, which is compiled as an enum (the two
	// accept the same values) whose messages name them.
	enumNames []string
	// defaultVal is the "default" annotation, which FillDefaults applies;
	// title is the "title" annotation.
	defaultVal jsonvalue.Value
	title      string
	// assertions counts the keywords that constrain an instance.
	assertions int
	// hasDefaults says that FillDefaults has something to fill: some
	// property below the root has a default.
	hasDefaults bool

	properties    []propertySchema
	required      []string
	additional    *Schema // nil: any additional property is allowed
	patternProps  []patternSchema
	propertyNames *Schema
	minProps      int
	maxProps      int // -1: no limit
	depRequired   map[string][]string

	items       *Schema
	prefixItems []*Schema
	contains    *Schema
	minContains int
	maxContains int // -1: no limit
	minItems    int
	maxItems    int // -1: no limit
	uniqueItems bool

	minLength int
	maxLength int // -1: no limit
	pattern   *regexp.Regexp
	format    *format // nil: none, or one that is only an annotation

	minimum, maximum                   *number
	exclusiveMinimum, exclusiveMaximum *number
	multipleOf                         *number

	allOf, anyOf, oneOf []*Schema
	not                 *Schema

	ref   string  // "$ref" as written
	refTo *Schema // resolved $ref

	paths pathPool // the path storage of Validate, reused across calls
}

// pathPool keeps the path storage of finished validations, so that
// validating a call allocates nothing when the arguments are valid.
type pathPool struct {
	pool sync.Pool
}

func (p *pathPool) get() *[]jsonpath.Step {
	if s, ok := p.pool.Get().(*[]jsonpath.Step); ok {
		return s
	}
	s := make([]jsonpath.Step, 0, 16)
	return &s
}

func (p *pathPool) put(s *[]jsonpath.Step) {
	if cap(*s) <= 64 { // not the storage of a hostile, deep input
		p.pool.Put(s)
	}
}

// IsObject reports whether s requires exactly an object, as the root of a
// tool's input schema must.
func (s *Schema) IsObject() bool { return s.types == typeObject }

type propertySchema struct {
	name   string
	schema *Schema
}

type patternSchema struct {
	re     *regexp.Regexp
	schema *Schema
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
