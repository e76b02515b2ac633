package gen

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// layoutSource declares types of every shape the type writer handles:
// structs with and without tags, embedded fields, nested anonymous
// structs (one field and several), generics, types of another package,
// channels, functions, interfaces.
const layoutSource = `package p

import other "example.com/other"

type Base struct{ X int }

type Box[T any] struct {
	V T ` + "`json:\"v\"`" + `
}

type Empty struct{}

type Flat struct {
	A      int    ` + "`json:\"a\"`" + `
	Bbbbbb string ` + "`json:\"b,omitempty\" jsonschema:\"minLength=1\"`" + `
	C      []byte
}

type Nested struct {
	Aaaa int ` + "`json:\"a\"`" + `
	B    struct {
		C    int ` + "`json:\"c\"`" + `
		Dddd []struct{ E string }
	} ` + "`json:\"b\"`" + `
	D       other.Thing ` + "`json:\"d\"`" + `
	Eeeeeee map[string]*other.Thing
	F       struct {
		X int
	}
	Base
	*other.Thing ` + "`json:\"thing\"`" + `
	G       Box[struct{ H int }]
	I, J    chan<- <-chan int
	K       chan (<-chan int)
	L       func(int, ...string) (bool, error)
	M       interface {
		N() int
		other.Iface
	}
	O [3]Box[other.Thing]
	P any ` + "`json:\"p\"`" + `
	Q struct{}
}
`

const layoutOther = `package other

type Thing struct{ Name string }

type Iface interface{ Name() string }
`

// TestAlignedLikeGofmt writes every type of layoutSource in each place
// the generated file writes types (a var block of guards, a struct
// literal, a function literal inside a composite literal) and requires
// the result to be what gofmt makes of it: the file is never formatted.
func TestAlignedLikeGofmt(t *testing.T) {
	fset := token.NewFileSet()
	check := func(path, src string, imp types.Importer) *types.Package {
		f, err := parser.ParseFile(fset, path+".go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := (&types.Config{Importer: imp}).Check(path, fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return pkg
	}
	other := check("example.com/other", layoutOther, importer.Default())
	pkg := check("example.com/p", layoutSource, importerFunc(func(path string) (*types.Package, error) {
		if path == "example.com/other" {
			return other, nil
		}
		return nil, fmt.Errorf("no package %s", path)
	}))
	g := newGenFile(pkg, func(string) bool { return false }, nil)
	var guards, elems []cellLine
	var structs strings.Builder
	names := pkg.Scope().Names()
	for i, name := range names {
		tn := pkg.Scope().Lookup(name).(*types.TypeName)
		var typ types.Type = tn.Type()
		if n, ok := typ.(*types.Named); ok && n.TypeParams().Len() > 0 {
			typ = types.NewPointer(types.NewSlice(types.Typ[types.Int])) // a generic type: use its instance below
		}
		for _, typ := range []types.Type{typ, tn.Type().Underlying()} {
			fn := "func() (" + g.typ(typ, 1) + ", error)"
			if strings.Contains(fn, "\n") {
				guards = append(guards, cellLine{cells: []string{"_"}, rest: fn + " = nil"})
			} else {
				guards = append(guards, cellLine{cells: []string{"_", fn}, rest: "= nil"})
			}
		}
		lit := "func() (" + g.typ(tn.Type().Underlying(), 1) + ", error) {\n\t\treturn " + g.typ(tn.Type().Underlying(), 2) + "{}, nil\n\t}"
		if _, ok := tn.Type().Underlying().(*types.Struct); !ok {
			lit = "1"
		}
		elems = append(elems, elementLine(element{strings.Repeat("K", i%4+1) + name, lit}), elementLine(element{name, "2"}))
		if st, ok := tn.Type().Underlying().(*types.Struct); ok && tn.Type().(*types.Named).TypeParams().Len() == 0 {
			structs.WriteString("\nvar _ " + g.obj(tn) + " = " + g.typ(st, 0) + "{}\n")
		}
	}
	g.P()
	g.P("var (")
	var b strings.Builder
	writeAligned(&b, "\t", guards)
	g.body.WriteString(b.String())
	g.P(")")
	g.body.WriteString(structs.String())
	g.P()
	g.P("var _ = map[string]any{")
	b.Reset()
	writeAligned(&b, "\t", elems)
	g.body.WriteString(b.String())
	g.P("}")
	src := g.content()
	formatted, err := format.Source(src)
	if err != nil {
		t.Fatalf("the written code does not parse: %v\n%s", err, src)
	}
	if string(formatted) != string(src) {
		t.Errorf("gofmt lays the code out differently\n--- written\n%s\n--- gofmt\n%s", src, formatted)
	}
}

// elementLine is one element of a map literal with string keys, laid out
// as writeElements lays out a struct literal's.
func elementLine(el element) cellLine {
	key := `"` + el.key + `":`
	if strings.Contains(el.value, "\n") {
		return cellLine{rest: key + " " + el.value + ","}
	}
	return cellLine{cells: []string{key}, rest: el.value + ","}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
