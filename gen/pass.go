package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// A pass is one package's run through the generator, as go/analysis's
// Pass: the package's syntax and types, the index its schema builders
// share, and the diagnostics every stage reports. The stages are methods
// of the pass, so that none of them is handed the same values one by one.
type pass struct {
	fset  *token.FileSet
	pkg   *types.Package
	info  *types.Info
	files []*ast.File // the package's files, without a generated file being replaced
	ix    *index      // built with the model

	lp    *loadedPackage
	diags []Diagnostic
	// statedSchemas are the //mcp:schema statements, by typeKey.
	statedSchemas map[string]*statedSchema
}

func newPass(lp *loadedPackage) *pass {
	p := &pass{fset: lp.pkg.Fset, pkg: lp.pkg.Types, info: lp.pkg.TypesInfo, lp: lp, diags: slices.Clone(lp.diags)}
	for _, f := range lp.pkg.Syntax {
		if !lp.hadGenerated || p.fset.Position(f.Package).Filename != lp.output {
			p.files = append(p.files, f)
		}
	}
	return p
}

// ownPackage reports whether pkg is the package being generated or
// another of its module: its positions are the user's to edit, and its
// doc comments are the user's own words.
func (p *pass) ownPackage(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if pkg == p.pkg {
		return true
	}
	mod := p.lp.modulePath
	return mod != "" && (pkg.Path() == mod || strings.HasPrefix(pkg.Path(), mod+"/"))
}

// taken reports whether the package declares name at package level, in
// a file other than the generated one: a generated declaration of that
// name would not compile.
func (p *pass) taken(name string) bool {
	obj := p.pkg.Scope().Lookup(name)
	return obj != nil && !p.inGenerated(obj.Pos())
}

// inGenerated reports whether pos lies in the previous generated file,
// whose declarations are about to be replaced.
func (p *pass) inGenerated(pos token.Pos) bool {
	return p.lp.hadGenerated && p.fset.Position(pos).Filename == p.lp.output
}

func (p *pass) errorf(pos token.Pos, format string, args ...any) {
	p.report(pos, Error, format, args...)
}

func (p *pass) warnf(pos token.Pos, format string, args ...any) {
	p.report(pos, Warning, format, args...)
}

func (p *pass) report(pos token.Pos, sev Severity, format string, args ...any) {
	p.diags = append(p.diags, Diagnostic{Pos: p.fset.Position(pos), Severity: sev, Message: fmt.Sprintf(format, args...)})
}

// typeErrorsMatter makes the package's type errors errors: a schema needs
// a type that does not type-check, so the file cannot be right. They are
// reported in the type checker's words, where it found them, instead of
// a second message about an "invalid type" at the field.
func (p *pass) typeErrorsMatter() {
	for i, d := range p.diags {
		if msg, ok := strings.CutPrefix(d.Message, typeErrorPrefix); ok && d.Severity == Warning {
			p.diags[i].Severity, p.diags[i].Message = Error, "the package does not type-check: "+msg
		}
	}
}

func (p *pass) hasErrors() bool {
	return slices.ContainsFunc(p.diags, func(d Diagnostic) bool { return d.Severity == Error })
}

// sorted returns the diagnostics in position order, without duplicates.
func (p *pass) sorted() []Diagnostic {
	out := slices.Clone(p.diags)
	slices.SortStableFunc(out, func(a, b Diagnostic) int {
		if c := strings.Compare(a.Pos.Filename, b.Pos.Filename); c != 0 {
			return c
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Column - b.Pos.Column
	})
	return slices.Compact(out)
}
