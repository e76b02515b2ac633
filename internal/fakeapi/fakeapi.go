// Package fakeapi is a fake Anthropic Messages API for driving the real
// Claude Code CLI offline in tests. It listens on 127.0.0.1 only, streams
// the server-sent events the CLI expects, and follows one script: call a
// given tool with given input (loading it through ToolSearch first when
// the CLI defers MCP tools), then answer with a text that quotes the tool
// result. It records every request so tests can check what reached the
// model.
package fakeapi

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// A Server is a running fake Messages API.
type Server struct {
	tool      string
	input     json.RawMessage
	perPrompt bool
	// finally, if set, is called with finallyInput after the tool's
	// result, instead of answering with text.
	finally      string
	finallyInput json.RawMessage

	srv *http.Server
	url string

	mu       sync.Mutex
	requests []Request
}

// A Request is what the fake recorded of one POST /v1/messages.
type Request struct {
	Model       string
	Tools       []string     // names of the tools offered to the model
	ToolResults []ToolResult // tool_result blocks of the last user message
	Answer      string       // what the fake answered: "tool_use", "tool_search", "final", …
	Body        json.RawMessage
}

// A ToolResult is one tool_result block as the CLI sent it to the model.
type ToolResult struct {
	ToolUseID string
	IsError   bool
	Text      string // the content, flattened to text
}

// An Option changes the fake's script.
type Option func(*Server)

// EachPrompt makes the model call the tool once for every user prompt of
// a conversation, not once for the whole conversation.
func EachPrompt() Option { return func(s *Server) { s.perPrompt = true } }

// Finally makes the model call tool with input once the scripted tool has
// answered, instead of answering with text: "StructuredOutput", say,
// when the CLI asks for a structured result.
func Finally(tool, input string) Option {
	return func(s *Server) { s.finally, s.finallyInput = tool, json.RawMessage(input) }
}

// Start starts a fake that will make the model call tool with input.
func Start(tool, input string, opts ...Option) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{tool: tool, input: json.RawMessage(input), url: "http://" + ln.Addr().String()}
	for _, o := range opts {
		o(s)
	}
	s.srv = &http.Server{Handler: s}
	go s.srv.Serve(ln)
	return s, nil
}

// URL is the base URL to give the CLI as ANTHROPIC_BASE_URL.
func (s *Server) URL() string { return s.url }

// Close stops the fake.
func (s *Server) Close() error { return s.srv.Close() }

// Requests returns what the fake has recorded so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ToolResults returns every tool_result for the scripted tool that reached
// the model.
func (s *Server) ToolResults() []ToolResult {
	var out []ToolResult
	for _, r := range s.Requests() {
		out = append(out, r.ToolResults...)
	}
	return out
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

func (m message) blocks() []block {
	var bs []block
	json.Unmarshal(m.Content, &bs) // a string content has no blocks
	return bs
}

type requestBody struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	System   json.RawMessage `json:"system"`
	Messages []message       `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
	OutputConfig struct {
		Format struct {
			Type   string `json:"type"`
			Schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schema"`
		} `json:"format"`
	} `json:"output_config"`
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodHead:
		w.WriteHeader(http.StatusOK) // the CLI warms up its connection
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, map[string]any{"input_tokens": 123})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r)
	default:
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"type": "error", "error": map[string]string{"type": "not_found_error", "message": "fake api: no route " + r.URL.Path}})
	}
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body requestBody
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rec := Request{Model: body.Model, Body: raw}
	for _, t := range body.Tools {
		rec.Tools = append(rec.Tools, t.Name)
	}
	called := map[string]bool{} // tool_use ids of the scripted tool
	searched := false
	history := body.Messages
	if s.perPrompt {
		// Only what follows the last prompt (a user message that does not
		// answer tool calls) counts.
		for i := len(history) - 1; i >= 0; i-- {
			m := history[i]
			if m.Role == "user" && !slices.ContainsFunc(m.blocks(), func(b block) bool { return b.Type == "tool_result" }) {
				history = history[i:]
				break
			}
		}
	}
	for _, m := range history {
		if m.Role != "assistant" {
			continue
		}
		for _, b := range m.blocks() {
			if b.Type == "tool_use" && b.Name == s.tool {
				called[b.ID] = true
			}
			if b.Type == "tool_use" && b.Name == "ToolSearch" {
				searched = true
			}
		}
	}
	if n := len(body.Messages); n > 0 && body.Messages[n-1].Role == "user" {
		for _, b := range body.Messages[n-1].blocks() {
			if b.Type == "tool_result" && called[b.ToolUseID] {
				rec.ToolResults = append(rec.ToolResults, ToolResult{ToolUseID: b.ToolUseID, IsError: b.IsError, Text: flatten(b.Content)})
			}
		}
	}
	offered := slices.Contains(rec.Tools, s.tool)
	deferred := !offered && slices.Contains(rec.Tools, "ToolSearch") &&
		(bytes.Contains(raw, []byte(s.tool)))

	var blocks []block
	stop := "end_turn"
	switch {
	case len(rec.ToolResults) > 0 && s.finally != "" && slices.Contains(rec.Tools, s.finally):
		blocks, rec.Answer, stop = []block{{Type: "tool_use", ID: newID("toolu_fake_"), Name: s.finally, Input: s.finallyInput}}, "finally", "tool_use"
	case len(rec.ToolResults) > 0:
		tr := rec.ToolResults[0]
		blocks, rec.Answer = []block{{Type: "text", Text: fmt.Sprintf("The tool answered: %s (is_error=%v)", tr.Text, tr.IsError)}}, "final"
	case len(called) > 0:
		blocks, rec.Answer = []block{{Type: "text", Text: "Done."}}, "final_again" // never loop
	case offered || deferred && searched:
		blocks, rec.Answer, stop = []block{{Type: "tool_use", ID: newID("toolu_fake_"), Name: s.tool, Input: s.input}}, "tool_use", "tool_use"
	case deferred:
		// Newer CLIs defer MCP tools: the model loads the tool's schema
		// with ToolSearch before calling it.
		input, _ := json.Marshal(map[string]any{"query": "select:" + s.tool, "max_results": 5})
		blocks, rec.Answer, stop = []block{{Type: "tool_use", ID: newID("toolu_fake_"), Name: "ToolSearch", Input: input}}, "tool_search", "tool_use"
	case body.OutputConfig.Format.Type == "json_schema":
		obj := map[string]string{}
		for k := range body.OutputConfig.Format.Schema.Properties {
			obj[k] = "fake"
		}
		text, _ := json.Marshal(obj)
		blocks, rec.Answer = []block{{Type: "text", Text: string(text)}}, "side_json"
	default:
		blocks, rec.Answer = []block{{Type: "text", Text: "OK"}}, "side_text"
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()

	model := cmp.Or(body.Model, "claude-fake")
	msgID := newID("msg_fake_")
	usage := map[string]int{"input_tokens": 50, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !body.Stream {
		writeJSON(w, map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	var out bytes.Buffer
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(&out, "event: %s\ndata: %s\n\n", name, b)
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 50, "output_tokens": 1}}})
	for i, b := range blocks {
		if b.Type == "text" {
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]string{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]string{"type": "text_delta", "text": b.Text}})
		} else {
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]string{"type": "input_json_delta", "partial_json": string(b.Input)}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 10}})
	event("message_stop", map[string]string{"type": "message_stop"})
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Length", fmt.Sprint(out.Len()))
	w.Write(out.Bytes())
}

// flatten turns tool_result content (a string or a list of blocks) into
// text.
func flatten(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var bs []block
	json.Unmarshal(content, &bs)
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, " ")
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func newID(prefix string) string {
	var b [8]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
