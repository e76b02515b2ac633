package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

const formSchema = `{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},"required":["name"]}`

// askServer has tools that ask the client: elicit, url, sample and roots;
// each answers with what it got, or its error.
func askServer() *runtime.Server {
	s := &runtime.Server{Name: "ask", Logger: linepeer.DiscardLogger(), AskTimeout: time.Second}
	tool := func(name string, f func(ctx context.Context) (string, error)) {
		s.AddTool(&runtime.Tool{Name: name, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			text, err := f(ctx)
			if err != nil {
				return nil, err
			}
			return runtime.TextResult(text), nil
		}})
	}
	tool("elicit", func(ctx context.Context) (string, error) {
		action, content, err := runtime.Elicit(ctx, "Who are you?", formSchema)
		return fmt.Sprintf("%s %s", action, content), err
	})
	tool("url", func(ctx context.Context) (string, error) {
		action, err := runtime.ElicitURL(ctx, "Sign in", "https://example.com/login", "e1")
		return string(action), err
	})
	tool("sample", func(ctx context.Context) (string, error) {
		r, err := runtime.Sample(ctx, &runtime.SampleRequest{MaxTokens: 10, Messages: []runtime.SampleMessage{{Role: "user", Content: runtime.TextContent{Text: "hi"}}}})
		if err != nil {
			return "", err
		}
		return r.Model + ": " + r.Text(), nil
	})
	tool("roots", func(ctx context.Context) (string, error) {
		roots, err := runtime.Roots(ctx)
		return fmt.Sprint(roots), err
	})
	return s
}

// question waits for the server's request with method and returns its id
// and params.
func question(p *linepeer.Peer, method string) (string, json.RawMessage) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	line := p.Take("the server's "+method, func(l []byte) bool {
		return json.Unmarshal(l, &m) == nil && m.Method == method && m.ID != nil
	})
	json.Unmarshal(line, &m)
	return string(m.ID), m.Params
}

// TestAskOverStdio: a handler asks the client, over stdio, and gets the
// answer the client sends back, checked against the form; a decline,
// a content that breaks the form, an error answer and a response to no
// question are all handled.
func TestAskOverStdio(t *testing.T) {
	linepeer.CheckLeaks(t)
	p := serveStdio(t, askServer())
	p.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},"url":{}},"sampling":{},"roots":{"listChanged":true}}}}`)
	reply(p, "0")

	for i, c := range []struct{ answer, want string }{
		{`{"action":"accept","content":{"name":"Ada","age":36}}`, `accept {\"name\":\"Ada\",\"age\":36}`},
		{`{"action":"decline"}`, `decline `},
		{`{"action":"accept","content":{"age":-1}}`, `the client's content does not match the form:\n- age: must be at least 0; got -1\n- name: is required`},
		// Members are read by their exact names, as the runtime reads every
		// message: "Action" is not "action". encoding/json, which matches
		// names case-insensitively and keeps the last, read an accept here
		// that every exact-key reader (a proxy, an audit log) saw declined.
		{`{"action":"decline","Action":"accept","content":{"name":"Eve"}}`, `decline `},
		{`{"Action":"accept","content":{"name":"Eve"}}`, `the client answered with the action ; want accept, decline or cancel`},
	} {
		p.Send(mcptest.Call(10+i, "elicit", ""))
		id, params := question(p, "elicitation/create")
		if !strings.Contains(string(params), `"mode":"form","message":"Who are you?","requestedSchema":{"type":"object"`) {
			t.Errorf("params %s", params)
		}
		p.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":` + c.answer + `}`)
		if got := reply(p, fmt.Sprint(10+i)); !strings.Contains(got, c.want) {
			t.Errorf("answer %s: %s", c.answer, got)
		}
	}

	p.Send(mcptest.Call(20, "url", ""))
	id, params := question(p, "elicitation/create")
	if string(params) != `{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e1"}` {
		t.Errorf("url params %s", params)
	}
	p.Send(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-1,"message":"no browser"}}`)
	if got := reply(p, "20"); !strings.Contains(got, `the client answered with error -1: no browser`) {
		t.Errorf("error answer: %s", got)
	}

	p.Send(mcptest.Call(21, "sample", ""))
	id, _ = question(p, "sampling/createMessage")
	p.Send(`{"jsonrpc":"2.0","id":"not-asked","result":{}}`) // answers nothing: dropped
	p.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"role":"assistant","model":"m1","content":{"type":"text","text":"hello"}}}`)
	if got := reply(p, "21"); !strings.Contains(got, `"text":"m1: hello"`) {
		t.Errorf("sampling: %s", got)
	}

	p.Send(mcptest.Call(22, "roots", ""))
	id, _ = question(p, "roots/list")
	p.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"roots":[{"uri":"file:///src","name":"src"}]}}`)
	if got := reply(p, "22"); !strings.Contains(got, `"text":"[{file:///src src}]"`) {
		t.Errorf("roots: %s", got)
	}

	// Sampling and roots answers are read by exact names too: an image
	// block with a "Type" of text has no text, a "Role" is no role and
	// "Roots" and "URI" are not the members the specification names.
	for i, c := range []struct{ tool, method, answer, want string }{
		{"sample", "sampling/createMessage", `{"role":"assistant","model":"m1","content":{"type":"image","Type":"text","text":"hidden","data":"","mimeType":"image/png"}}`, `"text":"m1: "`},
		{"sample", "sampling/createMessage", `{"role":"assistant","model":"m1","content":[{"type":"text","text":"a"},{"Type":"text","text":"hidden"},{"type":"text","text":"b"}]}`, `"text":"m1: ab"`},
		{"sample", "sampling/createMessage", `{"Role":"assistant","model":"m1","content":{"type":"text","text":"hello"}}`, `the client's answer is malformed`},
		{"roots", "roots/list", `{"Roots":[{"uri":"file:///src"}]}`, `roots: the client's answer has no list of roots`},
		{"roots", "roots/list", `{"roots":[{"URI":"file:///src"}]}`, `the client's root 0 is not an object with a uri`},
	} {
		p.Send(mcptest.Call(30+i, c.tool, ""))
		id, _ := question(p, c.method)
		p.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":` + c.answer + `}`)
		if got := reply(p, fmt.Sprint(30+i)); !strings.Contains(got, c.want) {
			t.Errorf("%s answer %s: %s, want %s", c.method, c.answer, got, c.want)
		}
	}

	// Answers of the wrong shape are errors the handler gets.
	p.Send(mcptest.Call(23, "roots", ""))
	id, _ = question(p, "roots/list")
	p.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"roots":"everything"}}`)
	if got := reply(p, "23"); !strings.Contains(got, `roots: the client's answer has no list of roots`) {
		t.Errorf("malformed roots: %s", got)
	}
	p.Send(mcptest.Call(24, "sample", ""))
	id, _ = question(p, "sampling/createMessage")
	p.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"model":"m1"}}`)
	if got := reply(p, "24"); !strings.Contains(got, `sampling: the client's answer is malformed`) {
		t.Errorf("malformed sampling: %s", got)
	}
}

// TestAskWithoutCapability: asking a client that did not declare the
// capability fails at once, never a wait.
func TestAskWithoutCapability(t *testing.T) {
	p := serveStdio(t, askServer())
	p.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}}}}`)
	reply(p, "0")
	for i, c := range []struct{ tool, want string }{
		{"url", "URL elicitation: not supported by this client: the client did not declare the capability"},
		{"sample", "sampling: not supported by this client"},
		{"roots", "roots: not supported by this client"},
	} {
		p.Send(mcptest.Call(i+1, c.tool, ""))
		if got := reply(p, fmt.Sprint(i+1)); !strings.Contains(got, c.want) || !strings.Contains(got, `"isError":true`) {
			t.Errorf("%s: %s", c.tool, got)
		}
	}
}

// TestAskGivenUp: a client that never answers hits AskTimeout, and a
// cancelled call withdraws its question; both send notifications/cancelled
// for the question.
func TestAskGivenUp(t *testing.T) {
	linepeer.CheckLeaks(t)
	p := serveStdio(t, askServer())
	p.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}}}}`)
	reply(p, "0")
	p.Send(mcptest.Call(1, "roots", ""))
	id, _ := question(p, "roots/list")
	if got := reply(p, "1"); !strings.Contains(got, "roots: the client did not answer within 1s") {
		t.Errorf("timeout: %s", got)
	}
	p.Take("the withdrawal", func(l []byte) bool {
		return strings.Contains(string(l), `"method":"notifications/cancelled","params":{"requestId":`+id+`,`)
	})

	p.Send(mcptest.Call(2, "roots", ""))
	id, _ = question(p, "roots/list")
	p.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	p.Take("the withdrawal", func(l []byte) bool {
		return strings.Contains(string(l), `"method":"notifications/cancelled","params":{"requestId":`+id+`,`)
	})
	p.Send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	reply(p, "3")
	if left := p.Pending(); len(left) > 0 {
		t.Errorf("the cancelled call was answered: %q", left)
	}
}

// TestRootsChanged: a client's notifications/roots/list_changed runs
// OnRootsChanged, in which Roots asks that client.
func TestRootsChanged(t *testing.T) {
	s := askServer()
	got := make(chan string, 1)
	s.OnRootsChanged = func(ctx context.Context) {
		roots, err := runtime.Roots(ctx)
		got <- fmt.Sprint(roots, err)
	}
	p := serveStdio(t, s)
	p.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}}}}`)
	reply(p, "0")
	p.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	id, _ := question(p, "roots/list")
	p.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"roots":[{"uri":"file:///new"}]}}`)
	select {
	case r := <-got:
		if r != "[{file:///new }] <nil>" {
			t.Errorf("OnRootsChanged saw %s", r)
		}
	case <-time.After(linepeer.HangGuard):
		t.Fatal("OnRootsChanged never got the roots")
	}

}
