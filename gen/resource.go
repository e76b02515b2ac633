package gen

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
)

// A resource is one //mcp:resource function or method: a fixed URI, or a
// URI template whose variables fill the function's input struct.
type resource struct {
	handlerFunc
	opts        resourceOptions
	pos         token.Pos // the directive
	name        string
	description string
	vars        []uriVar   // the template's variables; nil for a fixed URI
	args        []argField // the input's fields, each bound to a variable
	contents    string     // the mcpimpl function that turns Out (or the variable) into contents
	mimeType    string     // the option, or the default for Out
	// embedded is the variable whose value a //mcp:resource variable
	// serves (embedres.go), nil for a function.
	embedded *types.Var
	// completeMethod says that opts.complete is a method of the receiver.
	completeMethod bool
}

// A uriVar is one variable of a URI template: {name} or {+name}.
type uriVar struct {
	name     string
	reserved bool
}

// parseURITemplate returns the variables of a URI template, which may
// use the expressions the runtime serves: {name} and {+name}, each
// variable once. A URI without braces has none.
func parseURITemplate(uri string) ([]uriVar, error) {
	var vars []uriVar
	seen := map[string]bool{}
	for rest := uri; ; {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			return vars, nil
		}
		if rest[open] == '}' {
			return nil, fmt.Errorf("'}' without '{'")
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("unclosed '{'")
		}
		expr := rest[open+1 : open+end]
		v := uriVar{name: expr}
		if strings.HasPrefix(expr, "+") {
			v = uriVar{name: expr[1:], reserved: true}
		}
		if v.name == "" || strings.IndexFunc(v.name, func(r rune) bool {
			return !(r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
		}) >= 0 {
			return nil, fmt.Errorf("expression {%s} is not supported: use {name} or {+name}", expr)
		}
		if seen[v.name] {
			return nil, fmt.Errorf("variable %q appears twice", v.name)
		}
		seen[v.name] = true
		vars = append(vars, v)
		rest = rest[open+end+1:]
	}
}

// buildResource checks a //mcp:resource function's directive, signature
// and input.
func (p *pass) buildResource(fd *ast.FuncDecl) *resource {
	dir, ok := p.findDirective(fd, directiveResource)
	if !ok {
		return nil
	}
	opts, ok := p.parseResourceDirective(dir)
	fn, _ := p.info.Defs[fd.Name].(*types.Func)
	if !ok || fn == nil {
		return nil
	}
	r := &resource{opts: opts, pos: dir.Slash, handlerFunc: handlerFunc{fn: fn}}
	r.name = cmp.Or(opts.name, snakeCase(fd.Name.Name))
	r.description = cmp.Or(opts.description, commentText(fd.Doc))
	vars, err := parseURITemplate(opts.uri)
	if err != nil {
		p.errorf(opts.uriPos, "//mcp:resource: URI template %q: %v", opts.uri, err)
		return nil
	}
	r.vars = vars
	if !p.checkSignature("resource", r.name, &r.handlerFunc, fd) {
		return nil
	}
	if !p.classifyResourceOutput(r, fd) || !p.checkView(r, fd.Type.Results.Pos()) {
		return nil
	}
	if r.input == nil {
		if len(vars) > 0 {
			p.errorf(opts.uriPos, "resource %s: the URI template has variables, but %s takes no input struct to hold them", r.name, fd.Name.Name)
			return nil
		}
		return r
	}
	if len(vars) == 0 {
		p.errorf(fd.Type.Params.Pos(), "resource %s: %s takes an input, but the URI %q has no {variables} to fill it", r.name, fd.Name.Name, opts.uri)
		return nil
	}
	args, ok := p.argFields(r.input, "resource "+r.name, "URI variable")
	for _, v := range vars {
		if !slices.ContainsFunc(args, func(a argField) bool { return a.name == v.name }) {
			p.errorf(opts.uriPos, "resource %s: the URI template's variable {%s} has no field in %s: add one with json:%q", r.name, v.name, typeString(derefType(r.input), fn.Pkg()), v.name)
			ok = false
		}
	}
	for _, a := range args {
		switch {
		case slices.ContainsFunc(vars, func(v uriVar) bool { return v.name == a.name }):
			r.args = append(r.args, a)
		case a.required:
			p.errorf(a.pos, "resource %s: field %s (%q) is required, but the URI template has no {%s}: add the variable, or make the field optional with omitempty", r.name, a.field, a.name, a.name)
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return r
}

// classifyOutput picks how the resource's Out becomes contents, and the
// default MIME type.
func (p *pass) classifyResourceOutput(r *resource, fd *ast.FuncDecl) bool {
	if r.output == nil {
		p.errorf(fd.Type.Results.Pos(), "resource %s must return its contents: (string, error), ([]byte, error), (T, error) for JSON, or (*runtime.ResourceResult, error)", r.name)
		return false
	}
	mime := ""
	switch u := types.Unalias(r.output).Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			r.contents, mime = "TextContents", "text/plain"
		} else {
			r.contents, mime = "JSONContents", "application/json"
		}
	case *types.Slice:
		if isByte(u.Elem()) {
			r.contents, mime = "BlobContents", "application/octet-stream"
		} else {
			r.contents, mime = "JSONContents", "application/json"
		}
	case *types.Struct, *types.Map, *types.Array:
		r.contents, mime = "JSONContents", "application/json"
	case *types.Pointer:
		if isRuntimeType(r.output, "ResourceResult") {
			r.contents = "VerbatimContents"
		} else {
			r.contents, mime = "JSONContents", "application/json"
		}
	}
	if r.contents == "" || isRuntimeType(r.output, "ResourceResult") && !isPointer(r.output) {
		p.errorf(fd.Type.Results.Pos(), "resource %s: cannot return %s: return a string, []byte, a JSON value (a struct, a map, a slice) or *runtime.ResourceResult", r.name, typeString(r.output, r.fn.Pkg()))
		return false
	}
	r.mimeType = cmp.Or(r.opts.mimeType, mime)
	return true
}

// isRuntimeType reports whether t is the runtime type called name, or a
// pointer to it.
func isRuntimeType(t types.Type, name string) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == runtimePath && n.Obj().Name() == name
}

// checkDuplicate reports a second declaration of key (a URI, a prompt
// name), which first declared at pos.
func (p *pass) checkDuplicate(seen map[string]token.Pos, key, what string, pos token.Pos) bool {
	if prev, ok := seen[key]; ok {
		at := p.fset.Position(prev)
		p.errorf(pos, "duplicate %s %q: %s:%d already declares it", what, key, filepath.Base(at.Filename), at.Line)
		return false
	}
	seen[key] = pos
	return true
}

// findDirective returns the one directive named name in fd's doc comment.
func (p *pass) findDirective(fd *ast.FuncDecl, name string) (ast.Directive, bool) {
	var dir ast.Directive
	for _, c := range fd.Doc.List {
		if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == name {
			if dir.Slash.IsValid() {
				p.errorf(c.Slash, "%s has more than one //mcp:%s directive", fd.Name.Name, name)
				return dir, false
			}
			dir = d
		}
	}
	return dir, true
}
