package gen

import (
	"bytes"
	"go/format"
	"go/types"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dave/jennifer/jen"
)

// emit renders the generated file of a package whose schemas are built:
// the code, then the schema constants.
func emit(m *model, ds *diagnostics) ([]byte, error) {
	var code bytes.Buffer
	code.Grow(len(m.tools) * 3 << 10) // a typical tool's code and schemas
	e, err := renderCode(m, &code)
	if err != nil {
		return nil, err
	}
	size := 0
	for _, t := range m.tools {
		size += len(t.inputSchema) + len(t.outputSchema) + 256
	}
	code.Grow(size)
	e.schemaConsts(&code)
	e.typeSchemaConsts(&code)
	return code.Bytes(), nil
}

// renderCode renders everything but the schema constants.
func renderCode(m *model, buf *bytes.Buffer) (*emitter, error) {
	e := &emitter{m: m, f: jen.NewFilePathName(m.pkg.Path(), m.pkg.Name()), quals: map[string]string{}}
	e.dec = &decoderSet{e: e, names: map[*types.Named]string{}, used: map[string]bool{}, fast: map[*types.Named]bool{}}
	e.f.HeaderComment(Header)
	e.pickImports()
	e.locals = e.pickLocals()

	e.f.Comment("The code below needs this version of the mcpimpl package or a later one.")
	e.f.Const().Id("_").Op("=").Qual(implPath, "SupportPackageIsVersion1")
	e.f.Line()
	if len(m.handlers()) > 0 {
		e.guards()
		e.newServer()
	}
	register, err := e.register()
	if err != nil {
		return nil, err
	}
	if err := e.f.Render(buf); err != nil {
		return nil, err
	}
	buf.Write(register)
	var decoders bytes.Buffer
	e.dec.write(&decoders)
	buf.Write(e.names(decoders.Bytes()))
	return e, nil
}

// The code written as text (Register, the decoders) names the runtime and
// mcpimpl packages through these placeholders; register replaces them by
// the names pickImports chose for the file.
const (
	rtRef   = "\x00runtime."
	implRef = "\x00mcpimpl."
)

type emitter struct {
	m      *model
	rt     string // the runtime package's name in the generated file
	impl   string // the mcpimpl package's name
	f      *jen.File
	dec    *decoderSet
	locals locals
	consts map[*tool][2]string // input and output schema constant names

	quals    map[string]string // qual's answers
	reformat bool              // whether register must format what it wrote
	// argDecoderNames are the names of the decoders of resources'
	// variables and prompts' arguments, by resource or prompt.
	argDecoderNames map[string]string
}

// locals are the names the generated functions use for their own
// variables, chosen so as not to shadow anything the package declares.
type locals struct {
	server, ctx, in, out, err string
}

// pickImports names the packages the generated file imports: by their own
// names, unless the package declares that name (a variable called
// context, a type called runtime), which the import would clash with.
func (e *emitter) pickImports() {
	free := func(name string) string {
		if !e.m.taken(name) {
			return name
		}
		for alias := name + "pkg"; ; alias += "_" {
			if !e.m.taken(alias) {
				return alias
			}
		}
	}
	name := func(path, name string) string {
		if alias := free(name); alias != name {
			e.f.ImportAlias(path, alias)
			return alias
		}
		e.f.ImportName(path, name)
		return name
	}
	e.rt, e.impl = name(runtimePath, "runtime"), name(implPath, "mcpimpl")
	for _, std := range []string{"context", "time"} {
		if e.m.taken(std) {
			e.f.ImportAlias(std, free(std))
		}
	}
}

// names replaces the placeholders rtRef and implRef in code by the
// packages' names in the file.
func (e *emitter) names(code []byte) []byte {
	code = bytes.ReplaceAll(code, []byte(rtRef), []byte(e.rt+"."))
	return bytes.ReplaceAll(code, []byte(implRef), []byte(e.impl+"."))
}

func (e *emitter) pickLocals() locals {
	free := func(name string) string {
		for e.m.taken(name) || e.isReceiverParam(name) {
			name += "_"
		}
		return name
	}
	return locals{server: free("s"), ctx: free("ctx"), in: free("in"), out: free("r"), err: free("err")}
}

func (e *emitter) isReceiverParam(name string) bool {
	for _, r := range e.m.receivers {
		if r.param == name {
			return true
		}
	}
	return false
}

// guards emits one assignment per tool that stops compiling when the
// function's signature changes, next to a comment saying what to do:
//
//	var (
//		_ func(context.Context, CreateTicketInput) (string, error) = CreateTicket
//	)
func (e *emitter) guards() {
	e.f.Comment("A compile error here means that a " + e.m.kinds("tool", "resource", "prompt", " or ") + " function's signature changed")
	e.f.Comment("after this file was generated: re-run go generate.")
	e.f.Var().DefsFunc(func(g *jen.Group) {
		for _, t := range e.m.handlers() {
			sig := t.fn.Type().(*types.Signature)
			var params []jen.Code
			fn := jen.Id(t.fn.Name())
			if t.recv != nil {
				recvType := e.typeCode(sig.Recv().Type())
				params = append(params, recvType)
				fn = jen.Parens(e.typeCode(sig.Recv().Type())).Dot(t.fn.Name())
			}
			for i := range sig.Params().Len() {
				params = append(params, e.typeCode(sig.Params().At(i).Type()))
			}
			var results []jen.Code
			for i := range sig.Results().Len() {
				results = append(results, e.typeCode(sig.Results().At(i).Type()))
			}
			g.Id("_").Func().Params(params...).Params(results...).Op("=").Add(fn)
		}
	})
	e.f.Line()
}

// receiverParams are the receivers Register and NewServer take.
func (e *emitter) receiverParams() []jen.Code {
	var ps []jen.Code
	for _, r := range e.m.receivers {
		t := jen.Qual(e.m.pkg.Path(), r.named.Obj().Name())
		if r.pointer {
			t = jen.Op("*").Add(t)
		}
		ps = append(ps, jen.Id(r.param).Add(t))
	}
	return ps
}

// newServer emits:
//
//	// NewServer returns a server named "cci" that serves the tools of this
//	// package: create_ticket.
//	func NewServer() *runtime.Server {
//		s := &runtime.Server{Name: "cci", Version: "1.0.0"}
//		Register(s)
//		return s
//	}
func (e *emitter) newServer() {
	m, l := e.m, e.locals
	so := m.server
	field := func(name, v string) jen.Code { return jen.Line().Id(name).Op(":").Lit(v) }
	fields := []jen.Code{field("Name", e.m.serverName())}
	if so.version != "" {
		fields = append(fields, field("Version", so.version))
	}
	if so.title != "" {
		fields = append(fields, field("Title", so.title))
	}
	if so.instructions != "" {
		fields = append(fields, field("Instructions", so.instructions))
	}
	fields = append(fields, jen.Line())
	args := []jen.Code{jen.Id(l.server)}
	for _, r := range m.receivers {
		args = append(args, jen.Id(r.param))
	}
	e.newServerDoc()
	e.f.Func().Id("NewServer").Params(e.receiverParams()...).Op("*").Qual(runtimePath, "Server").Block(
		jen.Id(l.server).Op(":=").Op("&").Qual(runtimePath, "Server").Values(fields...),
		jen.Id("Register").Call(args...),
		jen.Return(jen.Id(l.server)),
	)
	e.f.Line()
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

func (e *emitter) toolList() string {
	names := make([]string, len(e.m.tools))
	for i, t := range e.m.tools {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}

// register writes Register, one AddTool per tool. Like the decoders
// (see decoderSet.write) it is written in gofmt's layout directly: with
// many tools it is most of the code, and formatting it took longer than
// building every schema.
//
//	// Register adds the tools of this package to s.
//	func Register(s *runtime.Server) {
//		s.AddTool(&runtime.Tool{
//			Name:        "create_ticket",
//			Description: "CreateTicket files a ticket.",
//			InputSchema: createTicketInputSchema,
//			Handler:     runtime.Handle(CreateTicket, decodeCreateTicketInput, runtime.Text),
//		})
//	}
//
// It runs before jennifer renders the rest of the file, which then imports
// the packages Register refers to.
func (e *emitter) register() ([]byte, error) {
	l := e.locals
	e.consts = map[*tool][2]string{}
	used := map[string]bool{}
	for _, t := range e.m.tools {
		base := lowerCamel(t.name)
		in := e.constName(base+"InputSchema", used)
		out := ""
		if t.hasOutputSchema() {
			out = e.constName(base+"OutputSchema", used)
		}
		e.consts[t] = [2]string{in, out}
	}
	var b bytes.Buffer
	if len(e.m.handlers()) == 0 { // only //mcp:form and //mcp:output types
		e.typeMethods(&b, used)
		return e.names(b.Bytes()), nil
	}
	b.WriteString("\n// Register adds the " + e.m.kinds("tools", "resources", "prompts", " and ") + " of this package to " + l.server + ".\n")
	b.WriteString("func Register(" + l.server + " *" + e.qual(runtimePath, "Server"))
	for _, r := range e.m.receivers {
		b.WriteString(", " + r.param + " ")
		if r.pointer {
			b.WriteString("*")
		}
		b.WriteString(r.named.Obj().Name())
	}
	b.WriteString(") {\n")
	for _, t := range e.m.tools {
		b.WriteString("\t" + l.server + ".AddTool(&" + rtRef + "Tool{\n")
		writeElements(&b, "\t\t", e.toolFields(t, "\t\t"))
		b.WriteString("\t})\n")
	}
	e.registerResources(&b)
	e.registerPrompts(&b)
	b.WriteString("}\n")
	e.argDecoders(&b)
	e.typeMethods(&b, used)
	out := e.names(b.Bytes())
	if e.reformat {
		return format.Source(out)
	}
	return out, nil
}

func (e *emitter) constName(name string, used map[string]bool) string {
	for e.m.taken(name) || used[name] {
		name += "_"
	}
	used[name] = true
	return name
}

// qual returns name qualified by the package at path as the generated file
// refers to it. Rendering the name through jennifer's file picks the
// package's name in the file and imports the package.
func (e *emitter) qual(path, name string) string {
	if path == e.m.pkg.Path() {
		return name
	}
	key := path + "." + name
	if q, ok := e.quals[key]; ok {
		return q
	}
	var b bytes.Buffer
	if err := jen.Qual(path, name).RenderWithFile(&b, e.f); err != nil {
		panic(err) // a qualified identifier always renders
	}
	q := strings.TrimSpace(b.String())
	e.quals[key] = q
	return q
}

// An element is one key: value line of a composite literal.
type element struct{ key, value string }

// writeElements writes the elements of a composite literal one per line,
// as gofmt lays them out: the values of a run of one-line elements share
// a column; an element that spans lines is not aligned and ends the run.
func writeElements(b *bytes.Buffer, indent string, es []element) {
	for i := 0; i < len(es); {
		j, width := i, 0
		for ; j < len(es) && !strings.Contains(es[j].value, "\n"); j++ {
			width = max(width, len(es[j].key))
		}
		for _, el := range es[i:j] {
			b.WriteString(indent + el.key + ":" + strings.Repeat(" ", width-len(el.key)+1) + el.value + ",\n")
		}
		if j < len(es) {
			b.WriteString(indent + es[j].key + ": " + es[j].value + ",\n")
			j++
		}
		i = j
	}
}

// toolFields are the fields of one runtime.Tool literal, in the order a
// reader expects: what the tool is, then how it runs.
func (e *emitter) toolFields(t *tool, indent string) []element {
	fs := []element{{"Name", strconv.Quote(t.name)}}
	if t.opts.title != "" {
		fs = append(fs, element{"Title", strconv.Quote(t.opts.title)})
	}
	if t.description != "" {
		fs = append(fs, element{"Description", strconv.Quote(t.description)})
	}
	consts := e.consts[t]
	fs = append(fs, element{"InputSchema", consts[0]})
	if consts[1] != "" {
		fs = append(fs, element{"OutputSchema", consts[1]})
	}
	if ann := annotations(t); ann != "" {
		fs = append(fs, element{"Annotations", ann})
	}
	if t.opts.searchHint != "" {
		fs = append(fs, element{"SearchHint", strconv.Quote(t.opts.searchHint)})
	}
	if t.opts.alwaysLoad {
		fs = append(fs, element{"AlwaysLoad", "true"})
	}
	if t.opts.task != "" {
		support := map[string]string{"optional": "TaskOptional", "required": "TaskRequired"}[t.opts.task]
		fs = append(fs, element{"Task", e.qual(runtimePath, support)})
	}
	for _, d := range []struct {
		field string
		v     time.Duration
	}{{"Timeout", t.opts.timeout}, {"TaskTTL", t.opts.taskTTL}, {"TaskPollInterval", t.opts.taskPoll}} {
		if d.v > 0 {
			n, unit := durationUnit(d.v)
			fs = append(fs, element{d.field, strconv.FormatInt(n, 10) + " * " + e.qual("time", unit)})
		}
	}
	return append(fs, element{"Handler", e.handler(t, indent)})
}

// annotations is &runtime.ToolAnnotations{ReadOnlyHint: new(true), …}, or ""
// when the directive sets no hint.
func annotations(t *tool) string {
	var fs []string
	for _, h := range []struct {
		name string
		v    *bool
	}{
		{"ReadOnlyHint", t.opts.readOnly},
		{"DestructiveHint", t.opts.destruct},
		{"IdempotentHint", t.opts.idempotent},
		{"OpenWorldHint", t.opts.openWorld},
	} {
		if h.v != nil {
			fs = append(fs, h.name+": new("+strconv.FormatBool(*h.v)+")")
		}
	}
	if fs == nil {
		return ""
	}
	return "&" + rtRef + "ToolAnnotations{" + strings.Join(fs, ", ") + "}"
}

// handler is the tool's handler: runtime.Handle adapts a function of the
// shape func(context.Context, In) (Out, error) and converts its Out:
//
//	runtime.Handle(CreateTicket, decodeCreateTicketInput, runtime.Text)
//
// A function of another shape (no context, no input, no Out) is first
// adapted to that one by a function literal.
func (e *emitter) handler(t *tool, indent string) string {
	fn := t.fn.Name()
	if t.recv != nil {
		fn = t.recv.param + "." + fn
	}
	if !t.hasCtx || t.input == nil || t.out == outNone || t.out == outResult && !isPointer(t.output) {
		fn = e.adapter(&t.handlerFunc, t.out, fn, indent)
	}
	e.qual(implPath, "Handle")
	return implRef + "Handle(" + fn + ", " + e.dec.inputDecoder(t) + ", " + implRef + converters[t.out] + ")"
}

// converters name the runtime function that turns each kind of Out into a
// result.
var converters = map[outKind]string{
	outNone:       "Empty",
	outText:       "Text",
	outStructured: "Structured",
	outValue:      "Wrapped",
	outResult:     "Verbatim",
}

// adapter is a function literal of the shape runtime.Handle takes that
// calls fn, its lines indented by indent:
//
//	func(ctx context.Context, _ struct{}) (struct{}, error) {
//		return struct{}{}, Ping(ctx)
//	}
func (e *emitter) adapter(t *handlerFunc, out outKind, fn, indent string) string {
	l := e.locals
	ctx, in, inType := "_", "_", "struct{}"
	var args []string
	if t.hasCtx {
		ctx = l.ctx
		args = append(args, l.ctx)
	}
	if t.input != nil {
		in, inType = l.in, e.typeText(t.input)
		args = append(args, l.in)
	}
	call := fn + "(" + strings.Join(args, ", ") + ")"
	var outType, body string
	switch {
	case out == outNone:
		outType = "struct{}"
		body = "return struct{}{}, " + call
	case out == outResult && !isPointer(t.output):
		outType = "*" + rtRef + "ToolResult"
		body = l.out + ", " + l.err + " := " + call + "\n" + indent + "\treturn &" + l.out + ", " + l.err
	default:
		outType = e.typeText(t.output)
		body = "return " + call
	}
	return "func(" + ctx + " " + e.qual("context", "Context") + ", " + in + " " + inType + ") (" + outType + ", error) {\n" +
		indent + "\t" + body + "\n" + indent + "}"
}

func isPointer(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}

// schemaConsts appends each schema as a readable constant:
//
//	// createTicketInputSchema is the JSON Schema of the arguments of create_ticket.
//	const createTicketInputSchema = `{
//	  "type": "object",
//	  …
//	}`
//
// The constants are plain data in a form that gofmt leaves as it is, so
// they are written after jennifer has rendered (and gofmt-formatted) the
// code: formatting them would cost as much as formatting all the code.
func (e *emitter) schemaConsts(buf *bytes.Buffer) {
	for _, t := range e.m.tools {
		consts := e.consts[t]
		writeConst(buf, consts[0], "is the JSON Schema of the arguments of "+t.name+".", t.inputSchema)
		if consts[1] != "" {
			writeConst(buf, consts[1], "is the JSON Schema of the structured results of "+t.name+".", t.outputSchema)
		}
	}
}

func writeConst(buf *bytes.Buffer, name, doc, value string) {
	buf.WriteString("\n// " + name + " " + doc + "\nconst " + name + " = ")
	buf.WriteString(stringLit(value))
	buf.WriteString("\n")
}

// stringLit writes s as a raw string literal when it can be one, so the
// schema reads as JSON; otherwise as quoted lines joined with +, indented
// as gofmt indents them.
func stringLit(s string) string {
	if !strings.ContainsAny(s, "`\r") {
		return "`" + s + "`"
	}
	lines := strings.SplitAfter(s, "\n")
	for i, line := range lines {
		lines[i] = strconv.Quote(line)
	}
	return strings.Join(lines, " +\n\t")
}

// lowerCamel turns a tool name into a Go identifier: create_ticket →
// createTicket, get-item → getItem.
func lowerCamel(name string) string {
	var b strings.Builder
	upper := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-':
			upper = b.Len() > 0
		case upper:
			b.WriteRune(unicode.ToUpper(r))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "tool" + strings.ToUpper(s[:min(1, len(s))]) + s[min(1, len(s)):]
	}
	if !unicode.IsLower(rune(s[0])) {
		s = strings.ToLower(s[:1]) + s[1:]
	}
	return s
}
