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

func TestPerRequestDiscover(t *testing.T) {
	p := serveStdio(t, askServer())
	p.Send(mcptest.PerRequest(1, "server/discover", "", "{}"))
	var d struct {
		ResultType        string
		SupportedVersions []string
		Capabilities      map[string]json.RawMessage
		Meta              map[string]struct{ Name, Version string } `json:"_meta"`
		TTLMs             *int64                                    `json:"ttlMs"`
		CacheScope        string
	}
	mcptest.Result(t, reply(p, "1"), &d)
	if d.ResultType != "complete" || strings.Join(d.SupportedVersions, " ") != "2026-07-28 2025-11-25 2025-06-18 2025-03-26 2024-11-05" ||
		d.Capabilities["tools"] == nil || d.Meta["io.modelcontextprotocol/serverInfo"].Name != "ask" || d.TTLMs == nil || d.CacheScope != "public" {
		t.Errorf("discover: %+v", d)
	}
}

// TestPerRequestRequestMeta: a request of revision 2026-07-28 must declare its version and
// capabilities, in a version this package serves; its id comes back in
// every error.
func TestPerRequestRequestMeta(t *testing.T) {
	p := serveStdio(t, askServer())
	for _, tc := range []struct {
		line string
		code int
	}{
		{`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, -32602},
		{`{"jsonrpc":"2.0","id":"b","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7,"io.modelcontextprotocol/clientCapabilities":{}}}}`, -32602},
		{`{"jsonrpc":"2.0","id":"c","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}}`, -32602},
		{`{"jsonrpc":"2.0","id":"d","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999","io.modelcontextprotocol/clientCapabilities":{}}}}`, -32022},
		{mcptest.PerRequest("e", "initialize", "", "{}"), -32601},
		{mcptest.PerRequest("f", "ping", "", "{}"), -32601},
		{mcptest.PerRequest("h", "resources/subscribe", `"uri":"x:y"`, "{}"), -32601},
	} {
		var m struct{ ID string }
		json.Unmarshal([]byte(tc.line), &m)
		p.Send(tc.line)
		got := reply(p, `"`+m.ID+`"`)
		code, data := mcptest.Error(t, got)
		if code != tc.code {
			t.Errorf("%s: %s", tc.line, got)
		}
		if code == -32022 && data != `{"supported":["2026-07-28"],"requested":"v999"}` {
			t.Errorf("unsupported version data %s", data)
		}
	}
	// logging/setLevel, which the revision removed, sets the level of the
	// connection (see TestOfficialClientLogsPerRequest).
	p.Send(mcptest.PerRequest("g", "logging/setLevel", `"level":"debug"`, "{}"))
	if got := reply(p, `"g"`); !strings.Contains(got, `"result":{"resultType":"complete"}`) {
		t.Errorf("logging/setLevel per request, over stdio: %s", got)
	}
	// The same process still serves a client of a session revision.
	p.Send(mcptest.Initialize(1, "2025-11-25"))
	if got := reply(p, "1"); !strings.Contains(got, `"protocolVersion":"2025-11-25"`) {
		t.Errorf("initialize: %s", got)
	}
}

// outputServer has a tool whose output is a list, not an object.
func outputServer() *runtime.Server {
	s := &runtime.Server{Name: "out", Logger: linepeer.DiscardLogger()}
	s.AddTool(&runtime.Tool{
		Name:         "primes",
		OutputSchema: `{"type":"array","items":{"type":"integer"}}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return &runtime.ToolResult{Content: []runtime.Content{runtime.TextContent{Text: "[2,3,5]"}}, StructuredContent: []int{2, 3, 5}}, nil
		},
	})
	return s
}

// TestOutputByRevision: an output that is not an object is sent as it is to a
// client of revision 2026-07-28, and wrapped in {"result": …} for one of a session revision, whose
// protocol requires an object.
func TestOutputByRevision(t *testing.T) {
	p := serveStdio(t, outputServer())
	p.Send(mcptest.PerRequest(1, "tools/list", "", "{}"))
	if got := reply(p, "1"); !strings.Contains(got, `"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[{"name":"primes","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"outputSchema":{"type":"array","items":{"type":"integer"}}}]`) {
		t.Errorf("per-request tools/list: %s", got)
	}
	p.Send(mcptest.PerRequest(2, "tools/call", `"name":"primes"`, "{}"))
	if got := reply(p, "2"); !strings.Contains(got, `"resultType":"complete","content":[{"type":"text","text":"[2,3,5]"}],"structuredContent":[2,3,5]}`) {
		t.Errorf("per-request tools/call: %s", got)
	}
	p.Send(mcptest.Initialize(3, "2025-11-25"))
	reply(p, "3")
	p.Send(`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	if got := reply(p, "4"); !strings.Contains(got, `"outputSchema":{"type":"object","properties":{"result":{"type":"array","items":{"type":"integer"}}},"required":["result"]}`) || strings.Contains(got, "resultType") {
		t.Errorf("session revision tools/list: %s", got)
	}
	p.Send(mcptest.Call(5, "primes", ""))
	if got := reply(p, "5"); !strings.Contains(got, `"structuredContent":{"result":[2,3,5]}`) {
		t.Errorf("session revision tools/call: %s", got)
	}
}

// inputRequired is the result of a round that asks the client.
type inputRequired struct {
	ResultType    string
	InputRequests map[string]struct {
		Method string
		Params json.RawMessage
	}
	RequestState string
}

// TestPerRequestAsk: under 2026-07-28 a handler's question ends the round with
// input_required; the retry with the answer completes the call, with the
// same handler code that asks a client of a session revision by request.
func TestPerRequestAsk(t *testing.T) {
	linepeer.CheckLeaks(t)
	p := serveStdio(t, askServer())
	p.Send(mcptest.PerRequest(1, "tools/call", `"name":"elicit"`, mcptest.AllCaps))
	var r1 inputRequired
	mcptest.Result(t, reply(p, "1"), &r1)
	q, ok := r1.InputRequests["elicitation-1"]
	if r1.ResultType != "input_required" || !ok || q.Method != "elicitation/create" || r1.RequestState == "" ||
		!strings.Contains(string(q.Params), `"requestedSchema":{"type":"object"`) {
		t.Fatalf("round 1: %+v", r1)
	}
	answer := `"inputResponses":{"elicitation-1":{"action":"accept","content":{"name":"Ada","age":36}}}`
	p.Send(mcptest.PerRequest(2, "tools/call", `"name":"elicit",`+answer+`,"requestState":"`+r1.RequestState+`"`, mcptest.AllCaps))
	if got := reply(p, "2"); !strings.Contains(got, `"resultType":"complete","content":[{"type":"text","text":"accept {\"name\":\"Ada\",\"age\":36}"}]`) {
		t.Errorf("round 2: %s", got)
	}
	// The state is optional for a one-round call.
	p.Send(mcptest.PerRequest(3, "tools/call", `"name":"elicit",`+answer, mcptest.AllCaps))
	if got := reply(p, "3"); !strings.Contains(got, `accept {`) {
		t.Errorf("round 2 without state: %s", got)
	}
	// Members of an answer are read by their exact names.
	p.Send(mcptest.PerRequest(6, "tools/call", `"name":"elicit","inputResponses":{"elicitation-1":{"action":"decline","Action":"accept","content":{"name":"Eve"}}}`, mcptest.AllCaps))
	if got := reply(p, "6"); !strings.Contains(got, `"text":"decline "`) {
		t.Errorf("action and Action: %s", got)
	}
	// An answer under another key: the question is asked again.
	p.Send(mcptest.PerRequest(4, "tools/call", `"name":"elicit","inputResponses":{"other":{"action":"accept"}}`, mcptest.AllCaps))
	var r4 inputRequired
	if mcptest.Result(t, reply(p, "4"), &r4); r4.ResultType != "input_required" {
		t.Errorf("wrong key: %+v", r4)
	}
	for _, tc := range []struct{ name, params string }{
		{"tampered state", `"name":"elicit",` + answer + `,"requestState":"` + r1.RequestState + `x"`},
		{"state of another tool", `"name":"roots","inputResponses":{},"requestState":"` + r1.RequestState + `"`},
		{"state not a string", `"name":"elicit",` + answer + `,"requestState":7`},
		{"answer of the wrong shape", `"name":"elicit","inputResponses":{"elicitation-1":12345}`},
		{"content that breaks the form", `"name":"elicit","inputResponses":{"elicitation-1":{"action":"accept","content":{"age":-1}}}`},
		{"inputResponses not an object", `"name":"elicit","inputResponses":null`},
	} {
		p.Send(mcptest.PerRequest(5, "tools/call", tc.params, mcptest.AllCaps))
		got := reply(p, "5")
		if code, _ := mcptest.Error(t, got); code != -32602 {
			t.Errorf("%s: %s", tc.name, got)
		}
	}
	// A client without the capability: -32021, naming it.
	p.Send(mcptest.PerRequest(6, "tools/call", `"name":"sample"`, `{"elicitation":{}}`))
	got := reply(p, "6")
	if code, data := mcptest.Error(t, got); code != -32021 || data != `{"requiredCapabilities":{"sampling":{}}}` {
		t.Errorf("missing capability: %s", got)
	}
	// Nothing is sent to the client but the answers.
	if pending := p.Pending(); len(pending) > 0 {
		t.Errorf("unexpected lines: %q", pending)
	}
}

// TestPerRequestAskRounds: several questions in one round, and a second round
// that depends on the first.
func TestPerRequestAskRounds(t *testing.T) {
	s := &runtime.Server{Name: "rounds", Logger: linepeer.DiscardLogger()}
	s.AddTool(&runtime.Tool{Name: "all", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		name := &runtime.ElicitQuestion{Key: "user_name", Message: "Name?", Schema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`}
		greeting := &runtime.SampleQuestion{Key: "greeting", Request: runtime.SampleRequest{MaxTokens: 50, Messages: []runtime.SampleMessage{{Role: "user", Content: runtime.TextContent{Text: "Hi"}}}}}
		roots := &runtime.RootsQuestion{Key: "client_roots"}
		if err := runtime.Ask(ctx, name, greeting, roots); err != nil {
			return nil, err
		}
		return runtime.TextResult(fmt.Sprintf("%s %s %v", name.Content, greeting.Result.Text(), roots.Roots)), nil
	}})
	s.AddTool(&runtime.Tool{Name: "steps", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		_, first, err := runtime.Elicit(ctx, "Step 1", `{"type":"object","properties":{"name":{"type":"string"}}}`)
		if err != nil {
			return nil, err
		}
		_, second, err := runtime.Elicit(ctx, "Step 2", `{"type":"object","properties":{"color":{"type":"string"}}}`)
		if err != nil {
			return nil, err
		}
		return runtime.TextResult(string(first) + string(second)), nil
	}})
	p := serveStdio(t, s)

	p.Send(mcptest.PerRequest(1, "tools/call", `"name":"all"`, mcptest.AllCaps))
	var r inputRequired
	mcptest.Result(t, reply(p, "1"), &r)
	if len(r.InputRequests) != 3 || r.InputRequests["user_name"].Method != "elicitation/create" ||
		r.InputRequests["greeting"].Method != "sampling/createMessage" || r.InputRequests["client_roots"].Method != "roots/list" {
		t.Fatalf("one round of three questions: %+v", r)
	}
	answers := `"inputResponses":{"user_name":{"action":"accept","content":{"name":"Alice"}},` +
		`"greeting":{"role":"assistant","content":{"type":"text","text":"Hello there!"},"model":"m"},` +
		`"client_roots":{"roots":[{"uri":"file:///w","name":"w"}]}},"requestState":"` + r.RequestState + `"`
	p.Send(mcptest.PerRequest(2, "tools/call", `"name":"all",`+answers, mcptest.AllCaps))
	if got := reply(p, "2"); !strings.Contains(got, `{\"name\":\"Alice\"} Hello there! [{file:///w w}]`) {
		t.Errorf("answered: %s", got)
	}

	p.Send(mcptest.PerRequest(3, "tools/call", `"name":"steps"`, mcptest.AllCaps))
	var r1, r2 inputRequired
	mcptest.Result(t, reply(p, "3"), &r1)
	p.Send(mcptest.PerRequest(4, "tools/call", `"name":"steps","inputResponses":{"elicitation-1":{"action":"accept","content":{"name":"Al"}}},"requestState":"`+r1.RequestState+`"`, mcptest.AllCaps))
	mcptest.Result(t, reply(p, "4"), &r2)
	if _, ok := r2.InputRequests["elicitation-2"]; !ok || r2.RequestState == r1.RequestState {
		t.Fatalf("round 2: %+v", r2)
	}
	// Round 3 brings only the second answer: the first is in the state.
	p.Send(mcptest.PerRequest(5, "tools/call", `"name":"steps","inputResponses":{"elicitation-2":{"action":"accept","content":{"color":"blue"}}},"requestState":"`+r2.RequestState+`"`, mcptest.AllCaps))
	if got := reply(p, "5"); !strings.Contains(got, `{\"name\":\"Al\"}{\"color\":\"blue\"}`) {
		t.Errorf("round 3: %s", got)
	}
}

// TestPerRequestLogging: a request of revision 2026-07-28 gets log notifications only when it
// asks for them, at its own level.
func TestPerRequestLogging(t *testing.T) {
	s := &runtime.Server{Name: "log", Logger: linepeer.DiscardLogger()}
	s.AddTool(&runtime.Tool{Name: "chatty", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		runtime.Logger(ctx).Debug("debug")
		runtime.Logger(ctx).Warn("warn")
		return runtime.TextResult("done"), nil
	}})
	p := serveStdio(t, s)
	p.Send(mcptest.PerRequest(1, "tools/call", `"name":"chatty"`, "{}"))
	reply(p, "1")
	if pending := p.Pending(); len(pending) > 0 {
		t.Errorf("logs without a log level: %q", pending)
	}
	line := strings.Replace(mcptest.PerRequest(2, "tools/call", `"name":"chatty"`, "{}"), `"_meta":{`, `"_meta":{"io.modelcontextprotocol/logLevel":"warning",`, 1)
	p.Send(line)
	p.Take("the warning", func(l []byte) bool { return strings.Contains(string(l), `"level":"warning"`) })
	reply(p, "2")
	if pending := p.Pending(); len(pending) > 0 {
		t.Errorf("logs below the level: %q", pending)
	}
}

// TestPerRequestResourceNotFound: -32602 with the URI under 2026-07-28, and
// -32002 under the session revisions.
func TestPerRequestResourceNotFound(t *testing.T) {
	s := &runtime.Server{Name: "res", Logger: linepeer.DiscardLogger()}
	s.AddResource(&runtime.Resource{URI: "app://status", Name: "status", Handler: func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
		return runtime.TextResource(req.URI, "text/plain", "ok"), nil
	}})
	p := serveStdio(t, s)
	p.Send(mcptest.PerRequest(1, "resources/read", `"uri":"app://nothing"`, "{}"))
	if code, data := mcptest.Error(t, reply(p, "1")); code != -32602 || data != `{"uri":"app://nothing"}` {
		t.Errorf("per-request: %d %s", code, data)
	}
	p.Send(mcptest.PerRequest(2, "resources/read", `"uri":"app://status"`, "{}"))
	if got := reply(p, "2"); !strings.Contains(got, `"resultType":"complete","ttlMs":0,"cacheScope":"private","contents":[`) {
		t.Errorf("per-request read: %s", got)
	}
	p.Send(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"app://nothing"}}`)
	if code, data := mcptest.Error(t, reply(p, "3")); code != -32002 || data != `{"uri":"app://nothing"}` {
		t.Errorf("session revision: %d %s", code, data)
	}
}

// TestPerRequestListen: subscriptions/listen acknowledges what it will send
// first, then sends only that, tagged with its id, until cancelled.
func TestPerRequestListen(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := outputServer()
	p := serveStdio(t, s)
	p.Send(mcptest.PerRequest("L", "subscriptions/listen", `"notifications":{"toolsListChanged":true,"promptsListChanged":true}`, "{}"))
	ack := p.Take("the acknowledgement", func(l []byte) bool { return strings.Contains(string(l), "acknowledged") })
	// The server has no prompts: it agrees to tools only.
	if string(ack) != `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"},"notifications":{"toolsListChanged":true}}}` {
		t.Errorf("ack %s", ack)
	}
	s.RemoveTool("primes")
	got := p.Take("the change", func(l []byte) bool { return strings.Contains(string(l), "list_changed") })
	if string(got) != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}` {
		t.Errorf("change %s", got)
	}
	s.ResourceUpdated("app://x") // not subscribed
	p.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`)
	p.Send(mcptest.PerRequest(1, "tools/list", "", "{}"))
	reply(p, "1")
	if pending := p.Pending(); len(pending) > 0 {
		t.Errorf("unexpected lines: %q", pending)
	}
}

// TestMethodsOfAbsentFeatures: a server without prompts (or resources, or
// completions) does not advertise them, and answers their methods with
// -32601 in both eras, as the specification asks.
func TestMethodsOfAbsentFeatures(t *testing.T) {
	p := serveStdio(t, outputServer())
	p.Send(mcptest.Initialize(0, "2025-11-25"))
	if got := reply(p, "0"); strings.Contains(got, `"prompts"`) || strings.Contains(got, `"resources"`) {
		t.Errorf("initialize advertises what the server lacks: %s", got)
	}
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"a:b"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"completion/complete","params":{}}`,
		mcptest.PerRequest(4, "prompts/list", "", "{}"),
		mcptest.PerRequest(5, "resources/templates/list", "", "{}"),
	} {
		p.Send(line)
		if code, _ := mcptest.Error(t, reply(p, fmt.Sprint(i+1))); code != -32601 {
			t.Errorf("%s: code %d", line, code)
		}
	}
}

// TestListenEndsAtEOF: a stdio client that closes its input while it
// listens gets the listen's final result, and Serve returns.
func TestListenEndsAtEOF(t *testing.T) {
	in := mcptest.PerRequest(9, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}") + "\n"
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- outputServer().Serve(context.Background(), strings.NewReader(in), &out) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(linepeer.HangGuard):
		t.Fatal("Serve did not return at EOF while a listen was open")
	}
	want := `{"jsonrpc":"2.0","id":9,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":9}}}`
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 2 || !strings.Contains(lines[0], "acknowledged") || lines[1] != want {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestListenHoldsNoSlot: an open subscriptions/listen holds neither a
// call slot nor message bytes, so that with the tightest bounds the
// server still reads and answers the next call, and the cancellation that
// ends the listen.
func TestListenHoldsNoSlot(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := outputServer()
	s.MaxInFlight = 1
	s.MaxPendingBytes = 1 // one message at a time
	p := serveStdio(t, s)
	p.Send(mcptest.PerRequest("L", "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}"))
	p.Take("the acknowledgement", func(l []byte) bool { return strings.Contains(string(l), "acknowledged") })
	p.Send(mcptest.PerRequest(1, "tools/call", `"name":"primes"`, "{}"))
	var res struct{ StructuredContent []int }
	mcptest.Result(t, reply(p, "1"), &res)
	if len(res.StructuredContent) != 3 {
		t.Errorf("primes: %v", res.StructuredContent)
	}
	p.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}`)
	p.Send(mcptest.PerRequest(2, "tools/list", "", "{}"))
	reply(p, "2")
	if pending := p.Pending(); len(pending) > 0 {
		t.Errorf("unexpected lines: %q", pending)
	}
}

// TestListenLimits: a server keeps at most 256 listen requests open
// (Server.MaxListens), one client at most MaxListensPerClient, and a
// listen request's params may take at most 64 KiB, since all are kept for
// as long as the request lasts.
func TestListenLimits(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := outputServer()
	s.MaxListensPerClient = 1000 // stdio has one client: test the server's bound
	p := serveStdio(t, s)
	acked := func(l []byte) bool { return strings.Contains(string(l), "acknowledged") }
	// A listen whose params take exactly 64 KiB is served; one byte more
	// is refused.
	sized := func(id string, size int) string {
		pad := func(n int) string {
			return mcptest.PerRequest(id, "subscriptions/listen", `"notifications":{"toolsListChanged":true},"x":"`+strings.Repeat("a", n)+`"`, "{}")
		}
		var m struct{ Params json.RawMessage }
		if err := json.Unmarshal([]byte(pad(0)), &m); err != nil {
			t.Fatal(err)
		}
		return pad(size - len(m.Params))
	}
	p.Send(sized("big", 64<<10+1))
	if code, _ := mcptest.Error(t, reply(p, `"big"`)); code != -32602 {
		t.Errorf("listen params of 64 KiB + 1: code %d, want -32602", code)
	}
	p.Send(sized("fits", 64<<10))
	p.Take("the acknowledgement of 64 KiB of params", acked)
	for i := 1; i < 256; i++ {
		p.Send(mcptest.PerRequest(fmt.Sprint("L", i), "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}"))
		p.Take("acknowledgement "+fmt.Sprint(i), acked)
	}
	p.Send(mcptest.PerRequest("L256", "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}"))
	if code, _ := mcptest.Error(t, reply(p, `"L256"`)); code != -32600 {
		t.Errorf("listen 257: code %d, want -32600", code)
	}
	if pending := p.Pending(); len(pending) > 0 {
		t.Errorf("unexpected lines: %q", pending)
	}
}

// TestListenShare: one client holds at most MaxListensPerClient listen
// requests (16 by default), so that it cannot take every slot of the
// server's.
func TestListenShare(t *testing.T) {
	linepeer.CheckLeaks(t)
	p := serveStdio(t, outputServer())
	acked := func(l []byte) bool { return strings.Contains(string(l), "acknowledged") }
	for i := range 16 {
		p.Send(mcptest.PerRequest(fmt.Sprint("L", i), "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}"))
		p.Take("acknowledgement "+fmt.Sprint(i), acked)
	}
	p.Send(mcptest.PerRequest("L16", "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}"))
	if got := reply(p, `"L16"`); !strings.Contains(got, `"code":-32600`) || !strings.Contains(got, "the most one client may") {
		t.Errorf("listen 17 of one client: %s", got)
	}
}
