package gen

import (
	"go/types"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dave/jennifer/jen"
)

// emit writes the generated file of a package whose schemas are built.
// Every declaration, statement, name and type in it is jennifer code;
// jennifer imports each package where one of its names is written, and
// formats the file (render.go). An error is a defect of the emitter: code
// that does not parse.
func emit(m *model) ([]byte, error) {
	e := newEmitter(m)
	f := e.f
	f.HeaderComment(Header)
	f.Comment("The code below needs this version of the mcpimpl package or a later one.")
	f.Const().Id("_").Op("=").Add(e.impl(m.supportVersion()))
	if len(m.handlers()) > 0 {
		e.signatureGuards()
	}
	e.structGuards()
	e.enumGuard()
	if len(m.tools)+len(m.resources)+len(m.prompts) > 0 {
		e.newServer()
		e.register()
		e.argDecoders()
	}
	e.typeMethods()
	e.dec.write()
	e.schemaConsts()
	return e.render()
}

// An emitter writes one generated file.
type emitter struct {
	m *model
	// f is the file's code, decoders its decoders and consts its schema
	// constants, rendered apart and joined in this order (render.go).
	f, decoders, consts *jen.File
	scope               *scope
	named               map[string]bool // import paths whose name qual has chosen
	dec                 *decoderSet
	locals              locals
	schemaNames         map[*tool][2]string // input and output schema constant names
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
	e := &emitter{
		m:               m,
		f:               jen.NewFilePathName(m.pkg.Path(), m.pkg.Name()),
		decoders:        jen.NewFilePathName(m.pkg.Path(), m.pkg.Name()),
		consts:          jen.NewFilePathName(m.pkg.Path(), m.pkg.Name()),
		named:           map[string]bool{},
		schemaNames:     map[*tool][2]string{},
		argDecoderNames: map[string]string{},
	}
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
	e.scope = newScope(m.taken, reserved)
	e.dec = &decoderSet{e: e, names: map[*types.Named]string{}, fast: map[*types.Named]bool{}}
	for _, t := range m.tools {
		base := lowerCamel(t.name)
		in, out := e.scope.declare(base+"InputSchema"), ""
		if t.hasOutputSchema() {
			out = e.scope.declare(base + "OutputSchema")
		}
		e.schemaNames[t] = [2]string{in, out}
	}
	for _, td := range m.typeDirs {
		suffix := "OutputSchema"
		switch td.kind {
		case directiveForm:
			suffix = "FormSchema"
		case directiveConfig:
			suffix = "ConfigSchema"
		}
		td.constName = e.scope.declare(lowerCamel(snakeCase(td.named.Obj().Name())) + suffix)
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
// store *Store.
func (e *emitter) receiverParams() []jen.Code {
	var ps []jen.Code
	for _, r := range e.m.receivers {
		p := jen.Id(r.param)
		if r.pointer {
			p.Op("*")
		}
		ps = append(ps, p.Add(e.objCode(r.named.Obj())))
	}
	return ps
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
	m, f, s := e.m, e.f, e.locals.server
	so := m.server
	fields := []jen.Code{field("Name", jen.Lit(m.serverName()))}
	for _, fl := range []struct{ key, value string }{{"Version", so.version}, {"Title", so.title}, {"Instructions", so.instructions}} {
		if fl.value != "" {
			fields = append(fields, field(fl.key, jen.Lit(fl.value)))
		}
	}
	args := []jen.Code{jen.Id(s)}
	for _, r := range m.receivers {
		args = append(args, jen.Id(r.param))
	}
	f.Line()
	comments(f.Group, e.newServerDoc()...)
	f.Func().Id("NewServer").Params(e.receiverParams()...).Op("*").Add(e.rt("Server")).Block(
		jen.Id(s).Op(":=").Op("&").Add(e.rt("Server")).Add(elements(fields...)),
		jen.Id("Register").Call(args...),
		jen.Return(jen.Id(s)),
	)
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
	f, s := e.f, e.locals.server
	params := append([]jen.Code{jen.Id(s).Op("*").Add(e.rt("Server"))}, e.receiverParams()...)
	var body []jen.Code
	for _, t := range e.m.tools {
		body = append(body, jen.Id(s).Dot("AddTool").Call(jen.Op("&").Add(e.rt("Tool")).Add(elements(e.toolFields(t)...))))
	}
	body = append(body, e.registerResources()...)
	body = append(body, e.registerPrompts()...)
	f.Line()
	f.Comment("Register adds the " + e.m.kinds("tools", "resources", "prompts", " and ") + " of this package to " + s + ".")
	f.Func().Id("Register").Params(params...).Block(body...)
}

// toolFields are the fields of one runtime.Tool literal, in the order a
// reader expects: what the tool is, then how it runs.
func (e *emitter) toolFields(t *tool) []jen.Code {
	fs := []jen.Code{field("Name", jen.Lit(t.name))}
	if t.opts.title != "" {
		fs = append(fs, field("Title", jen.Lit(t.opts.title)))
	}
	if t.description != "" {
		fs = append(fs, field("Description", jen.Lit(t.description)))
	}
	consts := e.schemaNames[t]
	fs = append(fs, field("InputSchema", jen.Id(consts[0])))
	if consts[1] != "" {
		fs = append(fs, field("OutputSchema", jen.Id(consts[1])))
	}
	if ann := e.annotations(t); ann != nil {
		fs = append(fs, field("Annotations", ann))
	}
	if icons := e.icons(t.opts.icons); icons != nil {
		fs = append(fs, field("Icons", icons))
	}
	if ui := e.uiToolMeta(t); ui != nil {
		fs = append(fs, field("UI", ui))
	}
	if t.opts.searchHint != "" {
		fs = append(fs, field("SearchHint", jen.Lit(t.opts.searchHint)))
	}
	if t.opts.alwaysLoad {
		fs = append(fs, field("AlwaysLoad", jen.True()))
	}
	if t.opts.task != "" {
		support := map[string]string{"optional": "TaskOptional", "required": "TaskRequired"}[t.opts.task]
		fs = append(fs, field("Task", e.rt(support)))
	}
	for _, d := range []struct {
		field string
		v     time.Duration
	}{{"Timeout", t.opts.timeout}, {"TaskTTL", t.opts.taskTTL}, {"TaskPollInterval", t.opts.taskPoll}} {
		if d.v > 0 {
			n, unit := durationUnit(d.v)
			fs = append(fs, field(d.field, jen.Lit(int(n)).Op("*").Add(e.time(unit))))
		}
	}
	if t.opts.scopes != nil {
		fs = append(fs, field("Scopes", stringsLit(t.opts.scopes)))
	}
	return append(fs, field("Handler", e.handler(t)))
}

// stringsLit is []string{"a", "b"}.
func stringsLit(ss []string) jen.Code {
	return jen.Index().String().Values(stringLits(ss)...)
}

// stringLits is each string as a literal.
func stringLits(ss []string) []jen.Code {
	q := make([]jen.Code, len(ss))
	for i, s := range ss {
		q[i] = jen.Lit(s)
	}
	return q
}

// annotations is &runtime.ToolAnnotations{ReadOnlyHint: new(true), …}, or nil
// when the directive sets no hint.
func (e *emitter) annotations(t *tool) jen.Code {
	var fs []jen.Code
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
			fs = append(fs, field(h.name, jen.New(jen.Lit(*h.v))))
		}
	}
	if fs == nil {
		return nil
	}
	return jen.Op("&").Add(e.rt("ToolAnnotations")).Values(fs...)
}

// handler is the tool's handler: mcpimpl.Handle adapts a function of the
// shape func(context.Context, In) (Out, error) and converts its Out:
//
//	mcpimpl.Handle(CreateTicket, decodeCreateTicketInput, mcpimpl.Text)
//
// A function of another shape (no context, no input, no Out) is first
// adapted to that one by a function literal.
func (e *emitter) handler(t *tool) jen.Code {
	fn := e.funcRef(&t.handlerFunc)
	if !t.hasCtx || t.input == nil || t.out == outNone || t.out == outResult && !isPointer(t.output) {
		fn = e.adapter(&t.handlerFunc, t.out, fn)
	}
	return e.impl("Handle").Call(fn, e.dec.inputDecoder(t), e.impl(converters[t.out]))
}

// funcRef is how Register refers to a handler's function: Name, or
// param.Name for a method.
func (e *emitter) funcRef(h *handlerFunc) jen.Code {
	if h.recv != nil {
		return jen.Id(h.recv.param).Dot(h.fn.Name())
	}
	return e.objCode(h.fn)
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
// calls fn:
//
//	func(ctx context.Context, _ struct{}) (struct{}, error) {
//		return struct{}{}, Ping(ctx)
//	}
func (e *emitter) adapter(h *handlerFunc, out outKind, fn jen.Code) jen.Code {
	l := e.locals
	ctx, in := jen.Id("_"), jen.Id("_")
	inType := jen.Struct()
	var args []jen.Code
	if h.hasCtx {
		ctx = jen.Id(l.ctx)
		args = append(args, jen.Id(l.ctx))
	}
	if h.input != nil {
		in, inType = jen.Id(l.in), jen.Add(e.typeCode(h.input))
		args = append(args, jen.Id(l.in))
	}
	call := jen.Add(fn).Call(args...)
	var outType jen.Code
	var body []jen.Code
	switch {
	case out == outNone:
		outType = jen.Struct()
		body = []jen.Code{jen.Return(jen.Struct().Values(), call)}
	case out == outResult && !isPointer(h.output):
		outType = jen.Op("*").Add(e.rt("ToolResult"))
		body = []jen.Code{
			jen.List(jen.Id(l.out), jen.Id(l.err)).Op(":=").Add(call),
			jen.Return(jen.Op("&").Id(l.out), jen.Id(l.err)),
		}
	default:
		outType = e.typeCode(h.output)
		body = []jen.Code{jen.Return(call)}
	}
	return jen.Func().Params(ctx.Add(e.context("Context")), in.Add(inType)).Params(outType, jen.Error()).Block(body...)
}

func isPointer(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}

// schemaConsts writes each schema as a readable constant, into the
// constants' file:
//
//	// createTicketInputSchema is the JSON Schema of the arguments of create_ticket.
//	const createTicketInputSchema = `{
//	  "type": "object",
//	  …
//	}`
func (e *emitter) schemaConsts() {
	cf := e.consts
	cf.NoFormat = true // unless a schema must be quoted lines (render.go)
	first := true
	add := func(name, doc, value string) {
		cf.NoFormat = cf.NoFormat && canBeRaw(value)
		if !first {
			cf.Empty() // an empty line: cf.Line() adds a newline to the one before each item
		}
		first = false
		cf.Comment(name + " " + doc)
		cf.Const().Id(name).Op("=").Add(schemaLit(value))
	}
	for _, t := range e.m.tools {
		consts := e.schemaNames[t]
		add(consts[0], "is the JSON Schema of the arguments of "+t.name+".", t.inputSchema)
		if consts[1] != "" {
			add(consts[1], "is the JSON Schema of the structured results of "+t.name+".", t.outputSchema)
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
		add(td.constName, what, td.schema)
	}
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
