package schema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonpath"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The agreement test checks compileSchema/validate against an independent
// JSON Schema 2020-12 implementation, santhosh-tekuri/jsonschema/v6, on
// every schema the generator produces (testdata/golden) plus a few
// hand-written schemas that use keywords the golden ones do not.
//
// Instances are generated from the schema document itself (decoded with
// encoding/json, not with this package's parser) by a seeded generator, so
// a failure reproduces: the seed is derived from the schema's name. Every
// instance has an intended verdict. A valid instance satisfies every
// keyword; an invalid one is a valid instance with one or two targeted
// mutations (a missing required property, an unknown property, a wrong
// type, an enum miss, a number just outside a bound, a string one code
// point too long, a duplicate in a uniqueItems array, ...). The test
// requires our verdict, the reference's verdict and the intended verdict
// to agree, and for every mutation that our violations name its path.
//
// Two kinds of instance are left out, each where the two validators may
// rightly or must differ:
//
//   - An object with a repeated member name. JSON Schema core 2020-12,
//     section 4.2.1: "behavior for a JSON document that tries to define two
//     properties with the same key in a single object is undefined". The
//     reference keeps the last; the runtime's parser refuses them before
//     any validation (package jsonvalue pins it).
//   - A number whose exponent is beyond ±1e6 where a numeric keyword or
//     "integer" applies. The reference reads numbers with big.Rat, which
//     refuses such exponents: it panics on a bound and calls 1e1000001 "not
//     an integer". The reference is wrong there: a number is "an
//     arbitrary-precision, base-10 decimal number value" (core 4.2.1),
//     "integer" matches "any number with a zero fractional part"
//     (validation 6.1.1), and bounds compare values (validation 6.2).
//     TestValidateHugeNumbers pins our behaviour on those.

// instancesPerSchema is how many instances each schema gets.
const instancesPerSchema = 1200

// agreementExtraSchemas use keywords that the golden schemas do not: type
// unions with null, uniqueItems over numbers and objects, const, enum of
// mixed values, anyOf, decimal multipleOf, integer bounds with exclusive
// maxima, recursion through "#".
var agreementExtraSchemas = map[string]string{
	"extra/unique_numbers": `{
		"type": "object",
		"properties": {
			"nums": {"type": "array", "items": {"type": "number"}, "uniqueItems": true, "maxItems": 6},
			"ints": {"type": "array", "items": {"type": "integer", "minimum": -5, "exclusiveMaximum": 5}, "uniqueItems": true, "minItems": 2},
			"steps": {"type": "number", "multipleOf": 0.1, "minimum": -1, "maximum": 1}
		},
		"required": ["nums", "ints"],
		"additionalProperties": false
	}`,
	"extra/unique_objects": `{
		"type": "object",
		"properties": {
			"points": {
				"type": "array",
				"items": {
					"type": "object",
					"properties": {
						"x": {"type": "integer"},
						"y": {"type": "integer"},
						"tag": {"type": "string", "maxLength": 3}
					},
					"required": ["x", "y"],
					"additionalProperties": false
				},
				"uniqueItems": true,
				"minItems": 1,
				"maxItems": 4
			},
			"grid": {
				"type": "array",
				"items": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 3}, "maxItems": 3},
				"uniqueItems": true
			}
		},
		"required": ["points"],
		"additionalProperties": false
	}`,
	"extra/nullable_and_alternatives": `{
		"type": "object",
		"properties": {
			"n": {"type": ["integer", "null"], "minimum": 1, "multipleOf": 3},
			"s": {"type": ["string", "null"], "minLength": 2, "maxLength": 4},
			"k": {"enum": ["a", 1, null, {"x": [1, 2]}]},
			"c": {"const": {"a": [1.5, "b"], "z": true}},
			"alt": {"anyOf": [{"type": "string", "pattern": "^[0-9]+$"}, {"type": "integer", "maximum": 9}]},
			"one": {"oneOf": [{"type": "boolean"}, {"$ref": "#/$defs/Pt"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}]}
		},
		"required": ["n", "s"],
		"additionalProperties": false,
		"$defs": {
			"Pt": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"], "additionalProperties": false}
		}
	}`,
	"extra/recursive_root": `{
		"type": "object",
		"properties": {
			"name": {"type": "string", "minLength": 1, "maxLength": 5},
			"kids": {"type": "array", "items": {"$ref": "#"}, "maxItems": 3},
			"meta": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[a-z]{2,3}$"}}
		},
		"required": ["name"],
		"additionalProperties": false
	}`,
}

type agreementSchema struct {
	name string
	data []byte
}

// goldenWant are the directories of the golden cases' wanted outputs:
// those of testdata/golden, and of the examples that are golden cases.
var goldenWant = []string{"../../../testdata/golden/*/want", "../../../examples/*/want"}

func agreementSchemas(t *testing.T) []agreementSchema {
	var files []string
	for _, dir := range goldenWant {
		// The schemas; a skill's frontmatter (…Frontmatter.json) is not one.
		more, err := filepath.Glob(dir + "/*Schema.json")
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, more...)
	}
	if len(files) < 40 {
		t.Fatalf("found %d golden schemas in %v, expected at least 40", len(files), goldenWant)
	}
	var out []agreementSchema
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(filepath.Dir(f))) + "/" + filepath.Base(f)
		out = append(out, agreementSchema{name, data})
	}
	for _, name := range slices.Sorted(maps.Keys(agreementExtraSchemas)) {
		out = append(out, agreementSchema{name, []byte(agreementExtraSchemas[name])})
	}
	return out
}

func compileReference(t *testing.T, name string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("reference: decoding %s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	// Formats are asserted, as this package asserts those of format.go
	// (the generator only writes those formats, and values both validators
	// agree on: see formatExamples); "contentEncoding" is an annotation.
	c.AssertFormat()
	url := "mem:///" + name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("reference: %s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("reference: compiling %s: %v", name, err)
	}
	return s
}

// referenceVerdict validates inst with the reference; a panic in the
// reference is reported as an error.
func referenceVerdict(s *jsonschema.Schema, inst []byte) (ok bool, detail string, err error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(inst))
	if err != nil {
		return false, "", fmt.Errorf("reference cannot decode the instance: %v", err)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("reference panicked: %v", p)
		}
	}()
	if verr := s.Validate(v); verr != nil {
		return false, verr.Error(), nil
	}
	return true, "", nil
}

func TestAgreementWithReference(t *testing.T) {
	for _, sc := range agreementSchemas(t) {
		t.Run(sc.name, func(t *testing.T) {
			ours, err := Compile(sc.data)
			if err != nil {
				t.Fatalf("compileSchema: %v", err)
			}
			ref := compileReference(t, sc.name, sc.data)
			g := newInstGen(t, sc.name, sc.data)

			var nValid, nInvalid, failures int
			kinds := map[string]int{}
			for i := range instancesPerSchema {
				wantValid := g.r.IntN(2) == 0
				inst, muts := g.instance(wantValid)
				if !json.Valid(inst) {
					t.Fatalf("generator bug: instance #%d is not JSON: %s", i, inst)
				}
				v, err := jsonvalue.Parse(inst)
				if err != nil {
					t.Fatalf("instance #%d: parseValue: %v\n%s", i, err, inst)
				}
				vs := ours.Validate(v)
				ourOK := len(vs) == 0
				refOK, refDetail, refErr := referenceVerdict(ref, inst)
				if refErr != nil {
					t.Fatalf("instance #%d: %v\ninstance: %s", i, refErr, inst)
				}
				describeCase := func() string {
					return fmt.Sprintf("instance #%d (seed %d, intended %s%s):\n%s\nours: valid=%v %v\nreference: valid=%v %s",
						i, g.seed, verdictName(wantValid), mutationList(muts), inst, ourOK, vs, refOK, refDetail)
				}
				switch {
				case ourOK != refOK:
					t.Errorf("DISAGREEMENT with the reference: %s", describeCase())
					failures++
				case ourOK != wantValid:
					t.Errorf("both validators contradict the intended verdict (a generator bug, or a bug in both): %s", describeCase())
					failures++
				default:
					for _, m := range muts {
						if !slices.ContainsFunc(vs, func(x Violation) bool { return x.Path == m.path }) {
							t.Errorf("mutation %s at path %q is not reported at that path: %s", m.what, m.path, describeCase())
							failures++
						}
					}
				}
				if failures >= 10 {
					t.Fatalf("stopping after %d failures", failures)
				}
				if refOK {
					nValid++
				} else {
					nInvalid++
				}
				for _, m := range muts {
					kinds[m.what]++
				}
			}
			t.Logf("%-75s valid=%4d invalid=%4d agreeing=%4d of %d; seed %d", sc.name, nValid, nInvalid,
				instancesPerSchema-failures, instancesPerSchema, g.seed)
			t.Logf("    mutations: %s", mutationSummary(kinds))
			if nValid*10 < instancesPerSchema*3 || nInvalid*10 < instancesPerSchema*3 {
				t.Errorf("unbalanced: %d valid and %d invalid of %d; each must be at least 30%%", nValid, nInvalid, instancesPerSchema)
			}
		})
	}
}

func verdictName(valid bool) string {
	if valid {
		return "valid"
	}
	return "invalid"
}

func mutationList(ms []mutation) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "; %s at %q", m.what, m.path)
	}
	return b.String()
}

func mutationSummary(kinds map[string]int) string {
	names := slices.Sorted(maps.Keys(kinds))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%d", n, kinds[n])
	}
	return strings.Join(parts, " ")
}

// ---------------------------------------------------------------------
// The generator.

// A gnode is a generated JSON value. Numbers keep the literal they will be
// written with; strings keep their decoded content, and are escaped in a
// random way when written.
type gnode struct {
	kind    jsonvalue.Kind
	lit     string // number literal, "true", "false", "null"
	str     string // string content
	elems   []*gnode
	members []gmember
}

type gmember struct {
	name string
	val  *gnode
}

// A site is a place in a generated instance where a mutation can apply:
// the node, its schema, and the path this package reports violations at.
type site struct {
	n        *gnode
	s        any // the schema, $ref resolved
	path     string
	depth    int
	sameKind bool // the mutation must keep the JSON kind (a oneOf branch)
}

type mutation struct {
	what string
	path string // where a Violation must be reported
}

type instGen struct {
	t    *testing.T
	r    *rand.Rand
	seed uint64
	root any
}

// maxGenDepth bounds the nesting of generated instances; below it only
// what is required is generated.
const maxGenDepth = 4

func newInstGen(t *testing.T, name string, data []byte) *instGen {
	h := fnv.New64a()
	h.Write([]byte(name))
	seed := h.Sum64()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("decoding schema: %v", err)
	}
	return &instGen{t: t, r: rand.New(rand.NewPCG(seed, 0x6d637067656e)), seed: seed, root: titledEnums(root)}
}

// titledEnums rewrites, for the generator's eyes only, each oneOf of
// titled constants (mcpgen's integer enums) as the enum it is equivalent
// to: the generator needs the alternatives of a oneOf to differ in type.
// Both validators still check instances against the schema as written.
func titledEnums(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = titledEnums(x)
		}
		alts, _ := out["oneOf"].([]any)
		var consts []any
		for _, a := range alts {
			m, _ := a.(map[string]any)
			c, ok := m["const"]
			if _, titled := m["title"]; !ok || !titled {
				return out
			}
			consts = append(consts, c)
		}
		if consts != nil {
			delete(out, "oneOf")
			out["enum"] = consts
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = titledEnums(x)
		}
		return out
	}
	return v
}

// instance returns one instance, valid or with one or two mutations.
func (g *instGen) instance(valid bool) ([]byte, []mutation) {
	var sites []site
	n := g.valid(g.root, 0, "", &sites)
	var muts []mutation
	if !valid {
		muts = g.mutateSome(sites)
		if len(muts) == 0 {
			g.t.Fatalf("generator: no mutation applies to any of %d sites", len(sites))
		}
		if g.r.IntN(6) == 0 {
			// A second mutation at a site that neither contains nor is
			// contained in the first, so that both must be reported.
			first := muts[0]
			var rest []site
			for _, s := range sites {
				if !related(s.path, first.path) {
					rest = append(rest, s)
				}
			}
			muts = append(muts, g.mutateSome(rest)...)
		}
	}
	var b bytes.Buffer
	g.write(&b, n)
	return b.Bytes(), muts
}

// related reports whether the paths p and q lie on one root-to-leaf line
// (one contains the other), so that a mutation at one could hide or move
// the other.
func related(p, q string) bool {
	return pathPrefix(p, q) || pathPrefix(q, p)
}

func pathPrefix(a, b string) bool {
	return a == "" || b == a || strings.HasPrefix(b, a+".") || strings.HasPrefix(b, a+"[")
}

// mutateSome applies one mutation at a randomly chosen site. Most of the
// time it prefers a targeted mutation (a bound, a length, a pattern, an
// enum, a required or unknown property, a duplicate) over a plain wrong
// type, which applies almost everywhere and would otherwise dominate.
func (g *instGen) mutateSome(sites []site) []mutation {
	passes := []bool{true, false}
	if g.r.IntN(4) == 0 {
		passes = passes[1:]
	}
	for _, targeted := range passes {
		for _, i := range g.r.Perm(len(sites)) {
			if m, ok := g.mutate(sites[i], targeted); ok {
				return m
			}
		}
	}
	return nil
}

// Keywords the generator understands, and annotations it may ignore.
var (
	genAssertions = []string{
		"type", "enum", "const", "properties", "required", "additionalProperties", "items",
		"minItems", "maxItems", "uniqueItems", "minLength", "maxLength", "pattern", "minimum",
		"maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "oneOf", "anyOf", "$ref",
		"propertyNames",
	}
	genAnnotations = []string{
		"$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default",
		"examples", "format", "contentEncoding", "contentMediaType", "readOnly", "writeOnly", "deprecated",
	}
)

func (g *instGen) checkKeywords(m map[string]any) {
	for k := range m {
		if !slices.Contains(genAssertions, k) && !slices.Contains(genAnnotations, k) && !strings.HasPrefix(k, "x-") {
			g.t.Fatalf("generator: keyword %q is not supported; teach the agreement test's generator about it", k)
		}
	}
	for _, kw := range []string{"oneOf", "anyOf", "$ref"} {
		if _, ok := m[kw]; !ok {
			continue
		}
		for k := range m {
			if k != kw && slices.Contains(genAssertions, k) && !(kw == "$ref" && k == "$ref") {
				g.t.Fatalf("generator: %q next to %q is not supported", k, kw)
			}
		}
	}
}

// deref follows $ref.
func (g *instGen) deref(s any) any {
	for range 100 {
		m, ok := s.(map[string]any)
		if !ok {
			return s
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return s
		}
		g.checkKeywords(m)
		s = g.pointer(ref)
	}
	g.t.Fatalf("generator: $ref cycle")
	return nil
}

func (g *instGen) pointer(ref string) any {
	if !strings.HasPrefix(ref, "#") {
		g.t.Fatalf("generator: only local $ref is supported, not %q", ref)
	}
	cur := g.root
	if ref == "#" {
		return cur
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			g.t.Fatalf("generator: cannot resolve %q", ref)
		}
		cur = m[tok]
	}
	if cur == nil {
		g.t.Fatalf("generator: cannot resolve %q", ref)
	}
	return cur
}

// tset is a set of JSON Schema types.
type tset uint8

const (
	tNull tset = 1 << iota
	tBool
	tInt
	tNum
	tStr
	tArr
	tObj
	tAll = tNull | tBool | tInt | tNum | tStr | tArr | tObj
)

func typeBit(name string) tset {
	switch name {
	case "null":
		return tNull
	case "boolean":
		return tBool
	case "integer":
		return tInt
	case "number":
		return tNum
	case "string":
		return tStr
	case "array":
		return tArr
	case "object":
		return tObj
	}
	return 0
}

// typesOf is the set of types a schema allows.
func (g *instGen) typesOf(s any) tset {
	s = g.deref(s)
	m, ok := s.(map[string]any)
	if !ok {
		if s == true {
			return tAll
		}
		return 0
	}
	if e, ok := m["enum"].([]any); ok {
		var ts tset
		for _, v := range e {
			ts |= kindBit(v)
		}
		return ts & g.declaredTypes(m)
	}
	if c, ok := m["const"]; ok {
		return kindBit(c) & g.declaredTypes(m)
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		if alts, ok := m[kw].([]any); ok {
			var ts tset
			for _, a := range alts {
				ts |= g.typesOf(a)
			}
			return ts
		}
	}
	return g.declaredTypes(m)
}

func (g *instGen) declaredTypes(m map[string]any) tset {
	switch t := m["type"].(type) {
	case string:
		return typeBit(t)
	case []any:
		var ts tset
		for _, e := range t {
			ts |= typeBit(e.(string))
		}
		return ts
	}
	return tAll
}

// kindBit is the type of a decoded JSON value (integers count as both
// integer and number).
func kindBit(v any) tset {
	switch v := v.(type) {
	case nil:
		return tNull
	case bool:
		return tBool
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(v)); ok && r.IsInt() {
			return tInt | tNum
		}
		return tNum
	case string:
		return tStr
	case []any:
		return tArr
	}
	return tObj
}

// overlap reports whether two type sets share a JSON kind.
func overlap(a, b tset) bool {
	norm := func(t tset) tset {
		if t&tInt != 0 {
			t |= tNum
		}
		if t&tNum != 0 {
			t |= tInt
		}
		return t
	}
	return norm(a)&norm(b) != 0
}

// valid generates an instance of s and registers its sites.
func (g *instGen) valid(s any, depth int, path string, sites *[]site) *gnode {
	s = g.deref(s)
	var n *gnode
	switch sv := s.(type) {
	case bool:
		if !sv {
			g.t.Fatalf("generator: no instance satisfies false (at %q)", path)
		}
		n = g.anyValue(depth)
	case map[string]any:
		g.checkKeywords(sv)
		n = g.validMap(sv, depth, path, sites)
	default:
		g.t.Fatalf("generator: schema at %q is %T", path, s)
	}
	if sites != nil {
		*sites = append(*sites, site{n: n, s: s, path: path, depth: depth})
	}
	return n
}

func (g *instGen) validMap(m map[string]any, depth int, path string, sites *[]site) *gnode {
	if e, ok := m["enum"].([]any); ok {
		return g.fromJSON(e[g.r.IntN(len(e))])
	}
	if c, ok := m["const"]; ok {
		return g.fromJSON(c)
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		if alts, ok := m[kw].([]any); ok {
			g.checkDisjoint(alts)
			return g.valid(alts[g.r.IntN(len(alts))], depth, path, nil)
		}
	}
	ts := g.declaredTypes(m)
	var choices []tset
	for _, b := range []tset{tNull, tBool, tInt, tNum, tStr, tArr, tObj} {
		if ts&b != 0 {
			choices = append(choices, b)
		}
	}
	switch k := choices[g.r.IntN(len(choices))]; k {
	case tNull:
		return &gnode{kind: jsonvalue.Null, lit: "null"}
	case tBool:
		return g.boolean()
	case tInt, tNum:
		nr := g.numRule(m)
		return g.numberNode(g.validNumber(nr))
	case tStr:
		return &gnode{kind: jsonvalue.String, str: g.validString(g.strRule(m))}
	case tArr:
		return g.validArray(m, depth, path, sites, -1)
	default:
		return g.validObject(m, depth, path, sites)
	}
}

func (g *instGen) checkDisjoint(alts []any) {
	for i := range alts {
		for j := range i {
			if overlap(g.typesOf(alts[i]), g.typesOf(alts[j])) {
				g.t.Fatalf("generator: oneOf/anyOf branches %d and %d share a type; the generator needs type-disjoint branches", j, i)
			}
		}
	}
}

func (g *instGen) boolean() *gnode {
	if g.r.IntN(2) == 0 {
		return &gnode{kind: jsonvalue.Bool, lit: "true"}
	}
	return &gnode{kind: jsonvalue.Bool, lit: "false"}
}

// fromJSON converts a value from the schema (enum, const) to a gnode,
// written in a random but equal way: numbers respelled, members reordered.
func (g *instGen) fromJSON(v any) *gnode {
	switch v := v.(type) {
	case nil:
		return &gnode{kind: jsonvalue.Null, lit: "null"}
	case bool:
		return &gnode{kind: jsonvalue.Bool, lit: strconv.FormatBool(v)}
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			g.t.Fatalf("generator: number %s", v)
		}
		return g.numberNode(r)
	case string:
		return &gnode{kind: jsonvalue.String, str: v}
	case []any:
		n := &gnode{kind: jsonvalue.Array}
		for _, e := range v {
			n.elems = append(n.elems, g.fromJSON(e))
		}
		return n
	case map[string]any:
		n := &gnode{kind: jsonvalue.Object}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			n.members = append(n.members, gmember{k, g.fromJSON(v[k])})
		}
		g.shuffleMembers(n)
		return n
	}
	g.t.Fatalf("generator: %T in schema", v)
	return nil
}

func (g *instGen) shuffleMembers(n *gnode) {
	g.r.Shuffle(len(n.members), func(i, j int) { n.members[i], n.members[j] = n.members[j], n.members[i] })
}

// ---- objects

func (g *instGen) validObject(m map[string]any, depth int, path string, sites *[]site) *gnode {
	n := &gnode{kind: jsonvalue.Object}
	props, _ := m["properties"].(map[string]any)
	required := stringsOf(m["required"])
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if slices.Contains(required, name) || (depth < maxGenDepth && g.r.IntN(2) == 0) {
			n.members = append(n.members, gmember{name, g.valid(props[name], depth+1, joinPath(path, name), sites)})
		}
	}
	for _, name := range required {
		if _, ok := props[name]; !ok {
			n.members = append(n.members, gmember{name, g.valid(g.additional(m), depth+1, joinPath(path, name), sites)})
		}
	}
	if add := g.additional(m); add != false && depth < maxGenDepth {
		for range g.r.IntN(4) {
			name := g.freshName(n, props)
			if pn, ok := m["propertyNames"]; ok {
				name = g.valid(pn, maxGenDepth, path, nil).str
				if name == "" || slices.ContainsFunc(n.members, func(m gmember) bool { return m.name == name }) {
					continue
				}
				if _, declared := props[name]; declared {
					continue
				}
			}
			n.members = append(n.members, gmember{name, g.valid(add, depth+1, joinPath(path, name), sites)})
		}
	}
	g.shuffleMembers(n)
	return n
}

// additional is the schema of members not in "properties".
func (g *instGen) additional(m map[string]any) any {
	if a, ok := m["additionalProperties"]; ok {
		return a
	}
	return true
}

func stringsOf(v any) []string {
	var out []string
	for _, e := range asSlice(v) {
		out = append(out, e.(string))
	}
	return out
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

var genNames = []string{
	"a", "b", "key", "x_y", "日本", "with space", "a.b", "", "quote\"d", "é", "😀", "$ref",
	"__proto__", "0", "-", "tab\there", "slash/ed", "\u0000nul", "ü", "Z",
}

// freshName picks a member name that n does not have and that props does
// not declare.
func (g *instGen) freshName(n *gnode, props map[string]any) string {
	for i := 0; ; i++ {
		name := genNames[g.r.IntN(len(genNames))]
		if i > 50 {
			name = fmt.Sprintf("k%d", g.r.IntN(1000000))
		}
		if _, declared := props[name]; declared {
			continue
		}
		if !slices.ContainsFunc(n.members, func(m gmember) bool { return m.name == name }) {
			return name
		}
	}
}

// nearMiss returns a name close to a declared one: what a caller might
// misspell.
func (g *instGen) nearMiss(props map[string]any) string {
	names := slices.Sorted(maps.Keys(props))
	if len(names) == 0 || g.r.IntN(4) == 0 {
		return genNames[g.r.IntN(len(genNames))]
	}
	p := names[g.r.IntN(len(names))]
	switch g.r.IntN(5) {
	case 0:
		if p == "" {
			return "X"
		}
		r, size := utf8.DecodeRuneInString(p)
		if up := strings.ToUpper(string(r)); up != string(r) {
			return up + p[size:]
		}
		return strings.ToLower(string(r)) + "_" + p[size:]
	case 1:
		return p + "s"
	case 2:
		return " " + p
	case 3:
		return p + "\u200b" // zero-width space: looks the same
	default:
		return strings.ToUpper(p) + "_"
	}
}

// ---- arrays

// validArray generates an array of length want, or of a random allowed
// length when want < 0.
func (g *instGen) validArray(m map[string]any, depth int, path string, sites *[]site, want int) *gnode {
	items := any(true)
	if it, ok := m["items"]; ok {
		items = it
	}
	minI, maxI := intKeyword(m, "minItems", 0), intKeyword(m, "maxItems", -1)
	unique := m["uniqueItems"] == true
	n := want
	if n < 0 {
		hi := minI + 4
		if maxI >= 0 && hi > maxI {
			hi = maxI
		}
		switch {
		case depth >= maxGenDepth:
			n = minI
		case g.r.IntN(4) == 0:
			n = minI
		case g.r.IntN(4) == 0:
			n = hi
		default:
			n = minI + g.r.IntN(hi-minI+1)
		}
	}
	a := &gnode{kind: jsonvalue.Array}
	seen := map[string]bool{}
	for i := 0; len(a.elems) < n; i++ {
		if i > 30*n+30 {
			if want >= 0 || len(a.elems) < minI {
				return nil // cannot find that many distinct items
			}
			break
		}
		p := path + "[" + strconv.Itoa(len(a.elems)) + "]"
		var sub []site
		e := g.valid(items, depth+1, p, &sub)
		if unique {
			key := canonicalG(e)
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		a.elems = append(a.elems, e)
		if sites != nil {
			*sites = append(*sites, sub...)
		}
	}
	return a
}

func intKeyword(m map[string]any, kw string, def int) int {
	n, ok := m[kw].(json.Number)
	if !ok {
		return def
	}
	i, err := strconv.Atoi(string(n))
	if err != nil {
		panic(err)
	}
	return i
}

// canonicalG is a key under which equal JSON values (numbers by value,
// objects regardless of member order) are equal.
func canonicalG(n *gnode) string {
	switch n.kind {
	case jsonvalue.Number:
		r, _ := new(big.Rat).SetString(n.lit)
		return "n" + r.RatString()
	case jsonvalue.String:
		return strconv.Quote(n.str)
	case jsonvalue.Array:
		parts := make([]string, len(n.elems))
		for i, e := range n.elems {
			parts[i] = canonicalG(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case jsonvalue.Object:
		parts := make([]string, len(n.members))
		for i, m := range n.members {
			parts[i] = strconv.Quote(m.name) + ":" + canonicalG(m.val)
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ",") + "}"
	default:
		return n.lit
	}
}

// respell returns a deep copy of n that is the same JSON value written
// differently: numbers respelled, members reordered.
func (g *instGen) respell(n *gnode) *gnode {
	c := &gnode{kind: n.kind, lit: n.lit, str: n.str}
	switch n.kind {
	case jsonvalue.Number:
		r, _ := new(big.Rat).SetString(n.lit)
		c.lit = g.spell(r)
	case jsonvalue.Array:
		for _, e := range n.elems {
			c.elems = append(c.elems, g.respell(e))
		}
	case jsonvalue.Object:
		for _, m := range n.members {
			c.members = append(c.members, gmember{m.name, g.respell(m.val)})
		}
		g.shuffleMembers(c)
	}
	return c
}

// ---- any value

func (g *instGen) anyValue(depth int) *gnode {
	k := g.r.IntN(7)
	if depth >= maxGenDepth {
		k = g.r.IntN(5)
	}
	switch k {
	case 0:
		return &gnode{kind: jsonvalue.Null, lit: "null"}
	case 1:
		return g.boolean()
	case 2:
		return g.numberNode(g.validNumber(numRule{}))
	case 3:
		return &gnode{kind: jsonvalue.Number, lit: anyNumbers[g.r.IntN(len(anyNumbers))]}
	case 4:
		return &gnode{kind: jsonvalue.String, str: g.randomString(g.r.IntN(6))}
	case 5:
		n := &gnode{kind: jsonvalue.Array}
		for range g.r.IntN(4) {
			n.elems = append(n.elems, g.anyValue(depth+1))
		}
		return n
	default:
		n := &gnode{kind: jsonvalue.Object}
		for range g.r.IntN(4) {
			n.members = append(n.members, gmember{g.freshName(n, nil), g.anyValue(depth + 1)})
		}
		return n
	}
}

// anyNumbers are literals that only appear where no numeric keyword
// applies.
var anyNumbers = []string{
	"-0", "0e0", "1E+2", "-1.5e-300", "1e308", "1e309", "-1e400", "4.9e-324", "5e-325",
	"123456789012345678901234567890", "0.1", "9007199254740993", "-9223372036854775809",
	"18446744073709551616", "2.5E-1", "100000000000000000000000000000000000000000.0",
}

// ---- numbers

type numRule struct {
	isInt                  bool
	min, max, exMin, exMax *big.Rat
	mult                   *big.Rat
}

func (g *instGen) numRule(m map[string]any) numRule {
	ts := g.declaredTypes(m)
	nr := numRule{isInt: ts&tInt != 0 && ts&tNum == 0}
	get := func(kw string) *big.Rat {
		n, ok := m[kw].(json.Number)
		if !ok {
			return nil
		}
		r, ok := new(big.Rat).SetString(string(n))
		if !ok {
			g.t.Fatalf("generator: %s %s", kw, n)
		}
		return r
	}
	nr.min, nr.max, nr.exMin, nr.exMax, nr.mult = get("minimum"), get("maximum"), get("exclusiveMinimum"), get("exclusiveMaximum"), get("multipleOf")
	return nr
}

// broken lists the rules x breaks.
func (nr numRule) broken(x *big.Rat) []string {
	var out []string
	if nr.isInt && !x.IsInt() {
		out = append(out, "not-integer")
	}
	if nr.min != nil && x.Cmp(nr.min) < 0 {
		out = append(out, "below-minimum")
	}
	if nr.max != nil && x.Cmp(nr.max) > 0 {
		out = append(out, "above-maximum")
	}
	if nr.exMin != nil && x.Cmp(nr.exMin) <= 0 {
		out = append(out, "at-or-below-exclusiveMinimum")
	}
	if nr.exMax != nil && x.Cmp(nr.exMax) >= 0 {
		out = append(out, "at-or-above-exclusiveMaximum")
	}
	if nr.mult != nil && !new(big.Rat).Quo(x, nr.mult).IsInt() {
		out = append(out, "not-multipleOf")
	}
	return out
}

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

func addRat(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) }
func mulRat(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

// candidates are numbers around every bound of nr, and some general ones.
func (g *instGen) candidates(nr numRule) []*big.Rat {
	var out []*big.Rat
	offsets := []string{"0", "1", "-1", "0.5", "-0.5", "0.25", "-0.25", "2", "-2", "1e-20", "-1e-20", "10", "-10"}
	for _, b := range []*big.Rat{nr.min, nr.max, nr.exMin, nr.exMax} {
		if b == nil {
			continue
		}
		for _, o := range offsets {
			out = append(out, addRat(b, rat(o)))
		}
		if nr.mult != nil {
			k := new(big.Rat).Quo(b, nr.mult)
			f := new(big.Int).Quo(k.Num(), k.Denom())
			for d := int64(-2); d <= 2; d++ {
				kk := new(big.Rat).SetInt(new(big.Int).Add(f, big.NewInt(d)))
				out = append(out, mulRat(kk, nr.mult), addRat(mulRat(kk, nr.mult), new(big.Rat).Quo(nr.mult, rat("2"))))
			}
		}
	}
	if nr.mult != nil {
		for range 6 {
			k := new(big.Rat).SetInt64(int64(g.r.IntN(41) - 20))
			out = append(out, mulRat(k, nr.mult), addRat(mulRat(k, nr.mult), new(big.Rat).Quo(nr.mult, rat("2"))))
		}
	}
	if nr.min != nil && nr.max != nil {
		span := new(big.Rat).Sub(nr.max, nr.min)
		for range 4 {
			f := new(big.Rat).SetFrac64(int64(g.r.IntN(1001)), 1000)
			x := addRat(nr.min, mulRat(span, f))
			if nr.isInt {
				x.SetInt(new(big.Int).Quo(x.Num(), x.Denom()))
			}
			out = append(out, x)
		}
	}
	for _, s := range []string{"0", "1", "-1", "7", "42", "-13", "0.5", "3.25", "-12.75", "1e-7",
		"9007199254740993", "18446744073709551616", "-9223372036854775809", "1e30", "-1e400", "1e400", "2.5e-30"} {
		out = append(out, rat(s))
	}
	out = append(out, big.NewRat(int64(g.r.IntN(2000001)-1000000), int64(1+g.r.IntN(2)*99)))
	return out
}

func (g *instGen) validNumber(nr numRule) *big.Rat {
	var ok []*big.Rat
	for _, c := range g.candidates(nr) {
		if len(nr.broken(c)) == 0 {
			ok = append(ok, c)
		}
	}
	if len(ok) == 0 {
		g.t.Fatalf("generator: no number satisfies %+v", nr)
	}
	return ok[g.r.IntN(len(ok))]
}

// invalidNumber returns a number that breaks one rule of nr (and no other,
// when there is such a number), and the rule's name.
func (g *instGen) invalidNumber(nr numRule) (*big.Rat, string, bool) {
	byRule := map[string][]*big.Rat{}
	only := map[string][]*big.Rat{}
	for _, c := range g.candidates(nr) {
		b := nr.broken(c)
		for _, r := range b {
			byRule[r] = append(byRule[r], c)
		}
		if len(b) == 1 {
			only[b[0]] = append(only[b[0]], c)
		}
	}
	if len(byRule) == 0 {
		return nil, "", false
	}
	rules := slices.Sorted(maps.Keys(byRule))
	rule := rules[g.r.IntN(len(rules))]
	pool := only[rule]
	if len(pool) == 0 {
		pool = byRule[rule]
	}
	return pool[g.r.IntN(len(pool))], rule, true
}

func (g *instGen) numberNode(r *big.Rat) *gnode {
	return &gnode{kind: jsonvalue.Number, lit: g.spell(r)}
}

// spell writes r, which must have a finite decimal expansion, as a JSON
// number in one of many equivalent ways: 100, 100.0, 1e2, 1E+2, 10e1,
// 1000e-1, 1.00e2, and -0 or 0.0e5 for zero.
func (g *instGen) spell(r *big.Rat) string {
	if r.Sign() == 0 {
		return []string{"0", "-0", "0.0", "0e5", "-0.0E-3", "0E0", "0.000"}[g.r.IntN(7)]
	}
	// r = d × 10^e with d an integer without trailing zeros.
	d := new(big.Rat).Abs(r)
	e := 0
	ten := big.NewRat(10, 1)
	for !d.IsInt() {
		d.Mul(d, ten)
		e--
		if e < -400 {
			panic("generator: number without a finite decimal expansion: " + r.String())
		}
	}
	digits := d.Num().String()
	for len(digits) > 1 && strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		e++
	}
	sign := ""
	if r.Sign() < 0 {
		sign = "-"
	}
	expChar := []string{"e", "E", "e+", "E+"}
	switch g.r.IntN(6) {
	case 0, 1: // plain decimal, maybe with extra fractional zeros
		var s string
		switch {
		case e >= 0:
			if e > 40 {
				break
			}
			s = digits + strings.Repeat("0", e)
			if g.r.IntN(3) == 0 {
				s += "." + strings.Repeat("0", 1+g.r.IntN(2))
			}
		case -e < len(digits):
			s = digits[:len(digits)+e] + "." + digits[len(digits)+e:]
		default:
			s = "0." + strings.Repeat("0", -e-len(digits)) + digits
		}
		if s != "" {
			if strings.Contains(s, ".") && g.r.IntN(3) == 0 {
				s += "0"
			}
			return sign + s
		}
		fallthrough
	case 2: // digits e exp
		ec := expChar[g.r.IntN(2)]
		if e >= 0 {
			ec = expChar[g.r.IntN(4)]
		}
		return sign + digits + ec + strconv.Itoa(e)
	case 3: // shifted mantissa: 250e-3
		j := 1 + g.r.IntN(3)
		return sign + digits + strings.Repeat("0", j) + "e" + strconv.Itoa(e-j)
	default: // normalised: 2.5e-1, 1.0E2
		mant := digits[:1]
		if len(digits) > 1 {
			mant += "." + digits[1:]
		} else if g.r.IntN(2) == 0 {
			mant += ".0"
		}
		x := e + len(digits) - 1
		ec := expChar[g.r.IntN(2)]
		if x >= 0 {
			ec = expChar[g.r.IntN(4)]
		}
		return sign + mant + ec + strconv.Itoa(x)
	}
}

// ---- strings

type strRule struct {
	min, max int // max < 0: none
	re       *regexp.Regexp
	syn      *syntax.Regexp
	format   string // one that formatExamples has, or ""
}

// formatExamples are strings of each asserted format that both this
// package and the reference accept (valid) and refuse (invalid). Where
// the two read a format differently (RFC 3339 allows a lower-case t, Go
// does not), the examples stay clear of it.
var formatExamples = map[string]struct{ valid, invalid []string }{
	"date-time": {
		[]string{"2026-07-28T09:30:00Z", "1999-12-31T23:59:59.999+01:00", "2000-02-29T00:00:00-05:30"},
		[]string{"tomorrow", "2026-13-01T00:00:00Z", "2026-07-28T25:00:00Z", "2026-07-28"},
	},
	"date":  {[]string{"2026-07-28", "2000-02-29"}, []string{"2026-02-30", "28/07/2026", "2026-7-28"}},
	"email": {[]string{"ada@example.com", "b.c+d@e.org"}, []string{"ada", "ada@", "a b@example.com"}},
	"uri":   {[]string{"https://example.com/a", "urn:isbn:0451450523", "mailto:ada@example.com"}, []string{"example.com/a", "/relative/path"}},
	"uuid":  {[]string{"123e4567-e89b-12d3-a456-426614174000"}, []string{"123e4567e89b12d3a456426614174000", "not-a-uuid"}},
	"ipv4":  {[]string{"192.0.2.1", "10.0.0.255"}, []string{"256.0.0.1", "192.0.2", "2001:db8::1"}},
	"ipv6":  {[]string{"2001:db8::1", "::1"}, []string{"2001:db8:::1", "192.0.2.1"}},
}

func (g *instGen) strRule(m map[string]any) strRule {
	sr := strRule{min: intKeyword(m, "minLength", 0), max: intKeyword(m, "maxLength", -1)}
	if f, ok := m["format"].(string); ok {
		if _, known := formatExamples[f]; known {
			sr.format = f
		}
	}
	if p, ok := m["pattern"].(string); ok {
		sr.re = regexp.MustCompile(p)
		syn, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			g.t.Fatal(err)
		}
		sr.syn = syn.Simplify()
	}
	return sr
}

func (sr strRule) ok(s string) bool {
	n := utf8.RuneCountInString(s)
	return n >= sr.min && (sr.max < 0 || n <= sr.max) && (sr.re == nil || sr.re.MatchString(s))
}

// alphabet mixes ASCII, characters that must be escaped, and multi-byte
// runes (2, 3 and 4 bytes; U+FFFD, which can be written several ways).
var alphabet = []rune("abcxyzABCXYZ0189 _-.,:/\\\"'\n\t\r\u0001\u001fé日本😀🎉\uFFFD\u00a0\u2028")

func (g *instGen) randomString(n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(alphabet[g.r.IntN(len(alphabet))])
	}
	return b.String()
}

// multiByte returns n code points that take at least two bytes each.
func (g *instGen) multiByte(n int) string {
	wide := []rune("é日本😀🎉\uFFFDü")
	var b strings.Builder
	for range n {
		b.WriteRune(wide[g.r.IntN(len(wide))])
	}
	return b.String()
}

func (g *instGen) validString(sr strRule) string {
	if sr.format != "" {
		for _, i := range g.r.Perm(len(formatExamples[sr.format].valid)) {
			if s := formatExamples[sr.format].valid[i]; sr.ok(s) {
				return s
			}
		}
		g.t.Fatalf("generator: no example of format %s fits the other keywords", sr.format)
	}
	if sr.re != nil {
		for range 200 {
			s := g.fromRegexp(sr.syn)
			if sr.ok(s) {
				return s
			}
		}
		g.t.Fatalf("generator: cannot generate a string for %s", sr.re)
	}
	hi := sr.max
	if hi < 0 {
		hi = sr.min + 8
	}
	n := sr.min + g.r.IntN(hi-sr.min+1)
	switch g.r.IntN(4) {
	case 0:
		n = sr.min
	case 1:
		n = hi
	}
	if g.r.IntN(3) == 0 {
		return g.multiByte(n)
	}
	return g.randomString(n)
}

// stringOfLength returns a string of exactly n code points that satisfies
// the rest of sr, if it can find one.
func (g *instGen) stringOfLength(sr strRule, n int) (string, bool) {
	if n < 0 {
		return "", false
	}
	if sr.re == nil {
		if g.r.IntN(2) == 0 {
			return g.multiByte(n), true
		}
		return g.randomString(n), true
	}
	for range 300 {
		s := g.fromRegexpLong(sr.syn, n)
		rs := []rune(s)
		if len(rs) < n {
			continue
		}
		if p := string(rs[:n]); sr.re.MatchString(p) {
			return p, true
		}
	}
	return "", false
}

// fromRegexp generates a string matching re (the caller checks).
func (g *instGen) fromRegexp(re *syntax.Regexp) string {
	var b strings.Builder
	g.genRe(&b, re, 3)
	return b.String()
}

// fromRegexpLong generates a string of at least about n characters.
func (g *instGen) fromRegexpLong(re *syntax.Regexp, n int) string {
	var b strings.Builder
	g.genRe(&b, re, n+2)
	return b.String()
}

func (g *instGen) genRe(b *strings.Builder, re *syntax.Regexp, reps int) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && g.r.IntN(2) == 0 {
				r = []rune(strings.ToUpper(string(r)))[0]
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		i := g.r.IntN(len(re.Rune) / 2)
		lo, hi := re.Rune[2*i], re.Rune[2*i+1]
		if hi-lo > 200 {
			hi = lo + 200
		}
		b.WriteRune(lo + rune(g.r.IntN(int(hi-lo+1))))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteRune(alphabet[g.r.IntN(12)])
	case syntax.OpCapture:
		g.genRe(b, re.Sub[0], reps)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			g.genRe(b, s, reps)
		}
	case syntax.OpAlternate:
		g.genRe(b, re.Sub[g.r.IntN(len(re.Sub))], reps)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, reps
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + reps
			}
		}
		for range lo + g.r.IntN(hi-lo+1) {
			g.genRe(b, re.Sub[0], reps)
		}
	default: // anchors, empty match, word boundaries: nothing to write
	}
}

// ---- mutations

// mutate applies one mutation that makes the instance invalid at st; if
// targeted, not a plain change of type.
func (g *instGen) mutate(st site, targeted bool) ([]mutation, bool) {
	m, ok := st.s.(map[string]any)
	if !ok {
		return nil, false // true accepts everything
	}
	type op func() ([]mutation, bool)
	var ops []op
	here := func(what string) []mutation { return []mutation{{what, st.path}} }
	replace := func(n *gnode) { *st.n = *n }

	ts := g.typesOf(m)
	if !st.sameKind && !targeted && ts != tAll {
		ops = append(ops, func() ([]mutation, bool) {
			n, ok := g.wrongType(ts)
			if ok {
				replace(n)
			}
			return here("wrong-type"), ok
		})
	}
	if e, ok := m["enum"].([]any); ok {
		ops = append(ops, func() ([]mutation, bool) {
			n, ok := g.enumMiss(e, ts)
			if ok {
				replace(n)
			}
			return here("enum-miss"), ok
		})
	}
	if c, ok := m["const"]; ok {
		ops = append(ops, func() ([]mutation, bool) {
			n, ok := g.enumMiss([]any{c}, ts)
			if ok {
				replace(n)
			}
			return here("const-miss"), ok
		})
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		if alts, ok := m[kw].([]any); ok {
			ops = append(ops, func() ([]mutation, bool) {
				// A value of one branch's kind that breaks that branch,
				// so that it matches none.
				var sub []site
				n := g.valid(alts[g.r.IntN(len(alts))], st.depth, st.path, &sub)
				for i := range sub {
					sub[i].sameKind = sub[i].n == n
				}
				ms := g.mutateSome(sub)
				if len(ms) == 0 {
					return nil, false
				}
				replace(n)
				for i := range ms {
					ms[i].what = kw + "/" + ms[i].what
				}
				return ms, true
			})
		}
	}
	switch st.n.kind {
	case jsonvalue.Number:
		nr := g.numRule(m)
		ops = append(ops, func() ([]mutation, bool) {
			x, rule, ok := g.invalidNumber(nr)
			if ok {
				replace(g.numberNode(x))
			}
			return here(rule), ok
		})
	case jsonvalue.String:
		sr := g.strRule(m)
		if sr.min > 0 {
			ops = append(ops, func() ([]mutation, bool) {
				s, ok := g.stringOfLength(strRule{max: -1}, sr.min-1)
				st.n.str = s
				return here("minLength-1"), ok
			})
		}
		if sr.max >= 0 {
			ops = append(ops, func() ([]mutation, bool) {
				s, ok := g.stringOfLength(strRule{re: sr.re, syn: sr.syn, max: -1}, sr.max+1)
				if !ok {
					s, ok = g.stringOfLength(strRule{max: -1}, sr.max+1)
				}
				st.n.str = s
				return here("maxLength+1"), ok
			})
		}
		if sr.re != nil {
			ops = append(ops, func() ([]mutation, bool) {
				s, ok := g.patternMiss(sr)
				if ok {
					st.n.str = s
				}
				return here("pattern-miss"), ok
			})
		}
		if sr.format != "" {
			ops = append(ops, func() ([]mutation, bool) {
				bad := formatExamples[sr.format].invalid
				st.n.str = bad[g.r.IntN(len(bad))]
				return here("format-miss"), true
			})
		}
	case jsonvalue.Array:
		minI, maxI := intKeyword(m, "minItems", 0), intKeyword(m, "maxItems", -1)
		if minI > 0 {
			ops = append(ops, func() ([]mutation, bool) {
				st.n.elems = st.n.elems[:minI-1]
				return here("minItems-1"), true
			})
		}
		if maxI >= 0 {
			ops = append(ops, func() ([]mutation, bool) {
				a := g.validArray(m, st.depth, st.path, nil, maxI+1)
				if a == nil {
					return nil, false
				}
				replace(a)
				return here("maxItems+1"), true
			})
		}
		if m["uniqueItems"] == true && len(st.n.elems) > 0 {
			ops = append(ops, func() ([]mutation, bool) {
				es := st.n.elems
				i := g.r.IntN(len(es))
				dup := g.respell(es[i])
				if maxI < 0 || len(es) < maxI {
					j := g.r.IntN(len(es) + 1)
					st.n.elems = slices.Insert(slices.Clone(es), j, dup)
				} else if len(es) >= 2 {
					j := (i + 1 + g.r.IntN(len(es)-1)) % len(es)
					st.n.elems = slices.Clone(es)
					st.n.elems[j] = dup
				} else {
					return nil, false
				}
				return here("duplicate-item"), true
			})
		}
	case jsonvalue.Object:
		props, _ := m["properties"].(map[string]any)
		required := stringsOf(m["required"])
		if len(required) > 0 {
			ops = append(ops, func() ([]mutation, bool) {
				name := required[g.r.IntN(len(required))]
				i := slices.IndexFunc(st.n.members, func(x gmember) bool { return x.name == name })
				st.n.members = slices.Delete(slices.Clone(st.n.members), i, i+1)
				return []mutation{{"missing-required", joinPath(st.path, name)}}, true
			})
		}
		add := g.additional(m)
		if add == false {
			ops = append(ops, func() ([]mutation, bool) {
				name := g.nearMiss(props)
				if _, declared := props[name]; declared || slices.ContainsFunc(st.n.members, func(x gmember) bool { return x.name == name }) {
					return nil, false
				}
				st.n.members = slices.Insert(slices.Clone(st.n.members), g.r.IntN(len(st.n.members)+1), gmember{name, g.anyValue(st.depth + 1)})
				return []mutation{{"unknown-property", joinPath(st.path, name)}}, true
			})
		} else {
			ops = append(ops, func() ([]mutation, bool) {
				name := g.freshName(st.n, props)
				return g.addInvalidMember(st, name, add, "bad-additional-property")
			})
		}
		var absent []string
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if !slices.ContainsFunc(st.n.members, func(x gmember) bool { return x.name == name }) {
				absent = append(absent, name)
			}
		}
		if len(absent) > 0 {
			ops = append(ops, func() ([]mutation, bool) {
				name := absent[g.r.IntN(len(absent))]
				return g.addInvalidMember(st, name, props[name], "bad-optional-property")
			})
		}
	}
	for _, i := range g.r.Perm(len(ops)) {
		saved := *st.n
		if ms, ok := ops[i](); ok {
			return ms, true
		}
		*st.n = saved
	}
	return nil, false
}

// addInvalidMember adds a member name to the object at st whose value
// breaks schema s.
func (g *instGen) addInvalidMember(st site, name string, s any, what string) ([]mutation, bool) {
	var sub []site
	v := g.valid(s, st.depth+1, joinPath(st.path, name), &sub)
	ms := g.mutateSome(sub)
	if len(ms) == 0 {
		return nil, false
	}
	st.n.members = slices.Insert(slices.Clone(st.n.members), g.r.IntN(len(st.n.members)+1), gmember{name, v})
	for i := range ms {
		ms[i].what = what + "/" + ms[i].what
	}
	return ms, true
}

// wrongType returns a value whose type is not in ts.
func (g *instGen) wrongType(ts tset) (*gnode, bool) {
	var choices []*gnode
	if ts&tNull == 0 {
		choices = append(choices, &gnode{kind: jsonvalue.Null, lit: "null"})
	}
	if ts&tBool == 0 {
		choices = append(choices, g.boolean())
	}
	if ts&(tInt|tNum) == 0 {
		choices = append(choices, g.numberNode(g.validNumber(numRule{})))
	}
	if ts&tNum == 0 && ts&tInt != 0 {
		x := []string{"1.5", "0.1", "-2.25", "15e-1", "1.0000000000000000001", "9007199254740992.5"}[g.r.IntN(6)]
		choices = append(choices, &gnode{kind: jsonvalue.Number, lit: x})
	}
	if ts&tStr == 0 {
		choices = append(choices, &gnode{kind: jsonvalue.String, str: []string{"", "1", "true", "null", "{}", g.randomString(3)}[g.r.IntN(6)]})
	}
	if ts&tArr == 0 {
		choices = append(choices, &gnode{kind: jsonvalue.Array}, &gnode{kind: jsonvalue.Array, elems: []*gnode{g.anyValue(maxGenDepth)}})
	}
	if ts&tObj == 0 {
		choices = append(choices, &gnode{kind: jsonvalue.Object})
	}
	if len(choices) == 0 {
		return nil, false
	}
	return choices[g.r.IntN(len(choices))], true
}

// enumMiss returns a value not in e, of a type in ts when it can.
func (g *instGen) enumMiss(e []any, ts tset) (*gnode, bool) {
	in := map[string]bool{}
	for _, v := range e {
		in[canonicalG(g.fromJSON(v))] = true
	}
	var cands []*gnode
	for _, v := range e {
		n := g.fromJSON(v)
		switch n.kind {
		case jsonvalue.String:
			s := n.str
			rs := []rune(s)
			for _, c := range []string{strings.ToUpper(s), s + "s", " " + s, s + " ", "", "enhancement", s + "\u0000", string(rs[:max(0, len(rs)-1)])} {
				cands = append(cands, &gnode{kind: jsonvalue.String, str: c})
			}
		case jsonvalue.Number:
			r, _ := new(big.Rat).SetString(n.lit)
			for _, o := range []string{"1", "-1", "0.5", "100"} {
				cands = append(cands, g.numberNode(addRat(r, rat(o))))
			}
			cands = append(cands, &gnode{kind: jsonvalue.String, str: n.lit})
		case jsonvalue.Array:
			c := g.respell(n)
			c.elems = append(c.elems, g.fromJSON(json.Number("3")))
			cands = append(cands, c)
			if len(n.elems) > 1 {
				c := g.respell(n)
				slices.Reverse(c.elems)
				cands = append(cands, c)
			}
		case jsonvalue.Object:
			c := g.respell(n)
			c.members = append(c.members, gmember{"extra", g.fromJSON(nil)})
			cands = append(cands, c)
			if len(n.members) > 0 {
				c := g.respell(n)
				c.members = c.members[1:]
				cands = append(cands, c)
				c = g.respell(n)
				c.members[0].val = &gnode{kind: jsonvalue.String, str: "changed"}
				cands = append(cands, c)
			}
		case jsonvalue.Bool:
			cands = append(cands, &gnode{kind: jsonvalue.Bool, lit: strconv.FormatBool(n.lit != "true")})
		case jsonvalue.Null:
			cands = append(cands, &gnode{kind: jsonvalue.Number, lit: "0"}, &gnode{kind: jsonvalue.String, str: "null"})
		}
	}
	var typed, untyped []*gnode
	for _, c := range cands {
		if in[canonicalG(c)] {
			continue
		}
		untyped = append(untyped, c)
		if g.hasType(c, ts) {
			typed = append(typed, c)
		}
	}
	if len(typed) > 0 {
		return typed[g.r.IntN(len(typed))], true
	}
	if len(untyped) > 0 {
		return untyped[g.r.IntN(len(untyped))], true
	}
	return nil, false
}

func (g *instGen) hasType(n *gnode, ts tset) bool {
	switch n.kind {
	case jsonvalue.Null:
		return ts&tNull != 0
	case jsonvalue.Bool:
		return ts&tBool != 0
	case jsonvalue.Number:
		r, _ := new(big.Rat).SetString(n.lit)
		return ts&tNum != 0 || ts&tInt != 0 && r.IsInt()
	case jsonvalue.String:
		return ts&tStr != 0
	case jsonvalue.Array:
		return ts&tArr != 0
	}
	return ts&tObj != 0
}

// patternMiss returns a string within the length bounds of sr that does
// not match its pattern.
func (g *instGen) patternMiss(sr strRule) (string, bool) {
	inserts := []string{"A", "Z", "0", " ", "é", "日", "😀", ",", ",,", "\n", "-", "a"}
	for range 100 {
		s := g.validString(sr)
		rs := []rune(s)
		var c string
		switch g.r.IntN(4) {
		case 0: // insert
			i := g.r.IntN(len(rs) + 1)
			c = string(rs[:i]) + inserts[g.r.IntN(len(inserts))] + string(rs[i:])
		case 1: // replace
			if len(rs) == 0 {
				continue
			}
			i := g.r.IntN(len(rs))
			c = string(rs[:i]) + inserts[g.r.IntN(len(inserts))] + string(rs[i+1:])
		case 2: // change case
			c = strings.ToUpper(s)
			if c == s {
				c = strings.ToLower(s)
			}
		default: // trailing newline: $ must not match before it
			c = s + "\n"
		}
		n := utf8.RuneCountInString(c)
		if !sr.re.MatchString(c) && n >= sr.min && (sr.max < 0 || n <= sr.max) {
			return c, true
		}
	}
	return "", false
}

// ---- writing

// write writes n as JSON with random whitespace and random (valid) string
// escapes.
func (g *instGen) write(b *bytes.Buffer, n *gnode) {
	switch n.kind {
	case jsonvalue.String:
		g.writeString(b, n.str)
	case jsonvalue.Array:
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				g.space(b)
				b.WriteByte(',')
			}
			g.space(b)
			g.write(b, e)
		}
		g.space(b)
		b.WriteByte(']')
	case jsonvalue.Object:
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				g.space(b)
				b.WriteByte(',')
			}
			g.space(b)
			g.writeString(b, m.name)
			g.space(b)
			b.WriteByte(':')
			g.space(b)
			g.write(b, m.val)
		}
		g.space(b)
		b.WriteByte('}')
	default:
		b.WriteString(n.lit)
	}
}

func (g *instGen) space(b *bytes.Buffer) {
	if g.r.IntN(4) == 0 {
		b.WriteString([]string{" ", "\n", "\t", "\r\n", "  "}[g.r.IntN(5)])
	}
}

// writeString writes s as a JSON string, choosing among the escapes that
// decode to the same text: \u escapes in either case, surrogate pairs for
// astral runes, "\/", and for U+FFFD also a lone low surrogate or a raw
// invalid byte (both decode to U+FFFD).
func (g *instGen) writeString(b *bytes.Buffer, s string) {
	hexCase := func(s string) string {
		if g.r.IntN(2) == 0 {
			return strings.ToUpper(s)
		}
		return s
	}
	u := func(r rune) { b.WriteString(`\u` + hexCase(fmt.Sprintf("%04x", r))) }
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			if g.r.IntN(4) == 0 {
				u(r)
			} else {
				b.WriteByte('\\')
				b.WriteRune(r)
			}
		case r < 0x20:
			short := map[rune]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}[r]
			if short != "" && g.r.IntN(2) == 0 {
				b.WriteString(short)
			} else {
				u(r)
			}
		case r == '/' && g.r.IntN(2) == 0:
			b.WriteString(`\/`)
		case r == utf8.RuneError:
			switch g.r.IntN(5) {
			case 0:
				u(r)
			case 1:
				u(0xdc00 + rune(g.r.IntN(0x400))) // lone low surrogate
			case 2:
				b.WriteByte(0xff)
			case 3:
				b.WriteByte(0x80)
			default:
				b.WriteRune(r)
			}
		case r >= 0x10000 && g.r.IntN(3) == 0:
			hi, lo := (r-0x10000)>>10+0xd800, (r-0x10000)&0x3ff+0xdc00
			u(hi)
			u(lo)
		case g.r.IntN(10) == 0 && r < 0x10000:
			u(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// ---------------------------------------------------------------------
// Hand-written cases: the exact messages, and what the generator avoids.

func goldenSchema(t *testing.T, name string) *Schema {
	t.Helper()
	c, file, _ := strings.Cut(name, "/")
	var data []byte
	err := os.ErrNotExist
	for _, dir := range goldenWant {
		if data, err = os.ReadFile(strings.Replace(dir, "*", c, 1) + "/" + file); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func violationTexts(s *Schema, inst string) ([]string, error) {
	v, err := jsonvalue.Parse([]byte(inst))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, x := range s.Validate(v) {
		out = append(out, cmp.Or(x.Path, "arguments")+": "+x.Msg)
	}
	return out, nil
}

func TestValidateMessages(t *testing.T) {
	const ticket = `"title":"t","description":"d"`
	const tagged = `"name":"bob","email":"bob@example.com","age":30,"ratio":0.5,"tags":["ab"],"codes":["USD"],"enabled":true,"extra":""`
	const person = `"name":"n","home":{"street":"s","city":"c"},"meta":{"source":"x"}`
	cases := []struct {
		schema string // a golden schema, or inline JSON
		inst   string
		want   []string // nil: valid
	}{
		// tickets: the message from the issue, and the basic shapes.
		{"tickets/createTicketInputSchema.json", `{` + ticket + `,"kind":"enhancement"}`,
			[]string{`kind: must be one of "bug", "feature", "task"; got "enhancement"`}},
		{"tickets/createTicketInputSchema.json", `{` + ticket + `,"kind":"b\u0075g"}`, nil},
		{"tickets/createTicketInputSchema.json", `{"title":"t","kind":"bug"}`,
			[]string{`description: is required`}},
		{"tickets/createTicketInputSchema.json", `{}`,
			[]string{`title: is required`, `description: is required`, `kind: is required`}},
		{"tickets/createTicketInputSchema.json", `{` + ticket + `,"kind":"bug","Kind":"bug"}`,
			[]string{`Kind: unknown property (allowed: title, description, kind, labels)`}},
		{"tickets/createTicketInputSchema.json", `{` + ticket + `,"kind":"bug","labels":["a","b",3]}`,
			[]string{`labels[2]: must be a string; got 3`}},
		{"tickets/createTicketInputSchema.json", `{` + ticket + `,"kind":"bug","labels":["a","b","c","d","e","f"]}`,
			[]string{`labels: must have at most 5 items; got 6`}},
		{"tickets/createTicketInputSchema.json", `[]`,
			[]string{`arguments: must be an object; got an array`}},
		{"tickets/createTicketInputSchema.json", `{"title":null,"description":["x"],"kind":{"k":1}}`,
			[]string{`title: must be a string; got null`, `description: must be a string; got an array`, `kind: must be a string; got an object`}},

		// Nested paths, through $ref and inline objects.
		{"nested_defs/saveInputSchema.json", `{"person":{"name":"n","home":{"street":"s","city":1},"meta":{"source":"x"}}}`,
			[]string{`person.home.city: must be a string; got 1`}},
		{"nested_defs/saveInputSchema.json", `{"person":{` + person + `},"extra":[{` + person + `},{` + person + `,"past":[{"street":"s"}]}]}`,
			[]string{`extra[1].past[0].city: is required`}},
		{"inline/saveInputSchema.json", `{"home":{"street":"s"}}`,
			[]string{`home.city: is required`}},
		{"recursive/walkInputSchema.json", `{"label":"a","children":[{"label":"b","parent":{"label":"c","children":[{"lable":"d"}]}}]}`,
			[]string{`children[0].parent.children[0].lable: unknown property (allowed: label, children, parent)`, `children[0].parent.children[0].label: is required`}},

		// Strings, numbers and arrays with bounds.
		{"tags/taggedInputSchema.json", `{` + tagged + `}`, nil},
		{"tags/taggedInputSchema.json", `{"name":"bob,al","email":"b@c.de","age":150.0,"ratio":0.75,"tags":["😀😀","ab","日本"],"codes":[],"enabled":false,"extra":""}`, nil},
		{"tags/taggedInputSchema.json", `{"name":"` + strings.Repeat("a", 41) + `","email":"b@c.de","age":-1,"ratio":1,"tags":["😀"],"codes":["usd"],"enabled":1,"extra":""}`,
			[]string{
				`name: must be at most 40 characters long; got 41`,
				`age: must be at least 0; got -1`,
				`ratio: must be less than 1; got 1`,
				`tags[0]: must be at least 2 characters long; got 1`,
				`codes[0]: must match the pattern "^[A-Z]{3}$"; got "usd"`,
				`enabled: must be a boolean; got 1`,
			}},
		{"tags/taggedInputSchema.json", `{"name":"","email":"b@c.de","age":1.5,"ratio":0.3,"tags":[],"codes":[],"enabled":true,"extra":""}`,
			[]string{
				`name: must be at least 1 character long; got 0`,
				`name: must match the pattern "^[a-z]+(,[a-z]+)*$"; got ""`,
				`age: must be an integer; got 1.5`,
				`ratio: must be a multiple of 0.25; got 0.3`,
				`tags: must have at least 1 item; got 0`,
			}},
		{"tags/taggedInputSchema.json", `{"name":"a","email":"b@c.de","age":0,"ratio":0,"tags":["ab","a\u0062","cd","ef"],"codes":[],"enabled":true,"extra":""}`,
			[]string{
				`ratio: must be greater than 0; got 0`,
				`tags: must have at most 3 items; got 4`,
				`tags: items must be unique; items 0 and 1 are equal`,
			}},
		{"tags/taggedInputSchema.json", `{"name":"a\n","email":"b@c.de","age":1e2,"ratio":25e-2,"tags":["ab"],"codes":["USD\n"],"enabled":true,"extra":""}`,
			[]string{
				`name: must match the pattern "^[a-z]+(,[a-z]+)*$"; got "a\n"`,
				`codes[0]: must match the pattern "^[A-Z]{3}$"; got "USD\n"`,
			}},
		{"scalars/scalarsInputSchema.json", `{"bool":true,"int":-1e30,"int8":-128,"int16":32767.0,"int32":-2147483648,"int64":9223372036854775808,
			"uint":0,"uint8":255,"uint16":65535,"uint32":4294967295,"uint64":18446744073709551615,"float32":1.5,"float64":-1e308,"string":"",
			"bytes":"not base64!","time":"2026-07-28T09:30:00.5+02:00","duration":1,"raw":[{}],"any":null,"number":0,"rune":2147483647}`, nil},
		{"scalars/scalarsInputSchema.json", `{"bool":true,"int":0.5,"int8":128,"int16":-32768.5,"int32":2147483648,"int64":1,
			"uint":-1,"uint8":255.5,"uint16":65536,"uint32":4294967296,"uint64":-0.1,"float32":"1","float64":null,"string":"",
			"bytes":"","time":"","duration":1,"raw":1,"any":2,"number":0,"rune":-2147483649}`,
			[]string{
				`int: must be an integer; got 0.5`,
				`int8: must be at most 127; got 128`,
				`int16: must be an integer; got -32768.5`,
				`int32: must be at most 2147483647; got 2147483648`,
				`uint: must be at least 0; got -1`,
				`uint8: must be an integer; got 255.5`,
				`uint16: must be at most 65535; got 65536`,
				`uint32: must be at most 4294967295; got 4294967296`,
				`uint64: must be an integer; got -0.1`,
				`float32: must be a number; got "1"`,
				`float64: must be a number; got null`,
				`time: must be a date and time in RFC 3339 format, such as "2026-07-28T09:30:00Z"; got ""`,
				`rune: must be at least -2147483648; got -2147483649`,
			}},

		// Formats: those format.go knows are checked, the others are annotations.
		{"tags/taggedInputSchema.json", `{` + strings.Replace(tagged, "bob@example.com", "not an email", 1) + `}`,
			[]string{`email: must be an email address, such as "ada@example.com"; got "not an email"`}},
		{`{"type":"object","properties":{"remindAt":{"type":"string","format":"date-time"}}}`, `{"remindAt":"tomorrow"}`,
			[]string{`remindAt: must be a date and time in RFC 3339 format, such as "2026-07-28T09:30:00Z"; got "tomorrow"`}},
		{`{"type":"object","properties":{"remindAt":{"type":"string","format":"date-time"}}}`, `{"remindAt":"2026-07-28t09:30:00z"}`,
			[]string{`remindAt: must be a date and time in RFC 3339 format, such as "2026-07-28T09:30:00Z"; got "2026-07-28t09:30:00z"`}},
		{`{"type":"object","properties":{"d":{"format":"date"},"u":{"format":"uuid"},"a":{"format":"ipv4"},"b":{"format":"ipv6"},"h":{"format":"hostname"}}}`,
			`{"d":"2026-02-30","u":"123","a":"192.0.2.01","b":"::1%eth0","h":"not a host name!"}`,
			[]string{
				`d: must be a date in RFC 3339 format, such as "2026-07-28"; got "2026-02-30"`,
				`u: must be a UUID, such as "123e4567-e89b-12d3-a456-426614174000"; got "123"`,
				`a: must be an IPv4 address, such as "192.0.2.1"; got "192.0.2.01"`,
				`b: must be an IPv6 address, such as "2001:db8::1"; got "::1%eth0"`,
			}},
		{`{"type":"object","properties":{"d":{"format":"date"},"u":{"format":"uuid"},"a":{"format":"ipv4"},"b":{"format":"ipv6"},"n":{"format":"email"}}}`,
			`{"d":"2000-02-29","u":"123E4567-e89b-12d3-a456-426614174000","a":"192.0.2.1","b":"2001:db8::1","n":7}`, nil},

		// Beyond 20 violations, the rest are counted.
		{"scalars/scalarsInputSchema.json", `{"time":1}`,
			[]string{
				`time: must be a string; got 1`,
				`bool: is required`, `int: is required`, `int8: is required`, `int16: is required`, `int32: is required`,
				`int64: is required`, `uint: is required`, `uint8: is required`, `uint16: is required`, `uint32: is required`,
				`uint64: is required`, `float32: is required`, `float64: is required`, `string: is required`,
				`bytes: is required`, `duration: is required`, `raw: is required`, `any: is required`, `number: is required`,
				`arguments: 1 more violation not listed`,
			}},

		// Nullable fields and alternatives.
		{"pointers_nullable/pointersInputSchema.json", `{"plain":"","insisted":true,"both":null,"nullable":null}`, nil},
		{"pointers_nullable/pointersInputSchema.json", `{"plain":"","insisted":true,"both":5,"nullable":"x"}`,
			[]string{`both: must be a string or null; got 5`, `nullable: must be an integer or null; got "x"`}},
		{"pointers_nullable/pointersInputSchema.json", `{"plain":"","insisted":true,"both":"","nullable":1.5}`,
			[]string{`nullable: must be an integer or null; got 1.5`}},
		{`{"type":"object","properties":{"p":{"oneOf":[{"type":"boolean"},{"$ref":"#/$defs/Pt"}]}},"$defs":{"Pt":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}}}`,
			`{"p":{"y":1}}`, []string{`p.x: is required`}},
		{`{"type":"object","properties":{"p":{"oneOf":[{"type":"boolean"},{"$ref":"#/$defs/Pt"}]}},"$defs":{"Pt":{"type":"object"}}}`,
			`{"p":"s"}`, []string{`p: must be a boolean or an object; got "s"`}},
		{`{"type":"object","properties":{"n":{"type":["integer","null"]},"s":{"type":"null"}}}`,
			`{"n":"1","s":0}`, []string{`n: must be an integer or null; got "1"`, `s: must be null; got 0`}},

		// Maps, matrices, arrays of objects, member names that are not
		// identifiers.
		{"collections/collectInputSchema.json", `{"tags":[],"matrix":[[1,"x"]],"pair":[1],"counts":{"a b":1.5,"ok":1},"anything":{},"nested":{"":[1]},"keyed":{},"points":[{"x":1}],"named":[]}`,
			[]string{
				`matrix[0][1]: must be a number; got "x"`,
				`pair: must have at least 2 items; got 1`,
				`counts["a b"]: must be an integer; got 1.5`,
				`nested[""][0]: must be a string; got 1`,
				`points[0].y: is required`,
			}},
	}
	for i, c := range cases {
		var s *Schema
		if strings.HasPrefix(c.schema, "{") {
			var err error
			if s, err = Compile([]byte(c.schema)); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
		} else {
			s = goldenSchema(t, c.schema)
		}
		got, err := violationTexts(s, c.inst)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("case %d: %s\n%s\ngot:\n  %s\nwant:\n  %s", i, c.schema, c.inst, strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
		}
	}
}

// TestValidateHugeNumbers pins numbers the reference cannot compare
// (big.Rat refuses exponents beyond ±1e6), and that must not cost more
// than their length: the specification compares mathematical values.
func TestValidateHugeNumbers(t *testing.T) {
	long1 := "1." + strings.Repeat("0", 1<<20) + "1" // just above 1
	long9 := "0." + strings.Repeat("9", 1<<20)       // just below 1
	cases := []struct {
		schema, inst string
		valid        bool
	}{
		{`{"type":"number","maximum":10}`, `1e1000001`, false},
		{`{"type":"number","maximum":10}`, `-1e1000001`, true},
		{`{"type":"number","minimum":0}`, `-1e1000001`, false},
		{`{"type":"number","minimum":-5}`, `1E+99999999999999999999999`, true},
		{`{"type":"number","maximum":-5}`, `1E+99999999999999999999999`, false},
		{`{"type":"number","exclusiveMinimum":0}`, `1e-1000001`, true},
		{`{"type":"number","exclusiveMinimum":0}`, `-1e-1000001`, false},
		{`{"type":"number","exclusiveMaximum":0}`, `-1e-99999999999999999999`, true},
		{`{"type":"number","exclusiveMaximum":0}`, `0e-99999999999999999999`, false},
		{`{"type":"number","maximum":1}`, long1, false},
		{`{"type":"number","exclusiveMaximum":1}`, long9, true},
		{`{"type":"number","minimum":1}`, long9, false},
		{`{"type":"integer"}`, `1e1000001`, true},
		{`{"type":"integer"}`, `1E99999999999999999999`, true},
		{`{"type":"integer"}`, `1.5e-1000001`, false},
		{`{"type":"integer"}`, `-0.0e-99999999999999999999`, true},
		{`{"type":"integer"}`, `123.456e3`, true},
		{`{"type":"integer"}`, `123.4567e3`, false},
		{`{"type":"integer"}`, long1, false},
		{`{"type":"integer"}`, long1 + "e1048577", true},
		{`{"type":"number","multipleOf":0.25}`, `1e1000001`, true},
		{`{"type":"number","multipleOf":0.25}`, `1.3e-1000001`, false},
		{`{"type":"number","multipleOf":0.25}`, `0.125e1`, true},
		{`{"type":"number","multipleOf":0.25}`, `0.125`, false},
		{`{"type":"number","multipleOf":3}`, `1e1000001`, false},
		{`{"type":"number","multipleOf":3}`, `3e1000001`, true},
		{`{"type":"number","multipleOf":7e-3}`, `1.4`, true},
		{`{"type":"number","multipleOf":7e-3}`, `1.41`, false},
		{`{"type":"number","multipleOf":123456789012345678901234567890}`, `246913578024691357802469135780e1`, true},
		{`{"type":"number","multipleOf":123456789012345678901234567890}`, `246913578024691357802469135781`, false},
		{`{"type":"array","uniqueItems":true}`, `[1e1000001, 10e1000000]`, false},
		{`{"type":"array","uniqueItems":true}`, `[1e1000001, 1e1000000]`, true},
		{`{"type":"array","uniqueItems":true}`, `[1E99999999999999999999, 10e99999999999999999998]`, false},
		{`{"type":"array","uniqueItems":true}`, `[1E99999999999999999999, 1e99999999999999999998]`, true},
		{`{"type":"array","uniqueItems":true}`, `[1e-99999999999999999999, 0.1e-99999999999999999998]`, false},
		{`{"type":"array","uniqueItems":true}`, `[0, -0, 0e99999999999999999999]`, false},
		{`{"type":"array","uniqueItems":true}`, `[100, 1e2, 1.00E+2]`, false},
		{`{"enum":[1, 100]}`, `10e1`, true},
		{`{"enum":[1, 100]}`, `1e99999999999999999999`, false},
		{`{"const":0.5}`, `5e-1`, true},
	}
	for _, c := range cases {
		s, err := Compile([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonvalue.Parse([]byte(c.inst))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.valid(v); got != c.valid {
			t.Errorf("%s with %.60s: valid=%v, want %v (%.300v)", c.schema, c.inst, got, c.valid, s.Validate(v))
		}
	}

	// A bound or a multipleOf with an absurd exponent is refused when the
	// schema is compiled, so instance numbers can always be ordered
	// against it exactly.
	for _, sc := range []string{`{"maximum":1e99999999999999999999}`, `{"multipleOf":1e-99999999999999999999}`} {
		if _, err := Compile([]byte(sc)); err == nil {
			t.Errorf("Compile(%s) succeeded; want an error", sc)
		}
	}
}

// TestValidateNumbersCostLinear guards against arithmetic whose cost grows
// with the value of an exponent or the square of a literal's length: each
// of these used to take from 30 ms to seconds, so a 16 MiB line of them
// would have kept a CPU busy for hours.
func TestValidateNumbersCostLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 2000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%de999999", i+1)
	}
	b.WriteString("]")
	many := b.String()
	long := "1." + strings.Repeat("0", 4<<20) + "1"
	cases := []struct{ schema, inst string }{
		{`{"type":"array","items":{"type":"integer","maximum":5,"multipleOf":0.5},"uniqueItems":true}`, many},
		{`{"type":"array","items":{"enum":[1,2]}}`, many},
		{`{"type":"number","maximum":1,"multipleOf":0.001}`, long},
		{`{"type":"integer"}`, long},
		{`{"type":"array","uniqueItems":true}`, "[" + long + "," + long + "]"},
	}
	for _, c := range cases {
		s, err := Compile([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonvalue.Parse([]byte(c.inst))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		s.Validate(v)
		// Linear work here is a few milliseconds, even under -race; the
		// old cost was minutes. The margin absorbs a loaded machine.
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s with a %d-byte instance took %v", c.schema, len(c.inst), d)
		}
	}
}

// TestValidateDecimalAgainstRat checks the decimal arithmetic that bounds,
// integers, multipleOf, enum and uniqueItems use against math/big on
// numbers small enough for big.Rat, written in many ways.
func TestValidateDecimalAgainstRat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lit := func() string {
		var b strings.Builder
		if r.IntN(3) == 0 {
			b.WriteByte('-')
		}
		switch r.IntN(4) {
		case 0:
			b.WriteByte('0')
		default:
			b.WriteByte(byte('1' + r.IntN(9)))
			for range r.IntN(6) {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		if r.IntN(2) == 0 {
			b.WriteByte('.')
			for range 1 + r.IntN(5) {
				b.WriteByte("0000123456789"[r.IntN(13)])
			}
		}
		if r.IntN(2) == 0 {
			b.WriteString([]string{"e", "E", "e+", "e-", "E-"}[r.IntN(5)])
			if r.IntN(4) == 0 {
				b.WriteString("00")
			}
			b.WriteString(strconv.Itoa(r.IntN(25)))
		}
		return b.String()
	}
	multiples := []string{"0.25", "3", "7e-3", "1.5", "1e-2", "10", "0.1", "123456789012345678901234567890", "1099511627776", "3e5", "6.25e-4"}
	for range 20000 {
		a, b := lit(), lit()
		if !json.Valid([]byte(a)) || !json.Valid([]byte(b)) {
			t.Fatalf("bad literal %s or %s", a, b)
		}
		ra, rb := rat(a), rat(b)
		da, db := parseDecimal([]byte(a)), parseDecimal([]byte(b))
		if got, want := cmpDecimal(&da, &db), ra.Cmp(rb); got != want {
			t.Fatalf("cmpDecimal(%s, %s) = %d, want %d", a, b, got, want)
		}
		if got, want := equalDecimal(&da, &db), ra.Cmp(rb) == 0; got != want {
			t.Fatalf("equalDecimal(%s, %s) = %v, want %v", a, b, got, want)
		}
		ca, cb := string(da.appendCanonical(nil)), string(db.appendCanonical(nil))
		if (ca == cb) != (ra.Cmp(rb) == 0) {
			t.Fatalf("canonical forms %s (%s) and %s (%s) disagree with big.Rat", ca, a, cb, b)
		}
		if got, want := isInteger([]byte(a)), ra.IsInt(); got != want {
			t.Fatalf("isInteger(%s) = %v, want %v", a, got, want)
		}
		m := multiples[r.IntN(len(multiples))]
		mn, err := newMultiple([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		// Make a multiple often enough: a × m.
		x := a
		if r.IntN(2) == 0 {
			x = new(big.Rat).Mul(ra, rat(m)).FloatString(40)
		}
		rx := rat(x)
		dx := parseDecimal([]byte(x))
		if got, want := mn.isMultiple(&dx), new(big.Rat).Quo(rx, rat(m)).IsInt(); got != want {
			t.Fatalf("isMultiple(%s, %s) = %v, want %v", x, m, got, want)
		}
	}
	// Exponents too long for int64 are still exact.
	for _, c := range []struct {
		x, y string
		eq   bool
	}{
		{"1e100000000000000000000", "10e99999999999999999999", true},
		{"1e100000000000000000000", "1e99999999999999999999", false},
		{"0.001e-100000000000000000000", "1e-100000000000000000003", true},
		{"123.45e100000000000000000000", "12345e99999999999999999998", true},
		{"99999999999999999999e99999999999999999999", "9.9999999999999999999e100000000000000000018", true},
		{"-1e100000000000000000000", "1e100000000000000000000", false},
	} {
		x, y := parseDecimal([]byte(c.x)), parseDecimal([]byte(c.y))
		if got := equalDecimal(&x, &y); got != c.eq {
			t.Errorf("equalDecimal(%s, %s) = %v (canonical %s, %s)", c.x, c.y, got, x.appendCanonical(nil), y.appendCanonical(nil))
		}
	}
}

// joinPath extends a path the generator tracks with a member name, as
// jsonpath.Format writes short paths.
func joinPath(path, name string) string {
	if path == "" {
		return jsonpath.Format([]jsonpath.Step{jsonpath.Member(name)})
	}
	return path + jsonpath.Format([]jsonpath.Step{jsonpath.Member("x"), jsonpath.Member(name)})[1:]
}
