package gen

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Resources whose contents are a package's variable: //mcp:resource on a
// string or []byte variable, usually a file that //go:embed puts in the
// binary, such as an MCP App's HTML:
//
//	//go:embed board.html
//	//mcp:resource ui://tickets/board
//	var board string
//
// The server sends the variable's value when Register ran; a string is a
// text content, a []byte a binary one (text for a view).

// A resourceVar is a variable declaration with a //mcp:resource
// directive.
type resourceVar struct {
	spec *ast.ValueSpec
	doc  *ast.CommentGroup
}

// resourceVars finds the //mcp:resource directives of a file's variable
// declarations; attached records the comments it used.
func resourceVars(f *ast.File, attached map[*ast.Comment]bool) []resourceVar {
	var out []resourceVar
	for vs, doc := range documentedVars(f) {
		found := false
		for _, c := range doc.List {
			if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == directiveResource {
				attached[c] = true
				found = true
			}
		}
		if found {
			out = append(out, resourceVar{vs, doc})
		}
	}
	return out
}

// documentedVars yields each package-level variable specification of f
// that has a doc comment, with it: its own, or its declaration's when the
// declaration has no parentheses (var x = …), where go/ast puts it.
func documentedVars(f *ast.File) iter.Seq2[*ast.ValueSpec, *ast.CommentGroup] {
	return func(yield func(*ast.ValueSpec, *ast.CommentGroup) bool) {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				doc := vs.Doc
				if doc == nil && !gd.Lparen.IsValid() {
					doc = gd.Doc
				}
				if doc != nil && !yield(vs, doc) {
					return
				}
			}
		}
	}
}

// buildVarResource checks a //mcp:resource variable: one package-level
// string or []byte variable, a fixed URI; a view's embedded file should be
// an HTML document.
func (p *pass) buildVarResource(rv resourceVar) *resource {
	var dir ast.Directive
	for _, c := range rv.doc.List {
		if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == directiveResource {
			if dir.Slash.IsValid() {
				p.errorf(c.Slash, "%s has more than one //mcp:resource directive", rv.spec.Names[0].Name)
				return nil
			}
			dir = d
		}
	}
	opts, ok := p.parseResourceDirective(dir)
	if !ok {
		return nil
	}
	if len(rv.spec.Names) != 1 {
		p.errorf(dir.Slash, "//mcp:resource on a variable declares one variable, not %d", len(rv.spec.Names))
		return nil
	}
	name := rv.spec.Names[0]
	v, _ := p.info.Defs[name].(*types.Var)
	if v == nil {
		return nil
	}
	if name.Name == "_" {
		p.errorf(name.Pos(), "//mcp:resource on a blank variable: name it, so that Register can serve it")
		return nil
	}
	r := &resource{opts: opts, pos: dir.Slash, embedded: v}
	r.name = cmp.Or(opts.name, snakeCase(name.Name))
	r.description = cmp.Or(opts.description, commentText(rv.doc))
	switch {
	case opts.complete != "":
		p.errorf(opts.completePos, "resource %s: complete= completes the variables of a URI template; a variable's resource has a fixed URI", r.name)
		return nil
	case strings.ContainsAny(opts.uri, "{}"):
		p.errorf(opts.uriPos, "//mcp:resource %s: a variable's resource has a fixed URI, without {variables}: a function serves a template", opts.uri)
		return nil
	}
	switch u := types.Unalias(v.Type()).Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			break
		}
		r.contents, r.mimeType = "EmbeddedText", cmp.Or(opts.mimeType, "text/plain")
	case *types.Slice:
		if !isByte(u.Elem()) {
			break
		}
		r.contents, r.mimeType = "EmbeddedBlob", cmp.Or(opts.mimeType, "application/octet-stream")
	}
	if r.contents == "" {
		p.errorf(name.Pos(), "resource %s: %s has type %s: the contents of a variable's resource are a string or a []byte (a //go:embed file)", r.name, name.Name, typeString(v.Type(), p.pkg))
		return nil
	}
	if !p.checkView(r, name.Pos()) {
		return nil
	}
	if r.isView() {
		r.contents = "EmbeddedText" // HTML is text
		p.checkViewFile(r, rv.doc)
	}
	return r
}

// checkViewFile warns when the file a view's variable embeds does not
// begin as an HTML document: the extension says a view is one, and a
// host renders it as one.
func (p *pass) checkViewFile(r *resource, doc *ast.CommentGroup) {
	for _, c := range doc.List {
		d, ok := ast.ParseDirective(c.Slash, c.Text)
		if !ok || d.Tool != "go" || d.Name != "embed" {
			continue
		}
		files := strings.Fields(d.Args)
		if len(files) != 1 || strings.ContainsAny(files[0], "*?[\"`") {
			return // a pattern: the go command checks it
		}
		path := filepath.Join(filepath.Dir(p.fset.Position(c.Slash).Filename), filepath.FromSlash(files[0]))
		data, err := os.ReadFile(path)
		if err != nil {
			return // the go command reports it
		}
		head := bytes.ToLower(bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\ufeff")), " \t\r\n"))
		if !bytes.HasPrefix(head, []byte("<!doctype html")) && !bytes.HasPrefix(head, []byte("<html")) {
			p.warnf(d.ArgsPos, "resource %s: %s does not begin with <!doctype html>: an MCP App's view is an HTML document, which hosts render in a frame of its own", r.opts.uri, files[0])
		}
		return
	}
}

// embeddedHandler is mcpimpl.EmbeddedText(board, runtime.AppMIMEType) or
// mcpimpl.EmbeddedBlob(logo, "image/png").
func (e *emitter) embeddedHandler(r *resource) jen.Code {
	return e.impl(r.contents).Call(e.objCode(r.embedded), e.mimeTypeLit(r.mimeType))
}
