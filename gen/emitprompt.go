package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// registerPrompts writes one AddPrompt per prompt:
//
//	s.AddPrompt(&runtime.Prompt{
//		Name: "summarize",
//		Arguments: []runtime.PromptArgument{
//			{Name: "id", Description: "The note.", Required: true},
//		},
//		Handler: mcpimpl.Get(Summarize, decodeSummarizeArgs, mcpimpl.UserMessage),
//	})
func (e *emitter) registerPrompts() []jen.Code {
	var calls []jen.Code
	for _, p := range e.m.prompts {
		fs := []jen.Code{field("Name", jen.Lit(p.name))}
		if p.opts.title != "" {
			fs = append(fs, field("Title", jen.Lit(p.opts.title)))
		}
		if p.description != "" {
			fs = append(fs, field("Description", jen.Lit(p.description)))
		}
		if len(p.args) > 0 {
			list := jen.Index().Add(e.rt("PromptArgument"))
			var args []jen.Code
			for _, a := range p.args {
				arg := []jen.Code{field("Name", jen.Lit(a.name))}
				desc := a.description
				if a.enum != nil { // prompt arguments have no schema to say it
					desc = strings.TrimSpace(desc + " One of: " + strings.Join(a.enum, ", ") + ".")
				}
				if desc != "" {
					arg = append(arg, field("Description", jen.Lit(desc)))
				}
				if a.required {
					arg = append(arg, field("Required", jen.True()))
				}
				args = append(args, jen.Values(arg...))
			}
			fs = append(fs, field("Arguments", list.Add(elements(args...))))
		}
		decode := e.impl("NoInput")
		if p.input != nil {
			decode = jen.Id(e.argDecoderName(p.name, "Args"))
		}
		if p.opts.scopes != nil {
			fs = append(fs, field("Scopes", stringsLit(p.opts.scopes)))
		}
		fn := e.handlerRef(&p.handlerFunc)
		fs = append(fs, field("Handler", e.impl("Get").Call(fn, decode, e.impl(p.messages))))
		if completes(p.args, p.opts.complete) {
			fs = append(fs, field("Complete", e.completer(&p.handlerFunc, p.args, p.opts.complete, p.completeMethod)))
		}
		calls = append(calls, jen.Id(e.locals.server).Dot("AddPrompt").Call(jen.Op("&").Add(e.rt("Prompt")).Add(elements(fs...))))
	}
	return calls
}
