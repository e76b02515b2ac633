package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
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

// Elicit asks the user, through the client, to fill a form: message says
// why, and schema (JSON Schema text) is the form, a flat object of
// strings, numbers, booleans and enums, as MCP allows. It returns the
// user's action and, when they accepted, the content, which the runtime
// has checked against schema. mcpgen derives schema from a Go struct, and
// generated code decodes the content into it.
//
// It fails at once with ErrNotSupported when the client did not declare
// elicitation, and after Server.AskTimeout if the client never answers.
// Cancelling ctx withdraws the question.
func Elicit(ctx context.Context, message, schemaText string) (ElicitAction, json.RawMessage, error) {
	ss, ci, err := asked(ctx, "elicitation", func(c clientCaps) bool { return c.elicitForm })
	if err != nil {
		return "", nil, err
	}
	form, err := schema.Compile([]byte(schemaText))
	if err != nil {
		return "", nil, fmt.Errorf("elicitation: the form's schema: %w", err)
	}
	params := jsonvalue.AppendString([]byte(`{"mode":"form","message":`), message)
	params = append(params, `,"requestedSchema":`...)
	params = append(append(params, compact(schemaText)...), '}')
	res, err := ss.ask(ctx, ci.Notify, "elicitation/create", params)
	if err != nil {
		return "", nil, err
	}
	var out struct {
		Action  ElicitAction    `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(res, &out); err != nil {
		return "", nil, fmt.Errorf("elicitation: the client's answer is malformed: %w", err)
	}
	switch out.Action {
	case ElicitAccept:
	case ElicitDecline, ElicitCancel:
		return out.Action, nil, nil
	default:
		return "", nil, fmt.Errorf("elicitation: the client answered with the unknown action %q", out.Action)
	}
	content := out.Content
	if len(content) == 0 || string(content) == "null" {
		content = json.RawMessage("{}")
	}
	v, err := jsonvalue.Parse(content)
	if err != nil {
		return "", nil, fmt.Errorf("elicitation: the client's content is malformed: %w", err)
	}
	if vs := form.Validate(v); len(vs) > 0 {
		return "", nil, fmt.Errorf("%s", report("elicitation: the client's content does not match the form:", "content", vs))
	}
	return ElicitAccept, content, nil
}

// compact returns JSON text without insignificant whitespace.
func compact(text string) []byte {
	var b bytes.Buffer
	json.Compact(&b, []byte(text)) // text compiled as a schema: it is JSON
	return b.Bytes()
}

// ElicitURL asks the user, through the client, to go to url (to sign in,
// to pay, to consent) for the interaction elicitationID names, and returns
// whether they agreed to go. When the interaction ends, tell the client
// with ElicitationComplete. It fails at once with ErrNotSupported when the
// client did not declare URL elicitation.
func ElicitURL(ctx context.Context, message, url, elicitationID string) (ElicitAction, error) {
	ss, ci, err := asked(ctx, "URL elicitation", func(c clientCaps) bool { return c.elicitURL })
	if err != nil {
		return "", err
	}
	params, err := json.Marshal(map[string]string{"mode": "url", "message": message, "url": url, "elicitationId": elicitationID})
	if err != nil {
		return "", err
	}
	res, err := ss.ask(ctx, ci.Notify, "elicitation/create", params)
	if err != nil {
		return "", err
	}
	var out struct {
		Action ElicitAction `json:"action"`
	}
	if err := json.Unmarshal(res, &out); err != nil || out.Action != ElicitAccept && out.Action != ElicitDecline && out.Action != ElicitCancel {
		return "", fmt.Errorf("URL elicitation: the client's answer is malformed: %s", res)
	}
	return out.Action, nil
}

// ElicitationComplete tells the client of the request ctx serves that the
// URL interaction elicitationID names has ended.
func ElicitationComplete(ctx context.Context, elicitationID string) error {
	_, ci, err := asked(ctx, "elicitation complete", func(c clientCaps) bool { return c.elicitURL })
	if err != nil {
		return err
	}
	msg := jsonvalue.AppendString([]byte(`{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":`), elicitationID)
	ci.Notify(append(msg, "}}"...))
	return nil
}

// A URLElicitation is an interaction at a URL that a call needs first.
type URLElicitation struct {
	ElicitationID string
	URL           string
	Message       string
}

// A URLElicitationRequiredError, returned by a tool handler, tells the
// client that the user must first complete the interactions at the URLs
// it lists, and then call the tool again: the client gets the protocol's
// error -32042 with the elicitations in its data.
type URLElicitationRequiredError struct {
	Elicitations []URLElicitation
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
