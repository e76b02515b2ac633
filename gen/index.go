package gen

import (
	"cmp"
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"
)

// An index holds what the schema builders of one package look up again
// and again: doc comments, the constants of enum types, method sets.
// Generation runs on one goroutine, so it needs no lock.
type index struct {
	docs         *docIndex
	enums        *enumIndex
	methods      map[*types.Named]map[string]bool
	structFields map[*types.Struct][]jsonField
	syntax       map[*types.Var]fieldSyntax
	jsonMethods  methodCache

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

func newIndex(docs *docIndex, enums *enumIndex) *index {
	return &index{
		docs:         docs,
		enums:        enums,
		methods:      map[*types.Named]map[string]bool{},
		structFields: map[*types.Struct][]jsonField{},
		syntax:       map[*types.Var]fieldSyntax{},
		jsonMethods:  methodCache{},
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
	if pkg == nil {
		return true
	}
	first, _, _ := strings.Cut(pkg.Path(), "/")
	return !strings.Contains(first, ".") // a path whose first element has no dot
}

// enumIndex finds the constants of named types, scanning each package's
// scope once however many fields use its types.
type enumIndex struct {
	fset  *token.FileSet
	local *types.Package
	files []*ast.File // the local package's, for its const blocks
	enums map[*types.Package]map[*types.TypeName]*enum
}

// An enum is the constants of a named type, in source order, and their
// distinct values.
type enum struct {
	consts []*types.Const
	values []any
	// untyped are the constants declared in a block with the type's own
	// that have no type of their own: "B = 2" after "A T = 1" is an untyped
	// constant, not a value of T, which is rarely what was meant.
	untyped []*types.Const
}

func newEnumIndex(fset *token.FileSet, local *types.Package, files []*ast.File) *enumIndex {
	return &enumIndex{fset: fset, local: local, files: files, enums: map[*types.Package]map[*types.TypeName]*enum{}}
}

// values returns the values of the constants of type n declared in n's
// package, in source order: the enum of the type.
func (ix *enumIndex) values(n *types.Named) []any {
	if e := ix.enum(n); e != nil {
		return e.values
	}
	return nil
}

// consts returns the constants of type n, in source order.
func (ix *enumIndex) consts(n *types.Named) []*types.Const {
	if e := ix.enum(n); e != nil {
		return e.consts
	}
	return nil
}

func (ix *enumIndex) enum(n *types.Named) *enum {
	pkg := n.Obj().Pkg()
	if _, ok := ix.enums[pkg]; !ok {
		ix.index(pkg)
	}
	return ix.enums[pkg][n.Obj()]
}

func (ix *enumIndex) index(pkg *types.Package) {
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
		slices.SortFunc(cs, ix.sourceOrder)
		if cs = enumConsts(cs); len(cs) > 0 {
			enums[tn] = &enum{consts: cs, values: constValues(cs)}
		}
	}
	if pkg == ix.local {
		ix.untypedSiblings(enums)
	}
	ix.enums[pkg] = enums
}

// sourceOrder orders objects by file name, then offset in the file. A
// token.Pos alone orders files as they were parsed, which go/packages
// does concurrently: the order of constants spread over two files would
// change from run to run.
func (ix *enumIndex) sourceOrder(a, b *types.Const) int {
	pa, pb := ix.fset.Position(a.Pos()), ix.fset.Position(b.Pos())
	return cmp.Or(strings.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
}

// enumConsts returns the constants of a type that are its values. When a
// type has exported constants, its unexported ones are not values: they
// are the package's own (a sentinel such as numConditions at the end of
// an iota block, a limit), and a client could not name them. When all are
// unexported, a last constant named like a sentinel (num…, max…, count…)
// is not a value either.
func enumConsts(cs []*types.Const) []*types.Const {
	if slices.ContainsFunc(cs, func(c *types.Const) bool { return c.Exported() }) {
		return slices.DeleteFunc(slices.Clone(cs), func(c *types.Const) bool { return !c.Exported() })
	}
	if n := len(cs); n > 1 && isSentinelName(cs[n-1].Name()) {
		return cs[:n-1]
	}
	return cs
}

// isSentinelName reports a name that counts or bounds the constants
// before it rather than being one of them.
func isSentinelName(name string) bool {
	for _, prefix := range []string{"num", "max", "count", "last", "end"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok && (rest == "" || unicode.IsUpper(rune(rest[0])) || rest[0] == '_') {
			return true
		}
	}
	return false
}

// untypedSiblings notes, for each enum of the local package, the untyped
// constants declared in the const blocks that declare its constants.
func (ix *enumIndex) untypedSiblings(enums map[*types.TypeName]*enum) {
	for _, f := range ix.files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST || !gd.Lparen.IsValid() {
				continue
			}
			var typed *enum
			var untyped []*types.Const
			for _, spec := range gd.Specs {
				for _, name := range spec.(*ast.ValueSpec).Names {
					c, _ := ix.local.Scope().Lookup(name.Name).(*types.Const)
					if c == nil || c.Pos() != name.Pos() {
						continue
					}
					if tn, ok := types.Unalias(c.Type()).(*types.Named); ok && enums[tn.Obj()] != nil {
						typed = cmp.Or(typed, enums[tn.Obj()])
					} else if b, ok := c.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
						untyped = append(untyped, c)
					}
				}
			}
			if typed != nil {
				typed.untyped = append(typed.untyped, untyped...)
			}
		}
	}
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
