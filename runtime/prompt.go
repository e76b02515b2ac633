package runtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
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
	s.listChanged("prompts")
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
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.promptByName[p.Name] != nil {
		return fmt.Errorf("duplicate prompt name %q", p.Name)
	}
	if s.promptByName == nil {
		s.promptByName = map[string]*Prompt{}
	}
	s.prompts = append(s.prompts, p)
	s.promptByName[p.Name] = p
	return nil
}

// RemovePrompt removes the prompt named name, and reports whether there
// was one. Clients that are connected learn that the list changed.
func (s *Server) RemovePrompt(name string) bool {
	s.mu.Lock()
	p := s.promptByName[name]
	if p != nil {
		delete(s.promptByName, name)
		s.prompts = deleteFirst(s.prompts, p)
	}
	s.mu.Unlock()
	if p != nil {
		s.listChanged("prompts")
	}
	return p != nil
}

func (s *Server) prompt(name string) *Prompt {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.promptByName[name]
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

// appendJSON writes the result of prompts/get.
func (r *PromptResult) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	if r.Description != "" {
		b = append(b, `"description":`...)
		b = jsonvalue.AppendString(b, r.Description)
		b = append(b, ',')
	}
	b = append(b, `"messages":[`...)
	for i, m := range r.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return nil, fmt.Errorf("message %d: role %q is neither user nor assistant", i, m.Role)
		}
		if m.Content == nil {
			return nil, fmt.Errorf("message %d has no content", i)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":"`...)
		b = append(b, m.Role...)
		b = append(b, `","content":`...)
		b = append(m.Content.appendJSON(b), '}')
	}
	b = append(b, ']')
	if len(r.Meta) > 0 {
		data, err := json.Marshal(r.Meta)
		if err != nil {
			return nil, fmt.Errorf("encoding _meta: %w", err)
		}
		b = append(append(b, `,"_meta":`...), data...)
	}
	return append(b, '}'), nil
}
