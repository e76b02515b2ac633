package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
)

// A Prompt is one MCP prompt: a template of messages that a client offers
// its user (Claude Code as a slash command), filled from string
// arguments. mcpgen generates Prompts from functions marked //mcp:prompt.
type Prompt struct {
	// Name identifies the prompt in prompts/get.
	Name  string
	Title string
	// Description tells the user what the prompt is for.
	Description string
	// Arguments are the prompt's arguments, in order.
	Arguments []PromptArgument
	Icons     []Icon
	Meta      map[string]any
	// Handler fills the prompt. Required arguments are present when it
	// runs: prompts/get refuses a request that lacks one.
	Handler PromptHandler
	// Complete, if set, proposes values of an argument (completion/complete
	// with a ref/prompt reference to this prompt).
	Complete CompleteHandler
	// Scopes are the OAuth scopes a token must hold to get the prompt, or complete its arguments, over
	// Streamable HTTP with Authorization; a token without them gets 403
	// and a challenge that names them. Requests without a token (stdio,
	// the Claude host) need none.
	Scopes []string
}

// A PromptArgument is one argument of a prompt. MCP prompt arguments are
// strings.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// A PromptHandler fills a prompt. An error becomes a JSON-RPC error with
// the error's text: -32603, or -32602 if the error has a method
// InvalidParams() bool that returns true.
type PromptHandler func(ctx context.Context, req *PromptRequest) (*PromptResult, error)

// A PromptRequest is one prompts/get as a handler sees it.
type PromptRequest struct {
	Name      string
	Arguments map[string]string
	Meta      json.RawMessage
}

// A PromptResult is what prompts/get answers.
type PromptResult struct {
	// Description, if set, describes the filled prompt.
	Description string
	Messages    []PromptMessage
	Meta        map[string]any
}

// A PromptMessage is one message of a prompt: Role is "user" or
// "assistant", and Content is text, an image, audio, an embedded resource
// or a resource link.
type PromptMessage struct {
	Role    string
	Content Content
}

// UserPrompt returns a prompt result of one user message holding text.
func UserPrompt(text string) *PromptResult {
	return &PromptResult{Messages: []PromptMessage{{Role: "user", Content: TextContent{Text: text}}}}
}

// AddPrompt registers p. It panics if p is malformed (no name or
// handler, a duplicate name, an argument without a name or twice).
// Clients that are connected learn that the list changed.
func (s *Server) AddPrompt(p *Prompt) {
	if err := s.addPrompt(p); err != nil {
		panic("runtime: AddPrompt: " + err.Error())
	}
	s.listChanged(prompts)
}

func (s *Server) addPrompt(p *Prompt) error {
	if p.Name == "" || p.Handler == nil {
		return fmt.Errorf("prompt %q needs a name and a handler", p.Name)
	}
	seen := map[string]bool{}
	for _, a := range p.Arguments {
		if a.Name == "" || seen[a.Name] {
			return fmt.Errorf("prompt %s: argument %q is unnamed or repeated", p.Name, a.Name)
		}
		seen[a.Name] = true
	}
	if !s.prompts.Add(p.Name, p) {
		return fmt.Errorf("duplicate prompt %q", p.Name)
	}
	return nil
}

// RemovePrompt removes the prompt named name, and reports whether there
// was one. Clients that are connected learn that the list changed.
func (s *Server) RemovePrompt(name string) bool {
	if !s.prompts.Remove(name) {
		return false
	}
	s.listChanged(prompts)
	return true
}

// appendJSON writes p as prompts/list lists it.
func (p *Prompt) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"name":`...)
	b = jsonvalue.AppendString(b, p.Name)
	b = appendField(b, "title", p.Title)
	b = appendField(b, "description", p.Description)
	if len(p.Arguments) > 0 {
		data, err := json.Marshal(p.Arguments)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"arguments":`...), data...)
	}
	b, err := appendDescriptors(b, nil, p.Icons, p.Meta)
	return append(b, '}'), err
}

// appendResult writes the members of the result of prompts/get.
func (r *PromptResult) appendResult(b []byte) ([]byte, error) {
	if r.Description != "" {
		b = append(b, `"description":`...)
		b = jsonvalue.AppendString(b, r.Description)
		b = append(b, ',')
	}
	b = append(b, `"messages":[`...)
	for i, m := range r.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":"`...)
		b = append(b, m.Role...)
		b = append(b, `","content":`...)
		b = append(m.Content.appendJSON(b), '}')
	}
	return appendMeta(append(b, ']'), r.Meta)
}

// size estimates the encoded size of r.
func (r *PromptResult) size() int { return 64 + len(r.Description) + 256*len(r.Messages) }

// check reports what in r the protocol does not allow: a role other than
// user and assistant, a message without content.
func (r *PromptResult) check() error {
	for i, m := range r.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return fmt.Errorf("message %d: role %q is neither user nor assistant", i, m.Role)
		}
		if m.Content == nil {
			return fmt.Errorf("message %d has no content", i)
		}
	}
	return nil
}

// listPrompts answers prompts/list: the whole list encoded once per set
// of prompts, or a page (see PageSize).
func (ss *session) listPrompts(c *call) response {
	entry := func(b []byte, p *Prompt) ([]byte, error) {
		b, err := p.appendJSON(b)
		if err != nil {
			return nil, fmt.Errorf("prompt %s: %w", p.Name, err)
		}
		return b, nil
	}
	return listPage(c, &ss.srv.prompts, "prompt", 0, "prompts", nil, func(p *Prompt) string { return p.Name }, entry)
}

// promptOf returns the prompt that the member name of params names, once
// the caller is allowed it; it answers the request instead when the
// member is not a string, names no prompt, or the caller's token lacks
// the prompt's scopes.
func (c *call) promptOf(params jsonvalue.Value) (*Prompt, response, bool) {
	srv := c.ss.srv
	name, bad := stringParam(params, "name", true)
	if bad != nil {
		return nil, *bad, false
	}
	p, ok := srv.prompts.Get(name)
	if !ok {
		return nil, invalidParams("%s", srv.prompts.Unknown("prompt", name)), false
	}
	if c.tokenInfo != nil {
		if resp, ok := c.allow("prompt", name, p.Scopes); !ok {
			return nil, resp, false
		}
	}
	return p, response{}, true
}

// getPrompt answers prompts/get. An unknown prompt, an argument that is
// not a string, an unknown argument and a missing required one are
// invalid params, each named.
func (ss *session) getPrompt(c *call) response {
	params := c.msg.Params
	p, resp, ok := c.promptOf(params)
	if !ok {
		return resp
	}
	name := p.Name
	argsValue := params.Get("arguments")
	args, msg := stringMap(argsValue)
	if msg != "" {
		return invalidParams("arguments %s", msg)
	}
	if vs := p.checkArguments(args); vs != nil {
		return invalidParams("%s", report("invalid arguments for prompt "+name+":", "arguments", vs))
	}
	req := &PromptRequest{Name: name, Arguments: args}
	if mv := params.Get("_meta"); mv.Kind() == jsonvalue.Object {
		req.Meta = mv.Raw()
	}
	var res *PromptResult
	err, stop, resp := ss.runHandler(c, handlerRun{kind: "prompt", target: name, args: argsValue}, func(ctx context.Context) error {
		var err error
		res, err = p.Handler(ctx, req)
		return err
	})
	switch {
	case stop:
		return resp
	case isInvalidParams(err):
		return invalidParams("invalid arguments for prompt %s:\n- %v", name, err)
	case err != nil:
		return errorResponse(jsonrpc.InternalError, "prompt %s: %v", name, err)
	case res == nil:
		return errorResponse(jsonrpc.InternalError, "prompt %s: the handler returned no result", name)
	}
	if err := res.check(); err != nil {
		return errorResponse(jsonrpc.InternalError, "prompt %s: %v", name, err)
	}
	return response{result: res}
}

func (p *Prompt) hasArgument(name string) bool {
	return slices.ContainsFunc(p.Arguments, func(a PromptArgument) bool { return a.Name == name })
}

// checkArguments returns what is wrong with a prompt's arguments, in the
// validator's words for a tool's: each unknown argument, in the order
// sent, then each missing required one.
func (p *Prompt) checkArguments(args map[string]string) []schema.Violation {
	var vs []schema.Violation
	for _, key := range slices.Sorted(maps.Keys(args)) {
		if !p.hasArgument(key) {
			vs = append(vs, schema.Violation{Path: key, Msg: "unknown argument" + p.knownArguments()})
		}
	}
	for _, a := range p.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			vs = append(vs, schema.Violation{Path: a.Name, Msg: "is required"})
		}
	}
	return vs
}

// knownArguments lists the prompt's arguments for a message.
func (p *Prompt) knownArguments() string {
	if len(p.Arguments) == 0 {
		return " (this prompt takes no arguments)"
	}
	names := make([]string, len(p.Arguments))
	for i, a := range p.Arguments {
		names[i] = a.Name
	}
	return " (allowed: " + strings.Join(names, ", ") + ")"
}

// stringMap reads an object of strings, such as a prompt's arguments; an
// absent or null value is an empty map. It returns what is wrong, if
// anything.
func stringMap(v jsonvalue.Value) (map[string]string, string) {
	out := map[string]string{}
	switch v.Kind() {
	case jsonvalue.Absent, jsonvalue.Null:
		return out, ""
	case jsonvalue.Object:
	default:
		return nil, "must be an object"
	}
	for name, m := range v.Members() {
		if m.Kind() != jsonvalue.String {
			return nil, fmt.Sprintf("%s must be a string, not %s", strconv.Quote(name), m.Kind())
		}
		out[strings.Clone(name)] = m.Str()
	}
	return out, ""
}
