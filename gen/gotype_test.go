package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// typeSource declares types of every shape typeCode writes: structs with
// and without tags (one that a raw string cannot hold), embedded fields,
// nested anonymous structs, generics, types of another package, channels
// of each direction, functions (variadic, with several results),
// interfaces (with methods, embedded interfaces, a type union), arrays,
// maps, unsafe.Pointer.
const typeSource = `package p

import (
	"unsafe"

	other "example.com/other"
)

type Base struct{ X int }

type Box[T any] struct {
	V T ` + "`json:\"v\"`" + `
}

type Empty struct{}

type Flat struct {
	A      int    ` + "`json:\"a\"`" + `
	Bbbbbb string ` + "`json:\"b,omitempty\" jsonschema:\"minLength=1\"`" + `
	C      []byte
	D      int    "json:\"d\" note:\"back` + "`" + `quote\""
}

type Nested struct {
	Aaaa int ` + "`json:\"a\"`" + `
	B    struct {
		C    int ` + "`json:\"c\"`" + `
		Dddd []struct{ E string }
	} ` + "`json:\"b\"`" + `
	D       other.Thing ` + "`json:\"d\"`" + `
	Eeeeeee map[string]*other.Thing
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
	R unsafe.Pointer
	S func()
	T func(other.Thing) other.Thing
}

type Number interface {
	~int | ~float64 | other.Thing
}
`

const typeOther = `package other

type Thing struct{ Name string }

type Iface interface{ Name() string }
`

// TestTypeCode writes every type of typeSource, and its underlying type,
// with typeCode as the right-hand side of an alias in a file that jennifer
// renders, then type-checks that file with typeSource: each alias must
// denote the type it was written from.
func TestTypeCode(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name, src string) *ast.File {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		return f
	}
	var other *types.Package
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "example.com/other" {
			return other, nil
		}
		return importer.Default().Import(path)
	})
	check := func(files ...*ast.File) *types.Package {
		pkg, err := (&types.Config{Importer: imp}).Check("example.com/p", fset, files, nil)
		if err != nil {
			t.Fatal(err)
		}
		return pkg
	}
	other, err := (&types.Config{Importer: importer.Default()}).Check("example.com/other", fset, []*ast.File{parse("other.go", typeOther)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := parse("p.go", typeSource)
	pkg := check(src)

	// The types written, as functions of the package that declares them,
	// so that they can be found again in the second check.
	var written []func(*types.Package) types.Type
	e := newEmitter(&model{pass: &pass{fset: fset, pkg: pkg, lp: &loadedPackage{}}})
	for _, name := range pkg.Scope().Names() {
		of := func(p *types.Package) types.Type {
			typ := p.Scope().Lookup(name).Type()
			if n, ok := typ.(*types.Named); ok && n.TypeParams().Len() > 0 { // Box: its instance Box[int]
				inst, err := types.Instantiate(nil, n, []types.Type{types.Typ[types.Int]}, true)
				if err != nil {
					t.Fatal(err)
				}
				return inst
			}
			return typ
		}
		under := func(p *types.Package) types.Type { return of(p).Underlying() }
		for _, w := range []func(*types.Package) types.Type{of, under} {
			e.f.Type().Id(fmt.Sprintf("T%d", len(written))).Op("=").Add(e.typeCode(w(pkg)))
			written = append(written, w)
		}
	}
	var b bytes.Buffer
	if err := e.f.Render(&b); err != nil {
		t.Fatal(err)
	}
	again := check(src, parse("gen.go", b.String()))
	for i, w := range written {
		alias := again.Scope().Lookup(fmt.Sprintf("T%d", i)).Type()
		if want := w(again); !types.Identical(alias, want) {
			t.Errorf("T%d is %v, want %v", i, alias, want)
		}
	}
	if t.Failed() {
		t.Logf("the written file:\n%s", b.Bytes())
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
