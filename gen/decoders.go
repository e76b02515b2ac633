package gen

import (
	"go/types"

	"github.com/dave/jennifer/jen"
)

// Decoders: generated functions that store a tool's validated arguments
// in its input struct without reflection, field by field, from the tree
// the runtime has already parsed. A struct whose JSON form needs
// encoding/json's full rules (embedded fields, ",string" options, its own
// UnmarshalJSON) and every type without a fast path (time.Time, maps with
// other keys, any, …) is left to runtime.DecodeJSON.

// decoderSet holds the decoder functions a file declares, by struct type.
type decoderSet struct {
	e     *emitter
	names map[*types.Named]string
	order []*types.Named
	used  map[string]bool
}

// inputDecoder returns the decoder Handle takes for a tool's input.
func (d *decoderSet) inputDecoder(t *tool) jen.Code {
	if t.input == nil {
		return jen.Qual(runtimePath, "NoArguments")
	}
	if p, ok := types.Unalias(t.input).(*types.Pointer); ok {
		return jen.Qual(runtimePath, "PointerTo").Call(d.function(p.Elem()))
	}
	return d.function(t.input)
}

// function is a decoder for t, as a function value: a generated decoder or
// a generic one of the runtime (whose type argument the call infers).
func (d *decoderSet) function(t types.Type) jen.Code {
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Basic:
		if !hasCustomDecoding(t) {
			if name := basicDecoder(u); name != "" {
				return jen.Qual(runtimePath, name)
			}
		}
	case *types.Struct:
		if n, ok := types.Unalias(t).(*types.Named); ok && !isStandard(n.Obj().Pkg()) && fastStruct(n) {
			return jen.Id(d.name(n))
		}
	}
	return jen.Qual(runtimePath, "DecodeJSON")
}

// call is a statement decoding v into dst, for a field of type t.
func (d *decoderSet) call(t types.Type, v, dst jen.Code) jen.Code {
	if !hasCustomDecoding(t) {
		switch u := types.Unalias(t).(type) {
		case *types.Slice:
			if !isByte(u.Elem()) {
				return jen.Qual(runtimePath, "DecodeSlice").Call(v, dst, d.function(u.Elem()))
			}
		case *types.Map:
			if k, ok := u.Key().Underlying().(*types.Basic); ok && k.Info()&types.IsString != 0 {
				return jen.Qual(runtimePath, "DecodeMap").Call(v, dst, d.function(u.Elem()))
			}
		case *types.Pointer:
			return jen.Qual(runtimePath, "DecodePointer").Call(v, dst, d.function(u.Elem()))
		}
	}
	return jen.Add(d.function(t)).Call(v, dst)
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
// their structure: those with UnmarshalJSON or UnmarshalText, and
// json.Number.
func hasCustomDecoding(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	if obj := n.Obj(); obj.Pkg() != nil && obj.Pkg().Path() == "encoding/json" {
		return true
	}
	ms := types.NewMethodSet(types.NewPointer(n))
	return ms.Lookup(nil, "UnmarshalJSON") != nil || ms.Lookup(nil, "UnmarshalText") != nil
}

// fastStruct reports whether a generated decoder can decode n: its JSON
// members are exactly its exported, non-embedded fields, by their json
// names, with no ",string" option.
func fastStruct(n *types.Named) bool {
	if hasCustomDecoding(n) {
		return false
	}
	st := n.Underlying().(*types.Struct)
	seen := map[string]bool{}
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Embedded() {
			return false
		}
		if !f.Exported() {
			continue
		}
		tags := parseTags(st.Tag(i))
		if tags.skip {
			continue
		}
		if tags.quoted || tags.syntax != "" {
			return false
		}
		name := fieldJSONName(f, tags)
		if seen[name] {
			return false
		}
		seen[name] = true
	}
	return true
}

func fieldJSONName(f *types.Var, tags fieldTags) string {
	if tags.name != "" {
		return tags.name
	}
	return f.Name()
}

// name returns the name of n's generated decoder, adding it to the set.
func (d *decoderSet) name(n *types.Named) string {
	for _, have := range d.order {
		if types.Identical(have, n) {
			return d.names[have]
		}
	}
	base := "decode" + sanitizeDefName(types.TypeString(n, func(*types.Package) string { return "" }))
	name := base
	for d.e.m.taken(name) || d.used[name] {
		name += "_"
	}
	d.used[name] = true
	d.names[n] = name
	d.order = append(d.order, n)
	return name
}

// declare emits every decoder the handlers use, including those the
// decoders themselves use:
//
//	// decodeCreateTicketInput stores validated arguments in in.
//	func decodeCreateTicketInput(v runtime.Value, in *CreateTicketInput) error {
//		for i := range v.Len() {
//			name, f := v.Member(i)
//			…
func (d *decoderSet) declare() {
	for i := 0; i < len(d.order); i++ { // declaring may add more
		n := d.order[i]
		name := d.names[n]
		st := n.Underlying().(*types.Struct)
		var cases []jen.Code
		for j := range st.NumFields() {
			f := st.Field(j)
			tags := parseTags(st.Tag(j))
			if !f.Exported() || tags.skip {
				continue
			}
			cases = append(cases, jen.Case(jen.Lit(fieldJSONName(f, tags))).Block(
				jen.Id("err").Op("=").Add(d.call(f.Type(), jen.Id("f"), jen.Op("&").Id("in").Dot(f.Name()))),
			))
		}
		d.e.f.Commentf("%s stores validated arguments in in, without reflection.", name)
		d.e.f.Func().Id(name).Params(
			jen.Id("v").Qual(runtimePath, "Value"),
			jen.Id("in").Op("*").Add(d.e.typeCode(n)),
		).Error().Block(
			jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot("Len").Call()).Block(
				jen.List(jen.Id("name"), jen.Id("f")).Op(":=").Id("v").Dot("Member").Call(jen.Id("i")),
				jen.If(jen.Id("f").Dot("IsNull").Call()).Block(jen.Continue()),
				jen.Var().Err().Error(),
				jen.Switch(jen.Id("name")).Block(cases...),
				jen.If(jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Qual(runtimePath, "FieldError").Call(jen.Id("name"), jen.Err())),
				),
			),
			jen.Return(jen.Nil()),
		)
		d.e.f.Line()
	}
}
