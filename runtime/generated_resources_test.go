package runtime_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/testdata/golden/forms"
	"github.com/mcpgen/mcpgen/testdata/golden/prompts"
	"github.com/mcpgen/mcpgen/testdata/golden/resources"
)

// TestGeneratedResources reads the generated resources of the golden
// package: fixed URIs of text, bytes and JSON, a template whose variables
// convert to an int and an enum, and a reserved expansion; a variable that
// does not convert is answered with -32602 naming it, and serving goes on.
func TestGeneratedResources(t *testing.T) {
	linepeer.CheckLeaks(t)
	p := serveStdio(t, resources.NewServer(&resources.Files{Root: "/srv"}))
	p.Send(mcptest.Initialize(0, "2025-11-25"))
	reply(p, "0")
	read := func(id, uri string) string {
		p.Send(`{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"uri":"` + uri + `"}}`)
		return reply(p, id)
	}
	for _, c := range []struct{ uri, want string }{
		{"app://status", `"contents":[{"uri":"app://status","mimeType":"text/plain","text":"up"}]`},
		{"app://logo.png", `"contents":[{"uri":"app://logo.png","mimeType":"image/png","blob":"iVBORw=="}]`},
		{"file:///etc/app.json", `"contents":[{"uri":"file:///etc/app.json","mimeType":"application/json","text":"{\"workers\":4}"}]`},
		{"repo://golang/go/issues/42/open", `"text":"{\"number\":42,\"title\":\"golang/go#42 (open)\"}"`},
		{"file:///srv/a/b%20c.txt", `"text":"/srv/a/b c.txt"`},
	} {
		if got := read("1", c.uri); !strings.Contains(got, c.want) {
			t.Errorf("read %s: %s, want it to hold %s", c.uri, got, c.want)
		}
	}
	for _, c := range []struct{ uri, want string }{
		{"repo://golang/go/issues/abc/open", `number: must be a decimal integer of 64 bits; got \"abc\"`},
		{"repo://golang/go/issues/99999999999999999999/open", `must be a decimal integer of 64 bits`},
		{"repo://golang/go/issues/42/stale", `state: must be one of \"open\", \"closed\"; got \"stale\"`},
	} {
		got := read("2", c.uri)
		if code, _ := mcptest.Error(t, got); code != -32602 || !strings.Contains(got, c.want) {
			t.Errorf("read %s: %s, want -32602 holding %s", c.uri, got, c.want)
		}
	}
	if code, _ := mcptest.Error(t, read("3", "repo://golang/go")); code != -32002 {
		t.Errorf("a URI no template matches: code %d, want -32002", code)
	}
	if got := read("4", "app://status"); !strings.Contains(got, `"text":"up"`) {
		t.Errorf("after bad input: %s", got)
	}
}

// TestGeneratedPrompts gets the generated prompts of the golden package:
// arguments converted to their fields' types, a missing or unconvertible
// argument answered with -32602, and completion from the constants and
// the completer.
func TestGeneratedPrompts(t *testing.T) {
	linepeer.CheckLeaks(t)
	p := serveStdio(t, prompts.NewServer())
	p.Send(mcptest.Initialize(0, "2025-11-25"))
	reply(p, "0")
	send := func(id, method, params string) string {
		p.Send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`)
		return reply(p, id)
	}
	got := send("1", "prompts/get", `{"name":"summarize","arguments":{"id":"n1","style":"brief","words":"30"}}`)
	if !strings.Contains(got, `"text":"Summarize note n1 (brief, 30 words)."`) {
		t.Errorf("summarize: %s", got)
	}
	for _, c := range []struct{ args, want string }{
		{`{"style":"brief"}`, `invalid arguments for prompt summarize:\n- id: is required`},
		{`{"id":"n1","words":"many"}`, `invalid arguments for prompt summarize:\n- words: must be a decimal integer of 64 bits; got \"many\"`},
		{`{"id":"n1","style":"long"}`, `- style: must be one of \"brief\", \"detailed\"; got \"long\"`},
		{`{"id":"n1","tone":"dry","mood":"x"}`, `invalid arguments for prompt summarize:\n- mood: unknown argument (allowed: id, style, words)\n- tone: unknown argument (allowed: id, style, words)`},
	} {
		got := send("2", "prompts/get", `{"name":"summarize","arguments":`+c.args+`}`)
		if code, _ := mcptest.Error(t, got); code != -32602 || !strings.Contains(got, c.want) {
			t.Errorf("summarize %s: %s, want -32602 holding %s", c.args, got, c.want)
		}
	}
	if got := send("3", "prompts/get", `{"name":"hello"}`); !strings.Contains(got, `{"role":"assistant","content":{"type":"text","text":"Hello! What shall we do?"}}`) {
		t.Errorf("hello: %s", got)
	}
	for _, c := range []struct{ arg, value, want string }{
		{"style", "d", `"values":["detailed"]`},
		{"id", "n", `"values":["n1","n2"]`},
	} {
		got := send("4", "completion/complete", `{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"`+c.arg+`","value":"`+c.value+`"}}`)
		if !strings.Contains(got, c.want) {
			t.Errorf("complete %s=%q: %s, want %s", c.arg, c.value, got, c.want)
		}
	}
}

// TestGeneratedForm asks the user to fill the form generated for a struct
// marked //mcp:form: the client sees the elicitation schema, an accepted
// answer is decoded into the struct, and one that breaks the form is
// refused with what is wrong.
func TestGeneratedForm(t *testing.T) {
	linepeer.CheckLeaks(t)
	p := serveStdio(t, forms.NewServer())
	p.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}}}}`)
	reply(p, "0")
	for i, c := range []struct{ answer, want string }{
		{`{"action":"accept","content":{"name":"Ada","email":"ada@example.com","size":"M","colors":["red"]}}`, `"text":"Welcome, Ada"`},
		{`{"action":"decline"}`, `"text":"decline"`},
		{`{"action":"accept","content":{"name":"","email":"ada@example.com","size":"XL"}}`, `size: must be one of`},
	} {
		p.Send(mcptest.Call(10+i, "signup", ""))
		id, params := question(p, "elicitation/create")
		if !strings.Contains(string(params), `"requestedSchema":{"properties":{"name":{"type":"string","maxLength":50,"minLength":1,"title":"Your name"`) ||
			strings.Contains(string(params), `$schema`) {
			t.Errorf("params %s", params)
		}
		p.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":` + c.answer + `}`)
		if got := reply(p, fmt.Sprint(10+i)); !strings.Contains(got, c.want) {
			t.Errorf("answer %s: %s, want it to hold %s", c.answer, got, c.want)
		}
	}
	var out forms.Reply
	if s := out.MCPSchema(); !strings.Contains(s, `"summary"`) {
		t.Errorf("Reply.MCPSchema: %s", s)
	}
}
