package gen

import (
	"encoding/json"
	"go/ast"
	"go/types"
	"time"
)

// buildTool checks a //mcp:tool function's directive and signature. When
// they have errors it reports false, with the tool as far as it could be
// built (nil if not at all): its input is set if it could be identified.
func (p *pass) buildTool(fd *ast.FuncDecl) (*tool, bool) {
	dir, ok := p.findDirective(fd, directiveTool)
	if !ok {
		return nil, false
	}
	opts, ok := p.parseToolDirective(dir)
	fn, _ := p.info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		p.errorf(fd.Name.Pos(), "cannot determine the type of %s", fd.Name.Name)
		return nil, false
	}
	t := &tool{opts: opts, pos: dir.Slash, handlerFunc: handlerFunc{fn: fn}, description: commentText(fd.Doc)}
	t.name = opts.name
	if t.name == "" {
		t.name = snakeCase(fd.Name.Name)
		t.opts.namePos = dir.Slash
	}
	if !validToolName(t.name) {
		p.errorf(t.opts.namePos, "invalid tool name %q: Claude Code requires ^[a-zA-Z0-9_-]{1,64}$", t.name)
		ok = false
	}
	if t.description == "" {
		p.warnf(fd.Name.Pos(), "tool %s has no description: write a doc comment on %s; the model reads it to decide when to call the tool", t.name, fd.Name.Name)
	} else if n := len([]rune(t.description)); n > maxDescription {
		p.warnf(fd.Doc.Pos(), "the description of tool %s is %d characters; Claude Code truncates tool descriptions at %d", t.name, n, maxDescription)
	}
	if !p.checkSignature("tool", t.name, &t.handlerFunc, fd) || !p.checkToolOutput(t, fd) || !ok {
		return t, false
	}
	return t, true
}

// checkToolOutput classifies the Out of a tool whose signature
// checkSignature accepted.
func (p *pass) checkToolOutput(t *tool, fd *ast.FuncDecl) bool {
	if t.output == nil {
		t.out = outNone
		return true
	}
	t.out = p.classifyOutput(t.output)
	if t.out == outUnsupported {
		p.errorf(fd.Type.Results.Pos(), "tool %s: cannot return %s: use a concrete type (a string, a struct, a map, a slice, a number) or *runtime.ToolResult", t.name, typeString(t.output, t.fn.Pkg()))
		return false
	}
	return true
}

// checkSignature classifies the parameters and results of the function
// behind the kind ("tool", "resource", "prompt") called name:
// func([recv] [ctx context.Context,] [in In]) ([Out,] error).
func (p *pass) checkSignature(kind, name string, t *handlerFunc, fd *ast.FuncDecl) bool {
	sig := t.fn.Type().(*types.Signature)
	ok := true
	if sig.TypeParams().Len() > 0 {
		p.errorf(fd.Type.TypeParams.Pos(), "%s %s: a generic function cannot be a %s; wrap an instantiation of it in a plain function", kind, name, kind)
		return false
	}
	if r := sig.Recv(); r != nil {
		rt := r.Type()
		ptr := false
		if p, isPtr := rt.(*types.Pointer); isPtr {
			rt, ptr = p.Elem(), true
		}
		named, _ := types.Unalias(rt).(*types.Named)
		if named == nil || named.TypeParams().Len() > 0 {
			p.errorf(fd.Recv.Pos(), "%s %s: methods of generic types cannot be %ss", kind, name, kind)
			return false
		}
		t.recv = &receiver{named: named, pointer: ptr}
	}
	params := sig.Params()
	fields := paramFields(fd.Type.Params)
	i := 0
	if params.Len() > 0 && isContext(params.At(0).Type()) {
		t.hasCtx = true
		i++
	}
	for j := i; j < params.Len(); j++ {
		if isContext(params.At(j).Type()) {
			p.errorf(fields[j].Pos(), "%s %s: context.Context must be the first parameter", kind, name)
			return false
		}
	}
	if sig.Variadic() {
		p.errorf(fields[params.Len()-1].Pos(), "%s %s: a variadic parameter cannot be a %s input; use a struct field holding a slice", kind, name, kind)
		return false
	}
	if params.Len()-i > 1 {
		p.errorf(fields[i+1].Pos(), "%s %s takes too many parameters: a %s function takes an optional context.Context and at most one input struct", kind, name, kind)
		return false
	}
	if params.Len()-i == 1 {
		in := params.At(i).Type()
		if !isStructInput(in) {
			p.errorf(fields[i].Pos(), "%s %s: the input parameter must be a named struct type or a pointer to one, not %s", kind, name, typeString(in, t.fn.Pkg()))
			ok = false
		}
		t.input = in
	}
	results := sig.Results()
	resultPos := fd.Type.Func
	if fd.Type.Results != nil {
		resultPos = fd.Type.Results.Pos()
	}
	switch {
	case results.Len() == 0 || results.Len() > 2 || !isError(results.At(results.Len()-1).Type()):
		p.errorf(resultPos, "%s %s must return (Out, error) or error, not %s", kind, name, typeString(types.NewTuple(varsOf(results)...), t.fn.Pkg()))
		return false
	case results.Len() == 2:
		t.output = results.At(0).Type()
	}
	return ok
}

func varsOf(t *types.Tuple) []*types.Var {
	vs := make([]*types.Var, t.Len())
	for i := range vs {
		vs[i] = t.At(i)
	}
	return vs
}

// paramFields returns one AST expression per parameter (a field can
// declare several).
func paramFields(fl *ast.FieldList) []ast.Node {
	var out []ast.Node
	for _, f := range fl.List {
		n := max(len(f.Names), 1)
		for j := 0; j < n; j++ {
			if len(f.Names) > 0 {
				out = append(out, f.Names[j])
			} else {
				out = append(out, f.Type)
			}
		}
	}
	return out
}

// classifyOutput says how a tool's Out becomes a result, by the JSON
// encoding/json writes for it: a string is text, an object structured
// content, and any other value (a type that marshals itself to anything
// but an object included) a structured value.
func (p *pass) classifyOutput(t types.Type) outKind {
	if isRuntimeResult(t) {
		return outResult
	}
	if isStringKind(t) {
		return outText // the string itself, not its JSON
	}
	if n, ok := types.Unalias(derefType(t)).(*types.Named); ok {
		if st := p.stated(n); st != nil && st.schema != nil {
			if st.schema.Type == "object" {
				return outStructured
			}
			return outValue
		}
		if p.ix.jsonMethods.encodeMethod(n, isPointer(t)) != nil {
			return outValue
		}
	}
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return outText
		}
		return outValue
	case *types.Struct, *types.Map:
		return outStructured
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Struct); ok {
			return outStructured
		}
		return outValue
	case *types.Interface:
		return outUnsupported
	default:
		return outValue
	}
}

func isRuntimeResult(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == runtimePath && n.Obj().Name() == "ToolResult"
}

func isStructInput(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	_, ok = n.Underlying().(*types.Struct)
	return ok
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// typeString writes t as it is written in pkg.
func typeString(t types.Type, pkg *types.Package) string {
	return types.TypeString(t, types.RelativeTo(pkg))
}

// durationUnit splits d into a count of its largest exact unit, so that
// emit can write 30 * time.Second rather than 30000000000.
func durationUnit(d time.Duration) (n int64, unit string) {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}} {
		if d%u.d == 0 {
			return int64(d / u.d), u.name
		}
	}
	return int64(d), "Nanosecond"
}

// listedSize is the size of t's entry in tools/list, in compact JSON:
// the schemas compacted, the strings quoted, annotations estimated at
// their longest.
func (t *tool) listedSize() int {
	// compact is the length of JSON text without the space between its
	// tokens: what encoding/json sends of the indented schema.
	compact := func(s string) int {
		n, inString, escaped := 0, false, false
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case inString:
				inString = escaped || c != '"'
				escaped = !escaped && c == '\\'
			case c == '"':
				inString = true
			case c == ' ' || c == '\n' || c == '\t' || c == '\r':
				continue
			}
			n++
		}
		return n
	}
	quoted := func(s string) int {
		data, _ := json.Marshal(s)
		return len(data)
	}
	n := len(`{"name":,"inputSchema":}`) + quoted(t.name) + compact(t.inputSchema)
	if t.description != "" {
		n += len(`,"description":`) + quoted(t.description)
	}
	if t.opts.title != "" {
		n += len(`,"title":`) + quoted(t.opts.title)
	}
	if t.outputSchema != "" {
		n += len(`,"outputSchema":`) + compact(t.outputSchema)
	}
	if t.opts.readOnly != nil || t.opts.destruct != nil || t.opts.idempotent != nil || t.opts.openWorld != nil {
		n += len(`,"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}`)
	}
	return n
}
