package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/invopop/jsonschema"
	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// fuzzSource is the package FuzzDirectives generates, with its directive
// placed in one of several places and a tag on one field. It has a
// function, a method, a type, a variable and a package clause for a
// directive to be on, and the kinds of fields and constants options refer to.
const fuzzSource = `// Package p is fuzzed.
//
//PKGDIRECTIVE
package p

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

// Kind is a kind.
type Kind string

const (
	A Kind = "a"
	B Kind = "b"
)

// In is an input.
//
//TYPEDIRECTIVE
type In struct {
	X    string   ` + "`TAG`" + `
	K    Kind     ` + "`json:\"k,omitempty\"`" + `
	N    int      ` + "`json:\"n,omitempty\" jsonschema:\"minimum=1\"`" + `
	List []string ` + "`json:\"list,omitempty\"`" + `
}

// R serves methods.
type R struct{}

// PIn is an input a prompt or a resource template can take: strings.
type PIn struct {
	Topic string ` + "`json:\"topic\"`" + `
	Kind  Kind   ` + "`json:\"kind,omitempty\"`" + `
}

// F does something.
//
//FUNCDIRECTIVE
func F(ctx context.Context, in In) (string, error) { return "", nil }

// M does something too.
//
//METHODDIRECTIVE
func (r *R) M(ctx context.Context, in PIn) (string, error) { return "", nil }

// V is a variable.
//
//VARDIRECTIVE
var V = "<!doctype html>"

// Complete completes.
func Complete(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
	return nil, nil
}
`

// fuzzImports are the packages fuzzSource imports, type-checked once.
var fuzzImports struct {
	once sync.Once
	fset *token.FileSet
	pkgs map[string]*types.Package
	err  error
}

// importFuzzPackages loads what fuzzSource imports, with go/packages, once.
func importFuzzPackages() (*token.FileSet, map[string]*types.Package, error) {
	fuzzImports.once.Do(func() {
		cfg := &packages.Config{Mode: packages.NeedTypes | packages.NeedName, Dir: testmodule.Root()}
		pkgs, err := packages.Load(cfg, "context", "github.com/mcpgen/mcpgen/runtime")
		if err != nil {
			fuzzImports.err = err
			return
		}
		fuzzImports.pkgs = map[string]*types.Package{}
		for _, p := range pkgs {
			fuzzImports.pkgs[p.PkgPath] = p.Types
		}
		fuzzImports.fset = cfg.Fset
		if fuzzImports.fset == nil {
			fuzzImports.fset = token.NewFileSet()
		}
	})
	return fuzzImports.fset, fuzzImports.pkgs, fuzzImports.err
}

type mapImporter map[string]*types.Package

func (m mapImporter) Import(path string) (*types.Package, error) { return m[path], nil }

// FuzzDirectives runs the generator over a package whose directive (of
// any kind, in any of four places) and one struct tag are fuzzed: mcpgen
// never panics on a user's package, and reports what it cannot take as
// diagnostics, never as an internal error.
func FuzzDirectives(f *testing.F) {
	for _, seed := range []struct {
		place     uint8
		directive string
		tag       string
	}{
		{0, "tool", `json:"x"`},
		{0, "tool create title=\"A b\" readOnly destructive=false timeout=30s scopes=a,b task=optional pollInterval=5s ttl=1h", `json:"x" jsonschema:"minLength=1,maxLength=9,pattern=^a\\,b$,default=a,example=b,enum=a,enum=b"`},
		{1, "prompt ask complete=completeTopic", `json:"x,omitempty"`},
		{1, "prompt ask complete=Complete title=T", `json:"x" jsonschema:"minimun=1"`},
		{1, "resource notes://{topic} complete=Complete mimeType=text/plain", `json:"x"`},
		{1, "resource notes://{id}/{topic}", `json:"x"`},
		{1, "resource notes://{topic}{?kind} complete=nope", `json:"x"`},
		{2, "schema {\"type\": \"string\"}", `json:"x,string" jsonschema:"minimum=1"`},
		{2, "form", `json:"x" jsonschema:"format=email"`},
		{2, "config", `json:"x,omitempty" mcp:"secret,env=X" jsonschema:"default=30s"`},
		{3, "schema In optional=x,k", `json:"x" jsonschema_extras:"x-mcp-header=X"`},
		{3, "server name=s version=1.0.0 inline", `jsonschema:"-"`},
		{3, "install registry=io.github.a/b description=d", `json:"-,"`},
		{0, "tool pollIntervall=5s scope=a", `json:"x" jsonschema:"pattern=^[A-Z]{3}-[0-9]{4,}$"`},
		{0, "tool \"unterminated", "json:\"x\" jsonschema:\"enum=a\\\\,b,default=c\""},
		{0, "tool x=", `json:"x" jsonschema:"required,nullable,title=,description=d"`},
		{0, "tool", `json:",inline" jsonschema_description:"d"`},
		{0, "tool ui=ui://v visibility=app icon=\"https://e.example/i.png 48x48 dark\" icon=data:image/png;base64,AA", `json:"x"`},
		{4, "resource ui://v connectDomains=https://a.example,wss://b.example permissions=camera domain=x.example prefersBorder=true", `json:"x"`},
		{1, "resource ui://v/{topic} frameDomains=https://x.example/p mimeType=text/html", `json:"x"`},
		{4, "resource app://x mimeType=text/html;profile=mcp-app baseUriDomains=*", `json:"x"`},
	} {
		f.Add(seed.place, seed.directive, seed.tag)
	}
	fset, imports, err := importFuzzPackages()
	if err != nil {
		f.Fatal(err)
	}
	dir := filepath.Join(testmodule.Root(), "testdata", "fuzzpkg")
	f.Fuzz(func(t *testing.T, place uint8, directive, tag string) {
		// A directive is one comment line; a tag, a raw string literal.
		directive = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, directive)
		tag = strings.Map(func(r rune) rune {
			if r == '`' || r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, tag)
		src := fuzzSource
		for i, marker := range []string{"FUNCDIRECTIVE", "METHODDIRECTIVE", "TYPEDIRECTIVE", "PKGDIRECTIVE", "VARDIRECTIVE"} {
			text := "placeholder"
			if int(place)%5 == i {
				text = "mcp:" + directive
			}
			src = strings.Replace(src, marker, text, 1)
		}
		src = strings.Replace(src, "TAG", tag, 1)
		lp, ok := fuzzPackage(t, fset, imports, filepath.Join(dir, "p.go"), src)
		if !ok {
			return // not Go: the compiler's business, not mcpgen's
		}
		res := generatePackage(lp)
		for _, d := range res.Diagnostics {
			if strings.Contains(d.Message, "internal error") {
				t.Fatalf("directive %q, tag %q: %s", directive, tag, d.Message)
			}
		}
	})
}

// fuzzPackage parses and type-checks one file as a package, without the
// go command, and returns it as the loader would.
func fuzzPackage(t *testing.T, fset *token.FileSet, imports map[string]*types.Package, filename, src string) (*loadedPackage, bool) {
	file, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Implicits:  map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	conf := types.Config{Importer: mapImporter(imports), Error: func(error) {}}
	pkg, err := conf.Check("example.com/p", fset, []*ast.File{file}, info)
	if err != nil {
		return nil, false
	}
	return &loadedPackage{
		pkg: &packages.Package{
			ID: "example.com/p", Name: "p", PkgPath: "example.com/p", Fset: fset,
			GoFiles: []string{filename}, CompiledGoFiles: []string{filename},
			Syntax: []*ast.File{file}, Types: pkg, TypesInfo: info,
		},
		output:     filepath.Join(filepath.Dir(filename), DefaultOutput),
		goFiles:    func(string) []string { return nil },
		modulePath: "example.com/p",
	}, true
}

// FuzzParseTags feeds struct tags to the tag reader and to every way the
// schema builder applies them: nothing panics, whatever the tag.
func FuzzParseTags(f *testing.F) {
	for _, tag := range []string{
		`json:"x,omitempty,string" jsonschema:"minimum=1,maximum=2,enum=a,default=b,pattern=^a\\,b$"`,
		`jsonschema:"minItems=1,maxItems=x,uniqueItems,default=1,default=2" jsonschema_extras:"a=b,a=c,x-mcp-header=H"`,
		`json:"-," jsonschema:"required,nullable,description=d,title=t,example=e"`,
		`json:"x" jsonschema:"}$,{3,pattern=[",`,
		"json:\"x\" jsonschema:\"default=1\\\\\"",
	} {
		f.Add(tag)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		ft := parseTags(tag)
		bases := []func() *jsonschema.Schema{
			func() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} },
			func() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer"} },
			func() *jsonschema.Schema { return &jsonschema.Schema{Type: "boolean"} },
			func() *jsonschema.Schema {
				return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "integer", Enum: []any{1}}}
			},
			func() *jsonschema.Schema { return &jsonschema.Schema{Ref: "#/$defs/X"} },
			func() *jsonschema.Schema { return &jsonschema.Schema{} },
		}
		for _, base := range bases {
			s := base()
			applyKeywords(s, durationKeywords(types.Typ[types.Int64], ft.keywords), func(keyVal, string) {})
			applyExtras(s, ft.extras)
			_ = encodeSchema(s)
		}
		_ = freeTagMessage(ft)
		_ = tagSyntax(tag)
	})
}
