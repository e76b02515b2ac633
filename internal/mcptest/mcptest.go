// Package mcptest is the MCP test kit of this repository, which the tests
// of every module share (the runtime's, auth's, otel's, store/redis's,
// the examples'): the messages a client sends (Request, Notification,
// Call, Initialize, PerRequest), what reads the answers (Message, Result,
// Error, ToolText, ToolError), a client of Streamable HTTP (Post, Send,
// Reply), and the reader of committed fuzz corpora (ReadCorpus). It
// speaks the protocol as bytes and imports no package of the runtime, so
// that the runtime's own internal tests can use it, and a test says
// exactly what goes on the wire.
package mcptest

import (
	"encoding/json"
	"fmt"
	"testing"
)

// AllCaps are the capabilities of a client that can answer every
// question: forms and URLs, sampling, roots.
const AllCaps = `{"elicitation":{"form":{},"url":{}},"sampling":{},"roots":{}}`

// TasksCaps are the capabilities of a client of the tasks extension.
const TasksCaps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// Initialized is the notification a client sends once initialize
// succeeded.
const Initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// Request returns a JSON-RPC request: params are the members of the
// params object without braces, or "" for none. id is encoded as JSON (a
// number or a string).
func Request(id any, method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q}`, jsonOf(id), method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{%s}}`, jsonOf(id), method, params)
}

// Notification returns a JSON-RPC notification, params as for Request.
func Notification(method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{%s}}`, method, params)
}

// Call returns a tools/call of tool with arguments, a JSON object (or ""
// for none).
func Call(id any, tool, arguments string) string {
	params := fmt.Sprintf(`"name":%q`, tool)
	if arguments != "" {
		params += `,"arguments":` + arguments
	}
	return Request(id, "tools/call", params)
}

// Object returns a JSON object of the name and value pairs, in order,
// each value encoded with encoding/json: the arguments of a Call, say.
func Object(pairs ...any) string {
	b := []byte{'{'}
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, jsonOf(fmt.Sprint(pairs[i]))...)
		b = append(b, ':')
		b = append(b, jsonOf(pairs[i+1])...)
	}
	return string(append(b, '}'))
}

// Initialize returns an initialize request for the revision rev, with no
// client capabilities.
func Initialize(id any, rev string) string {
	return Request(id, "initialize", fmt.Sprintf(`"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}`, rev))
}

// PerRequest returns a request of revision 2026-07-28: params (members
// without braces, or "") and the _meta that names the revision and
// declares caps, the client's capabilities.
func PerRequest(id any, method, params, caps string) string {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	if params != "" {
		meta = params + "," + meta
	}
	return Request(id, method, meta)
}

// A Message is a JSON-RPC message from the server, decoded.
type Message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *ErrorObject    `json:"error"`
}

// An ErrorObject is the error of a JSON-RPC response.
type ErrorObject struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// Result decodes the result of a response into v, failing the test on an
// error response.
func Result(t testing.TB, resp string, v any) {
	t.Helper()
	var m struct{ Result json.RawMessage }
	if err := json.Unmarshal([]byte(resp), &m); err != nil || m.Result == nil {
		t.Fatalf("not a result: %s", resp)
	}
	if err := json.Unmarshal(m.Result, v); err != nil {
		t.Fatalf("result %s: %v", m.Result, err)
	}
}

// Error returns the code and the data (as JSON, "" for none) of an error
// response, failing the test on anything else.
func Error(t testing.TB, resp string) (code int, data string) {
	t.Helper()
	var m struct{ Error *ErrorObject }
	if err := json.Unmarshal([]byte(resp), &m); err != nil || m.Error == nil {
		t.Fatalf("not an error: %s", resp)
	}
	return m.Error.Code, string(m.Error.Data)
}

// ToolText returns the text of a successful tools/call result with one
// text block, or an error that says what m is instead.
func ToolText(m Message) (string, error) {
	var res struct {
		Content []struct{ Type, Text string }
		IsError bool
	}
	if m.Error != nil || json.Unmarshal(m.Result, &res) != nil || len(res.Content) != 1 || res.IsError {
		return "", fmt.Errorf("want a successful tool result with one block, got result %s error %+v", m.Result, m.Error)
	}
	return res.Content[0].Text, nil
}

// MustToolText is ToolText, failing the test on errors.
func MustToolText(t testing.TB, m Message) string {
	t.Helper()
	text, err := ToolText(m)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// ToolError returns the response a server writes for a tool call that
// failed with text, a result with isError set.
func ToolError(id any, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}],"isError":true}}`, jsonOf(id), jsonOf(text))
}

func jsonOf(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
