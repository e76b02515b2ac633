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

	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// modernBody is a request of revision 2026-07-28: params are JSON object
// members without braces, or "".
func modernBody(id int, method, params, caps string) string {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	if params != "" {
		params += ","
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s%s}}`, id, method, params, meta)
}

// modernHeaders are the headers of a modern request for method, plus
// extra pairs as for httpPostHeaders.
func modernHeaders(method string, extra ...string) []string {
	return append([]string{wire.HeaderProtocolVersion, wire.RequestRevision, wire.HeaderMethod, method}, extra...)
}

// wantModernError checks the reply's status, and that its body is a
// JSON-RPC error with code and the request's id.
func (r httpReply) wantModernError(t *testing.T, what string, status, code, id int) {
	t.Helper()
	var m rpcMessage
	if r.status != status || json.Unmarshal(r.body, &m) != nil || m.Error == nil || m.Error.Code != code || string(m.ID) != fmt.Sprint(id) {
		t.Errorf("%s: status %d body %s, want %d with error %d and id %d", what, r.status, r.body, status, code, id)
	}
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

// TestHTTPModernHeaders: the headers of a modern request must agree with
// its body, checked in the order the specification gives; an unknown
// method is 404; a session header is ignored.
func TestHTTPModernHeaders(t *testing.T) {
	url := serveHTTPTest(t, headerTestServer(), &HTTPOptions{Sessions: true})
	call := modernBody(1, "tools/call", `"name":"echo","arguments":{"text":"hi"}`, "{}")
	ok := func(what, body string, hdr ...string) {
		t.Helper()
		if r := httpPost(t, url, body, hdr...); r.status != http.StatusOK || strings.Contains(string(r.body), `"error"`) {
			t.Errorf("%s: status %d body %s", what, r.status, r.body)
		}
	}
	ok("all headers", call, modernHeaders("tools/call", wire.HeaderName, "echo")...)
	ok("name with spaces around it", call, modernHeaders("tools/call", wire.HeaderName, "  echo  ")...)
	ok("name in base64", call, modernHeaders("tools/call", wire.HeaderName, "=?base64?ZWNobw==?=")...)
	ok("lower-case header names", call, "mcp-protocol-version", wire.RequestRevision, "mcp-method", "tools/call", "mcp-name", "echo")
	ok("an unknown session", call, modernHeaders("tools/call", wire.HeaderName, "echo", wire.HeaderSessionID, "nosuch")...)
	ok("discover without clientInfo", modernBody(1, "server/discover", "", "{}"), modernHeaders("server/discover")...)

	for _, tc := range []struct {
		what         string
		body         string
		hdr          []string
		status, code int
	}{
		{"no version header", call, []string{wire.HeaderMethod, "tools/call", wire.HeaderName, "echo"}, 400, wire.HeaderMismatch},
		{"no _meta", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, modernHeaders("server/discover"), 400, -32602},
		{"header and _meta disagree", strings.Replace(call, `"2026-07-28"`, `"v999"`, 1), modernHeaders("tools/call", wire.HeaderName, "echo"), 400, wire.HeaderMismatch},
		{"unsupported version", strings.Replace(call, `"2026-07-28"`, `"v999"`, 1), []string{wire.HeaderProtocolVersion, "v999", wire.HeaderMethod, "tools/call", wire.HeaderName, "echo"}, 400, wire.UnsupportedVersion},
		{"no method header", call, []string{wire.HeaderProtocolVersion, wire.RequestRevision, wire.HeaderName, "echo"}, 400, wire.HeaderMismatch},
		{"other method", call, modernHeaders("tools/list", wire.HeaderName, "echo"), 400, wire.HeaderMismatch},
		{"method in other case", call, modernHeaders("TOOLS/CALL", wire.HeaderName, "echo"), 400, wire.HeaderMismatch},
		{"no name header", call, modernHeaders("tools/call"), 400, wire.HeaderMismatch},
		{"other name", call, modernHeaders("tools/call", wire.HeaderName, "whoami"), 400, wire.HeaderMismatch},
		{"bad base64 name", call, modernHeaders("tools/call", wire.HeaderName, "=?base64?ZWNobw?="), 400, wire.HeaderMismatch},
		{"unknown method", modernBody(1, "nosuch/method", "", "{}"), modernHeaders("nosuch/method"), 404, -32601},
		{"initialize", modernBody(1, "initialize", "", "{}"), modernHeaders("initialize"), 404, -32601},
		{"a response", `{"jsonrpc":"2.0","id":1,"result":{}}`, modernHeaders("x"), 400, -32600},
	} {
		httpPost(t, url, tc.body, tc.hdr...).wantModernError(t, tc.what, tc.status, tc.code, 1)
	}
}

// TestHTTPModernParamHeaders: an argument marked x-mcp-header must be
// repeated in its Mcp-Param-* header when it has a value.
func TestHTTPModernParamHeaders(t *testing.T) {
	url := serveHTTPTest(t, headerTestServer(), nil)
	call := func(args string) string {
		return modernBody(1, "tools/call", `"name":"regional","arguments":`+args, "{}")
	}
	hdr := func(extra ...string) []string {
		return modernHeaders("tools/call", append([]string{wire.HeaderName, "regional"}, extra...)...)
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
		r := httpPost(t, url, call(tc.args), tc.hdr...)
		if tc.ok {
			if r.status != http.StatusOK || strings.Contains(string(r.body), `"error"`) {
				t.Errorf("%s: status %d body %s", tc.what, r.status, r.body)
			}
			continue
		}
		r.wantModernError(t, tc.what, 400, wire.HeaderMismatch, 1)
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

// TestHTTPModernTwoReplicas: a call that asks the client can end on
// another replica than the one it began on, when both have the same
// StateKey; a replica with another key refuses the state.
func TestHTTPModernTwoReplicas(t *testing.T) {
	a := serveHTTPTest(t, askingServer("shared secret"), nil)
	b := serveHTTPTest(t, askingServer("shared secret"), nil)
	other := serveHTTPTest(t, askingServer("another secret"), nil)
	caps := `{"elicitation":{}}`
	hdr := modernHeaders("tools/call", wire.HeaderName, "greet")
	r := httpPost(t, a, modernBody(1, "tools/call", `"name":"greet"`, caps), hdr...)
	var round1 struct {
		Result struct {
			ResultType    string
			InputRequests map[string]json.RawMessage
			RequestState  string
		}
	}
	if err := json.Unmarshal(r.body, &round1); err != nil || round1.Result.ResultType != "input_required" || round1.Result.InputRequests["user_name"] == nil {
		t.Fatalf("round 1 on replica a: %s", r.body)
	}
	retry := modernBody(2, "tools/call", `"name":"greet","inputResponses":{"user_name":{"action":"accept","content":{"name":"Alice"}}},"requestState":"`+round1.Result.RequestState+`"`, caps)
	r = httpPost(t, b, retry, hdr...)
	if got := toolText(t, r.response(t)); got != "Hello, Alice!" {
		t.Errorf("round 2 on replica b: %s", r.body)
	}
	httpPost(t, other, retry, hdr...).wantModernError(t, "state of another key", 400, -32602, 2)
}

// TestHTTPModernListen: subscriptions/listen over HTTP is an event stream
// that begins with the acknowledgement and carries the changes, and ends
// when the client goes away.
func TestHTTPModernListen(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(modernBody(7, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}")))
	req.Header = httpPostHeaders(modernHeaders("subscriptions/listen")...)
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

// TestHTTPModernProgress: a modern call's progress goes on its own event
// stream, its logs only at the level it asked for.
func TestHTTPModernProgress(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	body := modernBody(3, "tools/call", `"name":"chatty","arguments":{"text":"yo"}`, "{}")
	body = strings.Replace(body, `"_meta":{`, `"_meta":{"progressToken":"p","io.modelcontextprotocol/logLevel":"warning",`, 1)
	msgs := httpPost(t, url, body, modernHeaders("tools/call", wire.HeaderName, "chatty")...).messages(t)
	var methods []string
	for _, m := range msgs {
		methods = append(methods, m.Method)
	}
	if got := strings.Join(methods, ","); got != "notifications/progress,notifications/message,notifications/progress," {
		t.Errorf("messages %q", got)
	}
}
