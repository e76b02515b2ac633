package gen

import (
	"cmp"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
)

// The guards: code that stops compiling, next to a comment that says to
// re-run go generate, when what the generated file was derived from
// changes without it: a handler's signature, a struct's fields, a
// constant's value. A changed struct would otherwise decode with the old
// schema (a new field refused as an unknown property), and a changed
// constant would be accepted under its old value.

// signatureGuards writes one assignment per handler that stops compiling
// when the function's signature changes, next to a comment saying what to
// do:
//
//	// A compile error here means that a tool function's signature changed
//	// after this file was generated: re-run go generate.
//	var (
//		_ func(context.Context, CreateTicketInput) (string, error) = mcpimpl.RerunGoGenerate(CreateTicket)
//	)
func (e *emitter) signatureGuards() {
	var guards []jen.Code
	for _, h := range e.m.handlers() {
		sig := h.fn.Type().(*types.Signature)
		var params []types.Type
		fn := e.objCode(h.fn)
		if h.recv != nil { // a method expression: the receiver comes first
			params = append(params, sig.Recv().Type())
			fn = jen.Parens(e.typeCode(sig.Recv().Type())).Dot(h.fn.Name())
		}
		for i := range sig.Params().Len() {
			params = append(params, sig.Params().At(i).Type())
		}
		typ := jen.Func().Add(e.funcTypeCode(params, false, sig.Results()))
		guards = append(guards, jen.Id("_").Add(typ).Op("=").Add(e.impl("RerunGoGenerate")).Call(fn))
	}
	e.varBlock(guards,
		"A compile error here means that a "+e.m.kinds("tool", "resource", "prompt", " or ")+" function's signature changed",
		"after this file was generated: re-run go generate.")
}

// varBlock writes a var block of guards after a comment.
func (e *emitter) varBlock(guards []jen.Code, comment ...string) {
	e.f.Line()
	for _, c := range comment {
		e.f.Comment(c)
	}
	e.f.Var().Defs(guards...)
}

// structGuards writes, for each struct of the package whose fields the
// schemas and decoders were derived from, an assignment of a struct
// literal with those fields, which stops compiling when a field is added,
// removed, renamed, retyped, reordered or retagged (an assignment, unlike
// a conversion, compares the tags too):
//
//	// A compile error here means that a struct whose fields the schemas
//	// were derived from changed after this file was generated: re-run go
//	// generate.
//	var (
//		_ CreateTicketInput = mcpimpl.RerunGoGenerate(struct {
//			Title string `json:"title"`
//		}{})
//	)
//
// A struct of another package is not guarded: its fields may have types
// that cannot be named here.
func (e *emitter) structGuards() {
	var guards []jen.Code
	for _, n := range e.inSourceOrder(e.m.ix.described) {
		if n.Obj().Pkg() != e.m.pkg {
			continue
		}
		st := n.Underlying().(*types.Struct)
		guards = append(guards, jen.Id("_").Add(e.typeCode(n)).Op("=").Add(e.impl("RerunGoGenerate")).Call(jen.Add(e.typeCode(st)).Values()))
	}
	if guards != nil {
		e.varBlock(guards,
			"A compile error here means that a struct whose fields the schemas were",
			"derived from changed after this file was generated: re-run go generate.")
	}
}

// guarded reports whether structGuards writes a guard for n: n is a
// struct of the package whose fields a schema or a decoder was derived
// from.
func (e *emitter) guarded(n *types.Named) bool {
	return n.Obj().Pkg() == e.m.pkg && slices.ContainsFunc(e.m.ix.described, func(o *types.Named) bool { return types.Identical(o, n) })
}

// enumGuard writes a function that stops compiling when a constant whose
// value a schema, an argument or a completion lists has another value. Go
// has no conditional compile error, but a map literal may not repeat a
// constant key: the key asGenerated is true, unlike the key false, only
// while every constant has its listed value:
//
//	// A compile error here ("duplicate key false in map literal") means
//	// that a constant listed by a schema or a completion changed value
//	// after this file was generated: re-run go generate.
//	func _() {
//		const asGenerated = Bug == "bug" &&
//			Feature == "feature"
//		_ = map[bool]int{false: 0, asGenerated: 1}
//	}
//
// A constant added to a type is not caught at compile time; mcpgen -check
// catches it.
func (e *emitter) enumGuard() {
	terms := jen.Null()
	found := false
	for _, n := range e.inSourceOrder(e.m.ix.listed) {
		for _, c := range e.m.ix.enums.consts(n) {
			if c.Pkg() != e.m.pkg && !c.Exported() {
				continue // cannot be named here
			}
			if k := c.Val().Kind(); k != constant.String && k != constant.Int {
				continue
			}
			if found {
				terms.Op("&&").Line()
			}
			terms.Add(e.objCode(c)).Op("==").Add(constLit(c.Val()))
			found = true
		}
	}
	if !found {
		return
	}
	f := e.f
	f.Line()
	f.Comment(`A compile error here ("duplicate key false in map literal") means`)
	f.Comment("that a constant listed by a schema or a completion changed value")
	f.Comment("after this file was generated: re-run go generate.")
	f.Func().Id("_").Params().Block(
		jen.Const().Id("asGenerated").Op("=").Add(terms),
		jen.Id("_").Op("=").Map(jen.Bool()).Int().Values(
			jen.False().Op(":").Lit(0),
			jen.Id("asGenerated").Op(":").Lit(1),
		),
	)
}

// inSourceOrder returns types sorted by file name and offset of their
// declarations (token.Pos orders files as they were parsed, which
// go/packages does concurrently); the instances of a generic type keep
// the order they were met in.
func (e *emitter) inSourceOrder(ts []*types.Named) []*types.Named {
	ts = slices.Clone(ts)
	slices.SortStableFunc(ts, func(a, b *types.Named) int {
		pa, pb := e.m.fset.Position(a.Obj().Pos()), e.m.fset.Position(b.Obj().Pos())
		return cmp.Or(strings.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
	})
	return ts
}
