package gen

import (
	"go/types"
	"strconv"
	"strings"
	"unicode"
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
func (e *emitter) registerResources(b *strings.Builder) {
	g := e.g
	for _, r := range e.m.resources {
		kind, uriField := "Resource", "URI"
		if r.vars != nil {
			kind, uriField = "ResourceTemplate", "URITemplate"
		}
		fs := []element{{uriField, strconv.Quote(r.opts.uri)}, {"Name", strconv.Quote(r.name)}}
		if r.opts.title != "" {
			fs = append(fs, element{"Title", strconv.Quote(r.opts.title)})
		}
		if r.description != "" {
			fs = append(fs, element{"Description", strconv.Quote(r.description)})
		}
		if r.mimeType != "" {
			fs = append(fs, element{"MIMEType", strconv.Quote(r.mimeType)})
		}
		if r.opts.size > 0 && r.vars == nil {
			fs = append(fs, element{"Size", strconv.FormatInt(r.opts.size, 10)})
		}
		if ann := e.resourceAnnotations(r.opts); ann != "" {
			fs = append(fs, element{"Annotations", ann})
		}
		decode := g.impl("NoInput")
		if r.input != nil {
			decode = e.argDecoderName(r.name, "Vars")
		}
		if r.opts.scopes != nil {
			fs = append(fs, element{"Scopes", "[]string{" + quoteAll(r.opts.scopes) + "}"})
		}
		fn := e.handlerRef(&r.handlerFunc)
		fs = append(fs, element{"Handler", g.impl("Read") + "(" + fn + ", " + decode + ", " + g.impl(r.contents) + ", " + strconv.Quote(r.mimeType) + ")"})
		if completes(r.args, r.opts.complete) {
			fs = append(fs, element{"Complete", e.completer(&r.handlerFunc, r.args, r.opts.complete, r.completeMethod)})
		}

		b.WriteString("\t" + e.locals.server + ".Add" + kind + "(&" + g.rt(kind) + "{\n")
		writeElements(b, "\t\t", fs)
		b.WriteString("\t})\n")
	}
}

// resourceAnnotations is &runtime.ResourceAnnotations{…}, or "" when the
// directive sets none.
func (e *emitter) resourceAnnotations(o resourceOptions) string {
	var fs []string
	if o.audience != nil {
		fs = append(fs, "Audience: []string{"+quoteAll(o.audience)+"}")
	}
	if o.priority != nil {
		fs = append(fs, "Priority: new("+strconv.FormatFloat(*o.priority, 'g', -1, 64)+")")
	}
	if fs == nil {
		return ""
	}
	return "&" + e.g.rt("ResourceAnnotations") + "{" + strings.Join(fs, ", ") + "}"
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// handlerRef is the function a resource or prompt runs, adapted to the
// shape func(context.Context, In) (Out, error) when it has another.
func (e *emitter) handlerRef(h *handlerFunc) string {
	fn := e.funcRef(h)
	if !h.hasCtx || h.input == nil {
		fn = e.adapter(h, outValue, fn, 2)
	}
	return fn
}

// completer is the Complete handler of a template or prompt: the
// constants of its arguments' types, and the directive's completer.
func (e *emitter) completer(h *handlerFunc, args []argField, fn string, method bool) string {
	switch {
	case fn == "":
		fn = "nil"
	case method:
		fn = h.recv.param + "." + fn
	default:
		fn = e.g.obj(e.m.pkg.Scope().Lookup(fn))
	}
	if !hasEnum(args) {
		return e.g.impl("Complete") + "(nil, " + fn + ")"
	}
	var b strings.Builder
	b.WriteString(e.g.impl("Complete") + "(map[string][]string{\n")
	for _, a := range args {
		if a.enum != nil {
			b.WriteString("\t\t\t" + strconv.Quote(a.name) + ": {" + quoteAll(a.enum) + "},\n")
		}
	}
	b.WriteString("\t\t}, " + fn + ")")
	return b.String()
}

// argDecoderName returns the name of the decoder of a resource's
// variables (suffix "Vars") or a prompt's arguments ("Args").
func (e *emitter) argDecoderName(name, suffix string) string {
	key := name + "\x00" + suffix
	if n, ok := e.argDecoderNames[key]; ok {
		return n
	}
	camel := lowerCamel(name)
	n := e.g.declare("decode" + string(unicode.ToUpper(rune(camel[0]))) + camel[1:] + suffix)
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
	g := e.g
	free := func(n string) string {
		for e.m.taken(n) || n == param {
			n += "_"
		}
		return n
	}
	inV, errV, sV, okV, vV := free("in"), free("err"), free("s"), free("ok"), free("v")
	inType := g.typ(in, 0)
	g.P()
	g.P("// ", name, " ", doc)
	g.P("func ", name, "(", param, " map[string]string) (", inType, ", error) {")
	if p, ok := types.Unalias(in).(*types.Pointer); ok {
		g.P("\t", inV, " := new(", g.typ(p.Elem(), 1), ")")
	} else {
		g.P("\tvar ", inV, " ", g.typ(in, 1))
	}
	for _, a := range args {
		lookup := param + "[" + strconv.Quote(a.name) + "]"
		dst := inV + "." + a.field
		if a.conv == convString {
			g.P("\t", dst, " = ", e.convert(a.typ, "string", lookup))
			continue
		}
		var parse, result string
		switch a.conv {
		case convEnum:
			parse, result = g.impl("OneOf")+"("+strconv.Quote(a.name)+", "+sV+", "+quoteAll(a.enum)+")", "string"
		case convInt:
			parse, result = g.impl("ParseInt")+"("+strconv.Quote(a.name)+", "+sV+", "+strconv.Itoa(a.bits)+")", "int64"
		case convUint:
			parse, result = g.impl("ParseUint")+"("+strconv.Quote(a.name)+", "+sV+", "+strconv.Itoa(a.bits)+")", "uint64"
		case convFloat:
			parse, result = g.impl("ParseFloat")+"("+strconv.Quote(a.name)+", "+sV+", "+strconv.Itoa(a.bits)+")", "float64"
		case convBool:
			parse, result = g.impl("ParseBool")+"("+strconv.Quote(a.name)+", "+sV+")", "bool"
		}
		g.P("\tif ", sV, ", ", okV, " := ", lookup, "; ", okV, " {")
		g.P("\t\t", vV, ", ", errV, " := ", parse)
		g.P("\t\tif ", errV, " != nil {")
		g.P("\t\t\treturn ", inV, ", ", errV)
		g.P("\t\t}")
		g.P("\t\t", dst, " = ", e.convert(a.typ, result, vV))
		g.P("\t}")
	}
	g.P("\treturn ", inV, ", nil")
	g.P("}")
}

// convert converts expr, of the predeclared type have, to t.
func (e *emitter) convert(t types.Type, have, expr string) string {
	if b, ok := types.Unalias(t).(*types.Basic); ok && b.Name() == have {
		return expr
	}
	return e.g.typ(t, 2) + "(" + expr + ")"
}
