package gen

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
)

// A prompt is one //mcp:prompt function or method: its input struct's
// fields are the prompt's arguments.
type prompt struct {
	handlerFunc
	opts        primitiveOptions
	pos         token.Pos
	name        string
	description string
	args        []argField
	messages    string // the mcpimpl function that turns Out into messages
	// completeMethod says that opts.complete is a method of the receiver.
	completeMethod bool
}

// buildPrompt checks a //mcp:prompt function's directive, signature and
// arguments.
func (p *pass) buildPrompt(fd *ast.FuncDecl) *prompt {
	dir, ok := p.findDirective(fd, directivePrompt)
	if !ok {
		return nil
	}
	opts, ok := p.parsePromptDirective(dir)
	fn, _ := p.info.Defs[fd.Name].(*types.Func)
	if !ok || fn == nil {
		return nil
	}
	pr := &prompt{opts: opts, pos: dir.Slash, handlerFunc: handlerFunc{fn: fn}}
	pr.name = cmp.Or(opts.name, snakeCase(fd.Name.Name))
	pr.description = cmp.Or(opts.description, commentText(fd.Doc))
	if !validToolName(pr.name) {
		p.errorf(cmp.Or(opts.namePos, dir.Slash), "invalid prompt name %q: Claude Code offers prompts as slash commands, and requires ^[a-zA-Z0-9_-]{1,64}$", pr.name)
		return nil
	}
	if !p.checkSignature("prompt", pr.name, &pr.handlerFunc, fd) {
		return nil
	}
	switch {
	case pr.output == nil:
	case isRuntimeType(pr.output, "PromptResult") && isPointer(pr.output):
		pr.messages = "VerbatimMessages"
	case isStringKind(pr.output):
		pr.messages = "UserMessage"
	}
	if pr.messages == "" {
		p.errorf(fd.Type.Results.Pos(), "prompt %s must return (string, error), one user message, or (*runtime.PromptResult, error)", pr.name)
		return nil
	}
	if pr.input != nil {
		if pr.args, ok = p.argFields(pr.input, "prompt "+pr.name, "prompt argument"); !ok {
			return nil
		}
	}
	return pr
}

func isStringKind(t types.Type) bool {
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
