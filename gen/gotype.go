package gen

import (
	"go/types"
	"strconv"
	"strings"
)

// typ writes t as Go source in the generated file, in gofmt's layout for a
// type that starts on a line indented at depth indent: a struct or an
// interface with members spans lines, its members one level deeper. It is
// the file's only writer of types; the names in them go through obj, so
// their packages are imported.
func (g *genFile) typ(t types.Type, indent int) string {
	var b strings.Builder
	g.writeType(&b, t, indent)
	return b.String()
}

func (g *genFile) writeType(b *strings.Builder, t types.Type, indent int) {
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			b.WriteString(g.qual("unsafe", "unsafe", "Pointer"))
			return
		}
		b.WriteString(t.Name())
	case *types.Named:
		b.WriteString(g.obj(t.Obj()))
		g.writeTypeArgs(b, t.TypeArgs(), indent)
	case *types.Alias:
		b.WriteString(g.obj(t.Obj()))
		g.writeTypeArgs(b, t.TypeArgs(), indent)
	case *types.TypeParam:
		b.WriteString(t.Obj().Name())
	case *types.Pointer:
		b.WriteByte('*')
		g.writeType(b, t.Elem(), indent)
	case *types.Slice:
		b.WriteString("[]")
		g.writeType(b, t.Elem(), indent)
	case *types.Array:
		b.WriteString("[" + strconv.FormatInt(t.Len(), 10) + "]")
		g.writeType(b, t.Elem(), indent)
	case *types.Map:
		b.WriteString("map[")
		g.writeType(b, t.Key(), indent)
		b.WriteByte(']')
		g.writeType(b, t.Elem(), indent)
	case *types.Chan:
		g.writeChan(b, t, indent)
	case *types.Signature:
		b.WriteString("func")
		g.writeSignature(b, t, indent)
	case *types.Struct:
		g.writeStruct(b, t, indent)
	case *types.Interface:
		g.writeInterface(b, t, indent)
	case *types.Union:
		for i := range t.Len() {
			if i > 0 {
				b.WriteString(" | ")
			}
			if t.Term(i).Tilde() {
				b.WriteByte('~')
			}
			g.writeType(b, t.Term(i).Type(), indent)
		}
	default:
		panic("gen: cannot write type " + t.String()) // a tuple: not a type of Go source
	}
}

func (g *genFile) writeTypeArgs(b *strings.Builder, args *types.TypeList, indent int) {
	if args.Len() == 0 {
		return
	}
	b.WriteByte('[')
	for i := range args.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		g.writeType(b, args.At(i), indent)
	}
	b.WriteByte(']')
}

func (g *genFile) writeChan(b *strings.Builder, t *types.Chan, indent int) {
	parens := false
	switch t.Dir() {
	case types.SendRecv:
		b.WriteString("chan ")
		// chan (<-chan T) is not chan<- (chan T): keep the parentheses.
		if c, ok := t.Elem().(*types.Chan); ok && c.Dir() == types.RecvOnly {
			parens = true
		}
	case types.SendOnly:
		b.WriteString("chan<- ")
	case types.RecvOnly:
		b.WriteString("<-chan ")
	}
	if parens {
		b.WriteByte('(')
	}
	g.writeType(b, t.Elem(), indent)
	if parens {
		b.WriteByte(')')
	}
}

// writeSignature writes the parameters and results of a function type,
// without the func keyword: (A, B) (C, error).
func (g *genFile) writeSignature(b *strings.Builder, sig *types.Signature, indent int) {
	params := make([]types.Type, sig.Params().Len())
	for i := range params {
		params[i] = sig.Params().At(i).Type()
	}
	g.writeFuncType(b, params, sig.Variadic(), sig.Results(), indent)
}

// writeFuncType writes a parameter list of the given types, and results.
func (g *genFile) writeFuncType(b *strings.Builder, params []types.Type, variadic bool, results *types.Tuple, indent int) {
	b.WriteByte('(')
	for i, pt := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		if variadic && i == len(params)-1 {
			b.WriteString("...")
			pt = pt.(*types.Slice).Elem()
		}
		g.writeType(b, pt, indent)
	}
	b.WriteByte(')')
	switch results.Len() {
	case 0:
	case 1:
		b.WriteByte(' ')
		g.writeType(b, results.At(0).Type(), indent)
	default:
		b.WriteString(" (")
		for i := range results.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			g.writeType(b, results.At(i).Type(), indent)
		}
		b.WriteByte(')')
	}
}

// writeStruct writes a struct type: struct{} when empty, else one field
// per line, with names, types and tags in columns as gofmt aligns them.
func (g *genFile) writeStruct(b *strings.Builder, st *types.Struct, indent int) {
	if st.NumFields() == 0 {
		b.WriteString("struct{}")
		return
	}
	lines := make([]cellLine, st.NumFields())
	for i := range st.NumFields() {
		f := st.Field(i)
		typ := g.typ(f.Type(), indent+1)
		tag := ""
		if st.Tag(i) != "" {
			tag = tagLiteral(st.Tag(i))
		}
		switch {
		case f.Embedded() && tag == "":
			lines[i] = cellLine{rest: typ}
		case f.Embedded():
			lines[i] = cellLine{cells: []string{typ}, rest: tag}
		case tag == "":
			lines[i] = cellLine{cells: []string{f.Name()}, rest: typ}
		case strings.Contains(typ, "\n"):
			lines[i] = cellLine{cells: []string{f.Name()}, rest: typ + " " + tag}
		default:
			lines[i] = cellLine{cells: []string{f.Name(), typ}, rest: tag}
		}
	}
	b.WriteString("struct {\n")
	writeAligned(b, tabs(indent+1), lines)
	b.WriteString(tabs(indent) + "}")
}

// tagLiteral writes a struct tag as a raw string literal, or a quoted one
// when it holds what a raw string cannot (a backquote, a carriage return).
func tagLiteral(tag string) string {
	if strings.ContainsAny(tag, "`\r") {
		return strconv.Quote(tag)
	}
	return "`" + tag + "`"
}

// writeInterface writes an interface type: any when empty, else one
// method or embedded type per line.
func (g *genFile) writeInterface(b *strings.Builder, it *types.Interface, indent int) {
	if it.NumEmbeddeds() == 0 && it.NumExplicitMethods() == 0 {
		b.WriteString("any")
		return
	}
	b.WriteString("interface {\n")
	for i := range it.NumEmbeddeds() {
		b.WriteString(tabs(indent + 1))
		g.writeType(b, it.EmbeddedType(i), indent+1)
		b.WriteByte('\n')
	}
	for i := range it.NumExplicitMethods() {
		m := it.ExplicitMethod(i)
		b.WriteString(tabs(indent+1) + m.Name())
		g.writeSignature(b, m.Type().(*types.Signature), indent+1)
		b.WriteByte('\n')
	}
	b.WriteString(tabs(indent) + "}")
}
