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
	contents    string     // the mcpimpl function that turns Out into contents
	mimeType    string     // the option, or the default for Out
	// completeMethod says that opts.complete is a method of the receiver.
	completeMethod bool
}

// A prompt is one //mcp:prompt function or method: its input struct's
// fields are the prompt's arguments.
type prompt struct {
	handlerFunc
	opts        primitiveOptions
	pos         token.Pos
	name        string
	description string
	args        []argField
	messages    string // the mcpimpl function that turns Out into messages
	// completeMethod says that opts.complete is a method of the receiver.
	completeMethod bool
}

// An argField is a field of the input of a resource template or a prompt:
// MCP gives it as a string, which the generated decoder converts.
type argField struct {
	name        string // the variable or argument name: the field's JSON name
	field       string // the Go field
	typ         types.Type
	conv        argConv
	bits        int
	required    bool
	description string
	enum        []string // the constants of a named string type
	pos         token.Pos
}

// argConv says how the text of an argument becomes its field's value.
type argConv int

const (
	convString argConv = iota
	convEnum           // a named string type with constants: one of them
	convInt
	convUint
	convFloat
	convBool
)

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

// findDirective returns the one directive named name in fd's doc comment.
func findDirective(fd *ast.FuncDecl, name string, ds *diagnostics) (ast.Directive, bool) {
	var dir ast.Directive
	for _, c := range fd.Doc.List {
		if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == name {
			if dir.Slash.IsValid() {
				ds.errorf(c.Slash, "%s has more than one //mcp:%s directive", fd.Name.Name, name)
				return dir, false
			}
			dir = d
		}
	}
	return dir, true
}

// buildResource checks a //mcp:resource function's directive, signature
// and input.
func buildResource(info *types.Info, ix *index, fd *ast.FuncDecl, ds *diagnostics) *resource {
	dir, ok := findDirective(fd, directiveResource, ds)
	if !ok {
		return nil
	}
	opts, ok := parseResourceDirective(dir, ds)
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if !ok || fn == nil {
		return nil
	}
	r := &resource{opts: opts, pos: dir.Slash, handlerFunc: handlerFunc{fn: fn}}
	r.name = cmp.Or(opts.name, snakeCase(fd.Name.Name))
	r.description = cmp.Or(opts.description, strings.TrimSpace(fd.Doc.Text()))
	vars, err := parseURITemplate(opts.uri)
	if err != nil {
		ds.errorf(opts.uriPos, "//mcp:resource: URI template %q: %v", opts.uri, err)
		return nil
	}
	r.vars = vars
	if !checkSignature("resource", r.name, &r.handlerFunc, fd, ds) {
		return nil
	}
	if !r.classifyOutput(fd, ds) {
		return nil
	}
	if r.input == nil {
		if len(vars) > 0 {
			ds.errorf(opts.uriPos, "resource %s: the URI template has variables, but %s takes no input struct to hold them", r.name, fd.Name.Name)
			return nil
		}
		return r
	}
	if len(vars) == 0 {
		ds.errorf(fd.Type.Params.Pos(), "resource %s: %s takes an input, but the URI %q has no {variables} to fill it", r.name, fd.Name.Name, opts.uri)
		return nil
	}
	args, ok := argFields(ix, r.input, "resource "+r.name, "URI variable", ds)
	for _, v := range vars {
		if !slices.ContainsFunc(args, func(a argField) bool { return a.name == v.name }) {
			ds.errorf(opts.uriPos, "resource %s: the URI template's variable {%s} has no field in %s: add one with json:%q", r.name, v.name, typeString(derefType(r.input), fn.Pkg()), v.name)
			ok = false
		}
	}
	for _, a := range args {
		switch {
		case slices.ContainsFunc(vars, func(v uriVar) bool { return v.name == a.name }):
			r.args = append(r.args, a)
		case a.required:
			ds.errorf(a.pos, "resource %s: field %s (%q) is required, but the URI template has no {%s}: add the variable, or make the field optional with omitempty", r.name, a.field, a.name, a.name)
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
func (r *resource) classifyOutput(fd *ast.FuncDecl, ds *diagnostics) bool {
	if r.output == nil {
		ds.errorf(fd.Type.Results.Pos(), "resource %s must return its contents: (string, error), ([]byte, error), (T, error) for JSON, or (*runtime.ResourceResult, error)", r.name)
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
		ds.errorf(fd.Type.Results.Pos(), "resource %s: cannot return %s: return a string, []byte, a JSON value (a struct, a map, a slice) or *runtime.ResourceResult", r.name, typeString(r.output, r.fn.Pkg()))
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

// buildPrompt checks a //mcp:prompt function's directive, signature and
// arguments.
func buildPrompt(info *types.Info, ix *index, fd *ast.FuncDecl, ds *diagnostics) *prompt {
	dir, ok := findDirective(fd, directivePrompt, ds)
	if !ok {
		return nil
	}
	opts, ok := parsePromptDirective(dir, ds)
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if !ok || fn == nil {
		return nil
	}
	p := &prompt{opts: opts, pos: dir.Slash, handlerFunc: handlerFunc{fn: fn}}
	p.name = cmp.Or(opts.name, snakeCase(fd.Name.Name))
	p.description = cmp.Or(opts.description, strings.TrimSpace(fd.Doc.Text()))
	if !validToolName(p.name) {
		ds.errorf(cmp.Or(opts.namePos, dir.Slash), "invalid prompt name %q: Claude Code offers prompts as slash commands, and requires ^[a-zA-Z0-9_-]{1,64}$", p.name)
		return nil
	}
	if !checkSignature("prompt", p.name, &p.handlerFunc, fd, ds) {
		return nil
	}
	switch {
	case p.output == nil:
	case isRuntimeType(p.output, "PromptResult") && isPointer(p.output):
		p.messages = "VerbatimMessages"
	case isStringKind(p.output):
		p.messages = "UserMessage"
	}
	if p.messages == "" {
		ds.errorf(fd.Type.Results.Pos(), "prompt %s must return (string, error), one user message, or (*runtime.PromptResult, error)", p.name)
		return nil
	}
	if p.input != nil {
		if p.args, ok = argFields(ix, p.input, "prompt "+p.name, "prompt argument", ds); !ok {
			return nil
		}
	}
	return p
}

func isStringKind(t types.Type) bool {
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// argFields reads the fields of an input struct whose values arrive as
// strings (URI variables, prompt arguments): each exported field is one,
// named by its JSON name, and must have a type a string converts to.
func argFields(ix *index, in types.Type, owner, what string, ds *diagnostics) ([]argField, bool) {
	named := types.Unalias(derefType(in)).(*types.Named)
	st := named.Underlying().(*types.Struct)
	var out []argField
	ok := true
	for i := range st.NumFields() {
		v := st.Field(i)
		if v.Embedded() {
			ds.errorf(v.Pos(), "%s: embedded field %s: the input of a %s lists its fields one by one; declare them in %s", owner, v.Name(), strings.Fields(owner)[0], named.Obj().Name())
			ok = false
			continue
		}
		tags := parseTags(st.Tag(i))
		if !v.Exported() || tags.skip {
			continue
		}
		a := argField{name: cmp.Or(tags.name, v.Name()), field: v.Name(), typ: v.Type(), pos: v.Pos()}
		a.required = tags.required || !tags.omitEmpty
		if f, _ := ix.field(v); f != nil {
			a.description = cmp.Or(tags.desc, fieldDoc(f))
		}
		b, isBasic := types.Unalias(v.Type()).Underlying().(*types.Basic)
		switch {
		case !isBasic:
			ds.errorf(v.Pos(), "%s: field %s has type %s, which a %s cannot carry: use a string, a number, a bool, or a named string type with constants", owner, v.Name(), typeString(v.Type(), named.Obj().Pkg()), what)
			ok = false
			continue
		case b.Info()&types.IsString != 0:
			a.conv = convString
			if n, isNamed := types.Unalias(v.Type()).(*types.Named); isNamed {
				for _, c := range ix.enumValues(n) {
					if s, isStr := c.(string); isStr {
						a.enum = append(a.enum, s)
					}
				}
				if a.enum != nil {
					a.conv = convEnum
				}
			}
		case b.Info()&types.IsBoolean != 0:
			a.conv = convBool
		case b.Info()&types.IsUnsigned != 0:
			a.conv, a.bits = convUint, basicBits(b.Kind())
		case b.Info()&types.IsInteger != 0:
			a.conv, a.bits = convInt, basicBits(b.Kind())
		case b.Info()&types.IsFloat != 0:
			a.conv, a.bits = convFloat, basicBits(b.Kind())
		default:
			ds.errorf(v.Pos(), "%s: field %s has type %s, which a %s cannot carry", owner, v.Name(), typeString(v.Type(), named.Obj().Pkg()), what)
			ok = false
			continue
		}
		out = append(out, a)
	}
	return out, ok
}

// basicBits is the size in bits of a numeric kind (int and uint: 64).
func basicBits(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32, types.Float32:
		return 32
	}
	return 64
}

// checkCompleter checks the completer a directive names: a method of the
// receiver of h, if h is a method and the receiver has one of that name,
// or else a function of the package; either of the type
// runtime.CompleteHandler. It reports whether the completer is a method.
func checkCompleter(pkg *types.Package, h *handlerFunc, name string, pos token.Pos, owner string, ds *diagnostics) (method, ok bool) {
	var fn *types.Func
	if h.recv != nil {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(h.recv.named), false, pkg, name)
		fn, method = obj.(*types.Func), obj != nil
	}
	if !method {
		fn, _ = pkg.Scope().Lookup(name).(*types.Func)
	}
	if fn == nil {
		ds.errorf(pos, "%s: complete=%s: no function %s in package %s", owner, name, name, pkg.Name())
		return false, false
	}
	sig := fn.Type().(*types.Signature)
	p, r := sig.Params(), sig.Results()
	if sig.TypeParams().Len() == 0 && p.Len() == 2 && r.Len() == 2 && isContext(p.At(0).Type()) &&
		isRuntimeType(p.At(1).Type(), "CompleteRequest") && isPointer(p.At(1).Type()) &&
		isRuntimeType(r.At(0).Type(), "CompleteResult") && isPointer(r.At(0).Type()) && isError(r.At(1).Type()) {
		if method && h.recv != nil && !h.recv.pointer {
			if _, ptrRecv := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer); ptrRecv {
				h.recv.pointer = true // Register must take *T to call it
			}
		}
		return method, true
	}
	ds.errorf(pos, "%s: complete=%s: %s must be func(context.Context, *runtime.CompleteRequest) (*runtime.CompleteResult, error), not %s", owner, name, name, typeString(sig, pkg))
	return false, false
}

// completes reports whether something completes the arguments: a
// completer, or an argument with constants.
func completes(args []argField, completer string) bool {
	return completer != "" || hasEnum(args)
}

// hasEnum reports whether an argument's type has constants.
func hasEnum(args []argField) bool {
	return slices.ContainsFunc(args, func(a argField) bool { return a.enum != nil })
}

// checkDuplicate reports a second declaration of key (a URI, a prompt
// name), which first declared at pos.
func checkDuplicate(fset *token.FileSet, seen map[string]token.Pos, key, what string, pos token.Pos, ds *diagnostics) bool {
	if prev, ok := seen[key]; ok {
		p := fset.Position(prev)
		ds.errorf(pos, "duplicate %s %q: %s:%d already declares it", what, key, filepath.Base(p.Filename), p.Line)
		return false
	}
	seen[key] = pos
	return true
}
