package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// ElicitAction is how the user answered a form or a URL.
type ElicitAction string

// The answers to an elicitation.
const (
	// ElicitAccept: the user filled the form, or went to the URL.
	ElicitAccept ElicitAction = "accept"
	// ElicitDecline: the user said no.
	ElicitDecline ElicitAction = "decline"
	// ElicitCancel: the user dismissed the question without answering.
	ElicitCancel ElicitAction = "cancel"
)

// An ElicitQuestion asks the user, through the client, to fill a form
// (elicitation/create in form mode).
type ElicitQuestion struct {
	// Key names the question under revision 2026-07-28 (see Ask).
	Key string
	// Message says why the server asks.
	Message string
	// Schema is the form, as JSON Schema text: a flat object of strings,
	// numbers, booleans and enums, as MCP allows. mcpgen derives it from
	// a struct type marked //mcp:form (see ElicitForm).
	Schema string

	// Action is the user's answer.
	Action ElicitAction
	// Content is what the user entered, when they accepted: a JSON object
	// that the runtime has checked against Schema.
	Content json.RawMessage
}

func (q *ElicitQuestion) what() string   { return "elicitation" }
func (q *ElicitQuestion) key() string    { return q.Key }
func (q *ElicitQuestion) method() string { return wire.MethodElicit }

func (q *ElicitQuestion) needs(c *wire.ClientCaps) []byte {
	if c.ElicitForm {
		return nil
	}
	return []byte(`{"elicitation":{"form":{}}}`)
}

func (q *ElicitQuestion) params(bool) ([]byte, error) {
	if _, err := schema.Compile([]byte(q.Schema)); err != nil {
		return nil, fmt.Errorf("the form's schema: %w", err)
	}
	b := jsonvalue.AppendString([]byte(`{"mode":"form","message":`), q.Message)
	b = append(b, `,"requestedSchema":`...)
	b = append(b, compact(q.Schema)...)
	return append(b, '}'), nil
}

func (q *ElicitQuestion) answer(result jsonvalue.Value) error {
	action, err := elicitAction(result)
	if err != nil || action != ElicitAccept {
		q.Action, q.Content = action, nil
		return err
	}
	content := result.Get("content")
	switch content.Kind() {
	case jsonvalue.Absent, jsonvalue.Null:
		content, _ = jsonvalue.Parse([]byte("{}"))
	case jsonvalue.Object:
	default:
		return fmt.Errorf("the client's content is a %s, not an object", content.Kind())
	}
	form, err := schema.Compile([]byte(q.Schema))
	if err != nil {
		return fmt.Errorf("the form's schema: %w", err)
	}
	if vs := form.Validate(content); len(vs) > 0 {
		return fmt.Errorf("%s", report("the client's content does not match the form:", "content", vs))
	}
	q.Action, q.Content = ElicitAccept, slices.Clone(content.Raw())
	return nil
}

// elicitAction reads the action of an answer to an elicitation, by its
// exact name: one of accept, decline and cancel.
func elicitAction(result jsonvalue.Value) (ElicitAction, error) {
	v := result.Get("action")
	switch a := ElicitAction(v.Str()); {
	case v.Kind() == jsonvalue.String && (a == ElicitAccept || a == ElicitDecline || a == ElicitCancel):
		return a, nil
	case result.Kind() != jsonvalue.Object:
		return "", fmt.Errorf("the client's answer is a %s, not an object", result.Kind())
	default:
		return "", fmt.Errorf("the client answered with the action %.100s; want accept, decline or cancel", v.Raw())
	}
}

// Elicit asks the user, through the client, to fill a form: message says
// why, and schemaText (JSON Schema text) is the form. It returns the
// user's action and, when they accepted, the content, which the runtime
// has checked against the schema. See Ask for how it waits, and for the
// errors it returns; ElicitForm does the same for a struct type mcpgen
// generated the form of.
func Elicit(ctx context.Context, message, schemaText string) (ElicitAction, json.RawMessage, error) {
	q := &ElicitQuestion{Message: message, Schema: schemaText}
	if err := Ask(ctx, q); err != nil {
		return "", nil, err
	}
	return q.Action, q.Content, nil
}

// A form is what mcpgen generates for a struct type marked //mcp:form:
// its elicitation schema, and a decoder that checks the answer.
type form interface {
	MCPSchema() string
	UnmarshalMCP(data []byte) error
}

// ElicitForm asks the user, through the client, to fill the form of a
// struct type marked //mcp:form, and decodes the answer into form, a
// pointer to a value of that type, when they accept. A value whose type
// mcpgen generated no form for is an error that says so.
func ElicitForm(ctx context.Context, message string, dst any) (ElicitAction, error) {
	f, ok := dst.(form)
	if !ok {
		return "", fmt.Errorf("runtime: %T has no generated form: mark its type //mcp:form, run go generate, and pass a pointer to it", dst)
	}
	action, content, err := Elicit(ctx, message, f.MCPSchema())
	if err != nil || action != ElicitAccept {
		return action, err
	}
	if err := f.UnmarshalMCP(content); err != nil {
		return "", fmt.Errorf("runtime: decoding the answer into %T: %w", dst, err)
	}
	return action, nil
}

// compact returns JSON text without insignificant whitespace.
func compact(text string) []byte {
	var b bytes.Buffer
	json.Compact(&b, []byte(text)) // text compiled as a schema: it is JSON
	return b.Bytes()
}

// A ElicitURLQuestion asks the user, through the client, to go to a URL (to
// sign in, to pay, to consent), out of band: elicitation/create in URL
// mode.
type ElicitURLQuestion struct {
	// Key names the question under revision 2026-07-28 (see Ask).
	Key     string
	Message string
	URL     string
	// ElicitationID names the interaction under 2025-11-25, for
	// ElicitURLDone; revision 2026-07-28 has no such id.
	ElicitationID string

	// Action is the user's answer: accept means they agreed to go, not
	// that they finished.
	Action ElicitAction
}

func (q *ElicitURLQuestion) what() string   { return "URL elicitation" }
func (q *ElicitURLQuestion) key() string    { return q.Key }
func (q *ElicitURLQuestion) method() string { return wire.MethodElicit }

func (q *ElicitURLQuestion) needs(c *wire.ClientCaps) []byte {
	if c.ElicitURL {
		return nil
	}
	return []byte(`{"elicitation":{"url":{}}}`)
}

func (q *ElicitURLQuestion) params(perRequest bool) ([]byte, error) {
	b := jsonvalue.AppendString([]byte(`{"mode":"url","message":`), q.Message)
	b = append(b, `,"url":`...)
	b = jsonvalue.AppendString(b, q.URL)
	if !perRequest {
		b = append(b, `,"elicitationId":`...)
		b = jsonvalue.AppendString(b, q.ElicitationID)
	}
	return append(b, '}'), nil
}

func (q *ElicitURLQuestion) answer(result jsonvalue.Value) error {
	action, err := elicitAction(result)
	q.Action = action
	return err
}

// ElicitURL asks the user, through the client, to go to url for the
// interaction elicitationID names, and returns whether they agreed to go.
// When the interaction ends, tell the client with ElicitURLDone.
// See Ask for how it waits, and for the errors it returns.
func ElicitURL(ctx context.Context, message, url, elicitationID string) (ElicitAction, error) {
	q := &ElicitURLQuestion{Message: message, URL: url, ElicitationID: elicitationID}
	if err := Ask(ctx, q); err != nil {
		return "", err
	}
	return q.Action, nil
}

// ElicitURLDone tells the client of the request ctx serves that the
// URL interaction elicitationID names has ended. Revision 2026-07-28 has
// no such notification (the client learns it when it calls again): there
// it does nothing.
func ElicitURLDone(ctx context.Context, elicitationID string) error {
	c := callOf(ctx)
	switch {
	case c != nil && c.meta != nil:
		return nil
	case c == nil || c.sink() == nil:
		return fmt.Errorf("runtime: %w: ctx is not the context of a request from a client", ErrNotSupported)
	}
	if caps := c.ss.clientCaps(); !caps.ElicitURL {
		return &capabilityError{what: "elicitation complete", need: []byte(`{"elicitation":{"url":{}}}`)}
	}
	msg := jsonvalue.AppendString([]byte(`{"jsonrpc":"2.0","method":"`+wire.NotifyElicitDone+`","params":{"elicitationId":`), elicitationID)
	c.sink()(append(msg, "}}"...))
	return nil
}

// A URLElicitationRequiredError, returned by a tool handler, tells the
// client that the user must first complete the interactions at the URLs
// it lists, and then call the tool again. Under 2025-11-25 the client gets
// the protocol's error -32042 with the elicitations in its data; under
// 2026-07-28, which has no such error, the call answers input_required
// with a URL question for each (Key, when empty, becomes "url-1",
// "url-2", … in order). Action is not read.
type URLElicitationRequiredError struct {
	Elicitations []ElicitURLQuestion
}

func (e *URLElicitationRequiredError) Error() string {
	return fmt.Sprintf("the user must first complete %d interaction(s) at a URL", len(e.Elicitations))
}

// codeURLElicitationRequired is MCP's error code of a call that needs
// interactions at URLs first.
const codeURLElicitationRequired = -32042

// data is the error's data, as JSON.
func (e *URLElicitationRequiredError) data() []byte {
	type elicitation struct {
		Mode          string `json:"mode"`
		ElicitationID string `json:"elicitationId"`
		URL           string `json:"url"`
		Message       string `json:"message"`
	}
	list := make([]elicitation, len(e.Elicitations))
	for i, u := range e.Elicitations {
		list[i] = elicitation{"url", u.ElicitationID, u.URL, u.Message}
	}
	b, _ := json.Marshal(struct {
		Elicitations []elicitation `json:"elicitations"`
	}{list})
	return b
}

// questions returns the error's elicitations as questions, for revision
// 2026-07-28.
func (e *URLElicitationRequiredError) questions() []Question {
	qs := make([]Question, len(e.Elicitations))
	for i, u := range e.Elicitations {
		q := &ElicitURLQuestion{Key: u.Key, Message: u.Message, URL: u.URL}
		if q.Key == "" {
			q.Key = fmt.Sprintf("url-%d", i+1)
		}
		qs[i] = q
	}
	return qs
}
