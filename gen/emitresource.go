package gen

import (
	"bytes"
	"go/types"
	"strconv"
	"strings"
	"unicode"
)

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

// newServerDoc writes the doc comment of NewServer, which names what the
// server serves.
func (e *emitter) newServerDoc() {
	m := e.m
	if len(m.resources)+len(m.prompts) == 0 {
		e.f.Commentf("NewServer returns a server named %q that serves the tools of this", m.serverName())
		e.f.Comment("package: " + e.toolList() + ".")
		return
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
	text := "NewServer returns a server named " + strconv.Quote(m.serverName()) + " that serves " + joinList(parts, "; and ") + "."
	for _, line := range wrap(text, 72) {
		e.f.Comment(line)
	}
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

// registerResources writes one AddResource or AddResourceTemplate per
// resource:
//
//	s.AddResourceTemplate(&runtime.ResourceTemplate{
//		URITemplate: "notes://{id}",
//		Name:        "note",
//		MIMEType:    "text/markdown",
//		Handler:     mcpimpl.Read(Note, decodeNoteVars, mcpimpl.TextContents, "text/markdown"),
//	})
func (e *emitter) registerResources(b *bytes.Buffer) {
	for _, r := range e.m.resources {
		e.reformat = true // the completions are laid out by gofmt
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
		if ann := resourceAnnotations(r.opts); ann != "" {
			fs = append(fs, element{"Annotations", ann})
		}
		decode := implRef + "NoInput"
		if r.input != nil {
			decode = e.argDecoderName(r.name, "Vars")
		}
		fn := e.handlerRef(&r.handlerFunc, "\t\t")
		fs = append(fs, element{"Handler", implRef + "Read(" + fn + ", " + decode + ", " + implRef + r.contents + ", " + strconv.Quote(r.mimeType) + ")"})
		if completes(r.args, r.opts.complete) {
			fs = append(fs, element{"Complete", e.completer(&r.handlerFunc, r.args, r.opts.complete, r.completeMethod)})
		}
		b.WriteString("\t" + e.locals.server + ".Add" + kind + "(&" + rtRef + kind + "{\n")
		writeElements(b, "\t\t", fs)
		b.WriteString("\t})\n")
	}
}

// resourceAnnotations is &runtime.ResourceAnnotations{…}, or "" when the
// directive sets none.
func resourceAnnotations(o resourceOptions) string {
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
	return "&" + rtRef + "ResourceAnnotations{" + strings.Join(fs, ", ") + "}"
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// registerPrompts writes one AddPrompt per prompt:
//
//	s.AddPrompt(&runtime.Prompt{
//		Name: "summarize",
//		Arguments: []runtime.PromptArgument{
//			{Name: "id", Description: "The note.", Required: true},
//		},
//		Handler: mcpimpl.Get(Summarize, decodeSummarizeArgs, mcpimpl.UserMessage),
//	})
func (e *emitter) registerPrompts(b *bytes.Buffer) {
	for _, p := range e.m.prompts {
		e.reformat = true
		fs := []element{{"Name", strconv.Quote(p.name)}}
		if p.opts.title != "" {
			fs = append(fs, element{"Title", strconv.Quote(p.opts.title)})
		}
		if p.description != "" {
			fs = append(fs, element{"Description", strconv.Quote(p.description)})
		}
		if len(p.args) > 0 {
			var list strings.Builder
			list.WriteString("[]" + rtRef + "PromptArgument{\n")
			for _, a := range p.args {
				list.WriteString("\t\t\t{Name: " + strconv.Quote(a.name))
				desc := a.description
				if a.enum != nil { // prompt arguments have no schema to say it
					desc = strings.TrimSpace(desc + " One of: " + strings.Join(a.enum, ", ") + ".")
				}
				if desc != "" {
					list.WriteString(", Description: " + strconv.Quote(desc))
				}
				if a.required {
					list.WriteString(", Required: true")
				}
				list.WriteString("},\n")
			}
			list.WriteString("\t\t}")
			fs = append(fs, element{"Arguments", list.String()})
		}
		decode := implRef + "NoInput"
		if p.input != nil {
			decode = e.argDecoderName(p.name, "Args")
		}
		fn := e.handlerRef(&p.handlerFunc, "\t\t")
		fs = append(fs, element{"Handler", implRef + "Get(" + fn + ", " + decode + ", " + implRef + p.messages + ")"})
		if completes(p.args, p.opts.complete) {
			fs = append(fs, element{"Complete", e.completer(&p.handlerFunc, p.args, p.opts.complete, p.completeMethod)})
		}
		b.WriteString("\t" + e.locals.server + ".AddPrompt(&" + rtRef + "Prompt{\n")
		writeElements(b, "\t\t", fs)
		b.WriteString("\t})\n")
	}
}

// handlerRef is the function a resource or prompt runs, adapted to the
// shape func(context.Context, In) (Out, error) when it has another.
func (e *emitter) handlerRef(h *handlerFunc, indent string) string {
	e.qual(implPath, "Read")
	fn := h.fn.Name()
	if h.recv != nil {
		fn = h.recv.param + "." + fn
	}
	if !h.hasCtx || h.input == nil {
		fn = e.adapter(h, outValue, fn, indent)
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
	}
	if !hasEnum(args) {
		return implRef + "Complete(nil, " + fn + ")"
	}
	var b strings.Builder
	b.WriteString(implRef + "Complete(map[string][]string{\n")
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
	n := "decode" + string(unicode.ToUpper(rune(camel[0]))) + camel[1:] + suffix
	for e.m.taken(n) || e.dec.used[n] {
		n += "_"
	}
	e.dec.used[n] = true
	if e.argDecoderNames == nil {
		e.argDecoderNames = map[string]string{}
	}
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
func (e *emitter) argDecoders(b *bytes.Buffer) {
	for _, r := range e.m.resources {
		if r.input != nil {
			e.argDecoder(b, e.argDecoderName(r.name, "Vars"), "vars", "reads the variables of "+r.opts.uri+".", r.input, r.args)
		}
	}
	for _, p := range e.m.prompts {
		if p.input != nil {
			e.argDecoder(b, e.argDecoderName(p.name, "Args"), "args", "reads the arguments of prompt "+p.name+".", p.input, p.args)
		}
	}
}

func (e *emitter) argDecoder(b *bytes.Buffer, name, param, doc string, in types.Type, args []argField) {
	free := func(n string) string {
		for e.m.taken(n) || n == param {
			n += "_"
		}
		return n
	}
	inV, errV, sV, okV, vV := free("in"), free("err"), free("s"), free("ok"), free("v")
	inType := e.typeText(in)
	b.WriteString("\n// " + name + " " + doc + "\n")
	b.WriteString("func " + name + "(" + param + " map[string]string) (" + inType + ", error) {\n")
	if p, ok := types.Unalias(in).(*types.Pointer); ok {
		b.WriteString("\t" + inV + " := new(" + e.typeText(p.Elem()) + ")\n")
	} else {
		b.WriteString("\tvar " + inV + " " + inType + "\n")
	}
	for _, a := range args {
		lookup := param + "[" + strconv.Quote(a.name) + "]"
		dst := inV + "." + a.field
		if a.conv == convString {
			b.WriteString("\t" + dst + " = " + e.convert(a.typ, "string", lookup) + "\n")
			continue
		}
		var parse, result string
		switch a.conv {
		case convEnum:
			parse, result = implRef+"OneOf("+strconv.Quote(a.name)+", "+sV+", "+quoteAll(a.enum)+")", "string"
		case convInt:
			parse, result = implRef+"ParseInt("+strconv.Quote(a.name)+", "+sV+", "+strconv.Itoa(a.bits)+")", "int64"
		case convUint:
			parse, result = implRef+"ParseUint("+strconv.Quote(a.name)+", "+sV+", "+strconv.Itoa(a.bits)+")", "uint64"
		case convFloat:
			parse, result = implRef+"ParseFloat("+strconv.Quote(a.name)+", "+sV+", "+strconv.Itoa(a.bits)+")", "float64"
		case convBool:
			parse, result = implRef+"ParseBool("+strconv.Quote(a.name)+", "+sV+")", "bool"
		}
		b.WriteString("\tif " + sV + ", " + okV + " := " + lookup + "; " + okV + " {\n")
		b.WriteString("\t\t" + vV + ", " + errV + " := " + parse + "\n")
		b.WriteString("\t\tif " + errV + " != nil {\n\t\t\treturn " + inV + ", " + errV + "\n\t\t}\n")
		b.WriteString("\t\t" + dst + " = " + e.convert(a.typ, result, vV) + "\n")
		b.WriteString("\t}\n")
	}
	b.WriteString("\treturn " + inV + ", nil\n}\n")
}

// convert converts expr, of the predeclared type have, to t.
func (e *emitter) convert(t types.Type, have, expr string) string {
	if b, ok := types.Unalias(t).(*types.Basic); ok && b.Name() == have {
		return expr
	}
	return e.typeText(t) + "(" + expr + ")"
}
