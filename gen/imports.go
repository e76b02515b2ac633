package gen

import (
	"go/types"
	"path"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// A scope holds the names the generated file must keep apart: those the
// user's package declares, those the file declares (schema constants,
// decoders), the names it imports packages under, the universe's, and
// the names its functions give their locals. A name the file chooses is
// free of all of them, so that nothing hides an import and nothing is
// declared twice.
type scope struct {
	taken func(name string) bool // declared by the user's package
	used  map[string]bool
}

// newScope starts the scope of a file. taken reports the names the
// package declares elsewhere; locals are the names the generated
// functions give their variables, which an import must not be hidden by.
func newScope(taken func(string) bool, locals []string) *scope {
	s := &scope{taken: taken, used: map[string]bool{}}
	for _, name := range types.Universe.Names() {
		s.used[name] = true // an import must not hide new, error, string, …
	}
	for _, name := range locals {
		s.used[name] = true
	}
	return s
}

// free reports whether name is free for a declaration of the file or an
// import.
func (s *scope) free(name string) bool {
	return !s.taken(name) && !s.used[name]
}

// declare reserves a package-level name for the file: base, or base
// followed by as many underscores as it takes to be free.
func (s *scope) declare(base string) string {
	name := base
	for !s.free(name) {
		name += "_"
	}
	s.used[name] = true
	return name
}

// importName reserves the name under which the file imports a package
// declared as pkgName: that name unless something else has it, then
// pkgName+"pkg", or that with a number.
func (s *scope) importName(pkgName string) string {
	name := pkgName
	for i := 1; !s.free(name); i++ {
		name = pkgName + "pkg"
		if i > 1 {
			name += strconv.Itoa(i)
		}
	}
	s.used[name] = true
	return name
}

// qual is the identifier ident of the package at importPath, declared as
// pkgName: bare in the package itself, else jen.Qual, which imports the
// package where the name is rendered. The first time the file names a
// package, qual chooses its name (scope.importName) and gives it to
// jennifer, which would otherwise guess one that a name of the user's
// package or a local might hide: ImportName when it is the package's own
// name and the last element of its path, so that no alias is written;
// else ImportAlias. This is the only caller of jen.Qual.
func (e *emitter) qual(importPath, pkgName, ident string) *jen.Statement {
	if importPath == e.m.pkg.Path() {
		return jen.Id(ident)
	}
	if !e.named[importPath] {
		e.named[importPath] = true
		name := e.scope.importName(pkgName)
		for _, f := range []*jen.File{e.f, e.decoders} { // the decoders render against their own (render.go)
			if name == pkgName && name == path.Base(importPath) {
				f.ImportName(importPath, name)
			} else {
				f.ImportAlias(importPath, name)
			}
		}
	}
	return jen.Qual(importPath, ident)
}

// Names of the packages generated code uses.
func (e *emitter) rt(ident string) *jen.Statement   { return e.qual(runtimePath, "runtime", ident) }
func (e *emitter) impl(ident string) *jen.Statement { return e.qual(implPath, "mcpimpl", ident) }
func (e *emitter) context(ident string) *jen.Statement {
	return e.qual("context", "context", ident)
}
func (e *emitter) time(ident string) *jen.Statement { return e.qual("time", "time", ident) }
