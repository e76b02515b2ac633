package gen

// Go types as the generated file writes them: through jennifer, which
// qualifies names by package and manages the imports.

import (
	"bytes"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
)

// typeText writes t as Go source in the generated file.
func (e *emitter) typeText(t types.Type) string {
	if !gofmtAsIs(t) {
		e.reformat = true
		var b bytes.Buffer
		if err := e.typeCode(t).(*jen.Statement).RenderWithFile(&b, e.f); err != nil {
			panic(err) // typeCode writes only valid types
		}
		return strings.TrimSpace(b.String())
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p == e.m.pkg {
			return ""
		}
		e.f.ImportName(p.Path(), p.Name())
		return strings.TrimSuffix(e.qual(p.Path(), "T"), ".T")
	})
}

// gofmtAsIs reports whether types.TypeString writes t as gofmt would. It
// does not for struct and interface types with members, whose braces
// gofmt spaces out (and around which it lays out a function literal
// differently); a file with such a type in an adapter is formatted.
func gofmtAsIs(t types.Type) bool {
	switch t := t.(type) {
	case *types.Basic, *types.Alias, *types.TypeParam:
		return true
	case *types.Named:
		for i := range t.TypeArgs().Len() {
			if !gofmtAsIs(t.TypeArgs().At(i)) {
				return false
			}
		}
		return true
	case *types.Pointer:
		return gofmtAsIs(t.Elem())
	case *types.Slice:
		return gofmtAsIs(t.Elem())
	case *types.Array:
		return gofmtAsIs(t.Elem())
	case *types.Map:
		return gofmtAsIs(t.Key()) && gofmtAsIs(t.Elem())
	case *types.Struct:
		return t.NumFields() == 0
	case *types.Interface:
		return t.Empty()
	}
	return false
}

// typeCode writes a type as Go source, qualifying names by package so that
// jennifer manages the imports.
func (e *emitter) typeCode(t types.Type) jen.Code {
	switch t := t.(type) {
	case *types.Alias:
		return e.objCode(t.Obj())
	case *types.Named:
		c := e.objCode(t.Obj())
		if args := t.TypeArgs(); args.Len() > 0 {
			var ts []jen.Code
			for i := range args.Len() {
				ts = append(ts, e.typeCode(args.At(i)))
			}
			c = c.Types(ts...)
		}
		return c
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Pointer:
		return jen.Op("*").Add(e.typeCode(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(e.typeCode(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(e.typeCode(t.Elem()))
	case *types.Map:
		return jen.Map(e.typeCode(t.Key())).Add(e.typeCode(t.Elem()))
	case *types.Interface:
		if t.Empty() {
			return jen.Any()
		}
	case *types.Struct:
		var fields []jen.Code
		for i := range t.NumFields() {
			f := t.Field(i)
			var fc *jen.Statement
			if f.Embedded() {
				fc = jen.Add(e.typeCode(f.Type()))
			} else {
				fc = jen.Id(f.Name()).Add(e.typeCode(f.Type()))
			}
			if tag := t.Tag(i); tag != "" {
				fc = fc.Op("`" + tag + "`")
			}
			fields = append(fields, fc)
		}
		return jen.Struct(fields...)
	}
	// Types that cannot occur in a valid tool signature; spelled out so a
	// mistake shows up as a compile error in the generated file.
	return jen.Id(types.TypeString(t, types.RelativeTo(e.m.pkg)))
}

func (e *emitter) objCode(obj *types.TypeName) *jen.Statement {
	if obj.Pkg() == nil {
		return jen.Id(obj.Name()) // error, any, comparable
	}
	if obj.Pkg() != e.m.pkg {
		e.f.ImportName(obj.Pkg().Path(), obj.Pkg().Name())
	}
	return jen.Qual(obj.Pkg().Path(), obj.Name())
}
