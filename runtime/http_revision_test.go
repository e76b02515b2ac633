package runtime

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// perRequestHeaders are the headers of a request of revision 2026-07-28
// for method, plus extra pairs as for mcptest.Headers.
func perRequestHeaders(method string, extra ...string) []string {
	return append([]string{wire.HeaderProtocolVersion, wire.RequestRevision, wire.HeaderMethod, method}, extra...)
}

func headerTestServer() *Server {
	s, _ := newHTTPTestServer()
	s.AddTool(&Tool{Name: "regional", InputSchema: `{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"level":{"type":"integer","x-mcp-header":"Level"},
		"opts":{"type":"object","properties":{"fast":{"type":"boolean","x-mcp-header":"Fast"}}}}}`,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			return TextResult(string(req.Arguments)), nil
		}})
	return s
}

// TestHTTPPerRequestHeaders: the headers of a request of revision 2026-07-28 must agree with
// its body, checked in the order the specification gives; an unknown
// method is 404; a session header is ignored.
func TestHTTPPerRequestHeaders(t *testing.T) {
	url := serveHTTPTest(t, headerTestServer(), &HTTPOptions{Sessions: true})
	call := mcptest.PerRequest(1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`, "{}")
	ok := func(what, body string, hdr ...string) {
		t.Helper()
		if r := mcptest.Post(t, url, body, hdr...); r.Status != http.StatusOK || strings.Contains(string(r.Body), `"error"`) {
			t.Errorf("%s: status %d body %s", what, r.Status, r.Body)
		}
	}
	ok("all headers", call, perRequestHeaders("tools/call", wire.HeaderName, "echo")...)
	ok("name with spaces around it", call, perRequestHeaders("tools/call", wire.HeaderName, "  echo  ")...)
	ok("name in base64", call, perRequestHeaders("tools/call", wire.HeaderName, "=?base64?ZWNobw==?=")...)
	ok("lower-case header names", call, "mcp-protocol-version", wire.RequestRevision, "mcp-method", "tools/call", "mcp-name", "echo")
	ok("an unknown session", call, perRequestHeaders("tools/call", wire.HeaderName, "echo", wire.HeaderSessionID, "nosuch")...)
	ok("discover without clientInfo", mcptest.PerRequest(1, "server/discover", "", "{}"), perRequestHeaders("server/discover")...)

	for _, tc := range []struct {
		what         string
		body         string
		hdr          []string
		status, code int
	}{
		{"no version header", call, []string{wire.HeaderMethod, "tools/call", wire.HeaderName, "echo"}, 400, wire.HeaderMismatch},
		{"no _meta", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, perRequestHeaders("server/discover"), 400, -32602},
		{"header and _meta disagree", strings.Replace(call, `"2026-07-28"`, `"v999"`, 1), perRequestHeaders("tools/call", wire.HeaderName, "echo"), 400, wire.HeaderMismatch},
		{"unsupported version", strings.Replace(call, `"2026-07-28"`, `"v999"`, 1), []string{wire.HeaderProtocolVersion, "v999", wire.HeaderMethod, "tools/call", wire.HeaderName, "echo"}, 400, wire.UnsupportedVersion},
		{"no method header", call, []string{wire.HeaderProtocolVersion, wire.RequestRevision, wire.HeaderName, "echo"}, 400, wire.HeaderMismatch},
		{"other method", call, perRequestHeaders("tools/list", wire.HeaderName, "echo"), 400, wire.HeaderMismatch},
		{"method in other case", call, perRequestHeaders("TOOLS/CALL", wire.HeaderName, "echo"), 400, wire.HeaderMismatch},
		{"no name header", call, perRequestHeaders("tools/call"), 400, wire.HeaderMismatch},
		{"other name", call, perRequestHeaders("tools/call", wire.HeaderName, "whoami"), 400, wire.HeaderMismatch},
		{"bad base64 name", call, perRequestHeaders("tools/call", wire.HeaderName, "=?base64?ZWNobw?="), 400, wire.HeaderMismatch},
		{"unknown method", mcptest.PerRequest(1, "nosuch/method", "", "{}"), perRequestHeaders("nosuch/method"), 404, -32601},
		{"initialize", mcptest.PerRequest(1, "initialize", "", "{}"), perRequestHeaders("initialize"), 404, -32601},
		{"a response", `{"jsonrpc":"2.0","id":1,"result":{}}`, perRequestHeaders("x"), 400, -32600},
	} {
		mcptest.Post(t, url, tc.body, tc.hdr...).WantRequestError(t, tc.what, tc.status, tc.code, 1)
	}
}

// TestHTTPPerRequestParamHeaders: an argument marked x-mcp-header must be
// repeated in its Mcp-Param-* header when it has a value.
func TestHTTPPerRequestParamHeaders(t *testing.T) {
	url := serveHTTPTest(t, headerTestServer(), nil)
	call := func(args string) string {
		return mcptest.PerRequest(1, "tools/call", `"name":"regional","arguments":`+args, "{}")
	}
	hdr := func(extra ...string) []string {
		return perRequestHeaders("tools/call", append([]string{wire.HeaderName, "regional"}, extra...)...)
	}
	for _, tc := range []struct {
		what, args string
		hdr        []string
		ok         bool
	}{
		{"base64", `{"region":"Hello"}`, hdr("Mcp-Param-Region", "=?base64?SGVsbG8=?="), true},
		{"plain", `{"region":"eu-west"}`, hdr("Mcp-Param-Region", "eu-west"), true},
		{"no prefix is literal", `{"region":"SGVsbG8="}`, hdr("Mcp-Param-Region", "SGVsbG8="), true},
		{"no suffix is literal", `{"region":"=?base64?SGVsbG8="}`, hdr("Mcp-Param-Region", "=?base64?SGVsbG8="), true},
		{"non-ASCII in base64", `{"region":"Zürich"}`, hdr("Mcp-Param-Region", "=?base64?WsO8cmljaA==?="), true},
		{"integer compared as a number", `{"level":42}`, hdr("Mcp-Param-Level", "42.0"), true},
		{"nested boolean", `{"opts":{"fast":true}}`, hdr("Mcp-Param-Fast", "true"), true},
		{"absent argument needs no header", `{}`, hdr(), true},
		{"null argument needs no header", `{"region":null}`, hdr(), true},
		{"missing header", `{"region":"test-value"}`, hdr(), false},
		{"bad padding", `{"region":"Hello"}`, hdr("Mcp-Param-Region", "=?base64?SGVsbG8?="), false},
		{"bad characters", `{"region":"Hello"}`, hdr("Mcp-Param-Region", "=?base64?SGVs!!!bG8=?="), false},
		{"other value", `{"region":"eu"}`, hdr("Mcp-Param-Region", "us"), false},
		{"other integer", `{"level":42}`, hdr("Mcp-Param-Level", "43"), false},
	} {
		r := mcptest.Post(t, url, call(tc.args), tc.hdr...)
		if tc.ok {
			if r.Status != http.StatusOK || strings.Contains(string(r.Body), `"error"`) {
				t.Errorf("%s: status %d body %s", tc.what, r.Status, r.Body)
			}
			continue
		}
		r.WantRequestError(t, tc.what, 400, wire.HeaderMismatch, 1)
	}
}

// TestHeaderParamsRefused: x-mcp-header where the specification forbids
// it makes AddTool panic, as any malformed tool does.
func TestHeaderParamsRefused(t *testing.T) {
	for _, schema := range []string{
		`{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A B"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"a"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}`,
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AddTool accepted %s", schema)
				}
			}()
			(&Server{}).AddTool(&Tool{Name: "t", InputSchema: schema, Handler: func(context.Context, *ToolRequest) (*ToolResult, error) { return nil, nil }})
		}()
	}
}

// askingServer has a tool that elicits a name; its replicas share key.
func askingServer(key string) *Server {
	s := &Server{Name: "asking", StateKey: []byte(key), Logger: slog.New(slog.DiscardHandler)}
	s.AddTool(&Tool{Name: "greet", Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
		q := &ElicitQuestion{Key: "user_name", Message: "What is your name?", Schema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`}
		if err := Ask(ctx, q); err != nil {
			return nil, err
		}
		var in struct{ Name string }
		json.Unmarshal(q.Content, &in)
		return TextResult("Hello, " + in.Name + "!"), nil
	}})
	return s
}

// TestHTTPPerRequestTwoReplicas: a call that asks the client can end on
// another replica than the one it began on, when both have the same
// StateKey; a replica with another key refuses the state.
func TestHTTPPerRequestTwoReplicas(t *testing.T) {
	a := serveHTTPTest(t, askingServer("shared secret"), nil)
	b := serveHTTPTest(t, askingServer("shared secret"), nil)
	other := serveHTTPTest(t, askingServer("another secret"), nil)
	caps := `{"elicitation":{}}`
	hdr := perRequestHeaders("tools/call", wire.HeaderName, "greet")
	r := mcptest.Post(t, a, mcptest.PerRequest(1, "tools/call", `"name":"greet"`, caps), hdr...)
	var round1 struct {
		Result struct {
			ResultType    string
			InputRequests map[string]json.RawMessage
			RequestState  string
		}
	}
	if err := json.Unmarshal(r.Body, &round1); err != nil || round1.Result.ResultType != "input_required" || round1.Result.InputRequests["user_name"] == nil {
		t.Fatalf("round 1 on replica a: %s", r.Body)
	}
	retry := mcptest.PerRequest(2, "tools/call", `"name":"greet","inputResponses":{"user_name":{"action":"accept","content":{"name":"Alice"}}},"requestState":"`+round1.Result.RequestState+`"`, caps)
	r = mcptest.Post(t, b, retry, hdr...)
	if got := mcptest.MustToolText(t, r.Response(t)); got != "Hello, Alice!" {
		t.Errorf("round 2 on replica b: %s", r.Body)
	}
	mcptest.Post(t, other, retry, hdr...).WantRequestError(t, "state of another key", 400, -32602, 2)
}

// TestHTTPPerRequestListen: subscriptions/listen over HTTP is an event stream
// that begins with the acknowledgement and carries the changes, and ends
// when the client goes away.
func TestHTTPPerRequestListen(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(mcptest.PerRequest(7, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}")))
	req.Header = mcptest.Headers(perRequestHeaders("subscriptions/listen")...)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	next := func() string {
		for lines.Scan() {
			if l, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
				return l
			}
		}
		t.Fatalf("the stream ended: %v", lines.Err())
		return ""
	}
	if got := next(); !strings.Contains(got, `"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"toolsListChanged":true}}`) {
		t.Errorf("first event %s", got)
	}
	s.RemoveTool("whoami")
	if got := next(); got != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}` {
		t.Errorf("change %s", got)
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.fanout.mu.Lock()
		n := len(s.fanout.listeners)
		s.fanout.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the listener outlived its request")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHTTPPerRequestProgress: a call of revision 2026-07-28's progress goes on its own event
// stream, its logs only at the level it asked for.
func TestHTTPPerRequestProgress(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	body := mcptest.PerRequest(3, "tools/call", `"name":"chatty","arguments":{"text":"yo"}`, "{}")
	body = strings.Replace(body, `"_meta":{`, `"_meta":{"progressToken":"p","io.modelcontextprotocol/logLevel":"warning",`, 1)
	msgs := mcptest.Post(t, url, body, perRequestHeaders("tools/call", wire.HeaderName, "chatty")...).MustMessages(t)
	var methods []string
	for _, m := range msgs {
		methods = append(methods, m.Method)
	}
	if got := strings.Join(methods, ","); got != "notifications/progress,notifications/message,notifications/progress," {
		t.Errorf("messages %q", got)
	}
}

// TestHTTPSetLevelStateless: over Streamable HTTP without a session,
// logging/setLevel of revision 2026-07-28 is refused, saying how to name
// the level per request instead, whether or not the request carries a
// _meta (the official Go SDK's client sends none with it).
func TestHTTPSetLevelStateless(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	for i, body := range []string{
		mcptest.PerRequest(1, "logging/setLevel", `"level":"debug"`, "{}"),
		`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}`,
	} {
		r := mcptest.Post(t, url, body, perRequestHeaders("logging/setLevel")...)
		r.WantRequestError(t, fmt.Sprint("setLevel ", i), http.StatusNotFound, jsonrpc.MethodNotFound, 1)
		if !strings.Contains(string(r.Body), "io.modelcontextprotocol/logLevel") {
			t.Errorf("the refusal does not say what to do: %s", r.Body)
		}
	}
}
