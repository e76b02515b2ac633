package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
)

// docIndex finds the doc comments of struct fields and named types, which
// become schema descriptions. The loaded package's own files are indexed
// up front; a file of another package (an input type that embeds or uses a
// type from elsewhere in the module) is parsed the first time one of its
// declarations is needed.
type docIndex struct {
	fset  *token.FileSet
	files map[string]*fileDocs // by file name
}

// fileDocs holds the comments of one file, keyed by the line and column
// of the declared identifier.
type fileDocs struct {
	fields map[lineCol]*ast.Field
	types  map[lineCol]string
}

type lineCol struct{ line, col int }

func newDocIndex(fset *token.FileSet, files []*ast.File, _ *types.Info) *docIndex {
	d := &docIndex{fset: fset, files: map[string]*fileDocs{}}
	for _, f := range files {
		d.files[fset.Position(f.Package).Filename] = indexFile(fset, f)
	}
	return d
}

func indexFile(fset *token.FileSet, f *ast.File) *fileDocs {
	fd := &fileDocs{fields: map[lineCol]*ast.Field{}, types: map[lineCol]string{}}
	at := func(pos token.Pos) lineCol {
		p := fset.Position(pos)
		return lineCol{p.Line, p.Column}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
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
					fd.types[at(ts.Name.Pos())] = text
				}
			}
		case *ast.StructType:
			for _, field := range n.Fields.List {
				if len(field.Names) == 0 {
					if id := embeddedIdent(field.Type); id != nil {
						fd.fields[at(id.Pos())] = field
					}
				}
				for _, name := range field.Names {
					fd.fields[at(name.Pos())] = field
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

// commentText is a comment's text with directives removed and the
// surrounding space trimmed.
func commentText(cg *ast.CommentGroup) string {
	return strings.TrimSpace(cg.Text())
}

func (d *docIndex) file(pos token.Pos) (*fileDocs, lineCol) {
	p := d.fset.Position(pos)
	if p.Filename == "" {
		return nil, lineCol{}
	}
	fd, ok := d.files[p.Filename]
	if !ok {
		// Another package's file: its declarations came from export data,
		// which keeps positions but not comments.
		fset := token.NewFileSet()
		if f, err := parser.ParseFile(fset, p.Filename, nil, parser.ParseComments|parser.SkipObjectResolution); err == nil {
			fd = indexFile(fset, f)
		}
		d.files[p.Filename] = fd
	}
	return fd, lineCol{p.Line, p.Column}
}

// field returns the description of a struct field: its doc comment, or
// else its line comment.
func (d *docIndex) field(v *types.Var) string {
	fd, at := d.file(v.Pos())
	if fd == nil {
		return ""
	}
	f := fd.fields[at]
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
	fd, at := d.file(tn.Pos())
	if fd == nil {
		return ""
	}
	return fd.types[at]
}
