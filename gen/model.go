package gen

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
)

// runtimePath is the import path of the package generated code registers
// into; it is the only place the path is spelled.
const runtimePath = "github.com/mcpgen/mcpgen/runtime"

// implPath is the import path of the support package of generated code.
const implPath = "github.com/mcpgen/mcpgen/runtime/mcpimpl"

// Limits that Claude Code applies to what it shows the model.
const (
	maxDescription  = 2048 // longer tool descriptions are truncated
	maxQualifiedLen = 64   // mcp__<server>__<tool> is cut beyond this
)

// A model is everything emit needs for one package.
type model struct {
	pkg       *types.Package
	server    serverOptions
	tools     []*tool
	resources []*resource
	prompts   []*prompt
	typeDirs  []*typeDirective // //mcp:form and //mcp:output types
	receivers []*receiver
	// names in the package scope that the generated file must not
	// redeclare (it would not compile); emit picks other names for its
	// own identifiers.
	taken func(name string) bool
	// rejected are tools with errors whose input (a struct, or none) and
	// output are known as far as their checks went: their schemas are
	// built only for what they report, so that a mistake in a struct shows
	// in the same run as the tool's own.
	rejected []*tool

	fset  *token.FileSet
	index *index // shared by the schema builders
}

// A tool is one //mcp:tool function or method.
type tool struct {
	opts        toolOptions
	name        string
	description string
	pos         token.Pos // the directive

	handlerFunc
	out outKind

	inputSchema  string // indented JSON
	outputSchema string // indented JSON, for structured outputs
}

// A handlerFunc is the Go function behind a tool, a resource or a prompt:
// func([recv] [ctx context.Context,] [in In]) ([Out,] error).
type handlerFunc struct {
	fn     *types.Func
	recv   *receiver // nil for a plain function
	hasCtx bool
	input  types.Type // nil when the function takes no input; else a named struct or a pointer to one
	output types.Type // nil when the function returns only error

	inputPos  token.Pos // the input parameter's type
	outputPos token.Pos // the first result's type
}

// outKind says how a handler's result becomes a tools/call result.
type outKind int

const (
	outNone       outKind = iota // error only: an empty result
	outText                      // a string: one text block
	outStructured                // a JSON object: structuredContent and a text block
	outValue                     // another JSON value: structuredContent {"result": v}
	outResult                    // *runtime.ToolResult or runtime.ToolResult: as returned
	outUnsupported
)

// A receiver is a type whose methods are tools; Register takes a value of
// it.
type receiver struct {
	named   *types.Named
	pointer bool   // Register takes *T (some method has a pointer receiver)
	param   string // parameter name in Register and NewServer
}

// buildModel finds the tools of a package and checks them. It returns nil
// when the package has no mcpgen directives.
func buildModel(lp *loadedPackage, ds *diagnostics) *model {
	p := lp.pkg
	var files []*ast.File
	for _, f := range p.Syntax {
		if p.Fset.Position(f.Package).Filename != lp.output || !lp.hadGenerated {
			files = append(files, f)
		}
	}
	m := &model{pkg: p.Types}
	found := false
	var funcs, resourceFuncs, promptFuncs []*ast.FuncDecl
	for _, f := range files {
		attached := map[*ast.Comment]bool{}
		m.typeDirs = append(m.typeDirs, typeDirectives(p.TypesInfo, f, attached, ds)...)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			kinds := 0
			for _, c := range fd.Doc.List {
				d, ok := ast.ParseDirective(c.Slash, c.Text)
				if !ok || d.Tool != "mcp" {
					continue
				}
				list := map[string]*[]*ast.FuncDecl{directiveTool: &funcs, directiveResource: &resourceFuncs, directivePrompt: &promptFuncs}[d.Name]
				if list == nil {
					continue
				}
				attached[c] = true
				if len(*list) == 0 || (*list)[len(*list)-1] != fd {
					*list = append(*list, fd)
					if kinds++; kinds == 2 {
						ds.errorf(c.Slash, "%s has directives of two kinds: a function is one tool, one resource or one prompt", fd.Name.Name)
					}
				}
			}
		}
		if f.Doc != nil {
			for _, c := range f.Doc.List {
				if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == directiveServer {
					attached[c] = true
					found = true
					if m.server.pos.IsValid() {
						first := p.Fset.Position(m.server.pos)
						ds.errorf(c.Slash, "//mcp:server appears more than once; the first is at %s:%d", filepath.Base(first.Filename), first.Line)
						continue
					}
					if o, ok := parseServerDirective(d, ds); ok {
						m.server = o
					} else {
						m.server.pos = c.Slash
					}
				}
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if name, ok := spacedDirective(c.Text); ok {
					ds.warnf(c.Slash, "// mcp:%s is a comment, not a directive: write //mcp:%[1]s without a space", name)
					continue
				}
				d, ok := ast.ParseDirective(c.Slash, c.Text)
				if !ok || d.Tool != "mcp" || attached[c] {
					continue
				}
				found = true
				switch d.Name {
				case directiveTool, directiveResource, directivePrompt:
					ds.errorf(c.Slash, "//mcp:%s must be in the doc comment of a function or method declaration", d.Name)
				case directiveForm, directiveOutput:
					ds.errorf(c.Slash, "//mcp:%s must be in the doc comment of a type declaration", d.Name)
				case directiveServer:
					ds.errorf(c.Slash, "//mcp:server must be in the package doc comment, directly above the package clause")
				default:
					ds.errorf(c.Slash, "unknown directive //mcp:%s (mcpgen knows //mcp:tool, //mcp:resource, //mcp:prompt, //mcp:form, //mcp:output and //mcp:server)", d.Name)
				}
			}
		}
	}
	if len(funcs)+len(resourceFuncs)+len(promptFuncs)+len(m.typeDirs) == 0 && !found {
		return nil
	}
	ds.list = append(ds.list, lp.diags...)
	if lp.broken {
		return nil
	}
	m.taken = func(name string) bool {
		obj := p.Types.Scope().Lookup(name)
		return obj != nil && (!lp.hadGenerated || p.Fset.Position(obj.Pos()).Filename != lp.output)
	}
	for _, name := range generatedNames {
		if m.taken(name) {
			ds.errorf(p.Types.Scope().Lookup(name).Pos(), "%s is declared here, but mcpgen generates a function of that name: rename this one", name)
		}
	}
	ix := newIndex(newDocIndex(p.Fset, files, lp.goFiles))
	byName := map[string]*tool{}
	for _, fd := range funcs {
		t, ok := buildTool(p.TypesInfo, fd, ds)
		if ok && byName[t.name] != nil {
			prevPos := p.Fset.Position(byName[t.name].pos)
			ds.errorf(t.opts.namePos, "duplicate tool name %q: %s:%d already declares it", t.name, filepath.Base(prevPos.Filename), prevPos.Line)
			ok = false
		}
		if !ok {
			if t != nil && (t.input == nil || isStructInput(t.input)) {
				m.bind(&t.handlerFunc, fd)
				m.rejected = append(m.rejected, t)
			}
			continue
		}
		byName[t.name] = t
		if q := "mcp__" + m.serverName() + "__" + t.name; len(q) > maxQualifiedLen {
			ds.warnf(t.pos, "Claude Code shows this tool as %s, %d characters; it cuts names beyond %d: shorten the tool or server name", q, len(q), maxQualifiedLen)
		}
		m.bind(&t.handlerFunc, fd)
		m.tools = append(m.tools, t)
	}
	uris := map[string]token.Pos{}
	for _, fd := range resourceFuncs {
		r := buildResource(p.TypesInfo, ix, fd, ds)
		if r == nil || !checkDuplicate(p.Fset, uris, r.opts.uri, "resource URI", r.opts.uriPos, ds) {
			continue
		}
		if r.opts.complete != "" && r.vars == nil {
			ds.errorf(r.opts.completePos, "resource %s: complete= completes the variables of a URI template, and %q has none", r.name, r.opts.uri)
			continue
		}
		m.bind(&r.handlerFunc, fd)
		if r.opts.complete != "" {
			var ok bool
			if r.completeMethod, ok = checkCompleter(p.Types, &r.handlerFunc, r.opts.complete, r.opts.completePos, "resource "+r.name, ds); !ok {
				continue
			}
		}
		m.resources = append(m.resources, r)
	}
	names := map[string]token.Pos{}
	for _, fd := range promptFuncs {
		pr := buildPrompt(p.TypesInfo, ix, fd, ds)
		if pr == nil || !checkDuplicate(p.Fset, names, pr.name, "prompt name", cmp.Or(pr.opts.namePos, pr.pos), ds) {
			continue
		}
		m.bind(&pr.handlerFunc, fd)
		if pr.opts.complete != "" {
			var ok bool
			if pr.completeMethod, ok = checkCompleter(p.Types, &pr.handlerFunc, pr.opts.complete, pr.opts.completePos, "prompt "+pr.name, ds); !ok {
				continue
			}
		}
		m.prompts = append(m.prompts, pr)
	}
	for _, td := range m.typeDirs {
		for _, method := range td.methods() {
			obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(td.named), false, p.Types, method)
			if obj != nil && (!lp.hadGenerated || p.Fset.Position(obj.Pos()).Filename != lp.output) {
				ds.errorf(obj.Pos(), "%s.%s is declared here, but //mcp:%s generates it: remove this one, or the directive", td.named.Obj().Name(), method, td.kind)
			}
		}
	}
	m.fset, m.index = p.Fset, ix
	for _, td := range m.typeDirs {
		td.buildSchema(m, ds)
	}
	if len(m.tools)+len(m.resources)+len(m.prompts)+len(m.typeDirs) == 0 && !ds.hasErrors() {
		ds.warnf(m.server.pos, "//mcp:server without any //mcp:tool, //mcp:resource or //mcp:prompt function in the package")
	}
	return m
}

// handlers are the functions behind the package's tools, resources and
// prompts, in that order.
func (m *model) handlers() []*handlerFunc {
	var hs []*handlerFunc
	for _, t := range m.tools {
		hs = append(hs, &t.handlerFunc)
	}
	for _, r := range m.resources {
		hs = append(hs, &r.handlerFunc)
	}
	for _, p := range m.prompts {
		hs = append(hs, &p.handlerFunc)
	}
	return hs
}

// buildSchemas derives every tool's schemas, and those of the rejected
// tools for their diagnostics, one tool after another. On two cores,
// sharing the tools among goroutines saved about 3% of BenchmarkGenerate
// (200 tools: 73 ms against 76), not worth a lock in the index and
// diagnostics to merge. It reports whether they were built without
// errors.
func (m *model) buildSchemas(ds *diagnostics) bool {
	for _, t := range slices.Concat(m.tools, m.rejected) {
		t.buildSchemas(m.fset, m.pkg, m.index, ds, m.server.inline)
	}
	return !ds.hasErrors()
}

func (t *tool) buildSchemas(fset *token.FileSet, pkg *types.Package, ix *index, ds *diagnostics, inline bool) {
	sb := newSchemaBuilder(fset, pkg, ix, ds, inline)
	if t.input != nil {
		t.inputSchema = sb.root(t.input, t.inputPos, "input")
	} else {
		t.inputSchema = sb.emptyRoot()
	}
	if t.hasOutputSchema() {
		osb := newSchemaBuilder(fset, pkg, ix, ds, inline)
		t.outputSchema = osb.output(t.output, "result of "+t.fn.Name(), t.outputPos, t.out == outValue)
	}
}

// hasOutputSchema reports whether the tool declares an outputSchema: it
// does when its results are structured.
func (t *tool) hasOutputSchema() bool {
	return t.out == outStructured || t.out == outValue
}

// bind completes h, whose signature checkSignature accepted: it shares
// the model's receivers and notes where the input and output are.
func (m *model) bind(h *handlerFunc, fd *ast.FuncDecl) {
	if h.recv != nil {
		h.recv = m.receiver(h.recv)
	}
	if h.input != nil {
		h.inputPos = fd.Type.Params.List[len(fd.Type.Params.List)-1].Type.Pos()
	}
	if h.output != nil {
		h.outputPos = fd.Type.Results.List[0].Type.Pos()
	}
}

// receiver returns the model's receiver for r's type, adding it if new.
func (m *model) receiver(r *receiver) *receiver {
	for _, have := range m.receivers {
		if have.named.Obj() == r.named.Obj() {
			have.pointer = have.pointer || r.pointer
			return have
		}
	}
	r.param = paramName(r.named.Obj().Name())
	for m.taken(r.param) || r.param == "s" || slices.ContainsFunc(m.receivers, func(o *receiver) bool { return o.param == r.param }) {
		r.param += "_"
	}
	m.receivers = append(m.receivers, r)
	return r
}

// paramName turns a type name into a parameter name: Store → store,
// DBConn → dbConn.
func paramName(typeName string) string {
	r := []rune(typeName)
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) {
		i++
	}
	if i > 1 && i < len(r) {
		i-- // keep the first letter of the next word upper-case
	}
	name := strings.ToLower(string(r[:i])) + string(r[i:])
	if token.IsKeyword(name) || types.Universe.Lookup(name) != nil {
		name += "_"
	}
	return name
}

// buildTool checks a //mcp:tool function's directive and signature. When
// they have errors it reports false, with the tool as far as it could be
// built (nil if not at all): its input is set if it could be identified.
func buildTool(info *types.Info, fd *ast.FuncDecl, ds *diagnostics) (*tool, bool) {
	var dir ast.Directive
	for _, c := range fd.Doc.List {
		if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == directiveTool {
			if dir.Slash.IsValid() {
				ds.errorf(c.Slash, "%s has more than one //mcp:tool directive", fd.Name.Name)
				return nil, false
			}
			dir = d
		}
	}
	opts, ok := parseToolDirective(dir, ds)
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		ds.errorf(fd.Name.Pos(), "cannot determine the type of %s", fd.Name.Name)
		return nil, false
	}
	t := &tool{opts: opts, pos: dir.Slash, handlerFunc: handlerFunc{fn: fn}, description: strings.TrimSpace(fd.Doc.Text())}
	t.name = opts.name
	if t.name == "" {
		t.name = snakeCase(fd.Name.Name)
		t.opts.namePos = dir.Slash
	}
	if !validToolName(t.name) {
		ds.errorf(t.opts.namePos, "invalid tool name %q: Claude Code requires ^[a-zA-Z0-9_-]{1,64}$", t.name)
		ok = false
	}
	if t.description == "" {
		ds.warnf(fd.Name.Pos(), "tool %s has no description: write a doc comment on %s; the model reads it to decide when to call the tool", t.name, fd.Name.Name)
	} else if n := len([]rune(t.description)); n > maxDescription {
		ds.warnf(fd.Doc.Pos(), "the description of tool %s is %d characters; Claude Code truncates tool descriptions at %d", t.name, n, maxDescription)
	}
	if !checkSignature("tool", t.name, &t.handlerFunc, fd, ds) || !checkToolOutput(t, fd, ds) || !ok {
		return t, false
	}
	return t, true
}

// checkToolOutput classifies the Out of a tool whose signature
// checkSignature accepted.
func checkToolOutput(t *tool, fd *ast.FuncDecl, ds *diagnostics) bool {
	if t.output == nil {
		t.out = outNone
		return true
	}
	t.out = classifyOutput(t.output)
	if t.out == outUnsupported {
		ds.errorf(fd.Type.Results.Pos(), "tool %s: cannot return %s: use a concrete type (a string, a struct, a map, a slice, a number) or *runtime.ToolResult", t.name, typeString(t.output, t.fn.Pkg()))
		return false
	}
	return true
}

// checkSignature classifies the parameters and results of the function
// behind the kind ("tool", "resource", "prompt") called name:
// func([recv] [ctx context.Context,] [in In]) ([Out,] error).
func checkSignature(kind, name string, t *handlerFunc, fd *ast.FuncDecl, ds *diagnostics) bool {
	sig := t.fn.Type().(*types.Signature)
	ok := true
	if sig.TypeParams().Len() > 0 {
		ds.errorf(fd.Type.TypeParams.Pos(), "%s %s: a generic function cannot be a %s; wrap an instantiation of it in a plain function", kind, name, kind)
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
			ds.errorf(fd.Recv.Pos(), "%s %s: methods of generic types cannot be %ss", kind, name, kind)
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
			ds.errorf(fields[j].Pos(), "%s %s: context.Context must be the first parameter", kind, name)
			return false
		}
	}
	if sig.Variadic() {
		ds.errorf(fields[params.Len()-1].Pos(), "%s %s: a variadic parameter cannot be a %s input; use a struct field holding a slice", kind, name, kind)
		return false
	}
	if params.Len()-i > 1 {
		ds.errorf(fields[i+1].Pos(), "%s %s takes too many parameters: a %s function takes an optional context.Context and at most one input struct", kind, name, kind)
		return false
	}
	if params.Len()-i == 1 {
		in := params.At(i).Type()
		if !isStructInput(in) {
			ds.errorf(fields[i].Pos(), "%s %s: the input parameter must be a named struct type or a pointer to one, not %s", kind, name, typeString(in, t.fn.Pkg()))
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
		ds.errorf(resultPos, "%s %s must return (Out, error) or error, not %s", kind, name, typeString(types.NewTuple(varsOf(results)...), t.fn.Pkg()))
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

func classifyOutput(t types.Type) outKind {
	if isRuntimeResult(t) {
		return outResult
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
