package gen

import (
	"bytes"
	"go/types"
	"path"
	"slices"
	"strconv"
	"strings"
)

// A genFile is the generated file while it is written, after protobuf-go's
// protogen.GeneratedFile: a body already in gofmt's layout, and the
// imports that body uses. Every name of another package and every type in
// the file is written through qual, obj or typ, which import the package
// at the moment they write its name; so the file imports a package exactly
// when something in it uses one of the package's names, under a name that
// nothing in the package or the file hides. Nothing else writes a package
// name, and the file is never reformatted: writing gofmt's layout directly
// keeps generation within a small multiple of the package load (see
// BENCHMARKS.md, "The generator").
type genFile struct {
	pkg     *types.Package
	taken   func(name string) bool // declared by the user's package
	imports map[string]string      // import path → name in the file
	names   map[string]string      // import path → the package's declared name
	used    map[string]bool        // names the file declares, imports or uses for locals
	body    bytes.Buffer
}

// newGenFile starts the file of pkg. taken reports the names the package
// declares elsewhere; locals are the names the generated functions give
// their variables, which an import must not be hidden by.
func newGenFile(pkg *types.Package, taken func(string) bool, locals []string) *genFile {
	g := &genFile{pkg: pkg, taken: taken, imports: map[string]string{}, names: map[string]string{}, used: map[string]bool{}}
	for _, name := range types.Universe.Names() {
		g.used[name] = true // an import must not hide new, error, string, …
	}
	for _, name := range locals {
		g.used[name] = true
	}
	return g
}

// P writes one line of code: its parts, then a newline.
func (g *genFile) P(parts ...string) {
	for _, p := range parts {
		g.body.WriteString(p)
	}
	g.body.WriteByte('\n')
}

// free reports whether name is free for a declaration of the file or an
// import.
func (g *genFile) free(name string) bool {
	return !g.taken(name) && !g.used[name]
}

// declare reserves a package-level name for the file: base, or base
// followed by as many underscores as it takes to be free.
func (g *genFile) declare(base string) string {
	name := base
	for !g.free(name) {
		name += "_"
	}
	g.used[name] = true
	return name
}

// importName is the name under which the file refers to the package at
// importPath, whose declared name is pkgName; the first call imports it.
// The name is the package's own unless something else has it: then
// pkgName+"pkg", or that with a number.
func (g *genFile) importName(importPath, pkgName string) string {
	if name, ok := g.imports[importPath]; ok {
		return name
	}
	name := pkgName
	for i := 1; !g.free(name); i++ {
		name = pkgName + "pkg"
		if i > 1 {
			name += strconv.Itoa(i)
		}
	}
	g.used[name] = true
	g.imports[importPath], g.names[importPath] = name, pkgName
	return name
}

// qual writes the identifier ident of the package at importPath, named
// pkgName: bare in the package itself, qualified elsewhere.
func (g *genFile) qual(importPath, pkgName, ident string) string {
	if importPath == g.pkg.Path() {
		return ident
	}
	return g.importName(importPath, pkgName) + "." + ident
}

// obj writes the name of a package-level object (a type, a function, a
// constant) as the file refers to it.
func (g *genFile) obj(o types.Object) string {
	if o.Pkg() == nil {
		return o.Name() // error, any, comparable
	}
	return g.qual(o.Pkg().Path(), o.Pkg().Name(), o.Name())
}

// Names of the packages generated code uses.
func (g *genFile) rt(ident string) string      { return g.qual(runtimePath, "runtime", ident) }
func (g *genFile) impl(ident string) string    { return g.qual(implPath, "mcpimpl", ident) }
func (g *genFile) context(ident string) string { return g.qual("context", "context", ident) }
func (g *genFile) time(ident string) string    { return g.qual("time", "time", ident) }

// content is the whole file: header, package clause, imports and body.
// The imports are in two groups, the standard library's and the others',
// each sorted by path, as goimports writes them; a name is written where
// it is not the last element of the path.
func (g *genFile) content() []byte {
	var b bytes.Buffer
	b.Grow(g.body.Len() + 512)
	b.WriteString(Header + "\n\npackage " + g.pkg.Name() + "\n")
	paths := make([]string, 0, len(g.imports))
	for p := range g.imports {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int {
		if sa, sb := isStandardPath(a), isStandardPath(b); sa != sb {
			if sa {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	if len(paths) > 0 {
		b.WriteString("\nimport (\n")
		for i, p := range paths {
			if i > 0 && isStandardPath(paths[i-1]) && !isStandardPath(p) {
				b.WriteByte('\n')
			}
			b.WriteByte('\t')
			if name := g.imports[p]; name != path.Base(p) || g.names[p] != name {
				b.WriteString(name + " ")
			}
			b.WriteString(strconv.Quote(p) + "\n")
		}
		b.WriteString(")\n")
	}
	b.Write(g.body.Bytes())
	return b.Bytes()
}

// isStandardPath reports whether an import path belongs to the standard
// library: its first element has no dot.
func isStandardPath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// tabs is the indentation of a line at depth n.
func tabs(n int) string {
	return strings.Repeat("\t", n)
}
