package gen

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loadMode is what the generator needs of every package: syntax for the
// directives and doc comments, types for the signatures and schemas.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule

// generatedNames are the exported functions every generated file declares.
var generatedNames = []string{"NewServer", "Register"}

// A loadedPackage is a type-checked package ready for the model.
type loadedPackage struct {
	pkg *packages.Package
	// output is the absolute path of the file to generate.
	output string
	// hadGenerated reports that output exists and was written by mcpgen;
	// its declarations are then ignored by the model.
	hadGenerated bool
	// diags holds problems found while loading (type errors outside the
	// generated file, as warnings).
	diags []Diagnostic
	// broken reports errors that leave no usable type information.
	broken bool
	// goFiles lists the Go files of another package, with the same
	// configuration as the load.
	goFiles func(pkgPath string) []string
	// surface says that the positions of the parts of the surface are
	// asked for (Config.Surface).
	surface bool
	// modulePath is the path of the package's module, and moduleSubdir
	// the package's directory below the module's, with slashes ("" at
	// the module's root): the install files name the repository.
	modulePath, moduleSubdir string
}

// load loads the packages of cfg. A package whose previous generated file
// no longer type-checks (a tool was renamed, say) is loaded again with
// that file replaced by a stub that keeps only its exported signatures,
// so a broken generated file never blocks its own regeneration.
func load(ctx context.Context, cfg Config) ([]*loadedPackage, error) {
	pcfg := &packages.Config{
		Context:   ctx,
		Mode:      loadMode,
		Dir:       cfg.Dir,
		Env:       cfg.Env,
		ParseFile: cfg.parseFile,
	}
	if len(cfg.Tags) > 0 {
		pcfg.BuildFlags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	output := cmp.Or(cfg.Output, DefaultOutput)
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matched no packages", quoteAll(patterns))
	}
	var out []*loadedPackage
	var missing []error
	for _, p := range pkgs {
		if len(p.GoFiles)+len(p.IgnoredFiles) == 0 && len(p.Errors) > 0 {
			// A pattern that names no package (a mistyped directory or
			// import path, a directory outside the module): go list's
			// own words say which.
			for _, e := range p.Errors {
				missing = append(missing, errors.New(e.Msg))
			}
			continue
		}
		lp, err := prepare(pcfg, p, output)
		if err != nil {
			return nil, err
		}
		if lp != nil {
			lp.surface = cfg.Surface
			out = append(out, lp)
		}
	}
	if len(missing) > 0 {
		return nil, errors.Join(missing...)
	}
	return out, nil
}

// prepare checks one loaded package and reloads it with a stub when its
// generated file is what breaks it.
func prepare(pcfg *packages.Config, p *packages.Package, output string) (*loadedPackage, error) {
	files := slices.Concat(p.GoFiles, p.IgnoredFiles)
	if len(files) == 0 {
		return nil, nil // nothing to generate into
	}
	lp := &loadedPackage{pkg: p, output: filepath.Join(filepath.Dir(files[0]), output), goFiles: goFilesLister(pcfg)}
	lp.hadGenerated = isGenerated(lp.output)
	if mod := p.Module; mod != nil {
		lp.modulePath = mod.Path
		if rel, err := filepath.Rel(mod.Dir, filepath.Dir(lp.output)); err == nil && rel != "." {
			lp.moduleSubdir = filepath.ToSlash(rel)
		}
	}
	if lp.hadGenerated && slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return errorFile(e) == lp.output }) {
		cfg := *pcfg
		cfg.Overlay = map[string][]byte{lp.output: stub(p, lp.output)}
		reloaded, err := packages.Load(&cfg, p.PkgPath)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", p.PkgPath, err)
		}
		if len(reloaded) == 1 {
			lp.pkg = reloaded[0]
		}
	}
	hasTypeErrors := slices.ContainsFunc(lp.pkg.Errors, func(e packages.Error) bool { return e.Kind == packages.TypeError })
	var fatal, other []packages.Error
	for _, e := range lp.pkg.Errors {
		switch {
		case errorFile(e) == lp.output:
			// the old generated file: it is about to be replaced
		case e.Kind == packages.ListError && hasTypeErrors && strings.HasPrefix(e.Msg, "# "):
			// the go command's report of the same type errors
		case e.Kind == packages.TypeError && slices.Contains(generatedNames, strings.TrimPrefix(e.Msg, "undefined: ")):
			// a call to a function mcpgen is about to generate
		case e.Kind == packages.TypeError && strings.HasSuffix(e.Msg, "has no field or method LoadEnv)"):
			// a call to the method //mcp:config is about to generate
		case e.Kind == packages.TypeError:
			other = append(other, e)
		default:
			fatal = append(fatal, e)
		}
	}
	lp.diags = append(packageErrors(fatal, "", Error),
		packageErrors(other, typeErrorPrefix, Warning)...)
	lp.broken = len(fatal) > 0 || lp.pkg.Types == nil || lp.pkg.TypesInfo == nil
	return lp, nil
}

// typeErrorPrefix begins the warning for a type error of the package:
// mcpgen can often generate a correct file all the same (the error is in
// code the file does not use).
const typeErrorPrefix = "the package does not type-check; the generated file may not either: "

// goFilesLister returns a function that lists the Go files of a package
// with the go command, for the doc comments of types mcpgen only knows
// from export data.
func goFilesLister(pcfg *packages.Config) func(string) []string {
	return func(pkgPath string) []string {
		cfg := *pcfg
		cfg.Mode = packages.NeedFiles
		pkgs, err := packages.Load(&cfg, pkgPath)
		if err != nil || len(pkgs) != 1 {
			return nil
		}
		return pkgs[0].GoFiles
	}
}

// isGenerated reports whether path holds a file that mcpgen wrote.
func isGenerated(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(Header)+1)
	n, _ := f.Read(buf)
	return n == len(buf) && string(buf[:len(Header)]) == Header && (buf[len(Header)] == '\n' || buf[len(Header)] == '\r')
}

// errorFile is the absolute file name of a packages.Error, or "".
func errorFile(e packages.Error) string {
	pos := parsePos(e.Pos)
	if pos.Filename == "" {
		return ""
	}
	abs, err := filepath.Abs(pos.Filename)
	if err != nil {
		return pos.Filename
	}
	return abs
}

// parsePos parses the "file:line:col" form that go/packages uses.
func parsePos(s string) token.Position {
	var pos token.Position
	parts := strings.Split(s, ":")
	// The file name itself may contain colons; line and column come last.
	for len(parts) > 1 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		pos.Column, pos.Line = pos.Line, n
		parts = parts[:len(parts)-1]
	}
	if pos.Line == 0 && pos.Column != 0 {
		pos.Line, pos.Column = pos.Column, 0
	}
	if s != "" && s != "-" {
		pos.Filename = strings.Join(parts, ":")
	}
	return pos
}

func packageErrors(errs []packages.Error, prefix string, sev Severity) []Diagnostic {
	var out []Diagnostic
	for _, e := range errs {
		out = append(out, Diagnostic{Pos: parsePos(e.Pos), Severity: sev, Message: prefix + e.Msg})
	}
	return out
}

// stub returns a replacement for a generated file that keeps its package
// clause, imports and exported function signatures (NewServer, Register),
// so that the user's own calls to them still type-check while mcpgen
// regenerates the file.
func stub(p *packages.Package, path string) []byte {
	var old *ast.File
	for i, f := range p.CompiledGoFiles {
		if f == path && i < len(p.Syntax) {
			old = p.Syntax[i]
		}
	}
	if old == nil {
		for _, f := range p.Syntax {
			if p.Fset.Position(f.Package).Filename == path {
				old = f
			}
		}
	}
	if old == nil || old.Name == nil {
		return []byte(Header + "\n\npackage " + p.Name + "\n")
	}
	f := &ast.File{Name: ast.NewIdent(old.Name.Name)}
	for _, d := range old.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				f.Decls = append(f.Decls, d)
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.IsExported() {
				f.Decls = append(f.Decls, &ast.FuncDecl{
					Name: d.Name,
					Type: d.Type,
					Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{
						Fun:  ast.NewIdent("panic"),
						Args: []ast.Expr{&ast.BasicLit{Kind: token.STRING, Value: `"mcpgen stub"`}},
					}}}},
				})
			}
		}
	}
	var buf bytes.Buffer
	buf.WriteString(Header + "\n\n")
	if err := printer.Fprint(&buf, p.Fset, f); err != nil {
		return []byte(Header + "\n\npackage " + p.Name + "\n")
	}
	return buf.Bytes()
}

// quoteAll quotes each string, joined by commas: "a", "b".
func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
