package gen

import (
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
)

// An index holds what the schema builders of one package look up again
// and again: doc comments, the constants of enum types, method sets.
// Generation runs on one goroutine, so it needs no lock.
type index struct {
	docs         *docIndex
	enums        enumIndex
	methods      map[*types.Named]map[string]bool
	structFields map[*types.Struct][]jsonField
	syntax       map[*types.Var]fieldSyntax

	// described are the named structs whose fields a schema or a decoder
	// was derived from, and listed the types whose constants a schema or a
	// completion lists, in the order first met: the generated file guards
	// them against changes (guards.go).
	described, listed []*types.Named
}

type fieldSyntax struct {
	field *ast.Field
	local bool
}

func newIndex(docs *docIndex) *index {
	return &index{
		docs:         docs,
		enums:        enumIndex{},
		methods:      map[*types.Named]map[string]bool{},
		structFields: map[*types.Struct][]jsonField{},
		syntax:       map[*types.Var]fieldSyntax{},
	}
}

// fields returns the JSON fields of a struct, computing them once.
func (ix *index) fields(st *types.Struct, compute func() []jsonField) []jsonField {
	fs, ok := ix.structFields[st]
	if !ok {
		fs = compute()
		ix.structFields[st] = fs
	}
	return fs
}

// enumValues returns the values of the constants of n, and notes n as
// listed when it has some.
func (ix *index) enumValues(n *types.Named) []any {
	vals := ix.enums.values(n)
	if vals != nil {
		ix.listed = noteType(ix.listed, n)
	}
	return vals
}

// noteStruct notes that a schema or decoder was derived from the fields
// of the named struct n.
func (ix *index) noteStruct(n *types.Named) {
	ix.described = noteType(ix.described, n)
}

// noteType adds n to list unless an identical type is in it.
func noteType(list []*types.Named, n *types.Named) []*types.Named {
	if slices.ContainsFunc(list, func(o *types.Named) bool { return types.Identical(o, n) }) {
		return list
	}
	return append(list, n)
}

// field returns the syntax of a struct field; see docIndex.field.
func (ix *index) field(v *types.Var) (*ast.Field, bool) {
	fs, ok := ix.syntax[v]
	if !ok {
		fs.field, fs.local = ix.docs.field(v)
		ix.syntax[v] = fs
	}
	return fs.field, fs.local
}

func (ix *index) typeDoc(tn *types.TypeName) string {
	return ix.docs.typeDoc(tn)
}

// hasMethod reports whether *n has a method of that name.
func (ix *index) hasMethod(n *types.Named, name string) bool {
	names, ok := ix.methods[n]
	if !ok {
		names = map[string]bool{}
		ms := types.NewMethodSet(types.NewPointer(n))
		for i := range ms.Len() {
			names[ms.At(i).Obj().Name()] = true
		}
		ix.methods[n] = names
	}
	return names[name]
}

// isStandard reports whether pkg belongs to the standard library, whose
// named types' constants are units and flags (time.Second, os.ModeDir),
// not enums.
func isStandard(pkg *types.Package) bool {
	return pkg == nil || isStandardPath(pkg.Path())
}

// enumIndex finds the constants of named types, scanning each package's
// scope once however many fields use its types.
type enumIndex map[*types.Package]map[*types.TypeName]*enum

// An enum is the constants of a named type, in declaration order, and
// their distinct values.
type enum struct {
	consts []*types.Const
	values []any
}

// values returns the values of the constants of type n declared in n's
// package, in declaration order: the enum of the type.
func (ix enumIndex) values(n *types.Named) []any {
	if e := ix.enum(n); e != nil {
		return e.values
	}
	return nil
}

// consts returns the constants of type n, in declaration order.
func (ix enumIndex) consts(n *types.Named) []*types.Const {
	if e := ix.enum(n); e != nil {
		return e.consts
	}
	return nil
}

func (ix enumIndex) enum(n *types.Named) *enum {
	pkg := n.Obj().Pkg()
	if _, ok := ix[pkg]; !ok {
		ix.index(pkg)
	}
	return ix[pkg][n.Obj()]
}

func (ix enumIndex) index(pkg *types.Package) {
	consts := map[*types.TypeName][]*types.Const{}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok {
			continue
		}
		if tn, ok := types.Unalias(c.Type()).(*types.Named); ok && tn.Obj().Pkg() == pkg {
			consts[tn.Obj()] = append(consts[tn.Obj()], c)
		}
	}
	enums := map[*types.TypeName]*enum{}
	for tn, cs := range consts {
		slices.SortStableFunc(cs, func(a, b *types.Const) int { return int(a.Pos() - b.Pos()) })
		if vals := constValues(cs); vals != nil {
			enums[tn] = &enum{consts: cs, values: vals}
		}
	}
	ix[pkg] = enums
}

// constValues turns constants into enum values, in declaration order.
func constValues(consts []*types.Const) []any {
	var vals []any
	for _, c := range consts {
		var v any
		switch c.Val().Kind() {
		case constant.String:
			v = constant.StringVal(c.Val())
		case constant.Int:
			v = json.Number(c.Val().ExactString())
		default:
			continue
		}
		if !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	return vals
}
