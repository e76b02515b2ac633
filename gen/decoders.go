package gen

import (
	"cmp"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Decoders: generated functions that store a tool's validated arguments
// in its input struct without reflection, field by field, from the tree
// the runtime has already parsed. A struct whose JSON form needs
// encoding/json's full rules (embedded fields, ",string" options, its own
// UnmarshalJSON), a struct of another package, and every type without a
// fast path (time.Time, any, …) are left to runtime.DecodeJSON.

// decoderSet holds the decoder functions a file declares, by struct type.
type decoderSet struct {
	e     *emitter
	names map[*types.Named]string
	order []*types.Named
	fast  map[*types.Named]bool // generated's answers
}

// inputDecoder returns the decoder Handle takes for a tool's input.
func (d *decoderSet) inputDecoder(t *tool) jen.Code {
	switch {
	case t.input == nil:
		return d.e.impl("NoArguments")
	case isPointer(t.input):
		elem := types.Unalias(t.input).(*types.Pointer).Elem()
		if d.functionName(elem) == "DecodeJSON" {
			// encoding/json allocates the pointer itself; PointerTo would
			// need DecodeJSON instantiated, as nothing else tells its T.
			return d.e.impl("DecodeJSON")
		}
		return d.e.impl("PointerTo").Call(d.ref(elem))
	default:
		return d.ref(t.input)
	}
}

// functionName is the name of t's decoder: a generated one, or one of the
// runtime package.
func (d *decoderSet) functionName(t types.Type) string {
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Basic:
		if !d.hasCustomDecoding(t) {
			if name := basicDecoder(u); name != "" {
				return name
			}
		}
	case *types.Struct:
		if n := namedStruct(t); n != nil && d.generated(n) {
			return d.name(n)
		}
	}
	return "DecodeJSON"
}

func namedStruct(t types.Type) *types.Named {
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// generated reports whether n gets a decoder of its own: a struct of the
// package being generated (the fields of another package's struct may have
// types that cannot be named here), whose members encoding/json would
// decode by its simple rules, and which the file guards (its guard names
// the same type as the decoder's parameter, so that the decoders, which
// are rendered apart, need no import the rest of the file does not have:
// render.go).
func (d *decoderSet) generated(n *types.Named) bool {
	ok, known := d.fast[n]
	if !known {
		ok = d.decodable(n)
		d.fast[n] = ok
	}
	return ok
}

func (d *decoderSet) decodable(n *types.Named) bool {
	return n.Obj().Pkg() == d.e.m.pkg && d.e.guarded(n) && d.fastStruct(n)
}

// ref is the decoder of t as written in a decoder: decodeX, or
// mcpimpl.DecodeY.
func (d *decoderSet) ref(t types.Type) *jen.Statement {
	name := d.functionName(t)
	if n := namedStruct(t); n != nil && d.names[n] == name {
		return jen.Id(name)
	}
	return d.e.impl(name)
}

// call is the Go expression decoding v into dst, for a field of type t.
func (d *decoderSet) call(t types.Type, v, dst jen.Code) jen.Code {
	if !d.hasCustomDecoding(t) {
		switch u := types.Unalias(t).(type) {
		case *types.Slice:
			if !isByte(u.Elem()) {
				return d.e.impl("DecodeSlice").Call(v, dst, d.ref(u.Elem()))
			}
		case *types.Map:
			if k, ok := u.Key().Underlying().(*types.Basic); ok && k.Info()&types.IsString != 0 {
				decode := "DecodeMap"
				if m := d.e.m.ix.jsonMethods.decodeMethod(u.Key()); m != nil && m.text {
					decode = "DecodeTextMap" // encoding/json prefers UnmarshalText to the string
				}
				return d.e.impl(decode).Call(v, dst, d.ref(u.Elem()))
			}
		case *types.Pointer:
			return d.e.impl("DecodePointer").Call(v, dst, d.ref(u.Elem()))
		}
	}
	return d.ref(t).Call(v, dst)
}

func basicDecoder(b *types.Basic) string {
	info := b.Info()
	switch {
	case info&types.IsString != 0:
		return "DecodeString"
	case info&types.IsBoolean != 0:
		return "DecodeBool"
	case info&types.IsUnsigned != 0:
		return "DecodeUint"
	case info&types.IsInteger != 0:
		return "DecodeInt"
	case info&types.IsFloat != 0:
		return "DecodeFloat"
	}
	return ""
}

// hasCustomDecoding reports types that encoding/json does not decode by
// their structure (those with UnmarshalJSON or UnmarshalText, and those of
// encoding/json itself: json.Number, json.RawMessage), and those whose
// schema //mcp:schema states, which encoding/json is trusted to read.
func (d *decoderSet) hasCustomDecoding(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	if obj := n.Obj(); obj.Pkg() != nil && obj.Pkg().Path() == "encoding/json" {
		return true
	}
	if st := d.e.m.stated(n); st != nil && st.schema != nil {
		return true
	}
	return d.e.m.ix.jsonMethods.decodeMethod(n) != nil
}

// fastStruct reports whether a generated decoder can decode n: its JSON
// members are exactly its exported, non-embedded fields, by their json
// names, with no ",string" option.
func (d *decoderSet) fastStruct(n *types.Named) bool {
	if d.hasCustomDecoding(n) {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	seen := map[string]bool{}
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Embedded() {
			return false
		}
		tags := parseTags(st.Tag(i))
		if !f.Exported() || tags.skip {
			continue
		}
		if tags.quoted || tags.syntax != "" {
			return false
		}
		name := cmp.Or(tags.name, f.Name())
		if seen[name] {
			return false
		}
		seen[name] = true
	}
	return true
}

// name returns the name of n's generated decoder, adding it to the set.
func (d *decoderSet) name(n *types.Named) string {
	if name, ok := d.names[n]; ok {
		return name
	}
	if n.TypeArgs().Len() > 0 { // instances of a generic type can be identical and distinct
		for _, have := range d.order {
			if types.Identical(have, n) {
				return d.names[have]
			}
		}
	}
	name := d.e.scope.declare("decode" + identifier(types.TypeString(n, func(*types.Package) string { return "" })))
	d.names[n] = name
	d.order = append(d.order, n)
	return name
}

// write writes every decoder the handlers use, including those the
// decoders themselves use:
//
//	// decodeCreateTicketInput stores validated arguments in in, without reflection.
//	func decodeCreateTicketInput(v mcpimpl.Value, in *CreateTicketInput) error {
//		for name, f := range v.Members() {
//			var err error
//			switch name {
//			case "title":
//				err = mcpimpl.DecodeString(f, &in.Title)
//			…
//			}
//			if err != nil {
//				return mcpimpl.FieldError(name, err)
//			}
//		}
//		return nil
//	}
func (d *decoderSet) write() {
	f := d.e.decoders
	for i := 0; i < len(d.order); i++ { // writing may add more
		n := d.order[i]
		name := d.names[n]
		st := n.Underlying().(*types.Struct)
		params := jen.Params(jen.Id("v").Add(d.e.impl("Value")), jen.Id("in").Op("*").Add(d.e.typeCode(n)))
		var cases []jen.Code
		for j := range st.NumFields() {
			fl := st.Field(j)
			tags := parseTags(st.Tag(j))
			if !fl.Exported() || tags.skip {
				continue
			}
			cases = append(cases, jen.Case(jen.Lit(cmp.Or(tags.name, fl.Name()))).Block(
				jen.Id("err").Op("=").Add(d.call(fl.Type(), jen.Id("f"), jen.Op("&").Id("in").Dot(fl.Name()))),
			))
		}
		body := []jen.Code{jen.Return(jen.Nil())} // no members: the schema admits none
		if cases != nil {
			body = []jen.Code{
				jen.For(jen.List(jen.Id("name"), jen.Id("f")).Op(":=").Range().Id("v").Dot("Members").Call()).Block(
					jen.Var().Id("err").Error(),
					jen.Switch(jen.Id("name")).Block(cases...),
					jen.If(jen.Id("err").Op("!=").Nil()).Block(
						jen.Return(d.e.impl("FieldError").Call(jen.Id("name"), jen.Id("err"))),
					),
				),
				jen.Return(jen.Nil()),
			}
		}
		if i > 0 {
			f.Line()
		}
		f.Comment(name + " stores validated arguments in in, without reflection.")
		f.Func().Id(name).Add(params).Error().Block(body...)
	}
}

// identifier makes a type's name, with its type arguments, part of a Go
// identifier: each run of what an identifier cannot hold (brackets,
// spaces, the quotes and dashes of a struct type's tags) becomes one
// underscore. Box[[]time.Duration] is Box_time_Duration.
func identifier(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			b.WriteRune(r)
		} else if !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_")
}
