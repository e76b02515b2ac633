package gen

import (
	"go/types"

	"github.com/dave/jennifer/jen"
)

// typeCode is t as jennifer code: the generated file's only writer of
// types. The names in them go through objCode, so the file imports their
// packages; gofmt, which jennifer runs, lays out structs and interfaces.
func (e *emitter) typeCode(t types.Type) jen.Code {
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			return e.qual("unsafe", "unsafe", "Pointer")
		}
		return jen.Id(t.Name())
	case *types.Named:
		return e.objCode(t.Obj()).Add(e.typeArgs(t.TypeArgs()))
	case *types.Alias:
		return e.objCode(t.Obj()).Add(e.typeArgs(t.TypeArgs()))
	case *types.TypeParam:
		return jen.Id(t.Obj().Name())
	case *types.Pointer:
		return jen.Op("*").Add(e.typeCode(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(e.typeCode(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(e.typeCode(t.Elem()))
	case *types.Map:
		return jen.Map(e.typeCode(t.Key())).Add(e.typeCode(t.Elem()))
	case *types.Chan:
		return e.chanCode(t)
	case *types.Signature:
		return jen.Func().Add(e.signatureCode(t))
	case *types.Struct:
		return e.structCode(t)
	case *types.Interface:
		return e.interfaceCode(t)
	case *types.Union:
		terms := make([]jen.Code, t.Len())
		for i := range t.Len() {
			term := jen.Null()
			if t.Term(i).Tilde() {
				term = jen.Op("~")
			}
			terms[i] = term.Add(e.typeCode(t.Term(i).Type()))
		}
		return jen.Union(terms...)
	default:
		panic("gen: cannot write type " + t.String()) // a tuple: not a type of Go source
	}
}

// objCode is the name of a package-level object (a type, a function, a
// constant) as the file refers to it: bare when the package or the
// universe declares it, qualified otherwise.
func (e *emitter) objCode(o types.Object) *jen.Statement {
	if o.Pkg() == nil || o.Pkg() == e.m.pkg {
		return jen.Id(o.Name()) // error, any, comparable; or the package's own
	}
	return e.qual(o.Pkg().Path(), o.Pkg().Name(), o.Name())
}

func (e *emitter) typeArgs(args *types.TypeList) jen.Code {
	if args.Len() == 0 {
		return jen.Null()
	}
	codes := make([]jen.Code, args.Len())
	for i := range args.Len() {
		codes[i] = e.typeCode(args.At(i))
	}
	return jen.Types(codes...)
}

func (e *emitter) chanCode(t *types.Chan) jen.Code {
	elem := e.typeCode(t.Elem())
	switch t.Dir() {
	case types.SendOnly:
		return jen.Chan().Op("<-").Add(elem)
	case types.RecvOnly:
		return jen.Op("<-").Chan().Add(elem)
	}
	// chan (<-chan T) is not chan<- (chan T): keep the parentheses.
	if c, ok := t.Elem().(*types.Chan); ok && c.Dir() == types.RecvOnly {
		return jen.Chan().Parens(elem)
	}
	return jen.Chan().Add(elem)
}

// signatureCode is the parameters and results of a function type, without
// the func keyword: (A, B) (C, error).
func (e *emitter) signatureCode(sig *types.Signature) *jen.Statement {
	params := make([]types.Type, sig.Params().Len())
	for i := range params {
		params[i] = sig.Params().At(i).Type()
	}
	return e.funcTypeCode(params, sig.Variadic(), sig.Results())
}

// funcTypeCode is a parameter list of the given types, and results.
func (e *emitter) funcTypeCode(params []types.Type, variadic bool, results *types.Tuple) *jen.Statement {
	ps := make([]jen.Code, len(params))
	for i, pt := range params {
		if variadic && i == len(params)-1 {
			ps[i] = jen.Op("...").Add(e.typeCode(pt.(*types.Slice).Elem()))
			continue
		}
		ps[i] = e.typeCode(pt)
	}
	code := jen.Params(ps...)
	switch results.Len() {
	case 0:
	case 1:
		code.Add(e.typeCode(results.At(0).Type()))
	default:
		rs := make([]jen.Code, results.Len())
		for i := range rs {
			rs[i] = e.typeCode(results.At(i).Type())
		}
		code.Params(rs...)
	}
	return code
}

// structCode is a struct type, its fields one per line with their tags
// as written.
func (e *emitter) structCode(st *types.Struct) jen.Code {
	fields := make([]jen.Code, st.NumFields())
	for i := range st.NumFields() {
		f := st.Field(i)
		field := jen.Null()
		if !f.Embedded() {
			field = jen.Id(f.Name())
		}
		field.Add(e.typeCode(f.Type()))
		if st.Tag(i) != "" {
			field.Add(tagLit(st.Tag(i)))
		}
		fields[i] = field
	}
	return jen.Struct(fields...)
}

// interfaceCode is an interface type: any when empty, else one method or
// embedded type per line.
func (e *emitter) interfaceCode(it *types.Interface) jen.Code {
	if it.NumEmbeddeds() == 0 && it.NumExplicitMethods() == 0 {
		return jen.Any()
	}
	var members []jen.Code
	for i := range it.NumEmbeddeds() {
		members = append(members, e.typeCode(it.EmbeddedType(i)))
	}
	for i := range it.NumExplicitMethods() {
		m := it.ExplicitMethod(i)
		members = append(members, jen.Id(m.Name()).Add(e.signatureCode(m.Type().(*types.Signature))))
	}
	return jen.Interface(members...)
}
