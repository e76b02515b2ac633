package gen

import (
	"strconv"
	"strings"
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
func (e *emitter) registerPrompts(b *strings.Builder) {
	g := e.g
	for _, p := range e.m.prompts {
		fs := []element{{"Name", strconv.Quote(p.name)}}
		if p.opts.title != "" {
			fs = append(fs, element{"Title", strconv.Quote(p.opts.title)})
		}
		if p.description != "" {
			fs = append(fs, element{"Description", strconv.Quote(p.description)})
		}
		if len(p.args) > 0 {
			var list strings.Builder
			list.WriteString("[]" + g.rt("PromptArgument") + "{\n")
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
		decode := g.impl("NoInput")
		if p.input != nil {
			decode = e.argDecoderName(p.name, "Args")
		}
		if p.opts.scopes != nil {
			fs = append(fs, element{"Scopes", "[]string{" + quoteAll(p.opts.scopes) + "}"})
		}
		fn := e.handlerRef(&p.handlerFunc)
		fs = append(fs, element{"Handler", g.impl("Get") + "(" + fn + ", " + decode + ", " + g.impl(p.messages) + ")"})
		if completes(p.args, p.opts.complete) {
			fs = append(fs, element{"Complete", e.completer(&p.handlerFunc, p.args, p.opts.complete, p.completeMethod)})
		}

		b.WriteString("\t" + e.locals.server + ".AddPrompt(&" + g.rt("Prompt") + "{\n")
		writeElements(b, "\t\t", fs)
		b.WriteString("\t})\n")
	}
}
