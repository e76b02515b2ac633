package gen

import (
	"go/types"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// emit writes the generated file of a package whose schemas are built.
// Everything it writes goes through a genFile, in gofmt's layout.
func emit(m *model) []byte {
	e := newEmitter(m)
	g := e.g
	g.body.Grow(len(m.tools) * 3 << 10) // a typical tool's code
	g.P()
	g.P("// The code below needs this version of the mcpimpl package or a later one.")
	g.P("const _ = ", g.impl("SupportPackageIsVersion3"))
	if len(m.handlers()) > 0 {
		e.signatureGuards()
	}
	e.structGuards()
	e.enumGuard()
	if len(m.handlers()) > 0 {
		e.newServer()
		e.register()
		e.argDecoders()
	}
	e.typeMethods()
	e.dec.write()
	e.schemaConsts()
	return g.content()
}

// An emitter writes one generated file.
type emitter struct {
	m      *model
	g      *genFile
	dec    *decoderSet
	locals locals
	consts map[*tool][2]string // input and output schema constant names
	// argDecoderNames are the names of the decoders of resources'
	// variables and prompts' arguments, by resource or prompt.
	argDecoderNames map[string]string
}

// locals are the names the generated functions use for their own
// variables, chosen so as not to shadow anything the package declares.
type locals struct {
	server, ctx, in, out, err string
}

func newEmitter(m *model) *emitter {
	e := &emitter{m: m, consts: map[*tool][2]string{}, argDecoderNames: map[string]string{}}
	e.locals = e.pickLocals()
	l := e.locals
	// Every name a generated function gives a variable, so that no import
	// takes it: an import hidden by a local would not compile.
	reserved := []string{l.server, l.ctx, l.in, l.out, l.err, "v", "f", "name", "in", "err", "s", "ok", "vars", "args", "data"}
	for _, r := range m.receivers {
		reserved = append(reserved, r.param)
	}
	for _, td := range m.typeDirs {
		reserved = append(reserved, receiverName(td.named.Obj().Name()))
	}
	e.g = newGenFile(m.pkg, m.taken, reserved)
	e.dec = &decoderSet{e: e, names: map[*types.Named]string{}, fast: map[*types.Named]bool{}}
	for _, t := range m.tools {
		base := lowerCamel(t.name)
		in, out := e.g.declare(base+"InputSchema"), ""
		if t.hasOutputSchema() {
			out = e.g.declare(base + "OutputSchema")
		}
		e.consts[t] = [2]string{in, out}
	}
	for _, td := range m.typeDirs {
		suffix := "OutputSchema"
		switch td.kind {
		case directiveForm:
			suffix = "FormSchema"
		case directiveConfig:
			suffix = "ConfigSchema"
		}
		td.constName = e.g.declare(lowerCamel(snakeCase(td.named.Obj().Name())) + suffix)
	}
	return e
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

// receiverParams are the receivers Register and NewServer take:
// ", store *Store".
func (e *emitter) receiverParams() string {
	var b strings.Builder
	for _, r := range e.m.receivers {
		b.WriteString(", " + r.param + " ")
		if r.pointer {
			b.WriteByte('*')
		}
		b.WriteString(e.g.obj(r.named.Obj()))
	}
	return b.String()
}

// newServer writes:
//
//	// NewServer returns a server named "cci" that serves the tools of this
//	// package: create_ticket.
//	func NewServer() *runtime.Server {
//		s := &runtime.Server{
//			Name:    "cci",
//			Version: "1.0.0",
//		}
//		Register(s)
//		return s
//	}
func (e *emitter) newServer() {
	m, g, s := e.m, e.g, e.locals.server
	so := m.server
	fields := []element{{"Name", strconv.Quote(m.serverName())}}
	for _, f := range []struct{ key, value string }{{"Version", so.version}, {"Title", so.title}, {"Instructions", so.instructions}} {
		if f.value != "" {
			fields = append(fields, element{f.key, strconv.Quote(f.value)})
		}
	}
	args := s
	for _, r := range m.receivers {
		args += ", " + r.param
	}
	g.P()
	for _, line := range e.newServerDoc() {
		g.P("// ", line)
	}
	g.P("func NewServer(", strings.TrimPrefix(e.receiverParams(), ", "), ") *", g.rt("Server"), " {")
	g.P("\t", s, " := &", g.rt("Server"), "{")
	var b strings.Builder
	writeElements(&b, "\t\t", fields)
	g.body.WriteString(b.String())
	g.P("\t}")
	g.P("\tRegister(", args, ")")
	g.P("\treturn ", s)
	g.P("}")
}

func (e *emitter) toolList() string {
	names := make([]string, len(e.m.tools))
	for i, t := range e.m.tools {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}

// register writes Register, one AddTool per tool, then the resources and
// prompts:
//
//	// Register adds the tools of this package to s.
//	func Register(s *runtime.Server) {
//		s.AddTool(&runtime.Tool{
//			Name:        "create_ticket",
//			Description: "CreateTicket files a ticket.",
//			InputSchema: createTicketInputSchema,
//			Handler:     mcpimpl.Handle(CreateTicket, decodeCreateTicketInput, mcpimpl.Text),
//		})
//	}
func (e *emitter) register() {
	g, s := e.g, e.locals.server
	g.P()
	g.P("// Register adds the ", e.m.kinds("tools", "resources", "prompts", " and "), " of this package to ", s, ".")
	g.P("func Register(", s, " *", g.rt("Server"), e.receiverParams(), ") {")
	var b strings.Builder
	for _, t := range e.m.tools {
		b.WriteString("\t" + s + ".AddTool(&" + g.rt("Tool") + "{\n")
		writeElements(&b, "\t\t", e.toolFields(t))
		b.WriteString("\t})\n")
	}
	e.registerResources(&b)
	e.registerPrompts(&b)
	g.body.WriteString(b.String())
	g.P("}")
}

// toolFields are the fields of one runtime.Tool literal, in the order a
// reader expects: what the tool is, then how it runs.
func (e *emitter) toolFields(t *tool) []element {
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
	if ann := e.annotations(t); ann != "" {
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
		fs = append(fs, element{"Task", e.g.rt(support)})
	}
	for _, d := range []struct {
		field string
		v     time.Duration
	}{{"Timeout", t.opts.timeout}, {"TaskTTL", t.opts.taskTTL}, {"TaskPollInterval", t.opts.taskPoll}} {
		if d.v > 0 {
			n, unit := durationUnit(d.v)
			fs = append(fs, element{d.field, strconv.FormatInt(n, 10) + " * " + e.g.time(unit)})
		}
	}
	if t.opts.scopes != nil {
		fs = append(fs, element{"Scopes", "[]string{" + quoteAll(t.opts.scopes) + "}"})
	}
	return append(fs, element{"Handler", e.handler(t)})
}

// annotations is &runtime.ToolAnnotations{ReadOnlyHint: new(true), …}, or ""
// when the directive sets no hint.
func (e *emitter) annotations(t *tool) string {
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
	return "&" + e.g.rt("ToolAnnotations") + "{" + strings.Join(fs, ", ") + "}"
}

// handler is the tool's handler: mcpimpl.Handle adapts a function of the
// shape func(context.Context, In) (Out, error) and converts its Out:
//
//	mcpimpl.Handle(CreateTicket, decodeCreateTicketInput, mcpimpl.Text)
//
// A function of another shape (no context, no input, no Out) is first
// adapted to that one by a function literal.
func (e *emitter) handler(t *tool) string {
	fn := e.funcRef(&t.handlerFunc)
	if !t.hasCtx || t.input == nil || t.out == outNone || t.out == outResult && !isPointer(t.output) {
		fn = e.adapter(&t.handlerFunc, t.out, fn, 2)
	}
	return e.g.impl("Handle") + "(" + fn + ", " + e.dec.inputDecoder(t) + ", " + e.g.impl(converters[t.out]) + ")"
}

// funcRef is how Register refers to a handler's function: Name, or
// param.Name for a method.
func (e *emitter) funcRef(h *handlerFunc) string {
	if h.recv != nil {
		return h.recv.param + "." + h.fn.Name()
	}
	return e.g.obj(h.fn)
}

// converters name the mcpimpl function that turns each kind of Out into a
// result.
var converters = map[outKind]string{
	outNone:       "Empty",
	outText:       "Text",
	outStructured: "Structured",
	outValue:      "StructuredValue",
	outResult:     "Verbatim",
}

// adapter is a function literal of the shape mcpimpl.Handle takes that
// calls fn, written on a line indented at depth indent:
//
//	func(ctx context.Context, _ struct{}) (struct{}, error) {
//		return struct{}{}, Ping(ctx)
//	}
func (e *emitter) adapter(h *handlerFunc, out outKind, fn string, indent int) string {
	l, g := e.locals, e.g
	ctx, in, inType := "_", "_", "struct{}"
	var args []string
	if h.hasCtx {
		ctx = l.ctx
		args = append(args, l.ctx)
	}
	if h.input != nil {
		in, inType = l.in, g.typ(h.input, indent)
		args = append(args, l.in)
	}
	call := fn + "(" + strings.Join(args, ", ") + ")"
	var outType, body string
	switch {
	case out == outNone:
		outType = "struct{}"
		body = "return struct{}{}, " + call
	case out == outResult && !isPointer(h.output):
		outType = "*" + g.rt("ToolResult")
		body = l.out + ", " + l.err + " := " + call + "\n" + tabs(indent+1) + "return &" + l.out + ", " + l.err
	default:
		outType = g.typ(h.output, indent)
		body = "return " + call
	}
	return "func(" + ctx + " " + g.context("Context") + ", " + in + " " + inType + ") (" + outType + ", error) {\n" +
		tabs(indent+1) + body + "\n" + tabs(indent) + "}"
}

func isPointer(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}

// schemaConsts writes each schema as a readable constant:
//
//	// createTicketInputSchema is the JSON Schema of the arguments of create_ticket.
//	const createTicketInputSchema = `{
//	  "type": "object",
//	  …
//	}`
func (e *emitter) schemaConsts() {
	size := 0
	for _, t := range e.m.tools {
		size += len(t.inputSchema) + len(t.outputSchema) + 256
	}
	e.g.body.Grow(size)
	for _, t := range e.m.tools {
		consts := e.consts[t]
		e.writeConst(consts[0], "is the JSON Schema of the arguments of "+t.name+".", t.inputSchema)
		if consts[1] != "" {
			e.writeConst(consts[1], "is the JSON Schema of the structured results of "+t.name+".", t.outputSchema)
		}
	}
	for _, td := range e.m.typeDirs {
		what := "is the JSON Schema of " + td.named.Obj().Name() + "."
		switch td.kind {
		case directiveForm:
			what = "is the elicitation form of " + td.named.Obj().Name() + "."
		case directiveConfig:
			what = "is the schema that LoadEnv checks a " + td.named.Obj().Name() + " against."
		}
		e.writeConst(td.constName, what, td.schema)
	}
}

func (e *emitter) writeConst(name, doc, value string) {
	e.g.P()
	e.g.P("// ", name, " ", doc)
	e.g.P("const ", name, " = ", stringLit(value))
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

// kinds lists the kinds of primitive the package serves, in the words
// given (singular or plural), joined by conj before the last: "tools",
// "tools and prompts", "tool, resource or prompt".
func (m *model) kinds(tool, resource, prompt, conj string) string {
	var ks []string
	for _, k := range []struct {
		n    int
		word string
	}{{len(m.tools), tool}, {len(m.resources), resource}, {len(m.prompts), prompt}} {
		if k.n > 0 {
			ks = append(ks, k.word)
		}
	}
	if len(ks) == 0 {
		return tool
	}
	if len(ks) == 1 {
		return ks[0]
	}
	return strings.Join(ks[:len(ks)-1], ", ") + conj + ks[len(ks)-1]
}

// newServerDoc is the doc comment of NewServer, which names what the
// server serves, one line of text per element.
func (e *emitter) newServerDoc() []string {
	m := e.m
	if len(m.resources)+len(m.prompts) == 0 {
		return []string{
			"NewServer returns a server named " + strconv.Quote(m.serverName()) + " that serves the tools of this",
			"package: " + e.toolList() + ".",
		}
	}
	var parts []string
	if len(m.tools) > 0 {
		parts = append(parts, "the tools "+e.toolList())
	}
	if len(m.resources) > 0 {
		var uris []string
		for _, r := range m.resources {
			uris = append(uris, r.opts.uri)
		}
		parts = append(parts, "the resources "+strings.Join(uris, ", "))
	}
	if len(m.prompts) > 0 {
		var names []string
		for _, p := range m.prompts {
			names = append(names, p.name)
		}
		parts = append(parts, "the prompts "+strings.Join(names, ", "))
	}
	return wrap("NewServer returns a server named "+strconv.Quote(m.serverName())+" that serves "+joinList(parts, "; and ")+".", 72)
}

func joinList(parts []string, last string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], "; ") + last + parts[len(parts)-1]
}

// wrap breaks text into lines of at most width characters, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
