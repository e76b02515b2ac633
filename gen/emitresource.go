package gen

import (
	"go/types"
	"unicode"

	"github.com/dave/jennifer/jen"
)

// registerResources writes one AddResource or AddResourceTemplate per
// resource:
//
//	s.AddResourceTemplate(&runtime.ResourceTemplate{
//		URITemplate: "notes://{id}",
//		Name:        "note",
//		MIMEType:    "text/markdown",
//		Handler:     mcpimpl.Read(Note, decodeNoteVars, mcpimpl.TextContents, "text/markdown"),
//	})
func (e *emitter) registerResources() []jen.Code {
	var calls []jen.Code
	for _, r := range e.m.resources {
		kind, uriField := "Resource", "URI"
		if r.vars != nil {
			kind, uriField = "ResourceTemplate", "URITemplate"
		}
		fs := []jen.Code{field(uriField, jen.Lit(r.opts.uri)), field("Name", jen.Lit(r.name))}
		if r.opts.title != "" {
			fs = append(fs, field("Title", jen.Lit(r.opts.title)))
		}
		if r.description != "" {
			fs = append(fs, field("Description", jen.Lit(r.description)))
		}
		if r.mimeType != "" {
			fs = append(fs, field("MIMEType", e.mimeTypeLit(r.mimeType)))
		}
		if r.opts.size > 0 && r.vars == nil {
			fs = append(fs, field("Size", jen.Lit(int(r.opts.size))))
		}
		if ann := e.resourceAnnotations(r.opts); ann != nil {
			fs = append(fs, field("Annotations", ann))
		}
		if ui := e.uiResourceMeta(r); ui != nil {
			fs = append(fs, field("UI", ui))
		}
		if r.opts.scopes != nil {
			fs = append(fs, field("Scopes", stringsLit(r.opts.scopes)))
		}
		fs = append(fs, field("Handler", e.resourceHandler(r)))
		if completes(r.args, r.opts.complete) {
			fs = append(fs, field("Complete", e.completer(&r.handlerFunc, r.args, r.opts.complete, r.completeMethod)))
		}
		calls = append(calls, jen.Id(e.locals.server).Dot("Add"+kind).Call(jen.Op("&").Add(e.rt(kind)).Add(elements(fs...))))
	}
	return calls
}

// resourceHandler reads r: mcpimpl.Read adapts a function, and a
// variable's value is served as it is (embeddedHandler).
func (e *emitter) resourceHandler(r *resource) jen.Code {
	if r.embedded != nil {
		return e.embeddedHandler(r)
	}
	decode := e.impl("NoInput")
	if r.input != nil {
		decode = jen.Id(e.argDecoderName(r.name, "Vars"))
	}
	return e.impl("Read").Call(e.handlerRef(&r.handlerFunc), decode, e.impl(r.contents), e.mimeTypeLit(r.mimeType))
}

// resourceAnnotations is &runtime.ResourceAnnotations{…}, or nil when the
// directive sets none.
func (e *emitter) resourceAnnotations(o resourceOptions) jen.Code {
	var fs []jen.Code
	if o.audience != nil {
		fs = append(fs, field("Audience", stringsLit(o.audience)))
	}
	if o.priority != nil {
		fs = append(fs, field("Priority", jen.New(jen.Lit(*o.priority))))
	}
	if fs == nil {
		return nil
	}
	return jen.Op("&").Add(e.rt("ResourceAnnotations")).Values(fs...)
}

// handlerRef is the function a resource or prompt runs, adapted to the
// shape func(context.Context, In) (Out, error) when it has another.
func (e *emitter) handlerRef(h *handlerFunc) jen.Code {
	fn := e.funcRef(h)
	if !h.hasCtx || h.input == nil {
		fn = e.adapter(h, outValue, fn)
	}
	return fn
}

// completer is the Complete handler of a template or prompt: the
// constants of its arguments' types, and the directive's completer.
func (e *emitter) completer(h *handlerFunc, args []argField, name string, method bool) jen.Code {
	var fn jen.Code
	switch {
	case name == "":
		fn = jen.Nil()
	case method:
		fn = jen.Id(h.recv.param).Dot(name)
	default:
		fn = e.objCode(e.m.pkg.Scope().Lookup(name))
	}
	if !hasEnum(args) {
		return e.impl("Complete").Call(jen.Nil(), fn)
	}
	var values []jen.Code
	for _, a := range args {
		if a.enum != nil {
			values = append(values, jen.Lit(a.name).Op(":").Values(stringLits(a.enum)...))
		}
	}
	return e.impl("Complete").Call(jen.Map(jen.String()).Index().String().Add(elements(values...)), fn)
}

// argDecoderName returns the name of the decoder of a resource's
// variables (suffix "Vars") or a prompt's arguments ("Args").
func (e *emitter) argDecoderName(name, suffix string) string {
	key := name + "\x00" + suffix
	if n, ok := e.argDecoderNames[key]; ok {
		return n
	}
	camel := lowerCamel(name)
	n := e.scope.declare("decode" + string(unicode.ToUpper(rune(camel[0]))) + camel[1:] + suffix)
	e.argDecoderNames[key] = n
	return n
}

// argDecoders writes the decoders of the resources' variables and the
// prompts' arguments, which arrive as strings:
//
//	// decodeNoteVars reads the variables of notes://{id}.
//	func decodeNoteVars(vars map[string]string) (NoteRef, error) {
//		var in NoteRef
//		in.ID = vars["id"]
//		return in, nil
//	}
func (e *emitter) argDecoders() {
	for _, r := range e.m.resources {
		if r.input != nil {
			e.argDecoder(e.argDecoderName(r.name, "Vars"), "vars", "reads the variables of "+r.opts.uri+".", r.input, r.args)
		}
	}
	for _, p := range e.m.prompts {
		if p.input != nil {
			e.argDecoder(e.argDecoderName(p.name, "Args"), "args", "reads the arguments of prompt "+p.name+".", p.input, p.args)
		}
	}
}

func (e *emitter) argDecoder(name, param, doc string, in types.Type, args []argField) {
	free := func(n string) string {
		for e.m.taken(n) || n == param {
			n += "_"
		}
		return n
	}
	inV, errV, sV, okV, vV := free("in"), free("err"), free("s"), free("ok"), free("v")
	inType := e.typeCode(in)
	var body []jen.Code
	if p, ok := types.Unalias(in).(*types.Pointer); ok {
		body = append(body, jen.Id(inV).Op(":=").New(e.typeCode(p.Elem())))
	} else {
		body = append(body, jen.Var().Id(inV).Add(e.typeCode(in)))
	}
	for _, a := range args {
		lookup := jen.Id(param).Index(jen.Lit(a.name))
		dst := jen.Id(inV).Dot(a.field)
		if a.conv == convString {
			body = append(body, dst.Op("=").Add(e.convert(a.typ, "string", lookup)))
			continue
		}
		var parse jen.Code
		var result string
		switch a.conv {
		case convEnum:
			parse, result = e.impl("OneOf").Call(append([]jen.Code{jen.Lit(a.name), jen.Id(sV)}, stringLits(a.enum)...)...), "string"
		case convInt:
			parse, result = e.impl("ParseInt").Call(jen.Lit(a.name), jen.Id(sV), jen.Lit(a.bits)), "int64"
		case convUint:
			parse, result = e.impl("ParseUint").Call(jen.Lit(a.name), jen.Id(sV), jen.Lit(a.bits)), "uint64"
		case convFloat:
			parse, result = e.impl("ParseFloat").Call(jen.Lit(a.name), jen.Id(sV), jen.Lit(a.bits)), "float64"
		case convBool:
			parse, result = e.impl("ParseBool").Call(jen.Lit(a.name), jen.Id(sV)), "bool"
		}
		body = append(body, jen.If(jen.List(jen.Id(sV), jen.Id(okV)).Op(":=").Add(lookup), jen.Id(okV)).Block(
			jen.List(jen.Id(vV), jen.Id(errV)).Op(":=").Add(parse),
			jen.If(jen.Id(errV).Op("!=").Nil()).Block(jen.Return(jen.Id(inV), jen.Id(errV))),
			dst.Op("=").Add(e.convert(a.typ, result, jen.Id(vV))),
		))
	}
	body = append(body, jen.Return(jen.Id(inV), jen.Nil()))
	e.f.Line()
	e.f.Comment(name + " " + doc)
	e.f.Func().Id(name).Params(jen.Id(param).Map(jen.String()).String()).Params(inType, jen.Error()).Block(body...)
}

// convert converts expr, of the predeclared type have, to t.
func (e *emitter) convert(t types.Type, have string, expr jen.Code) jen.Code {
	if b, ok := types.Unalias(t).(*types.Basic); ok && b.Name() == have {
		return expr
	}
	return jen.Add(e.typeCode(t)).Parens(expr)
}
