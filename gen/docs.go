package gen

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
)

// docIndex finds the doc comments of struct fields and named types, which
// become schema descriptions. The loaded package's own files are indexed
// up front. Another package's types come from export data, which keeps
// their positions but not their comments: its files are found through the
// go command (export data file names depend on how the package was built,
// -trimpath for one) and parsed the first time one of its declarations is
// needed. Standard-library types are not described.
type docIndex struct {
	fset    *token.FileSet
	files   map[string]*fileDocs            // the loaded package's, by file name
	foreign map[string]map[string]*fileDocs // other packages', by path, then base file name
	// goFiles lists the Go files of a package, for foreign.
	goFiles func(pkgPath string) []string
}

// fileDocs holds the comments of one file, keyed by the line and name of
// the declared identifier. Export data keeps the line of a declaration but
// not always its column, so the name tells apart declarations that share
// a line.
type fileDocs struct {
	fields map[lineName]*ast.Field
	types  map[lineName]string
	consts map[lineName]string
	local  bool // the file belongs to the loaded package and its file set
}

type lineName struct {
	line int
	name string
}

func newDocIndex(fset *token.FileSet, files []*ast.File, goFiles func(pkgPath string) []string) *docIndex {
	d := &docIndex{fset: fset, files: map[string]*fileDocs{}, foreign: map[string]map[string]*fileDocs{}, goFiles: goFiles}
	for _, f := range files {
		fd := indexFile(fset, f)
		fd.local = true
		d.files[fset.Position(f.Package).Filename] = fd
	}
	return d
}

func indexFile(fset *token.FileSet, f *ast.File) *fileDocs {
	fd := &fileDocs{fields: map[lineName]*ast.Field{}, types: map[lineName]string{}, consts: map[lineName]string{}}
	at := func(id *ast.Ident) lineName {
		return lineName{fset.Position(id.Pos()).Line, id.Name}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok == token.CONST {
				for _, spec := range n.Specs {
					vs := spec.(*ast.ValueSpec)
					doc := vs.Doc
					if doc == nil && !n.Lparen.IsValid() {
						doc = n.Doc
					}
					for _, name := range vs.Names {
						if text := commentText(cmpDoc(doc, vs.Comment)); text != "" {
							fd.consts[at(name)] = text
						}
					}
				}
			}
			if n.Tok != token.TYPE {
				return true
			}
			for _, spec := range n.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && !n.Lparen.IsValid() {
					doc = n.Doc
				}
				if text := commentText(doc); text != "" {
					fd.types[at(ts.Name)] = text
				}
			}
		case *ast.StructType:
			for _, field := range n.Fields.List {
				if len(field.Names) == 0 {
					if id := embeddedIdent(field.Type); id != nil {
						fd.fields[at(id)] = field
					}
				}
				for _, name := range field.Names {
					fd.fields[at(name)] = field
				}
			}
		}
		return true
	})
	return fd
}

// embeddedIdent is the identifier that names an embedded field: T in T,
// *T, pkg.T or T[int].
func embeddedIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.Sel
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// commentText is a comment's text as a description: directives removed,
// and each paragraph on one line, as a reader of a schema sees it best
// (a line break inside a paragraph is where the author's editor wrapped
// it, not a break in the text). Lists and code blocks keep their lines.
func commentText(cg *ast.CommentGroup) string {
	return reflow(cg.Text())
}

// reflow joins the lines of each paragraph of a doc comment's text.
func reflow(text string) string {
	if !strings.Contains(strings.TrimSpace(text), "\n") {
		return strings.TrimSpace(text)
	}
	var p comment.Parser
	pr := comment.Printer{TextWidth: -1} // no limit: a paragraph is one line
	return strings.TrimSpace(string(pr.Text(p.Parse(text))))
}

func (d *docIndex) file(obj types.Object) (*fileDocs, lineName) {
	p := d.fset.Position(obj.Pos())
	if p.Filename == "" {
		return nil, lineName{}
	}
	at := lineName{p.Line, obj.Name()}
	if fd, ok := d.files[p.Filename]; ok {
		return fd, at
	}
	pkg := obj.Pkg()
	if pkg == nil || isStandard(pkg) {
		return nil, at
	}
	byName, ok := d.foreign[pkg.Path()]
	if !ok {
		byName = map[string]*fileDocs{}
		fset := token.NewFileSet()
		for _, name := range d.goFiles(pkg.Path()) {
			if f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution); err == nil {
				byName[filepath.Base(name)] = indexFile(fset, f)
			}
		}
		d.foreign[pkg.Path()] = byName
	}
	return byName[filepath.Base(p.Filename)], at
}

// field returns the syntax of a struct field, and whether its positions
// belong to the loaded file set (a field of another package was parsed on
// its own, so its tag cannot be pointed at).
func (d *docIndex) field(v *types.Var) (f *ast.Field, local bool) {
	fd, at := d.file(v)
	if fd == nil {
		return nil, false
	}
	return fd.fields[at], fd.local
}

// fieldDoc is the description of a struct field: its doc comment, or else
// its line comment.
func fieldDoc(f *ast.Field) string {
	if f == nil {
		return ""
	}
	if text := commentText(f.Doc); text != "" {
		return text
	}
	return commentText(f.Comment)
}

// typeDoc returns the doc comment of a named type.
func (d *docIndex) typeDoc(tn *types.TypeName) string {
	fd, at := d.file(tn)
	if fd == nil {
		return ""
	}
	return fd.types[at]
}

// constDoc returns the doc comment of a constant, or else its line
// comment.
func (d *docIndex) constDoc(c *types.Const) string {
	fd, at := d.file(c)
	if fd == nil {
		return ""
	}
	return fd.consts[at]
}

// cmpDoc is doc, or else comment when doc is empty.
func cmpDoc(doc, comment *ast.CommentGroup) *ast.CommentGroup {
	if commentText(doc) != "" {
		return doc
	}
	return comment
}
