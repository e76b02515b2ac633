package gen

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// A schemaBuilder derives the JSON Schema of one tool's input or output
// from go/types, following the rules of encoding/json (which decides what
// the JSON looks like) and the tag conventions of invopop/jsonschema. Where
// mcpgen knows more than a reflection-based library can, it says so: doc
// comments become descriptions and the constants of a named type become
// its enum.
//
// Named struct types go into $defs and are referenced with $ref, unless
// inline is set; a recursive type always needs a $defs entry.
type schemaBuilder struct {
	*pass
	inline bool
	// encoded says that the schema describes what encoding/json writes (a
	// tool's result) rather than what it reads: a nil pointer or []byte
	// is then null (see held).
	encoded bool

	defs jsonschema.Definitions
	// defNames are the $defs names given, one per type: each
	// instantiation of a generic type has its own, as its fields differ.
	defNames []defName
	pending  []*types.Named // recursive types whose $defs entry is still to build
	building []*types.Named // named structs being expanded, outermost first
	failed   map[any]bool   // types and fields already reported, to report each once
	headers  []headerField  // fields annotated x-mcp-header, for checkHeaders
	// headerFailed says that checkHeaders reported an annotation.
	headerFailed bool
}

func newSchemaBuilder(p *pass, inline bool) *schemaBuilder {
	return &schemaBuilder{
		pass: p, inline: inline,
		defs:   jsonschema.Definitions{},
		failed: map[any]bool{},
	}
}

// root returns the schema of a tool's input type t, a named struct or a
// pointer to one, expanded at the root as MCP requires ("type":
// "object").
func (b *schemaBuilder) root(t types.Type, pos token.Pos, what string) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named := types.Unalias(t).(*types.Named)
	s := b.expandNamed(named, typePath(named), pos)
	b.checkHeaders(s)
	return b.finish(s)
}

// A headerField is a field annotated x-mcp-header and its schema, where
// the annotation sits.
type headerField struct {
	schema *jsonschema.Schema
	path   string
	pos    token.Pos
}

// checkHeaders reports each x-mcp-header annotation that root, the input
// schema, does not reach through properties alone. The specification
// allows no other place (not $defs behind a $ref, not items, not the
// anyOf that nullable adds): clients drop a tool that has one elsewhere,
// and the runtime refuses it when the tool is added, so it is an error
// here, where the field is.
func (b *schemaBuilder) checkHeaders(root *jsonschema.Schema) {
	reached := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		reached[s] = true
		if s.Properties == nil {
			return
		}
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			walk(p.Value)
		}
	}
	walk(root)
	for _, h := range b.headers {
		if !reached[h.schema] {
			b.headerFailed = true
			b.errorf(h.pos, "%s: x-mcp-header applies only to a field the input reaches through properties alone, and this one is inside a $defs entry (a named struct: inline it, or move the field to the input), a list or a nullable field; clients would drop the tool", h.path)
		}
	}
}

// emptyRoot is the input schema of a tool that takes no input.
func (b *schemaBuilder) emptyRoot() string {
	return b.finish(&jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), AdditionalProperties: jsonschema.FalseSchema})
}

// output returns the schema of a tool's structured output, an object or
// (value) any other JSON value. A value's schema is the value's own; the
// runtime nests it in {"type":"object","properties":{"result":…}} for
// clients of revisions before 2026-07-28, which require an object. So that
// it means the same there, it is written without "$schema" and with its
// named types inline: a "$ref" to the root's "$defs" would miss once
// nested. A recursive type cannot be inlined, and is reported.
func (b *schemaBuilder) output(t types.Type, path string, pos token.Pos, value bool) string {
	b.encoded = true
	if value {
		b.inline = true
		s := b.held(t, path, pos)
		b.addDefs(s)
		if s.Definitions != nil {
			b.warnf(pos, "%s: the output schema refers to the recursive type %s through $defs, which clients of revisions before 2026-07-28 cannot resolve once the runtime wraps the value as {\"result\": …}: return a struct that holds the value", path, b.defNames[0].t.Obj().Name())
		}
		return encodeSchema(s)
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	var s *jsonschema.Schema
	if named, ok := types.Unalias(t).(*types.Named); ok && isStruct(named) {
		s = b.expandNamed(named, typePath(named), pos)
	} else {
		s = b.schema(t, path, pos)
	}
	return b.finish(s)
}

// finish adds the $defs that the schema refers to, builds the entries of
// recursive types, and encodes the result.
func (b *schemaBuilder) finish(s *jsonschema.Schema) string {
	b.addDefs(s)
	s.Version = jsonschema.Version
	return encodeSchema(s)
}

// addDefs adds the $defs that the schema refers to, and builds the entries
// of recursive types.
func (b *schemaBuilder) addDefs(s *jsonschema.Schema) {
	for len(b.pending) > 0 {
		n := b.pending[0]
		b.pending = b.pending[1:]
		name, _ := b.defName(n)
		if _, done := b.defs[name]; done {
			continue
		}
		b.defs[name] = b.expandNamed(n, typePath(n), n.Obj().Pos())
	}
	if len(b.defs) > 0 {
		s.Definitions = b.defs
	}
}

// buildSchemas derives every tool's schemas, and those of the rejected
// tools for their diagnostics, one tool after another. On two cores,
// sharing the tools among goroutines saved about 3% of BenchmarkGenerate
// (200 tools: 73 ms against 76), not worth a lock in the index and
// diagnostics to merge.
func (m *model) buildSchemas() {
	for _, td := range m.typeDirs {
		if td.kind == directiveConfig {
			m.buildConfig(td)
			continue
		}
		td.buildSchema(m.pass)
	}
	for _, t := range slices.Concat(m.tools, m.rejected) {
		t.buildSchemas(m.pass, m.server.inline)
	}
}

func (t *tool) buildSchemas(p *pass, inline bool) {
	sb := newSchemaBuilder(p, inline)
	if t.input != nil {
		t.inputSchema = sb.root(t.input, t.inputPos, "input")
		// What checkHeaders did not report at a tag, the runtime's own
		// check finds: the refusal AddTool would make at start-up.
		if !sb.headerFailed {
			if err := mcpimpl.CheckHeaderParams(t.inputSchema); err != nil {
				p.errorf(t.inputPos, "tool %s: %v", t.name, err)
			}
		}
	} else {
		t.inputSchema = sb.emptyRoot()
	}
	if t.hasOutputSchema() {
		osb := newSchemaBuilder(p, inline)
		t.outputSchema = osb.output(t.output, "result of "+t.fn.Name(), t.outputPos, t.out == outValue)
	}
}

// hasOutputSchema reports whether the tool declares an outputSchema: it
// does when its results are structured.
func (t *tool) hasOutputSchema() bool {
	return t.out == outStructured || t.out == outValue
}

// typePath names a type in diagnostics.
func typePath(n *types.Named) string { return n.Obj().Name() }

// unsupported reports a type the schema cannot describe, once per type.
func (b *schemaBuilder) unsupported(t types.Type, pos token.Pos, format string, args ...any) *jsonschema.Schema {
	if t != nil {
		if b.failed[t] {
			return &jsonschema.Schema{}
		}
		b.failed[t] = true
	}
	b.errorf(pos, format, args...)
	return &jsonschema.Schema{}
}

// schema is the schema of a value of type t at path (for messages).
func (b *schemaBuilder) schema(t types.Type, path string, pos token.Pos) *jsonschema.Schema {
	t = types.Unalias(t)
	if named, ok := t.(*types.Named); ok {
		if s, ok := b.special(named, path, pos); ok {
			return s
		}
		if b.customSchema(named, path, pos) {
			return &jsonschema.Schema{}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return b.basic(t, u, path, pos)
	case *types.Pointer:
		return b.held(u.Elem(), path, pos)
	case *types.Slice:
		if isByte(u.Elem()) {
			return &jsonschema.Schema{Type: "string", ContentEncoding: "base64"}
		}
		return &jsonschema.Schema{Type: "array", Items: b.held(u.Elem(), path+"[]", pos)}
	case *types.Array:
		n := uint64(u.Len())
		return &jsonschema.Schema{Type: "array", Items: b.held(u.Elem(), path+"[]", pos), MinItems: &n, MaxItems: &n}
	case *types.Map:
		if k, ok := u.Key().Underlying().(*types.Basic); !ok || k.Info()&types.IsString == 0 {
			return b.unsupported(t, pos, "%s: unsupported map key type %s: only string keys map to JSON object names", path, typeString(u.Key(), b.pkg))
		}
		s := &jsonschema.Schema{Type: "object"}
		if !isEmptyInterface(u.Elem()) {
			s.AdditionalProperties = b.held(u.Elem(), path+"[]", pos)
		}
		return s
	case *types.Struct:
		if named, ok := t.(*types.Named); ok {
			return b.namedStruct(named, path, pos)
		}
		return b.structSchema(u, nil, path, pos)
	case *types.Interface:
		if u.Empty() {
			return &jsonschema.Schema{} // any JSON value
		}
		return b.unsupported(t, pos, "%s: unsupported type %s: an interface with methods has no JSON form; use a concrete type", path, typeString(t, b.pkg))
	case *types.Chan:
		return b.unsupported(t, pos, "%s: unsupported type %s: channels cannot be encoded as JSON", path, typeString(t, b.pkg))
	case *types.Signature:
		return b.unsupported(t, pos, "%s: unsupported type %s: functions cannot be encoded as JSON", path, typeString(t, b.pkg))
	default:
		return b.unsupported(t, pos, "%s: unsupported type %s", path, typeString(t, b.pkg))
	}
}

// held is the schema of a value of type t held by a pointer, a slice, an
// array, a map or a wrapped result: in an encoded schema, it allows the
// null that encoding/json writes for a nil t. (A struct field, which
// omitempty may leave out instead, is handled by structSchema.)
func (b *schemaBuilder) held(t types.Type, path string, pos token.Pos) *jsonschema.Schema {
	s := b.schema(t, path, pos)
	if b.encoded && encodesNil(t) {
		return orNull(s)
	}
	return s
}

// encodesNil reports whether encoding/json writes null for some value of
// type t: a nil pointer or []byte. (A nil slice or map is null too, but
// the runtime sends it as [] or {}, as the schema says.)
func encodesNil(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Slice:
		return isByte(u.Elem())
	}
	return false
}

// orNull returns s extended to allow null as well. A schema that allows
// null already is returned as it is: oneOf would refuse a null that both
// of its alternatives accept.
func orNull(s *jsonschema.Schema) *jsonschema.Schema {
	if allowsNull(s) {
		return s
	}
	return &jsonschema.Schema{OneOf: []*jsonschema.Schema{s, {Type: "null"}}}
}

// allowsNull reports whether s, as the builder makes schemas, accepts
// null: it is null, any value (true), or a oneOf with such an alternative.
func allowsNull(s *jsonschema.Schema) bool {
	if s.OneOf != nil {
		return slices.ContainsFunc(s.OneOf, allowsNull)
	}
	return s.Type == "null" || s.Type == "" && s.Ref == "" && s.AnyOf == nil && s.AllOf == nil && s.Not == nil && s.Enum == nil && s.Const == nil
}

// special handles types whose JSON form is not what their Go structure
// suggests.
func (b *schemaBuilder) special(n *types.Named, path string, pos token.Pos) (*jsonschema.Schema, bool) {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return nil, false
	}
	switch obj.Pkg().Path() + "." + obj.Name() {
	case "time.Time":
		return &jsonschema.Schema{Type: "string", Format: "date-time"}, true
	case "encoding/json.RawMessage":
		return &jsonschema.Schema{}, true // any JSON value
	case "encoding/json.Number":
		return &jsonschema.Schema{Type: "number"}, true
	case "net/url.URL":
		// invopop says {"type":"string","format":"uri"}, but encoding/json
		// reads and writes a url.URL as an object of its fields.
		return b.unsupported(n, pos, "%s: encoding/json reads and writes a url.URL as an object of its fields, not as a URL: use a string field with jsonschema:\"format=uri\" and url.Parse it", path), true
	case "net.IP":
		// Its UnmarshalText parses IPv4 and IPv6 addresses; invopop says
		// format ipv4, which the validator would hold IPv6 addresses to.
		return &jsonschema.Schema{Type: "string"}, true
	}
	if _, isBasic := n.Underlying().(*types.Basic); !isBasic && b.ix.hasMethod(n, "UnmarshalText") && !b.ix.hasMethod(n, "UnmarshalJSON") {
		// encoding/json decodes a TextUnmarshaler from a JSON string.
		return &jsonschema.Schema{Type: "string"}, true
	}
	if b.ix.hasMethod(n, "UnmarshalJSON") && !b.failed[n] {
		b.failed[n] = true
		b.warnf(pos, "%s: %s has its own UnmarshalJSON method; its schema follows its Go type, which may not be the JSON that method accepts", path, typeString(n, b.pkg))
	}
	return nil, false
}

// customSchema reports types that customise invopop/jsonschema's
// reflection, which mcpgen cannot run.
func (b *schemaBuilder) customSchema(n *types.Named, path string, pos token.Pos) bool {
	for _, m := range []string{"JSONSchema", "JSONSchemaExtend", "JSONSchemaAlias", "JSONSchemaProperty"} {
		if b.ix.hasMethod(n, m) {
			b.unsupported(n, pos, "%s: %s has a %s method: mcpgen derives schemas at generate time and cannot call it; this is not supported yet (use struct tags instead)", path, typeString(n, b.pkg), m)
			return true
		}
	}
	return false
}

func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uint8
}

func isEmptyInterface(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.Empty()
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// basic is the schema of a boolean, number or string type; a named one
// gets the values of its constants as its enum.
func (b *schemaBuilder) basic(t types.Type, u *types.Basic, path string, pos token.Pos) *jsonschema.Schema {
	info := u.Info()
	var s *jsonschema.Schema
	switch {
	case info&types.IsBoolean != 0:
		s = &jsonschema.Schema{Type: "boolean"}
	case info&types.IsInteger != 0:
		s = &jsonschema.Schema{Type: "integer"}
		intBounds(s, u.Kind())
	case info&types.IsFloat != 0:
		s = &jsonschema.Schema{Type: "number"}
	case info&types.IsString != 0:
		s = &jsonschema.Schema{Type: "string"}
	case info&types.IsComplex != 0:
		return b.unsupported(t, pos, "%s: unsupported type %s: complex numbers cannot be encoded as JSON", path, typeString(t, b.pkg))
	default:
		return b.unsupported(t, pos, "%s: unsupported type %s", path, typeString(t, b.pkg))
	}
	if named, ok := t.(*types.Named); ok && info&(types.IsString|types.IsInteger) != 0 && !isStandard(named.Obj().Pkg()) {
		s.Enum = b.ix.enumValues(named)
	}
	return s
}

// intBounds adds the range of a sized integer type. The bounds of 64-bit
// types are left out: they exceed what JSON numbers carry exactly, and
// decoding already rejects values out of range.
func intBounds(s *jsonschema.Schema, k types.BasicKind) {
	var lo, hi int64
	switch k {
	case types.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case types.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case types.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case types.Uint8:
		lo, hi = 0, math.MaxUint8
	case types.Uint16:
		lo, hi = 0, math.MaxUint16
	case types.Uint32:
		lo, hi = 0, math.MaxUint32
	case types.Uint, types.Uint64, types.Uintptr:
		s.Minimum = "0"
		return
	default:
		return
	}
	s.Minimum = json.Number(strconv.FormatInt(lo, 10))
	s.Maximum = json.Number(strconv.FormatInt(hi, 10))
}

// namedStruct is the schema of a property of named struct type: a $ref to
// its $defs entry, or the struct inlined.
func (b *schemaBuilder) namedStruct(n *types.Named, path string, pos token.Pos) *jsonschema.Schema {
	if name, ok := b.defName(n); ok {
		return &jsonschema.Schema{Ref: "#/$defs/" + name}
	}
	recursive := slices.ContainsFunc(b.building, func(o *types.Named) bool { return types.Identical(o, n) })
	if !b.inline || recursive {
		name := b.assignDefName(n)
		if recursive {
			b.pending = append(b.pending, n) // built after the outer expansion ends
		} else {
			b.defs[name] = b.expandNamed(n, path, pos)
		}
		return &jsonschema.Schema{Ref: "#/$defs/" + name}
	}
	return b.expandNamed(n, path, pos)
}

// expandNamed builds the object schema of a named struct, described by
// the type's doc comment.
func (b *schemaBuilder) expandNamed(n *types.Named, path string, pos token.Pos) *jsonschema.Schema {
	b.ix.noteStruct(n)
	b.building = append(b.building, n)
	defer func() { b.building = b.building[:len(b.building)-1] }()
	if b.customSchema(n, path, pos) {
		return &jsonschema.Schema{}
	}
	s := b.structSchema(n.Underlying().(*types.Struct), n, path, pos)
	s.Description = b.ix.typeDoc(n.Obj())
	return s
}

// A defName is the $defs name given to a type.
type defName struct {
	t    *types.Named
	name string
}

// defName returns the $defs name given to n, if any.
func (b *schemaBuilder) defName(n *types.Named) (string, bool) {
	for _, d := range b.defNames {
		if types.Identical(d.t, n) {
			return d.name, true
		}
	}
	return "", false
}

// assignDefName picks the $defs name of n: its type name with its type
// arguments (Box[int] is Box_int), qualified by its package name when a
// type of another package has that name, or numbered when another
// instantiation does.
func (b *schemaBuilder) assignDefName(n *types.Named) string {
	obj := n.Obj()
	name := sanitizeDefName(types.TypeString(n, func(p *types.Package) string { return "" }))
	if owner := b.nameOwner(name); owner != nil && owner.Obj() != obj && obj.Pkg() != nil {
		name = sanitizeDefName(obj.Pkg().Name() + "." + name)
	}
	for i := 2; b.nameOwner(name) != nil; i++ {
		name = fmt.Sprintf("%s%d", strings.TrimRight(name, "0123456789"), i)
	}
	b.defNames = append(b.defNames, defName{n, name})
	return name
}

func (b *schemaBuilder) nameOwner(name string) *types.Named {
	for _, d := range b.defNames {
		if d.name == name {
			return d.t
		}
	}
	return nil
}

// sanitizeDefName keeps a $defs name usable in a $ref without escaping.
// The brackets and punctuation of type arguments become one underscore:
// Page[Item] is Page_Item, Box[[]time.Duration] Box_Duration.
func sanitizeDefName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '-' || r == '.' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			b.WriteRune(r)
		} else if !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	return strings.TrimRight(b.String(), "_")
}

// structSchema is the object schema of a struct: one property per field
// that encoding/json would read, in field order.
func (b *schemaBuilder) structSchema(st *types.Struct, named *types.Named, path string, pos token.Pos) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           jsonschema.NewProperties(),
		AdditionalProperties: jsonschema.FalseSchema,
	}
	fields := b.ix.fields(st, func() []jsonField { return b.jsonFields(st, named, path, pos) })
	if len(fields) == 0 {
		b.checkUnexported(st, named, path, pos)
	}
	for _, f := range fields {
		fpath := path + "." + f.v.Name()
		fpos := f.v.Pos()
		if !fpos.IsValid() {
			fpos = pos
		}
		prop := b.schema(f.v.Type(), fpath, fpos)
		if f.tags.quoted {
			switch prop.Type {
			case "integer", "number", "boolean":
				prop = &jsonschema.Schema{Type: "string"} // encoding/json's ",string"
			}
		}
		astField, local := b.ix.field(f.v)
		tagField := astField // for positions inside its tag
		if !local {
			tagField = nil
		}
		if prop.Enum != nil && slices.ContainsFunc(f.tags.keywords, func(kv keyVal) bool { return kv.key == "enum" }) {
			prop.Enum = nil // the tag's enum replaces the constants
		}
		if f.tags.syntax != "" {
			b.errorf(tagPos(tagField, "", fpos), "%s: %s", fpath, f.tags.syntax)
		}
		if f.tags.free != "" {
			b.errorf(tagPos(tagField, f.tags.free, fpos), "%s: jsonschema tag %q is not key=value: for a description write jsonschema:\"description=…\" or jsonschema_description:\"…\"", fpath, f.tags.free)
		}
		applyKeywords(prop, f.tags.keywords, func(kv keyVal, msg string) {
			b.errorf(tagPos(tagField, kv.raw, fpos), "%s: jsonschema tag: %s", fpath, msg)
		})
		applyExtras(prop, f.tags.extras)
		if i := slices.IndexFunc(f.tags.extras, func(kv keyVal) bool { return kv.key == "x-mcp-header" }); i >= 0 {
			b.headers = append(b.headers, headerField{prop, fpath, tagPos(tagField, f.tags.extras[i].raw, fpos)})
		}
		if f.tags.hasDesc && !hasKeyword(f.tags.keywords, "description") {
			prop.Description = f.tags.desc
		}
		if prop.Description == "" {
			prop.Description = fieldDoc(astField)
		}
		if prop.Description == "" && prop.Ref == "" {
			if n, ok := types.Unalias(derefType(f.v.Type())).(*types.Named); ok && !isStandard(n.Obj().Pkg()) {
				prop.Description = b.ix.typeDoc(n.Obj())
			}
		}
		if f.tags.nullable || b.encoded && encodesNil(f.v.Type()) && !f.tags.omitEmpty {
			prop = orNull(prop) // asked for, or what encoding/json writes for nil
		}
		s.Properties.Set(f.name, prop)
		if f.required() {
			s.Required = append(s.Required, f.name)
		}
	}
	return s
}

// checkUnexported warns about a struct whose fields are all unexported:
// encoding/json ignores them, so its schema has no properties, which is
// rarely what was meant. A struct whose fields are all left out with
// json:"-" says so on purpose.
func (b *schemaBuilder) checkUnexported(st *types.Struct, named *types.Named, path string, pos token.Pos) {
	unexported := false
	for i := range st.NumFields() {
		if f := st.Field(i); !f.Exported() && !f.Embedded() && !parseTags(st.Tag(i)).skip {
			unexported = true
		}
	}
	if !unexported || b.failed[st] {
		return
	}
	b.failed[st] = true
	what := "the struct"
	if named != nil {
		what = typeString(named, b.pkg)
		if p := named.Obj().Pos(); p.IsValid() && named.Obj().Pkg() == b.pkg {
			pos = p
		}
	}
	if path != what {
		what = path + ": " + what
	}
	if b.encoded {
		b.warnf(pos, "%s has no exported fields, so encoding/json writes it as {} and its schema has no properties: export the fields the result carries", what)
	} else {
		b.warnf(pos, "%s has no exported fields, so its schema has no properties and a call with any argument is refused as an unknown property: export the fields that are arguments", what)
	}
}

func hasKeyword(kws []keyVal, key string) bool {
	return slices.ContainsFunc(kws, func(kv keyVal) bool { return kv.key == key })
}

func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// plainFields is the common case of jsonFields: a struct without
// embedded fields or names used twice, where no field hides another, so
// the fields are simply those exported, in order. It reports false when
// the struct needs the general rules.
func (b *schemaBuilder) plainFields(st *types.Struct, path string) ([]jsonField, bool) {
	fields := make([]jsonField, 0, st.NumFields())
	for i := range st.NumFields() {
		v := st.Field(i)
		if v.Embedded() {
			return nil, false
		}
		if !v.Exported() {
			continue
		}
		tags := parseTags(st.Tag(i))
		if tags.skip {
			continue
		}
		f := jsonField{name: cmp.Or(tags.name, v.Name()), tagged: tags.name != "", index: []int{i}, v: v, tags: tags}
		if slices.ContainsFunc(fields, func(g jsonField) bool { return g.name == f.name }) {
			return nil, false
		}
		fields = append(fields, f)
	}
	for _, f := range fields {
		b.warnInline(f.v, f.tags, path)
	}
	return fields, true
}

func (b *schemaBuilder) warnInline(v *types.Var, tags fieldTags, path string) {
	if tags.inline && !b.failed[v] {
		b.failed[v] = true
		b.warnf(v.Pos(), "%s.%s: json:\",inline\" is not an encoding/json option: the field is decoded (and described) as a nested object; embed the struct to flatten it", path, v.Name())
	}
}

// A jsonField is a struct field as encoding/json sees it.
type jsonField struct {
	name   string
	tagged bool
	index  []int
	v      *types.Var
	tags   fieldTags
}

// required: a field is required unless it may be left out (omitempty,
// omitzero) or absent in Go (a pointer); jsonschema:"required" insists.
func (f *jsonField) required() bool {
	if f.tags.required {
		return true
	}
	_, ptr := types.Unalias(f.v.Type()).(*types.Pointer)
	return !f.tags.omitEmpty && !ptr
}

// jsonFields lists the fields encoding/json decodes for a struct,
// following its rules for embedded structs: breadth first, with a
// shallower or tagged field hiding others of the same name, and a tie
// hiding both (encoding/json's typeFields and dominantField).
func (b *schemaBuilder) jsonFields(st *types.Struct, named *types.Named, path string, pos token.Pos) []jsonField {
	if fields, ok := b.plainFields(st, path); ok {
		return fields
	}
	type level struct {
		st    *types.Struct
		index []int
		key   string
	}
	var fields []jsonField
	rootKey := ""
	if named != nil {
		rootKey = types.TypeString(named, nil)
	}
	next := []level{{st: st, key: rootKey}}
	count, nextCount := map[string]int{}, map[string]int{}
	visited := map[string]bool{}
	for len(next) > 0 {
		current := next
		next = nil
		count, nextCount = nextCount, map[string]int{}
		for _, lv := range current {
			if visited[lv.key] {
				continue
			}
			visited[lv.key] = true
			for i := range lv.st.NumFields() {
				v := lv.st.Field(i)
				tags := parseTags(lv.st.Tag(i))
				ft := types.Unalias(v.Type())
				if p, ok := ft.(*types.Pointer); ok {
					ft = types.Unalias(p.Elem())
				}
				if v.Embedded() {
					if !v.Exported() && !isStruct(ft) {
						continue
					}
				} else if !v.Exported() {
					continue
				}
				if tags.skip {
					continue
				}
				b.warnInline(v, tags, path)
				index := append(slices.Clip(lv.index), i)
				fst, isSt := ft.Underlying().(*types.Struct)
				if tags.name != "" || !v.Embedded() || !isSt {
					f := jsonField{name: tags.name, tagged: tags.name != "", index: index, v: v, tags: tags}
					if f.name == "" {
						f.name = v.Name()
					}
					fields = append(fields, f)
					if count[lv.key] > 1 {
						fields = append(fields, f) // so the tie below removes it
					}
					continue
				}
				if n, ok := ft.(*types.Named); ok {
					b.ix.noteStruct(n) // its fields are promoted into the schema
				}
				key := types.TypeString(ft, nil)
				nextCount[key]++
				if nextCount[key] == 1 {
					next = append(next, level{st: fst, index: index, key: key})
				}
			}
		}
	}
	slices.SortStableFunc(fields, func(x, y jsonField) int {
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
		if len(x.index) != len(y.index) {
			return len(x.index) - len(y.index)
		}
		if x.tagged != y.tagged {
			if x.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(x.index, y.index)
	})
	var out []jsonField
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 || len(group[0].index) != len(group[1].index) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		} else {
			b.warnf(pos, "%s: several fields are named %q at the same depth; encoding/json ignores them all, and so does the schema", path, fields[i].name)
		}
		i = j
	}
	slices.SortFunc(out, func(x, y jsonField) int { return slices.Compare(x.index, y.index) })
	return out
}
