package runtimetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// The methods below send one MCP request each (a list, every page of it)
// and return what the server answered as the runtime's types. A JSON-RPC
// error is returned as an error wrapping a *runtime.ProtocolError.

// ListTools returns the tools the server lists (tools/list), as
// runtime.Tools without handlers: their schemas are the JSON text the
// server sent. Under a session revision a tool whose output schema is not
// an object's comes with the schema a client of that revision gets, the
// value wrapped in an object's "result".
func (c *Client) ListTools(ctx context.Context) ([]*runtime.Tool, error) {
	return list(ctx, c, "tools/list", "tools", decodeTool)
}

// CallTool calls the tool name (tools/call) with args, encoded with
// encoding/json: the tool's input struct, a map, a json.RawMessage, or
// nil for no arguments. A failure of the tool is a result with IsError
// set, not an error. The result's StructuredContent, if the server sent
// any, is a json.RawMessage (see Structured).
//
// When the tool's handler asks the client a question, the function of
// Options for it answers: under a session revision while the handler
// waits, under RequestRevision in a new round of the call.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*runtime.ToolResult, error) {
	params := map[string]any{"name": name}
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("runtimetest: encoding the arguments of %s: %w", name, err)
		}
		params["arguments"] = json.RawMessage(b)
	}
	return fetch(ctx, c, "tools/call", params, "calling "+name, toolResult)
}

// ListPrompts returns the prompts the server lists (prompts/list), as
// runtime.Prompts without handlers.
func (c *Client) ListPrompts(ctx context.Context) ([]*runtime.Prompt, error) {
	return list(ctx, c, "prompts/list", "prompts", decodePrompt)
}

// GetPrompt fills the prompt name with args (prompts/get). Its handler
// may ask the client, as a tool's may (see CallTool).
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*runtime.PromptResult, error) {
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	return fetch(ctx, c, "prompts/get", params, "getting the prompt "+name, promptResult)
}

// ListResources returns the resources the server lists (resources/list),
// as runtime.Resources without handlers.
func (c *Client) ListResources(ctx context.Context) ([]*runtime.Resource, error) {
	return list(ctx, c, "resources/list", "resources", decodeResource)
}

// ListResourceTemplates returns the resource templates the server lists
// (resources/templates/list), as runtime.ResourceTemplates without
// handlers.
func (c *Client) ListResourceTemplates(ctx context.Context) ([]*runtime.ResourceTemplate, error) {
	return list(ctx, c, "resources/templates/list", "resourceTemplates", decodeTemplate)
}

// ReadResource reads the resource uri (resources/read). Its handler may
// ask the client, as a tool's may (see CallTool). The result's Cache is
// the hint a client of RequestRevision gets, nil under a session
// revision. A URI that names nothing is a *runtime.ProtocolError: -32002
// under a session revision, -32602 under RequestRevision.
func (c *Client) ReadResource(ctx context.Context, uri string) (*runtime.ResourceResult, error) {
	return fetch(ctx, c, "resources/read", map[string]any{"uri": uri}, "reading "+uri, resourceResult)
}

// fetch sends the request method with params and decodes its result with
// decode; what says what the request does, for its errors.
func fetch[T any](ctx context.Context, c *Client, method string, params map[string]any, what string, decode func(json.RawMessage) (T, error)) (T, error) {
	var zero T
	var raw json.RawMessage
	if err := c.request(ctx, method, params, &raw); err != nil {
		return zero, fmt.Errorf("runtimetest: %s: %w", what, err)
	}
	res, err := decode(raw)
	if err != nil {
		return zero, fmt.Errorf("runtimetest: %s: the result: %w", what, err)
	}
	return res, nil
}

// CompletePrompt asks for values of an argument of the prompt name
// (completion/complete with a reference to the prompt).
func (c *Client) CompletePrompt(ctx context.Context, name string, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
	return c.complete(ctx, map[string]string{"type": "ref/prompt", "name": name}, req)
}

// CompleteResource asks for values of a variable of the resource
// template uriTemplate (completion/complete with a reference to the
// template).
func (c *Client) CompleteResource(ctx context.Context, uriTemplate string, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
	return c.complete(ctx, map[string]string{"type": "ref/resource", "uri": uriTemplate}, req)
}

func (c *Client) complete(ctx context.Context, ref map[string]string, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
	params := map[string]any{
		"ref":      ref,
		"argument": map[string]string{"name": req.Argument, "value": req.Value},
	}
	if req.Context != nil {
		params["context"] = map[string]any{"arguments": req.Context}
	}
	var res struct {
		Completion struct {
			Values  []string `json:"values"`
			Total   int      `json:"total"`
			HasMore bool     `json:"hasMore"`
		} `json:"completion"`
	}
	if err := c.request(ctx, "completion/complete", params, &res); err != nil {
		return nil, fmt.Errorf("runtimetest: completing %s: %w", req.Argument, err)
	}
	return &runtime.CompleteResult{Values: res.Completion.Values, Total: res.Completion.Total, HasMore: res.Completion.HasMore}, nil
}

// Text returns the text of a tool's result: its text blocks, joined by
// newlines. It is "" for a nil result.
func Text(res *runtime.ToolResult) string {
	if res == nil {
		return ""
	}
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(runtime.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// Structured decodes the structured content of a tool's result into v,
// with encoding/json. A result without any is an error that says so,
// with the result's text (which, for a failed call, says why). Under a
// session revision, a tool whose output schema is not an object's sends
// its value wrapped as {"result": …}, which v then receives.
func Structured(res *runtime.ToolResult, v any) error {
	raw, ok := res.StructuredContent.(json.RawMessage)
	if !ok || raw == nil {
		return fmt.Errorf("runtimetest: the result has no structured content; its text: %.300s", Text(res))
	}
	return json.Unmarshal(raw, v)
}
