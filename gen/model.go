package gen

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"strings"
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
	*pass
	server    serverOptions
	install   *installOptions // //mcp:install, if the package asks for install files
	tools     []*tool
	resources []*resource
	prompts   []*prompt
	typeDirs  []*typeDirective // //mcp:form and //mcp:output types
	receivers []*receiver
	// rejected are tools with errors whose input (a struct, or none) and
	// output are known as far as their checks went: their schemas are
	// built only for what they report, so that a mistake in a struct shows
	// in the same run as the tool's own.
	rejected []*tool
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
	// inputAt and outputAt are where the user declared the parts of the
	// schemas, by JSON pointer, when the surface's positions are asked
	// for (surfacepos.go).
	inputAt, outputAt map[string]token.Pos
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
	outValue                     // another JSON value: structuredContent as it is
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

// buildModel finds the tools, resources, prompts and marked types of the
// package and checks them. It returns nil when the package has no mcpgen
// directives, or when its types are too broken to read.
func (p *pass) buildModel() *model {
	m := &model{pass: p}
	found := false
	var funcs, resourceFuncs, promptFuncs []*ast.FuncDecl
	var vars []resourceVar         // //mcp:resource variables
	var schemaDirs []fileDirective // //mcp:schema in package doc comments
	for _, f := range p.files {
		attached := map[*ast.Comment]bool{}
		m.typeDirs = append(m.typeDirs, p.typeDirectives(f, attached)...)
		vars = append(vars, resourceVars(f, attached)...)
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
						p.errorf(c.Slash, "%s has directives of two kinds: a function is one tool, one resource or one prompt", fd.Name.Name)
					}
				}
			}
		}
		if f.Doc != nil {
			for _, c := range f.Doc.List {
				if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == directiveInstall {
					attached[c] = true
					found = true
					if m.install == nil {
						m.install = &installOptions{}
					}
					p.parseInstallDirective(d, m.install)
				}
				if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == directiveSchema {
					attached[c] = true
					found = true
					schemaDirs = append(schemaDirs, fileDirective{d, f})
				}
				if d, ok := ast.ParseDirective(c.Slash, c.Text); ok && d.Tool == "mcp" && d.Name == directiveServer {
					attached[c] = true
					found = true
					if m.server.pos.IsValid() {
						first := p.fset.Position(m.server.pos)
						p.errorf(c.Slash, "//mcp:server appears more than once; the first is at %s:%d", filepath.Base(first.Filename), first.Line)
						continue
					}
					if o, ok := p.parseServerDirective(d); ok {
						m.server = o
					} else {
						m.server.pos = c.Slash
					}
				}
			}
		}
		found = p.strayDirectives(f, attached) || found
	}
	if len(funcs)+len(resourceFuncs)+len(vars)+len(promptFuncs)+len(m.typeDirs) == 0 && !found {
		return nil
	}
	if p.lp.broken {
		return nil
	}
	for _, name := range generatedNames {
		if p.taken(name) {
			p.errorf(p.pkg.Scope().Lookup(name).Pos(), "%s is declared here, but mcpgen generates a function of that name: rename this one", name)
		}
	}
	for _, sd := range schemaDirs {
		p.packageSchemaDirective(sd.d, sd.f)
	}
	p.ix = newIndex(newDocIndex(p.fset, p.files, p.lp.goFiles), newEnumIndex(p.fset, p.pkg, p.files))
	m.addTools(funcs)
	m.addResources(resourceFuncs, vars)
	m.checkAppLinks()
	m.addPrompts(promptFuncs)
	p.checkFormCalls(m.typeDirs)
	for _, td := range m.typeDirs {
		for _, method := range td.methods() {
			obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(td.named), false, p.pkg, method)
			if obj != nil && !p.inGenerated(obj.Pos()) {
				p.errorf(obj.Pos(), "%s.%s is declared here, but //mcp:%s generates it: remove this one, or the directive", td.named.Obj().Name(), method, td.kind)
			}
		}
	}
	if len(m.tools)+len(m.resources)+len(m.prompts)+len(m.typeDirs) == 0 && !p.hasErrors() {
		p.warnf(m.server.pos, "//mcp:server without any //mcp:tool, //mcp:resource or //mcp:prompt function in the package")
	}
	return m
}

// A fileDirective is a directive of a package doc comment, with its file
// (whose imports name the packages it refers to).
type fileDirective struct {
	d ast.Directive
	f *ast.File
}

// strayDirectives reports the mcpgen directives of a file that are not
// attached to what they apply to (those in attached are), and the
// comments that look like directives but are not. It reports whether the
// file has any directive.
func (p *pass) strayDirectives(f *ast.File, attached map[*ast.Comment]bool) bool {
	found := false
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if name, ok := spacedDirective(c.Text); ok {
				p.warnf(c.Slash, "// mcp:%s is a comment, not a directive: write //mcp:%[1]s without a space", name)
				continue
			}
			d, ok := ast.ParseDirective(c.Slash, c.Text)
			if !ok || d.Tool != "mcp" || attached[c] {
				continue
			}
			found = true
			switch d.Name {
			case directiveTool, directivePrompt:
				p.errorf(c.Slash, "//mcp:%s must be in the doc comment of a function or method declaration", d.Name)
			case directiveResource:
				p.errorf(c.Slash, "//mcp:resource must be in the doc comment of a function or method declaration, or of a string or []byte variable")
			case directiveForm, directiveOutput, directiveConfig:
				p.errorf(c.Slash, "//mcp:%s must be in the doc comment of a type declaration", d.Name)
			case directiveSchema:
				p.errorf(c.Slash, "//mcp:schema must be in the doc comment of a type declaration, or in the package doc comment naming the type")
			case directiveServer, directiveInstall:
				p.errorf(c.Slash, "//mcp:%s must be in the package doc comment, directly above the package clause", d.Name)
			default:
				p.errorf(c.Slash, "unknown directive //mcp:%s (mcpgen knows //mcp:tool, //mcp:resource, //mcp:prompt, //mcp:form, //mcp:output, //mcp:config, //mcp:schema, //mcp:server and //mcp:install)", d.Name)
			}
		}
	}
	return found
}

// addTools checks the //mcp:tool functions and adds those without
// mistakes to the model; the others, as far as they could be built, go to
// m.rejected, so that their structs are checked too.
func (m *model) addTools(funcs []*ast.FuncDecl) {
	p := m.pass
	byName := map[string]*tool{}
	for _, fd := range funcs {
		t, ok := p.buildTool(fd)
		if ok && byName[t.name] != nil {
			prevPos := p.fset.Position(byName[t.name].pos)
			p.errorf(t.opts.namePos, "duplicate tool name %q: %s:%d already declares it", t.name, filepath.Base(prevPos.Filename), prevPos.Line)
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
			p.warnf(t.pos, "Claude Code shows this tool as %s, %d characters; it cuts names beyond %d: shorten the tool or server name", q, len(q), maxQualifiedLen)
		}
		m.bind(&t.handlerFunc, fd)
		m.tools = append(m.tools, t)
	}
}

// addResources checks the //mcp:resource functions and variables and adds
// those without mistakes to the model.
func (m *model) addResources(funcs []*ast.FuncDecl, vars []resourceVar) {
	p := m.pass
	uris := map[string]token.Pos{}
	for _, fd := range funcs {
		r := p.buildResource(fd)
		if r == nil || !p.checkDuplicate(uris, r.opts.uri, "resource URI", r.opts.uriPos) {
			continue
		}
		if r.opts.complete != "" && r.vars == nil {
			p.errorf(r.opts.completePos, "resource %s: complete= completes the variables of a URI template, and %q has none", r.name, r.opts.uri)
			continue
		}
		m.bind(&r.handlerFunc, fd)
		if r.opts.complete != "" {
			var ok bool
			if r.completeMethod, ok = p.checkCompleter(&r.handlerFunc, r.opts.complete, r.opts.completePos, "resource "+r.name); !ok {
				continue
			}
		}
		m.resources = append(m.resources, r)
	}
	for _, rv := range vars {
		if r := p.buildVarResource(rv); r != nil && p.checkDuplicate(uris, r.opts.uri, "resource URI", r.opts.uriPos) {
			m.resources = append(m.resources, r)
		}
	}
}

// addPrompts checks the //mcp:prompt functions and adds those without
// mistakes to the model.
func (m *model) addPrompts(funcs []*ast.FuncDecl) {
	p := m.pass
	names := map[string]token.Pos{}
	for _, fd := range funcs {
		pr := p.buildPrompt(fd)
		if pr == nil || !p.checkDuplicate(names, pr.name, "prompt name", cmp.Or(pr.opts.namePos, pr.pos)) {
			continue
		}
		m.bind(&pr.handlerFunc, fd)
		if pr.opts.complete != "" {
			var ok bool
			if pr.completeMethod, ok = p.checkCompleter(&pr.handlerFunc, pr.opts.complete, pr.opts.completePos, "prompt "+pr.name); !ok {
				continue
			}
		}
		m.prompts = append(m.prompts, pr)
	}
}

// serverName is the //mcp:server name, or else the last element of the
// package path (the directory name, which is more telling than "main").
func (m *model) serverName() string {
	if m.server.name != "" {
		return m.server.name
	}
	return defaultServerName(m.pkg.Path())
}

func defaultServerName(pkgPath string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return r
		}
		return '_'
	}, path.Base(pkgPath))
}

// handlers are the functions behind the package's tools, resources and
// prompts, in that order (a variable's resource has none).
func (m *model) handlers() []*handlerFunc {
	var hs []*handlerFunc
	for _, t := range m.tools {
		hs = append(hs, &t.handlerFunc)
	}
	for _, r := range m.resources {
		if r.embedded == nil {
			hs = append(hs, &r.handlerFunc)
		}
	}
	for _, p := range m.prompts {
		hs = append(hs, &p.handlerFunc)
	}
	return hs
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
