package gen

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/doc"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

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
	// is then null (see held), and a type's marshaling methods apply.
	encoded bool
	// addr says, in an encoded schema, that the value being described is
	// addressable (reached through a pointer or a slice), so that
	// encoding/json calls the marshaling methods of its pointer type too.
	addr bool
	// form says that the schema is an elicitation form, whose enums are
	// plain lists of values.
	form bool

	defs jsonschema.Definitions
	// defNames are the $defs names given, one per type: each
	// instantiation of a generic type has its own, as its fields differ.
	defNames []defName
	pending  []defName      // recursive types whose $defs entry is still to build
	building []*types.Named // named structs being expanded, outermost first
	failed   map[any]bool   // types and fields already reported, to report each once
	// addrDeps memoizes addrMatters.
	addrDeps map[*types.Named]bool
	headers  []headerField // fields annotated x-mcp-header, for checkHeaders
	// headerFailed says that checkHeaders reported an annotation.
	headerFailed bool
	// at records where the user declared each property and each named
	// struct of the schema, when the positions of the surface are asked
	// for (Config.Surface); it is nil otherwise. built is the schema
	// finished last, which positions walks.
	at    map[*jsonschema.Schema]token.Pos
	built *jsonschema.Schema
}

func newSchemaBuilder(p *pass, inline bool) *schemaBuilder {
	b := &schemaBuilder{
		pass: p, inline: inline,
		defs:     jsonschema.Definitions{},
		failed:   map[any]bool{},
		addrDeps: map[*types.Named]bool{},
	}
	if p.lp.surface {
		b.at = map[*jsonschema.Schema]token.Pos{}
	}
	return b
}

// root returns the schema of a tool's input type t, a named struct or a
// pointer to one, expanded at the root as MCP requires ("type":
// "object").
func (b *schemaBuilder) root(t types.Type, pos token.Pos, what string) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named := types.Unalias(t).(*types.Named)
	var s *jsonschema.Schema
	if b.ownForm(named) {
		s = b.objectRoot(named, pos)
	} else {
		s = b.expandNamed(named, typePath(named), pos)
	}
	b.checkHeaders(s)
	return b.finish(s)
}

// objectRoot is the schema of an input that encoding/json decodes through
// its own UnmarshalJSON, or whose schema is stated: MCP requires an
// object at the root, so a stated schema must be one, and an unknown one
// is any object.
func (b *schemaBuilder) objectRoot(n *types.Named, pos token.Pos) *jsonschema.Schema {
	s := b.schema(n, typePath(n), pos)
	switch s.Type {
	case "object":
		return s
	case "":
		if st := b.stated(n); st == nil || st.schema == nil {
			s.Type = "object" // any JSON value, narrowed to what MCP allows
			return s
		}
	}
	b.errorf(pos, "%s: a tool's arguments are a JSON object, and the schema of %s is not one", typePath(n), typeString(n, b.pkg))
	return &jsonschema.Schema{Type: "object"}
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
		b.built = s
		if s.Definitions != nil {
			b.warnf(pos, "%s: the output schema refers to the recursive type %s through $defs, which clients of revisions before 2026-07-28 cannot resolve once the runtime wraps the value as {\"result\": …}: return a struct that holds the value", path, b.defNames[0].t.Obj().Name())
		}
		return encodeSchema(s)
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t, b.addr = p.Elem(), true // json.Marshal(&v): v is addressable
	}
	var s *jsonschema.Schema
	if named, ok := types.Unalias(t).(*types.Named); ok && isStruct(named) && !b.ownForm(named) {
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
	b.built = s
	return encodeSchema(s)
}

// addDefs adds the $defs that the schema refers to, and builds the entries
// of recursive types.
func (b *schemaBuilder) addDefs(s *jsonschema.Schema) {
	for len(b.pending) > 0 {
		d := b.pending[0]
		b.pending = b.pending[1:]
		if _, done := b.defs[d.name]; done {
			continue
		}
		b.addr = d.addr
		b.defs[d.name] = b.expandNamed(d.t, typePath(d.t), d.t.Obj().Pos())
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
	m.checkStated()
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
	t.inputAt = sb.positions()
	if t.hasOutputSchema() {
		osb := newSchemaBuilder(p, inline)
		t.outputSchema = osb.output(t.output, "result of "+t.fn.Name(), t.outputPos, t.out == outValue)
		t.outputAt = osb.positions()
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
		if s, ok := b.namedSchema(named, path, pos); ok {
			return s
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return b.basic(t, u, path, pos)
	case *types.Pointer:
		return b.elem(u.Elem(), path, pos, true)
	case *types.Slice:
		if b.bytes(u.Elem()) {
			return &jsonschema.Schema{Type: "string", ContentEncoding: "base64"}
		}
		return &jsonschema.Schema{Type: "array", Items: b.elem(u.Elem(), path+"[]", pos, true)}
	case *types.Array:
		n := uint64(u.Len())
		return &jsonschema.Schema{Type: "array", Items: b.elem(u.Elem(), path+"[]", pos, b.addr), MinItems: &n, MaxItems: &n}
	case *types.Map:
		names, ok := b.mapKeys(u.Key(), path, pos)
		if !ok {
			return &jsonschema.Schema{}
		}
		s := &jsonschema.Schema{Type: "object", PropertyNames: names}
		if !isEmptyInterface(u.Elem()) {
			s.AdditionalProperties = b.elem(u.Elem(), path+"[]", pos, false)
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

// elem is the schema of a value held by a pointer, a slice, an array or a
// map, which is addressable or not as addr says (see schemaBuilder.addr).
func (b *schemaBuilder) elem(t types.Type, path string, pos token.Pos, addr bool) *jsonschema.Schema {
	return b.addressable(addr, func() *jsonschema.Schema { return b.held(t, path, pos) })
}

// addressable returns schema(), built with the addressability of the value set to
// addr.
func (b *schemaBuilder) addressable(addr bool, schema func() *jsonschema.Schema) *jsonschema.Schema {
	outer := b.addr
	b.addr = addr
	defer func() { b.addr = outer }()
	return schema()
}

// bytes reports whether a slice of elem is a base64 string in the JSON:
// encoding/json writes a slice of any uint8 type so, unless *elem has a
// marshaling method, and reads both that and an array of numbers. When
// reading, a slice of an enum (a uint8 type with constants) or of a type
// with its own decoding is described as the list it reads as: a list of
// weekdays is [1, 5], not "AQU=".
func (b *schemaBuilder) bytes(elem types.Type) bool {
	if !isByte(elem) {
		return false
	}
	if b.encoded {
		ptr := types.NewPointer(elem)
		return !types.Implements(ptr, jsonMarshaler) && !types.Implements(ptr, textMarshaler)
	}
	if n, ok := types.Unalias(elem).(*types.Named); ok {
		return b.ix.jsonMethods.decodeMethod(n) == nil && b.ix.enums.values(n) == nil
	}
	return true
}

// mapKeys is the propertyNames schema of a map's keys, as encoding/json
// reads and writes them: a key type with UnmarshalText (when reading) or
// MarshalText (when writing, after the string kinds) is any text; a
// string type is the string, an enum's constants; an integer type is the
// integer in decimal, which strconv.ParseInt or ParseUint reads (an
// optional sign, leading zeros allowed) and strconv.FormatInt writes.
// The range of the integer is checked by decoding, not by the pattern.
func (b *schemaBuilder) mapKeys(k types.Type, path string, pos token.Pos) (*jsonschema.Schema, bool) {
	basic, isBasic := k.Underlying().(*types.Basic)
	text := types.Implements(types.NewPointer(k), textUnmarshaler)
	if b.encoded {
		text = (!isBasic || basic.Info()&types.IsString == 0) && types.Implements(k, textMarshaler)
	}
	switch {
	case text:
		return nil, true
	case isBasic && basic.Info()&types.IsString != 0:
		if n, ok := types.Unalias(k).(*types.Named); ok && !isStandard(n.Obj().Pkg()) {
			if vals := b.ix.enumValues(n); vals != nil {
				b.untypedSiblings(n)
				return &jsonschema.Schema{Enum: vals}, true
			}
		}
		return nil, true
	case isBasic && basic.Info()&types.IsUnsigned != 0:
		return &jsonschema.Schema{Pattern: "^[0-9]+$"}, true
	case isBasic && basic.Info()&types.IsInteger != 0:
		if b.encoded {
			return &jsonschema.Schema{Pattern: "^-?[0-9]+$"}, true
		}
		return &jsonschema.Schema{Pattern: "^[+-]?[0-9]+$"}, true
	}
	method := "UnmarshalText"
	if b.encoded {
		method = "MarshalText"
	}
	b.unsupported(k, pos, "%s: encoding/json cannot use %s as the key of a JSON object: a key is a string type, an integer type, or a type with %s", path, typeString(k, b.pkg), method)
	return nil, false
}

// held is the schema of a value of type t held by a pointer, a slice, an
// array, a map or a wrapped result: in an encoded schema, it allows the
// null that encoding/json writes for a nil t. (A struct field, which
// omitempty may leave out instead, is handled by structSchema.)
func (b *schemaBuilder) held(t types.Type, path string, pos token.Pos) *jsonschema.Schema {
	s := b.schema(t, path, pos)
	if b.encoded && b.encodesNil(t) {
		return orNull(s)
	}
	return s
}

// encodesNil reports whether encoding/json writes null for some value of
// type t: a nil pointer or []byte. (A nil slice or map is null too, but
// the runtime sends it as [] or {}, as the schema says.)
func (b *schemaBuilder) encodesNil(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Slice:
		return b.bytes(u.Elem())
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
	if s.OneOf != nil && s.Type == "" {
		return slices.ContainsFunc(s.OneOf, allowsNull)
	}
	return s.Type == "null" || s.Type == "" && s.Ref == "" && s.AnyOf == nil && s.AllOf == nil && s.Not == nil && s.Enum == nil && s.Const == nil && s.OneOf == nil
}

// ownForm reports whether n's JSON is not its structure's: its schema is
// stated, or encoding/json reads or writes it through its methods.
func (b *schemaBuilder) ownForm(n *types.Named) bool {
	return b.stated(n) != nil && b.stated(n).schema != nil || b.method(n) != nil
}

// method is the method through which encoding/json reads n, or writes it
// when the schema is encoded.
func (b *schemaBuilder) method(n *types.Named) *jsonMethod {
	if b.encoded {
		return b.ix.jsonMethods.encodeMethod(n, b.addr)
	}
	return b.ix.jsonMethods.decodeMethod(n)
}

// namedSchema handles named types whose JSON form is not what their Go
// structure suggests: a schema stated with //mcp:schema, a type read or
// written through its own methods, and a few types of the standard
// library.
func (b *schemaBuilder) namedSchema(n *types.Named, path string, pos token.Pos) (*jsonschema.Schema, bool) {
	if st := b.stated(n); st != nil && st.schema != nil {
		st.used = true
		return cloneSchema(st.schema), true
	}
	if obj := n.Obj(); obj.Pkg() != nil {
		switch obj.Pkg().Path() + "." + obj.Name() {
		case "encoding/json.Number":
			return &jsonschema.Schema{Type: "number"}, true
		case "net/url.URL":
			// invopop says {"type":"string","format":"uri"}, but encoding/json
			// reads and writes a url.URL as an object of its fields.
			return b.unsupported(n, pos, "%s: encoding/json reads and writes a url.URL as an object of its fields, not as a URL: use a string field with jsonschema:\"format=uri\" and url.Parse it", path), true
		case "time.Duration":
			return &jsonschema.Schema{Type: "integer", Description: durationDoc}, true
		}
	}
	if m := b.method(n); m != nil {
		if m.nilVia != nil && !b.failed[m.nilVia] {
			// The promoted method's receiver is the embedded pointer, which
			// is nil in the value encoding/json decodes into, always, and
			// in a result whose handler leaves it nil: the call
			// dereferences nil.
			b.failed[m.nilVia] = true
			report, when := b.errorf, "when encoding/json calls it"
			if b.encoded {
				report, when = b.warnf, "unless the handler sets it"
			}
			report(cmp.Or(b.localPos(m.nilVia), pos), "%s: %s's %s is promoted from the embedded pointer %s, which is nil %s, and the call panics: embed %s by value, or give %s its own %s", path, typeString(n, b.pkg), m.fn.Name(), typeString(m.nilVia.Type(), b.pkg), when, typeString(derefType(m.nilVia.Type()), b.pkg), typeString(n, b.pkg), m.fn.Name())
		}
		if s := knownSchema(m); s != nil {
			return s, true
		}
		return b.opaque(n, m, path, pos), true
	}
	if b.encoded && !b.addr && pointerOnlyMarshaler(n) && !b.failed[n] {
		b.failed[n] = true
		b.warnf(pos, "%s: %s marshals itself with a method of *%[2]s, which encoding/json calls only for a value it can address (reached through a pointer or a slice): this one it writes by its fields; give the method a value receiver", path, typeString(n, b.pkg))
	}
	if b.customSchema(n, path, pos) {
		return &jsonschema.Schema{}, true
	}
	return nil, false
}

// durationDoc says what a time.Duration's number means: encoding/json
// reads and writes its nanoseconds.
const durationDoc = "A duration in nanoseconds (1000000000 is one second)."

// opaque is the schema of a type that reads or writes its own JSON through
// a method mcpgen cannot see into: any value, described by the type's doc
// comment, and left to the method. The user is told once how to state it.
func (b *schemaBuilder) opaque(n *types.Named, m *jsonMethod, path string, pos token.Pos) *jsonschema.Schema {
	if !b.failed[n] {
		b.failed[n] = true
		verb, method := "reads", m.fn.Name()
		if b.encoded {
			verb = "writes"
		}
		declared := ""
		if owner := m.owner(); owner != nil && owner.Obj() != n.Origin().Obj() {
			declared = " (promoted from its embedded " + typeString(owner, b.pkg) + ")"
		}
		b.warnf(pos, "%s: %s %s its JSON with its own %s%s, which mcpgen cannot see into, so its schema admits any value; state it with %s", path, typeString(n, b.pkg), verb, method, declared, b.stateHint(n))
	}
	return &jsonschema.Schema{}
}

// customSchema reports types that customise invopop/jsonschema's
// reflection, which mcpgen cannot run.
func (b *schemaBuilder) customSchema(n *types.Named, path string, pos token.Pos) bool {
	for _, m := range []string{"JSONSchema", "JSONSchemaExtend", "JSONSchemaAlias", "JSONSchemaProperty"} {
		if b.ix.hasMethod(n, m) {
			b.unsupported(n, pos, "%s: %s has a %s method: mcpgen derives schemas at generate time and cannot call it; state the schema with %s, or use struct tags", path, typeString(n, b.pkg), m, b.stateHint(n))
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
	case u.Kind() == types.Invalid:
		b.typeErrorsMatter() // they say why
		return &jsonschema.Schema{}
	default:
		return b.unsupported(t, pos, "%s: unsupported type %s", path, typeString(t, b.pkg))
	}
	if named, ok := t.(*types.Named); ok && info&(types.IsString|types.IsInteger) != 0 && !isStandard(named.Obj().Pkg()) {
		b.enum(s, named)
	}
	return s
}

// enum gives s the values of the constants of n. The constants of an
// integer type are listed with their names, as
// {"const": 2, "title": "High"}, so that the model reads what 2 means
// and an error says "must be one of 1 (Low), 2 (High)"; an elicitation
// form's enum is a plain list.
func (b *schemaBuilder) enum(s *jsonschema.Schema, n *types.Named) {
	vals := b.ix.enumValues(n)
	if vals == nil {
		return
	}
	b.untypedSiblings(n)
	if s.Type != "integer" || b.form {
		s.Enum = vals
		return
	}
	for _, c := range b.ix.enums.consts(n) {
		v := json.Number(c.Val().ExactString())
		if slices.ContainsFunc(s.OneOf, func(o *jsonschema.Schema) bool { return o.Const == v }) {
			continue
		}
		s.OneOf = append(s.OneOf, &jsonschema.Schema{Const: v, Title: c.Name(), Description: b.ix.docs.constDoc(c)})
	}
}

// untypedSiblings warns, once per enum type, about the untyped constants
// of the kind of its values declared in its const blocks: after
// "Hardware Category = \"hardware\"", "Electronics = \"electronics\"" is
// an untyped string, not a Category, and not one of its values.
func (b *schemaBuilder) untypedSiblings(n *types.Named) {
	e := b.ix.enums.enum(n)
	if e == nil || b.failed[e] {
		return
	}
	b.failed[e] = true
	want := constant.String
	if u, ok := n.Underlying().(*types.Basic); ok && u.Info()&types.IsInteger != 0 {
		want = constant.Int
	}
	for _, c := range e.untyped {
		if c.Val().Kind() == want {
			b.warnf(c.Pos(), "%s is an untyped constant, so it is not one of the values of %s, which are %s: write %s %s = …, as the block's first constant does", c.Name(), n.Obj().Name(), enumWords(e.values), c.Name(), n.Obj().Name())
		}
	}
}

// enumWords lists enum values as a message shows them.
func enumWords(vals []any) string {
	words := make([]string, len(vals))
	for i, v := range vals {
		if s, ok := v.(string); ok {
			words[i] = strconv.Quote(s)
		} else {
			words[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(words, ", ")
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
		d := b.assignDefName(n)
		if recursive {
			b.pending = append(b.pending, d) // built after the outer expansion ends
		} else {
			b.defs[d.name] = b.expandNamed(n, path, pos)
		}
		return &jsonschema.Schema{Ref: "#/$defs/" + d.name}
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
	s.Description = b.typeDoc(n)
	if b.ownPackage(n.Obj().Pkg()) {
		b.note(s, n.Obj().Pos())
	}
	return s
}

// A defName is the $defs name given to a type. In an encoded schema whose
// type is written differently when addressable (see addrMatters), each
// case has its own entry.
type defName struct {
	t    *types.Named
	addr bool
	name string
}

// defName returns the $defs name given to n, if any.
func (b *schemaBuilder) defName(n *types.Named) (string, bool) {
	for _, d := range b.defNames {
		if types.Identical(d.t, n) && (d.addr == b.addr || !b.addrMatters(n)) {
			return d.name, true
		}
	}
	return "", false
}

// addrMatters reports whether the encoded schema of the struct n depends
// on whether the value is addressable: whether a field, or an array
// element or struct in it, has a type whose marshaling method only its
// pointer type has.
func (b *schemaBuilder) addrMatters(n *types.Named) bool {
	if !b.encoded {
		return false
	}
	if v, ok := b.addrDeps[n]; ok {
		return v
	}
	b.addrDeps[n] = false // a recursive type is settled by its other fields
	var dep func(t types.Type) bool
	dep = func(t types.Type) bool {
		t = types.Unalias(t)
		if pointerOnlyMarshaler(t) {
			return true
		}
		switch u := t.Underlying().(type) {
		case *types.Array:
			return dep(u.Elem())
		case *types.Struct:
			if nn, ok := t.(*types.Named); ok && nn != n {
				return b.addrMatters(nn)
			}
			for i := range u.NumFields() {
				if dep(u.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	v := dep(n.Underlying())
	b.addrDeps[n] = v
	return v
}

// assignDefName picks the $defs name of n: its type name with its type
// arguments (Box[int] is Box_int), qualified by its package name when a
// type of another package has that name, or numbered when another
// instantiation does.
func (b *schemaBuilder) assignDefName(n *types.Named) defName {
	obj := n.Obj()
	name := sanitizeDefName(types.TypeString(n, func(p *types.Package) string { return "" }))
	if owner := b.nameOwner(name); owner != nil && owner.Obj() != obj && obj.Pkg() != nil {
		name = sanitizeDefName(obj.Pkg().Name() + "." + name)
	}
	for i := 2; b.nameOwner(name) != nil; i++ {
		name = fmt.Sprintf("%s%d", strings.TrimRight(name, "0123456789"), i)
	}
	d := defName{n, b.addr, name}
	b.defNames = append(b.defNames, d)
	return d
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
	if optional := b.stated(named); optional != nil && optional.schema == nil {
		optional.used = true
		for _, m := range optional.members {
			if !slices.ContainsFunc(fields, func(f jsonField) bool { return f.name == m }) && !b.failed[optional] {
				b.failed[optional] = true
				names := make([]string, len(fields))
				for i, f := range fields {
					names[i] = f.name
				}
				b.errorf(optional.pos, "//mcp:schema %s: optional=%s names no member of %s, whose members are %s", optional.name, m, typeString(named, b.pkg), strings.Join(names, ", "))
			}
		}
	}
	for _, f := range fields {
		fpath := path + "." + f.v.Name()
		astField, local := b.ix.field(f.v)
		// A field of another module is reported at the field of the
		// user's that reaches it, with the path in between.
		fpos := pos
		if p := f.v.Pos(); p.IsValid() && b.ownPackage(f.v.Pkg()) {
			fpos = p
		}
		if f.via != nil && !b.encoded {
			// encoding/json fails to set a field promoted through an
			// unexported embedded pointer: it cannot allocate the struct.
			if !b.failed[f.via] {
				b.failed[f.via] = true
				b.errorf(cmp.Or(b.localPos(f.via), pos), "%s.%s: encoding/json cannot set the fields promoted through the unexported embedded pointer %s (\"cannot set embedded pointer to unexported struct\"): embed the struct by value, export its type, or add the tag json:\"-\"", path, f.via.Name(), typeString(f.via.Type(), b.pkg))
			}
			continue
		}
		if !b.encoded && f.v.Embedded() && !f.v.Exported() && isPointer(f.v.Type()) {
			// Tagged, it is a member of its own; to fill it encoding/json
			// sets the unexported field through reflection, which panics.
			if !b.failed[f.v] {
				b.failed[f.v] = true
				b.errorf(cmp.Or(b.localPos(f.v), pos), "%s: encoding/json cannot set the embedded pointer %s, of an unexported type, that the tag names %q (it panics): embed the struct by value, export its type, or add the tag json:\"-\"", fpath, typeString(f.v.Type(), b.pkg), f.name)
			}
			continue
		}
		var prop *jsonschema.Schema
		if b.encoded && f.viaPointer {
			// Promoted through an embedded pointer: the field is reached
			// through it, and so addressable.
			prop = b.addressable(true, func() *jsonschema.Schema { return b.schema(f.v.Type(), fpath, fpos) })
		} else {
			prop = b.schema(f.v.Type(), fpath, fpos)
		}
		if f.tags.quoted {
			prop = quotedSchema(f.v.Type(), prop)
		}
		tagField := astField // for positions inside its tag
		if !local {
			tagField = nil
		}
		if f.tags.syntax != "" {
			b.errorf(tagPos(tagField, "", fpos), "%s: %s", fpath, f.tags.syntax)
		}
		if f.tags.free != "" {
			b.errorf(tagPos(tagField, f.tags.free, fpos), "%s: %s", fpath, freeTagMessage(f.tags))
		}
		keywords := durationKeywords(f.v.Type(), f.tags.keywords)
		applyKeywords(prop, keywords, func(kv keyVal, msg string) {
			if f.tags.quoted && strings.HasSuffix(msg, "this field is a string") {
				msg += ` (json:",string" writes its number or boolean as one)`
			}
			b.errorf(tagPos(tagField, kv.raw, fpos), "%s: jsonschema tag: %s", fpath, msg)
		})
		applyExtras(prop, f.tags.extras)
		if i := slices.IndexFunc(f.tags.extras, func(kv keyVal) bool { return kv.key == "x-mcp-header" }); i >= 0 {
			b.headers = append(b.headers, headerField{prop, fpath, tagPos(tagField, f.tags.extras[i].raw, fpos)})
		}
		b.describe(prop, f, astField)
		b.checkInstances(prop, fpath, tagPos(tagField, "", fpos))
		b.checkMethodDefault(prop, f.v.Type(), fpath, tagPos(tagField, "default=", fpos))
		required := f.required() && !b.madeOptional(f)
		if b.encoded {
			// What json.Marshal always writes: every field without
			// omitempty or omitzero (a nil pointer as null), except those
			// of a nil embedded pointer, of which it writes nothing.
			required = (f.tags.required || !f.tags.omitEmpty) && !f.viaPointer
			b.checkOutputKeywords(keywords, fpath, tagPos(tagField, "", fpos))
		} else if required && prop.Default != nil {
			kv := keywords[slices.IndexFunc(keywords, func(kv keyVal) bool { return kv.key == "default" })]
			b.errorf(tagPos(tagField, kv.raw, fpos), "%s: a default is for a member that may be left out, and this one is required: add omitempty to its json tag (or make it a pointer), or drop the default", fpath)
		}
		if f.tags.nullable || b.encoded && b.encodesNil(f.v.Type()) && !f.tags.omitEmpty {
			prop = orNull(prop) // asked for, or what encoding/json writes for nil
		}
		s.Properties.Set(f.name, prop)
		b.note(prop, fpos)
		if required {
			s.Required = append(s.Required, f.name)
		}
	}
	return s
}

// madeOptional reports whether //mcp:schema makes the field optional: a
// struct that holds it (the one described, or one it embeds) is marked
// optional, or lists its name.
func (b *schemaBuilder) madeOptional(f jsonField) bool {
	optional := false
	for _, n := range f.chain {
		if st := b.stated(n); st != nil && st.schema == nil {
			st.used = true
			optional = optional || st.isOptional(f.name)
		}
	}
	return optional
}

// quotedSchema is the schema of a field with encoding/json's ",string"
// option, which applies to the strings, numbers and booleans (and
// pointers to them) that have no method of their own: a string that
// holds the value's JSON, which encoding/json reads as strconv reads a
// decimal number, or as JSON reads true, false or a string (a
// json.Number, a number or a string holding one). An enum's constants
// stay its values, written so. Other types ignore the option.
// (encoding/json also reads the string "null" there, as no value: the
// schema leaves that out.)
func quotedSchema(t types.Type, s *jsonschema.Schema) *jsonschema.Schema {
	dt := derefType(t)
	u, ok := types.Unalias(dt).Underlying().(*types.Basic)
	if !ok || decodeMethod(dt) != nil {
		return s
	}
	q := &jsonschema.Schema{Type: "string", Description: s.Description}
	if n, ok := types.Unalias(dt).(*types.Named); ok && typeKey(n) == "encoding/json.Number" {
		number := strings.Trim(jsonNumber.String(), "^$")
		q.Pattern = "^(" + number + `|"` + number + `")$`
		return q
	}
	for _, c := range s.OneOf { // an integer enum's titled constants
		q.OneOf = append(q.OneOf, &jsonschema.Schema{Const: string(c.Const.(json.Number)), Title: c.Title, Description: c.Description})
	}
	for _, v := range s.Enum {
		switch v := v.(type) {
		case json.Number:
			q.Enum = append(q.Enum, string(v))
		case string:
			text, _ := json.Marshal(v)
			q.Enum = append(q.Enum, string(text))
		}
	}
	if q.OneOf != nil || q.Enum != nil {
		return q
	}
	switch info := u.Info(); {
	case info&types.IsBoolean != 0:
		q.Enum = []any{"true", "false"}
	case info&types.IsUnsigned != 0:
		q.Pattern = "^[0-9]+$"
	case info&types.IsInteger != 0:
		q.Pattern = "^-?[0-9]+$"
	case info&types.IsFloat != 0:
		q.Pattern = `^-?[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?$`
	case info&types.IsString != 0:
		q.Pattern = `^"([^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"$`
	default:
		return s
	}
	return q
}

// describe sets the description of a field's schema: from its tag, else
// its doc comment, else the doc comment of its named type; a duration
// says its unit.
func (b *schemaBuilder) describe(prop *jsonschema.Schema, f jsonField, astField *ast.Field) {
	unit := prop.Description == durationDoc
	if f.tags.hasDesc && !hasKeyword(f.tags.keywords, "description") {
		prop.Description = f.tags.desc
	}
	if prop.Description == "" || unit {
		if doc := b.doc(f.v.Pkg(), fieldDoc(astField)); doc != "" {
			prop.Description = doc
		}
	}
	if prop.Description == "" && prop.Ref == "" {
		if n, ok := types.Unalias(derefType(f.v.Type())).(*types.Named); ok && !isStandard(n.Obj().Pkg()) {
			prop.Description = b.typeDoc(n)
		}
	}
	if unit && prop.Description != durationDoc {
		prop.Description = strings.TrimSuffix(prop.Description, ".") + ". " + durationDoc
	}
}

// freeTagMessage explains a jsonschema tag item that is not key=value:
// the rest of a value that held a comma, or a description written bare.
func freeTagMessage(tags fieldTags) string {
	if tags.freeAfterValue {
		return fmt.Sprintf("jsonschema tag %q is not key=value: it follows a comma inside the value before it; a comma that is part of a value is written \\\\, in the tag (as in `jsonschema:\"pattern=^[0-9]{3\\\\,}$\"`)", tags.free)
	}
	return fmt.Sprintf("jsonschema tag %q is not key=value: for a description write jsonschema:\"description=…\" or jsonschema_description:\"…\"", tags.free)
}

// checkOutputKeywords warns about the validation keywords of a field in an
// output schema: they constrain what the tool returns, and a result that
// breaks one is refused after the tool ran, often because a type made for
// input is returned too.
func (b *schemaBuilder) checkOutputKeywords(kws []keyVal, path string, pos token.Pos) {
	for _, kv := range kws {
		switch kv.key {
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "enum", "minItems", "maxItems", "uniqueItems":
		default:
			continue
		}
		if key := path + "\x00output"; !b.failed[key] {
			b.failed[key] = true
			b.warnf(pos, "%s: jsonschema:\"%s\" constrains a tool's result as well as its arguments: a result that breaks it is an error the model sees after the tool ran and its effects stand; keep constraints on types used only for input", path, kv.raw)
		}
		return
	}
}

// localPos is the position of v when it is in the user's module, else
// NoPos.
func (b *schemaBuilder) localPos(v *types.Var) token.Pos {
	if b.ownPackage(v.Pkg()) {
		return v.Pos()
	}
	return token.NoPos
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
	remedy := "export the fields that are arguments"
	if b.encoded {
		remedy = "export the fields the result carries"
	}
	if named != nil && !b.ownPackage(named.Obj().Pkg()) {
		// Not the user's to change: a type of another module, or of the
		// standard library.
		remedy = "use a type of your own, or state its schema with " + b.stateHint(named)
	}
	if b.encoded {
		b.warnf(pos, "%s has no exported fields, so encoding/json writes it as {} and its schema has no properties: %s", what, remedy)
	} else {
		b.warnf(pos, "%s has no exported fields, so its schema has no properties and a call with any argument is refused as an unknown property: %s", what, remedy)
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
func (b *schemaBuilder) plainFields(st *types.Struct, chain []*types.Named, path string) ([]jsonField, bool) {
	fields := make([]jsonField, 0, st.NumFields())
	for i := range st.NumFields() {
		v := st.Field(i)
		if v.Embedded() {
			return nil, false
		}
		tags := parseTags(st.Tag(i))
		if !v.Exported() {
			b.warnUnexported(v, tags, path)
			continue
		}
		if tags.skip {
			continue
		}
		f := jsonField{name: cmp.Or(tags.name, v.Name()), tagged: tags.name != "", index: []int{i}, v: v, tags: tags, chain: chain}
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

// warnUnexported warns about an unexported field with a json tag, which
// says it was meant to be a member: encoding/json ignores it.
func (b *schemaBuilder) warnUnexported(v *types.Var, tags fieldTags, path string) {
	if tags.hasJSON && !tags.skip && !b.failed[v] && b.ownPackage(v.Pkg()) {
		b.failed[v] = true
		b.warnf(v.Pos(), "%s.%s has a json tag, but encoding/json ignores unexported fields: export it (%s) to make it a member, or drop the tag", path, v.Name(), exportedName(v.Name()))
	}
}

// exportedName is name with its first letter upper-cased.
func exportedName(name string) string {
	r := []rune(name)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
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
	// viaPointer says that the field is promoted through an embedded
	// pointer, which may be nil; via is the first such pointer that is
	// unexported, through which encoding/json cannot set the field.
	viaPointer bool
	via        *types.Var
	// chain are the named structs that hold the field: the struct whose
	// schema is built, then each embedded one it is promoted through.
	chain []*types.Named
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
	var root []*types.Named
	if named != nil {
		root = []*types.Named{named}
	}
	if fields, ok := b.plainFields(st, root, path); ok {
		return fields
	}
	type level struct {
		st         *types.Struct
		index      []int
		key        string
		viaPointer bool
		via        *types.Var
		chain      []*types.Named
	}
	var fields []jsonField
	rootKey := ""
	if named != nil {
		rootKey = types.TypeString(named, nil)
	}
	next := []level{{st: st, key: rootKey, chain: root}}
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
				p, isPtr := ft.(*types.Pointer)
				if isPtr {
					ft = types.Unalias(p.Elem())
				}
				if v.Embedded() {
					if !v.Exported() && !isStruct(ft) {
						continue
					}
				} else if !v.Exported() {
					b.warnUnexported(v, tags, path)
					continue
				}
				if tags.skip {
					continue
				}
				b.warnInline(v, tags, path)
				index := append(slices.Clip(lv.index), i)
				fst, isSt := ft.Underlying().(*types.Struct)
				if tags.name != "" || !v.Embedded() || !isSt {
					f := jsonField{name: tags.name, tagged: tags.name != "", index: index, v: v, tags: tags, viaPointer: lv.viaPointer, via: lv.via, chain: lv.chain}
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
					chain := lv.chain
					if n, ok := ft.(*types.Named); ok {
						chain = append(slices.Clip(chain), n)
					}
					next = append(next, level{st: fst, index: index, key: key, viaPointer: lv.viaPointer || isPtr, via: lv.via, chain: chain})
					if isPtr && !v.Exported() && lv.via == nil {
						next[len(next)-1].via = v
					}
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

// maxForeignDoc bounds the description taken from another module's doc
// comment. The model pays for every byte of a schema on every turn, and
// the doc comments of a large module's types (Kubernetes', GitHub's) run
// to pages written for Go programmers: their first sentence says what
// the type is.
const maxForeignDoc = 200

// doc is a doc comment's text as a description: whole for the user's own
// module, the first sentence (at most maxForeignDoc bytes) for another.
func (b *schemaBuilder) doc(pkg *types.Package, text string) string {
	if text == "" || b.ownPackage(pkg) {
		return text
	}
	s := new(doc.Package).Synopsis(text)
	if len(s) > maxForeignDoc {
		cut := strings.LastIndex(s[:maxForeignDoc], " ")
		if cut < maxForeignDoc/2 {
			cut = maxForeignDoc
		}
		s = strings.TrimRight(s[:cut], " ,;:") + "…"
	}
	return s
}

// typeDoc is the description of a named type: its doc comment, bounded
// as doc bounds it.
func (b *schemaBuilder) typeDoc(n *types.Named) string {
	return b.doc(n.Obj().Pkg(), b.ix.typeDoc(n.Obj()))
}

// durationKeywords lets the numbers of a time.Duration field's keywords
// (default, minimum, …) be written as Go durations: default=30s is
// 30000000000 nanoseconds, what encoding/json reads.
func durationKeywords(t types.Type, kws []keyVal) []keyVal {
	t = derefType(t)
	if s, ok := types.Unalias(t).(*types.Slice); ok {
		t = s.Elem()
	}
	if !isDuration(t) {
		return kws
	}
	out := slices.Clone(kws)
	for i, kv := range out {
		switch kv.key {
		case "default", "example", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			if _, isNumber := toJSONNumber(kv.val); isNumber {
				continue
			}
			if d, err := time.ParseDuration(kv.val); err == nil {
				out[i].val = strconv.FormatInt(int64(d), 10)
			}
		}
	}
	return out
}

// isDuration reports whether t is time.Duration.
func isDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// checkMethodDefault reports a default on a member whose type reads
// itself through its own method: the schema says little of what the
// method takes (any string, for UnmarshalText), and mcpgen cannot run
// the method at generate time, so the default, given to every call that
// leaves the member out, could fail them all. The standard library's
// types whose schema is exact (time.Time's date-time, big.Int's integer)
// and json.RawMessage are fine.
func (b *schemaBuilder) checkMethodDefault(s *jsonschema.Schema, t types.Type, path string, pos token.Pos) {
	if s.Default == nil || b.encoded {
		return
	}
	m := b.ix.jsonMethods.decodeMethod(derefType(t))
	if m == nil {
		return
	}
	if owner := m.owner(); owner != nil {
		switch typeKey(owner) {
		case "time.Time", "math/big.Int", "encoding/json.RawMessage":
			return
		}
	}
	b.errorf(pos, "%s: %s reads itself with its own %s, which mcpgen cannot run to check the default; every call that leaves the member out would be refused if it is not a value the method takes: drop the default, and set it in the handler", path, typeString(derefType(t), b.pkg), m.fn.Name())
}

// checkInstances reports a default or an example of a field that its own
// schema refuses: a client that sends it, or a model that copies it,
// would be told the value is invalid.
func (b *schemaBuilder) checkInstances(s *jsonschema.Schema, path string, pos token.Pos) {
	if s.Default == nil && len(s.Examples) == 0 {
		return
	}
	text := encodeSchema(s)
	if strings.Contains(text, `"$ref"`) {
		return // a struct: tags give it no default
	}
	check := func(what string, v any) {
		data, err := json.Marshal(v)
		if err != nil {
			return
		}
		if err := mcpimpl.CheckInstance(text, string(data)); err != nil {
			b.errorf(pos, "%s: the %s %s is not a value of this field: %v", path, what, data, err)
		}
	}
	if s.Default != nil {
		check("default", s.Default)
	}
	for _, e := range s.Examples {
		check("example", e)
	}
}
