package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// httpTools holds what the tools of newHTTPTestServer report to a test.
type httpTools struct {
	started   chan string   // "block" sends its argument when it starts
	release   chan struct{} // closing it lets "block" return
	cancelled chan string   // "block" sends its argument when its context ends
}

// newHTTPTestServer returns a server with the tools the HTTP tests call:
// echo (text), chatty (logs and progress, then text), whoami (a context
// value) and block (waits for release or cancellation).
func newHTTPTestServer() (*Server, *httpTools) {
	ht := &httpTools{started: make(chan string, 100), release: make(chan struct{}), cancelled: make(chan string, 100)}
	s := &Server{Name: "http-test", Version: "1.0.0", Logger: slog.New(slog.DiscardHandler)}
	textInput := `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`
	bind := func(req *ToolRequest) string {
		var in struct{ Text string }
		req.Bind(&in)
		return in.Text
	}
	s.AddTool(&Tool{Name: "echo", Description: "Echo the text.", InputSchema: textInput,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			return TextResult(bind(req)), nil
		}})
	s.AddTool(&Tool{Name: "chatty", Description: "Log and report progress about the text, then echo it.", InputSchema: textInput,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			text := bind(req)
			ReportProgress(ctx, 1, 2, "half")
			Logger(ctx).Info("info "+text, "text", text)
			Logger(ctx).Warn("warning " + text)
			ReportProgress(ctx, 2, 2, "done")
			return TextResult(text), nil
		}})
	s.AddTool(&Tool{Name: "whoami", Description: "Say who the caller's token says the caller is.",
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			ti := TokenInfoFromContext(ctx)
			if ti == nil {
				return TextResult(""), nil
			}
			return TextResult(ti.Subject), nil
		}})
	s.AddTool(&Tool{Name: "block", Description: "Wait until released or cancelled.", InputSchema: textInput,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			text := bind(req)
			ht.started <- text
			select {
			case <-ht.release:
				return TextResult("released " + text), nil
			case <-ctx.Done():
				ht.cancelled <- text
				return nil, ctx.Err()
			}
		}})
	return s, ht
}

// serveHTTPTest serves s at /mcp of a loopback test server.
func serveHTTPTest(t *testing.T, s *Server, opts *HTTPOptions) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler(opts))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func TestHTTPStatelessRequestsAnsweredWithJSON(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)

	r := mcptest.Post(t, url, mcptest.Initialize(0, "2025-11-25"))
	if r.Status != http.StatusOK || r.Header.Get(wire.HeaderSessionID) != "" {
		t.Fatalf("initialize: status %d, session %q; want 200 and no session", r.Status, r.Header.Get(wire.HeaderSessionID))
	}
	var init struct{ ProtocolVersion string }
	if m := r.Response(t); string(m.ID) != "0" || json.Unmarshal(m.Result, &init) != nil || init.ProtocolVersion != "2025-11-25" {
		t.Fatalf("initialize answered %s", r.Body)
	}

	r = mcptest.Post(t, url, `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`, wire.HeaderProtocolVersion, "2025-11-25")
	var list struct{ Tools []struct{ Name string } }
	if m := r.Response(t); string(m.ID) != `"list"` || json.Unmarshal(m.Result, &list) != nil || len(list.Tools) != 4 {
		t.Fatalf("tools/list answered %s", r.Body)
	}

	r = mcptest.Post(t, url, mcptest.Call(7, "echo", mcptest.Object("text", "hi")), wire.HeaderProtocolVersion, "2025-11-25")
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("tools/call: status %d, Content-Type %q", r.Status, r.Header.Get("Content-Type"))
	}
	if m := r.Response(t); string(m.ID) != "7" || mcptest.MustToolText(t, m) != "hi" {
		t.Fatalf("tools/call answered %s", r.Body)
	}

	// A failing call is still a response, with isError set.
	r = mcptest.Post(t, url, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{}}}`)
	if m := r.Response(t); string(m.ID) != "8" || !bytes.Contains(m.Result, []byte(`"isError":true`)) {
		t.Fatalf("invalid arguments answered %s", r.Body)
	}
	r = mcptest.Post(t, url, `{"jsonrpc":"2.0","id":9,"method":"no/such"}`)
	if m := r.Response(t); r.Status != http.StatusOK || m.Error == nil || m.Error.Code != jsonrpc.MethodNotFound {
		t.Fatalf("unknown method answered %d %s", r.Status, r.Body)
	}
}

func TestHTTPNotificationsStreamedBeforeResponse(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)

	r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chatty","arguments":{"text":"x"},"_meta":{"progressToken":"tok"}}}`)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, Content-Type %q; want 200 text/event-stream", r.Status, r.Header.Get("Content-Type"))
	}
	msgs := r.MustMessages(t)
	var methods []string
	for _, m := range msgs[:len(msgs)-1] {
		methods = append(methods, m.Method)
	}
	if got, want := strings.Join(methods, ","), "notifications/progress,notifications/message,notifications/message,notifications/progress"; got != want {
		t.Fatalf("notifications %s, want %s; stream:\n%s", got, want, r.Body)
	}
	var progress struct {
		ProgressToken json.RawMessage
		Progress      float64
	}
	if json.Unmarshal(msgs[0].Params, &progress) != nil || string(progress.ProgressToken) != `"tok"` || progress.Progress != 1 {
		t.Fatalf("progress notification %s", msgs[0].Params)
	}
	last := msgs[len(msgs)-1]
	if string(last.ID) != "3" || mcptest.MustToolText(t, last) != "x" {
		t.Fatalf("the stream does not end with the response: %s", r.Body)
	}

	// A call that sends nothing before its result is answered with JSON.
	r = mcptest.Post(t, url, mcptest.Call(4, "echo", mcptest.Object("text", "quiet")))
	if r.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("a call without notifications answered with %q", r.Header.Get("Content-Type"))
	}
}

func TestHTTPResponderDropsLateNotifications(t *testing.T) {
	// A handler's goroutine may still notify after the response: that
	// must never reach the stream (nor touch a finished ResponseWriter).
	rec := httptest.NewRecorder()
	rw := &httpResponder{w: rec, r: httptest.NewRequest(http.MethodPost, "/mcp", nil), log: slog.New(slog.DiscardHandler)}
	rw.notify([]byte(`{"jsonrpc":"2.0","method":"early"}`))
	rw.finish([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), 200)
	rw.notify([]byte(`{"jsonrpc":"2.0","method":"late"}`))
	want := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"early\"}\n\n" +
		"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	if got := rec.Body.String(); got != want {
		t.Fatalf("stream:\n%s\nwant:\n%s", got, want)
	}

	// Without notifications the response is one JSON body, and a late
	// notification does not turn it into a stream.
	rec = httptest.NewRecorder()
	rw = &httpResponder{w: rec, r: httptest.NewRequest(http.MethodPost, "/mcp", nil), log: slog.New(slog.DiscardHandler)}
	rw.finish([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), 200)
	rw.notify([]byte(`{"jsonrpc":"2.0","method":"late"}`))
	if got := rec.Body.String(); got != `{"jsonrpc":"2.0","id":1,"result":{}}` || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("body %q, Content-Type %q", got, rec.Header().Get("Content-Type"))
	}
}

func TestHTTPNotificationsAndResponsesAccepted(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	for _, body := range []string{
		mcptest.Initialized,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
		`{"jsonrpc":"2.0","id":6,"error":{"code":-1,"message":"no"}}`,
	} {
		if r := mcptest.Post(t, url, body); r.Status != http.StatusAccepted || len(r.Body) != 0 {
			t.Errorf("%s: status %d body %q, want 202 and no body", body, r.Status, r.Body)
		}
	}
}

func TestHTTPMethodsOtherThanPOST(t *testing.T) {
	s, _ := newHTTPTestServer()
	for _, tc := range []struct {
		sessions bool
		method   string
		allow    string
	}{
		{false, http.MethodGet, "POST"},
		{false, http.MethodDelete, "POST"},
		{false, http.MethodPut, "POST"},
		{true, http.MethodPatch, "GET, POST, DELETE"},
		{true, http.MethodPut, "GET, POST, DELETE"},
	} {
		url := serveHTTPTest(t, s, &HTTPOptions{Sessions: tc.sessions})
		r := mcptest.Do(t, tc.method, url, "", http.Header{"Accept": {"text/event-stream"}})
		r.WantError(t, http.StatusMethodNotAllowed, jsonrpc.InvalidRequest)
		if got := r.Header.Get("Allow"); got != tc.allow {
			t.Errorf("sessions=%v %s: Allow %q, want %q", tc.sessions, tc.method, got, tc.allow)
		}
	}
}

func TestHTTPProtocolVersionHeader(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	// Absent (2025-03-26 assumed) and every session revision are accepted,
	// whatever was negotiated.
	for _, v := range append([]string{""}, wire.SessionRevisions...) {
		if r := mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", v)), wire.HeaderProtocolVersion, v); r.Status != http.StatusOK || mcptest.MustToolText(t, r.Response(t)) != v {
			t.Errorf("version %q: status %d body %s", v, r.Status, r.Body)
		}
	}
	// Any other version is the per-request revision, whose requests must carry
	// their version in _meta too.
	for _, v := range []string{"2099-01-01", "garbage", wire.RequestRevision} {
		r := mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", v)), wire.HeaderProtocolVersion, v)
		if r.Status != http.StatusBadRequest || !strings.HasPrefix(string(r.Body), `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,`) {
			t.Errorf("version %q: status %d body %s", v, r.Status, r.Body)
		}
	}
}

func TestHTTPMalformedMessages(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	for _, tc := range []struct {
		body string
		code int
	}{
		{``, jsonrpc.ParseError},
		{`{"jsonrpc":"2.0","id":1,`, jsonrpc.ParseError},
		{`not json`, jsonrpc.ParseError},
		{`[` + mcptest.Call(1, "echo", mcptest.Object("text", "a")) + `]`, jsonrpc.InvalidRequest},
		{`{"jsonrpc":"2.0","id":1}`, jsonrpc.InvalidRequest},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, jsonrpc.InvalidRequest},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.InvalidRequest},
		{`"a string"`, jsonrpc.InvalidRequest},
	} {
		r := mcptest.Post(t, url, tc.body)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%q: status %d, want 400", tc.body, r.Status)
			continue
		}
		if m := r.Response(t); m.Error == nil || m.Error.Code != tc.code {
			t.Errorf("%q: body %s, want error %d", tc.body, r.Body, tc.code)
		}
	}
}

func TestHTTPBodyLimit(t *testing.T) {
	s, _ := newHTTPTestServer()
	s.MaxMessageSize = 1024
	url := serveHTTPTest(t, s, nil)
	fits := mcptest.Call(1, "echo", mcptest.Object("text", ""))
	fits = mcptest.Call(1, "echo", mcptest.Object("text", strings.Repeat("a", 1024-len(fits))))
	if r := mcptest.Post(t, url, fits); r.Status != http.StatusOK || len(mcptest.MustToolText(t, r.Response(t))) != 1024-len(mcptest.Call(1, "echo", mcptest.Object("text", ""))) {
		t.Fatalf("a message of exactly the limit: status %d body %.100s", r.Status, r.Body)
	}
	mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", strings.Repeat("a", 1024)))).WantError(t, http.StatusRequestEntityTooLarge, jsonrpc.InvalidRequest)

	// The default limit is DefaultMaxMessageSize.
	s2, _ := newHTTPTestServer()
	url2 := serveHTTPTest(t, s2, nil)
	mcptest.Post(t, url2, mcptest.Call(1, "echo", mcptest.Object("text", strings.Repeat("a", DefaultMaxMessageSize)))).WantError(t, http.StatusRequestEntityTooLarge, jsonrpc.InvalidRequest)
}

func TestHTTPAcceptAndContentType(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	for _, accept := range []string{"", "application/json", "text/event-stream", "text/html"} {
		mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "a")), "Accept", accept).WantError(t, http.StatusNotAcceptable, jsonrpc.InvalidRequest)
	}
	for _, accept := range []string{"*/*", "text/event-stream, application/json;q=0.9", "application/*, text/*"} {
		if r := mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "a")), "Accept", accept); r.Status != http.StatusOK {
			t.Errorf("Accept %q: status %d", accept, r.Status)
		}
	}
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded"} {
		mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "a")), "Content-Type", ct).WantError(t, http.StatusUnsupportedMediaType, jsonrpc.InvalidRequest)
	}
	if r := mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "a")), "Content-Type", "application/json; charset=utf-8"); r.Status != http.StatusOK {
		t.Errorf("Content-Type with charset: status %d", r.Status)
	}
}

func TestHTTPHostAndOriginOnLoopback(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	port := url[strings.LastIndex(url, ":")+1 : strings.LastIndex(url, "/")]
	for _, tc := range []struct {
		host, origin string
		ok           bool
	}{
		{"", "", true}, // the client's own: 127.0.0.1:port
		{"localhost:" + port, "", true},
		{"LOCALHOST", "", true},
		{"[::1]:" + port, "", true},
		{"127.0.0.1:" + port, "http://127.0.0.1:" + port, true},
		{"", "http://localhost:6274", true}, // a local web app, such as the MCP inspector
		{"", "https://[::1]", true},
		{"evil.example.com", "http://evil.example.com", false}, // DNS rebinding
		{"evil.example.com", "", false},
		{"127.0.0.1.evil.example.com:" + port, "", false},
		{"", "http://evil.example.com", false},
		{"", "null", false},
		{"", "file:///etc/passwd", false},
	} {
		hdr := []string{"Origin", tc.origin}
		if tc.host != "" {
			hdr = append(hdr, "Host", tc.host)
		}
		r := mcptest.Post(t, url, mcptest.Initialize(0, "2025-11-25"), hdr...)
		if tc.ok && r.Status != http.StatusOK {
			t.Errorf("Host %q Origin %q: status %d, want 200; body %s", tc.host, tc.origin, r.Status, r.Body)
		}
		if !tc.ok {
			r.WantError(t, http.StatusForbidden, jsonrpc.InvalidRequest)
		}
	}
}

func TestHTTPAllowedHostsAndOrigins(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, &HTTPOptions{
		AllowedHosts:   []string{"mcp.example.com", "other.example.com:8443"},
		AllowedOrigins: []string{"https://app.example.com/"},
	})
	for _, tc := range []struct {
		host, origin string
		ok           bool
	}{
		{"mcp.example.com", "", true},
		{"MCP.example.com:443", "", true},
		{"other.example.com:8443", "", true},
		{"other.example.com:8444", "", false},
		{"localhost", "", false}, // AllowedHosts replaces the loopback rule
		{"evil.example.com", "", false},
		{"mcp.example.com", "https://mcp.example.com", true},
		{"mcp.example.com", "https://app.example.com", true},
		{"mcp.example.com", "http://app.example.com", false},
		{"mcp.example.com", "https://evil.example.com", false},
	} {
		r := mcptest.Post(t, url, mcptest.Initialize(0, "2025-11-25"), "Host", tc.host, "Origin", tc.origin)
		if tc.ok && r.Status != http.StatusOK {
			t.Errorf("Host %q Origin %q: status %d, want 200; body %s", tc.host, tc.origin, r.Status, r.Body)
		}
		if !tc.ok {
			r.WantError(t, http.StatusForbidden, jsonrpc.InvalidRequest)
		}
	}
}

func TestHTTPHostAndOriginOffLoopback(t *testing.T) {
	// A request that reached a public address may name any host; its
	// Origin must still be its own or allowed.
	s, _ := newHTTPTestServer()
	h := s.HTTPHandler(&HTTPOptions{AllowedOrigins: []string{"https://app.example.com"}})
	for _, tc := range []struct {
		host, origin string
		status       int
	}{
		{"mcp.example.com", "", http.StatusOK},
		{"203.0.113.7:8080", "", http.StatusOK},
		{"mcp.example.com", "https://mcp.example.com", http.StatusOK},
		{"mcp.example.com", "https://app.example.com", http.StatusOK},
		{"mcp.example.com", "http://localhost:3000", http.StatusForbidden},
		{"mcp.example.com", "https://evil.example.com", http.StatusForbidden},
	} {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(mcptest.Initialize(0, "2025-11-25")))
		req.Header = mcptest.Headers()
		req.Host = tc.host
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		local := &net.TCPAddr{IP: net.ParseIP("203.0.113.7"), Port: 8080}
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, local))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.status {
			t.Errorf("Host %q Origin %q: status %d, want %d; body %s", tc.host, tc.origin, rec.Code, tc.status, rec.Body)
		}
	}
}

// session starts a session and returns its id.
func startHTTPSession(t *testing.T, url string) string {
	t.Helper()
	r := mcptest.Post(t, url, mcptest.Initialize(0, "2025-11-25"))
	id := r.Header.Get(wire.HeaderSessionID)
	if r.Status != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", r.Status, id)
	}
	if r := mcptest.Post(t, url, mcptest.Initialized, wire.HeaderSessionID, id); r.Status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: status %d", r.Status)
	}
	return id
}

func TestHTTPSessions(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true})

	a, b := startHTTPSession(t, url), startHTTPSession(t, url)
	if a == b {
		t.Fatalf("two sessions share the id %q", a)
	}
	for _, c := range a {
		if c < 0x21 || c > 0x7e {
			t.Fatalf("session id %q has characters outside visible ASCII", a)
		}
	}

	// The log level belongs to the session.
	r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"warning"}}`, wire.HeaderSessionID, a)
	if m := r.Response(t); string(m.Result) != "{}" {
		t.Fatalf("logging/setLevel answered %s", r.Body)
	}
	levels := func(session string) string {
		msgs := mcptest.Post(t, url, mcptest.Call(2, "chatty", mcptest.Object("text", "x")), wire.HeaderSessionID, session).MustMessages(t)
		var got []string
		for _, m := range msgs {
			if m.Method == "notifications/message" {
				var p struct{ Level string }
				json.Unmarshal(m.Params, &p)
				got = append(got, p.Level)
			}
		}
		if mcptest.MustToolText(t, msgs[len(msgs)-1]) != "x" {
			t.Fatalf("the call did not end with its result")
		}
		return strings.Join(got, ",")
	}
	if got := levels(a); got != "warning" {
		t.Errorf("session at level warning got log messages %q", got)
	}
	if got := levels(b); got != "info,warning" {
		t.Errorf("session at the default level got log messages %q", got)
	}

	// Requests need a known session; initialize does not.
	mcptest.Post(t, url, mcptest.Call(3, "echo", mcptest.Object("text", "a"))).WantError(t, http.StatusBadRequest, jsonrpc.InvalidRequest)
	mcptest.Post(t, url, mcptest.Initialized).WantError(t, http.StatusBadRequest, jsonrpc.InvalidRequest)
	mcptest.Post(t, url, mcptest.Call(3, "echo", mcptest.Object("text", "a")), wire.HeaderSessionID, "nope").WantError(t, http.StatusNotFound, wire.SessionNotFound)

	// Repeated initialize in a session keeps it.
	if r := mcptest.Post(t, url, mcptest.Initialize(0, "2025-11-25"), wire.HeaderSessionID, a); r.Status != http.StatusOK {
		t.Fatalf("initialize again: status %d", r.Status)
	}

	// DELETE ends a session.
	mcptest.Do(t, http.MethodDelete, url, "", nil).WantError(t, http.StatusBadRequest, jsonrpc.InvalidRequest)
	if r := mcptest.Do(t, http.MethodDelete, url, "", http.Header{wire.HeaderSessionID: {a}}); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE: status %d", r.Status)
	}
	mcptest.Do(t, http.MethodDelete, url, "", http.Header{wire.HeaderSessionID: {a}}).WantError(t, http.StatusNotFound, wire.SessionNotFound)
	mcptest.Post(t, url, mcptest.Call(4, "echo", mcptest.Object("text", "a")), wire.HeaderSessionID, a).WantError(t, http.StatusNotFound, wire.SessionNotFound)
	if r := mcptest.Post(t, url, mcptest.Call(4, "echo", mcptest.Object("text", "b")), wire.HeaderSessionID, b); mcptest.MustToolText(t, r.Response(t)) != "b" {
		t.Fatalf("the other session stopped working: %s", r.Body)
	}
}

func TestHTTPFailedInitializeStartsNoSession(t *testing.T) {
	s, _ := newHTTPTestServer()
	h := s.HTTPHandler(&HTTPOptions{Sessions: true}).(*httpHandler)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ts := httptest.NewServer(mux)
	defer ts.Close()
	r := mcptest.Post(t, ts.URL+"/mcp", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":20251125}}`)
	if m := r.Response(t); m.Error == nil || r.Header.Get(wire.HeaderSessionID) != "" {
		t.Fatalf("failed initialize: session %q, body %s", r.Header.Get(wire.HeaderSessionID), r.Body)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sessions) != 0 {
		t.Fatalf("%d sessions kept after a failed initialize", len(h.sessions))
	}
}

func TestHTTPSessionExpiry(t *testing.T) {
	s, _ := newHTTPTestServer()
	h := s.HTTPHandler(&HTTPOptions{Sessions: true, SessionIdleTimeout: time.Minute}).(*httpHandler)
	var mu sync.Mutex
	now := time.Date(2025, 11, 25, 0, 0, 0, 0, time.UTC)
	h.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ts := httptest.NewServer(mux)
	defer ts.Close()
	url := ts.URL + "/mcp"

	a := startHTTPSession(t, url)
	advance(59 * time.Second)
	if r := mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "a")), wire.HeaderSessionID, a); r.Status != http.StatusOK {
		t.Fatalf("a session used within its idle timeout: status %d", r.Status)
	}
	advance(59 * time.Second) // idle time counts from the last request
	if r := mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "a")), wire.HeaderSessionID, a); r.Status != http.StatusOK {
		t.Fatalf("a session used within its idle timeout: status %d", r.Status)
	}
	advance(time.Minute)
	mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "a")), wire.HeaderSessionID, a).WantError(t, http.StatusNotFound, wire.SessionNotFound)

	// Expired sessions are swept when new ones start.
	startHTTPSession(t, url)
	advance(2 * time.Minute)
	startHTTPSession(t, url)
	h.mu.Lock()
	n := len(h.sessions)
	h.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d sessions kept, want 1 (expired ones swept)", n)
	}
}

func TestHTTPMaxSessions(t *testing.T) {
	s, ht := newHTTPTestServer()
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true, MaxSessions: 2})
	a := startHTTPSession(t, url)
	b := startHTTPSession(t, url)
	mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "a")), wire.HeaderSessionID, a) // b is now the least recently used
	c := startHTTPSession(t, url)
	mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "b")), wire.HeaderSessionID, b).WantError(t, http.StatusNotFound, wire.SessionNotFound)

	// Sessions with a request in progress are never ended to make room.
	var wg sync.WaitGroup
	for _, id := range []string{a, c} {
		wg.Go(func() {
			r, err := mcptest.Send(context.Background(), http.DefaultClient, http.MethodPost, url, mcptest.Call(1, "block", mcptest.Object("text", id)), mcptest.Headers(wire.HeaderSessionID, id))
			msgs, _ := r.Messages()
			if err != nil || len(msgs) != 1 {
				t.Errorf("blocked call: %v, answered %s", err, r.Body)
				return
			}
			if text, err := mcptest.ToolText(msgs[0]); text != "released "+id {
				t.Errorf("blocked call answered %q, %v", text, err)
			}
		})
		<-ht.started
	}
	r := mcptest.Post(t, url, mcptest.Initialize(0, "2025-11-25"))
	r.WantError(t, http.StatusServiceUnavailable, jsonrpc.InternalError)
	if r.Header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	close(ht.release)
	wg.Wait()
	startHTTPSession(t, url)
}

func TestHTTPCancelledCallAnsweredOnce(t *testing.T) {
	s, ht := newHTTPTestServer()
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true})
	id := startHTTPSession(t, url)
	done := make(chan mcptest.Reply, 1)
	go func() {
		r, err := mcptest.Send(context.Background(), http.DefaultClient, http.MethodPost, url, mcptest.Call(42, "block", mcptest.Object("text", "c")), mcptest.Headers(wire.HeaderSessionID, id))
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	<-ht.started
	if r := mcptest.Post(t, url, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42,"reason":"test"}}`, wire.HeaderSessionID, id); r.Status != http.StatusAccepted {
		t.Fatalf("notifications/cancelled: status %d", r.Status)
	}
	if got := <-ht.cancelled; got != "c" {
		t.Fatalf("cancelled %q", got)
	}
	r := <-done
	m := r.Response(t)
	if string(m.ID) != "42" || m.Error == nil || m.Error.Code != wire.RequestCancelled {
		t.Fatalf("a cancelled call was answered %d %s; want its one response, error %d", r.Status, r.Body, wire.RequestCancelled)
	}
}

func TestHTTPDisconnectCancelsCall(t *testing.T) {
	s, ht := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	failed := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(mcptest.Call(1, "block", mcptest.Object("text", "d"))))
		req.Header = mcptest.Headers()
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		failed <- err
	}()
	<-ht.started
	cancel()
	if got := <-ht.cancelled; got != "d" {
		t.Fatalf("cancelled %q", got)
	}
	if err := <-failed; !errors.Is(err, context.Canceled) {
		t.Fatalf("client: %v", err)
	}
}

// TestHTTPOfficialClient drives the handler with the official Go SDK's
// Streamable HTTP client, with and without sessions: it negotiates, lists
// and calls tools, and receives progress and log notifications on the
// call's stream.
func TestHTTPOfficialClient(t *testing.T) {
	for _, sessions := range []bool{true, false} {
		t.Run(fmt.Sprintf("sessions=%v", sessions), func(t *testing.T) {
			s, _ := newHTTPTestServer()
			url := serveHTTPTest(t, s, &HTTPOptions{Sessions: sessions})
			progress := make(chan string, 16)
			logs := make(chan string, 16)
			client := mcp.NewClient(&mcp.Implementation{Name: "official-client", Version: "1"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					progress <- fmt.Sprintf("%v %v/%v %s", req.Params.ProgressToken, req.Params.Progress, req.Params.Total, req.Params.Message)
				},
				LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
					data, _ := json.Marshal(req.Params.Data)
					logs <- fmt.Sprintf("%s %s %s", req.Params.Level, req.Params.Logger, data)
				},
			})
			ctx := context.Background()
			// A session revision: initialize, then requests in its session
			// (TestAskOfficialClient covers 2026-07-28).
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
				t.Errorf("negotiated %s", v)
			}
			if got := cs.ID() != ""; got != sessions {
				t.Errorf("session id %q with Sessions %v", cs.ID(), sessions)
			}

			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 4 || tools.Tools[0].Name != "echo" {
				t.Fatalf("tools/list: %v %+v", err, tools)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
			if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "hi" {
				t.Fatalf("echo: %v %+v", err, res)
			}

			params := &mcp.CallToolParams{Name: "chatty", Arguments: map[string]any{"text": "yo"}}
			params.SetProgressToken("p1")
			res, err = cs.CallTool(ctx, params)
			if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "yo" {
				t.Fatalf("chatty: %v %+v", err, res)
			}
			for _, want := range []string{"p1 1/2 half", "p1 2/2 done"} {
				if got := <-progress; got != want {
					t.Errorf("progress %q, want %q", got, want)
				}
			}
			for _, want := range []string{`info chatty {"msg":"info yo","text":"yo"}`, `warning chatty {"msg":"warning yo"}`} {
				if got := <-logs; got != want {
					t.Errorf("log %q, want %q", got, want)
				}
			}

			if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
				t.Fatalf("logging/setLevel: %v", err)
			}
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "chatty", Arguments: map[string]any{"text": "again"}}); err != nil {
				t.Fatal(err)
			}
			// With a session the level holds and the info message is
			// dropped; without one it applied to its own request only.
			want := `warning chatty {"msg":"warning again"}`
			if !sessions {
				want = `info chatty {"msg":"info again","text":"again"}`
			}
			if got := <-logs; got != want {
				t.Errorf("first log after logging/setLevel warning: %q, want %q", got, want)
			}
		})
	}
}

// httpLogRecorder is a slog.Handler that keeps records' messages and
// attributes.
type httpLogRecorder struct {
	mu      sync.Mutex
	records []string
	url     chan string
}

func (l *httpLogRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (l *httpLogRecorder) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *httpLogRecorder) WithGroup(string) slog.Handler            { return l }
func (l *httpLogRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records = append(l.records, r.Level.String()+" "+r.Message)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "url" {
			l.url <- a.Value.String()
		}
		return true
	})
	return nil
}

func (l *httpLogRecorder) has(substr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.records {
		if strings.Contains(r, substr) {
			return true
		}
	}
	return false
}

// listenHTTP runs ListenAndServeHTTP and returns the URL it logged and the
// channel its result arrives on.
func listenHTTP(t *testing.T, ctx context.Context, s *Server, addr string, opts *HTTPOptions) (*httpLogRecorder, string, <-chan error) {
	t.Helper()
	rec := &httpLogRecorder{url: make(chan string, 1)}
	s.Logger = slog.New(rec)
	result := make(chan error, 1)
	go func() { result <- s.ListenAndServeHTTP(ctx, addr, opts) }()
	select {
	case url := <-rec.url:
		return rec, url, result
	case err := <-result:
		t.Fatalf("ListenAndServeHTTP: %v", err)
		return nil, "", nil
	}
}

func TestHTTPListenAndServeShutsDownGracefully(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s, ht := newHTTPTestServer()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, url, result := listenHTTP(t, ctx, s, ":0", &HTTPOptions{Sessions: true})
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("serving at %s; want 127.0.0.1 when addr has no host, path /mcp", url)
	}
	id := startHTTPSession(t, url)

	reply := make(chan mcptest.Reply, 1)
	go func() {
		r, err := mcptest.Send(context.Background(), http.DefaultClient, http.MethodPost, url, mcptest.Call(5, "block", mcptest.Object("text", "g")), mcptest.Headers(wire.HeaderSessionID, id))
		if err != nil {
			t.Error(err)
		}
		reply <- r
	}()
	<-ht.started
	cancel()
	// Shutdown closes the listener first: wait until it has, so that the
	// call is released only once shutdown has begun.
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		runtime.Gosched()
	}
	close(ht.release)
	r := <-reply
	if m := r.Response(t); string(m.ID) != "5" || mcptest.MustToolText(t, m) != "released g" {
		t.Fatalf("the call in progress at shutdown was answered %d %s", r.Status, r.Body)
	}
	if err := <-result; !errors.Is(err, context.Canceled) {
		t.Fatalf("ListenAndServeHTTP returned %v, want context.Canceled", err)
	}
	http.DefaultClient.CloseIdleConnections()
}

func TestHTTPListenAndServeCancelsCallsAfterShutdownTimeout(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	s, ht := newHTTPTestServer()
	s.ShutdownTimeout = time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec, url, result := listenHTTP(t, ctx, s, "127.0.0.1:0", &HTTPOptions{Sessions: true})
	id := startHTTPSession(t, url)
	reply := make(chan struct{})
	go func() {
		defer close(reply)
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(mcptest.Call(6, "block", mcptest.Object("text", "h"))))
		req.Header = mcptest.Headers()
		req.Header.Set(wire.HeaderSessionID, id)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-ht.started
	cancel()
	if got := <-ht.cancelled; got != "h" {
		t.Fatalf("cancelled %q", got)
	}
	if err := <-result; !errors.Is(err, context.Canceled) {
		t.Fatalf("ListenAndServeHTTP returned %v, want context.Canceled", err)
	}
	<-reply
	if !rec.has("WARN requests still in progress after the shutdown timeout were cancelled") {
		t.Errorf("no warning logged; records: %q", rec.records)
	}
	http.DefaultClient.CloseIdleConnections()
}

func TestHTTPListenAndServeBadAddress(t *testing.T) {
	s, _ := newHTTPTestServer()
	if err := s.ListenAndServeHTTP(context.Background(), "127.0.0.1", nil); err == nil {
		t.Fatal("an address without a port was accepted")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := s.ListenAndServeHTTP(context.Background(), ln.Addr().String(), nil); err == nil {
		t.Fatal("serving on a port in use succeeded")
	}
}

// TestHTTPLoad drives one server with many concurrent clients, each on its
// own session, for a fixed number of calls, half of them streamed; every
// call must get its own response, and no goroutine may outlive the test.
func TestHTTPLoad(t *testing.T) {
	const clients, callsPerClient = 64, 50
	ignore := goleak.IgnoreCurrent()
	before := runtime.NumGoroutine()

	s, _ := newHTTPTestServer()
	s.MaxInFlight = clients / 2 // as many more may wait: no client is refused
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler(&HTTPOptions{Sessions: true}))
	ts := httptest.NewServer(mux)
	url := ts.URL + "/mcp"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}

	var answered, streamed atomic.Int64
	call := func(session, body string) (mcptest.Reply, error) {
		hdr := mcptest.Headers()
		if session != "" {
			hdr.Set(wire.HeaderSessionID, session)
		}
		return mcptest.Send(context.Background(), client, http.MethodPost, url, body, hdr)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			r, err := call("", mcptest.Initialize(0, "2025-11-25"))
			session := r.Header.Get(wire.HeaderSessionID)
			if err != nil || session == "" {
				t.Errorf("client %d: initialize: %v, status %d", c, err, r.Status)
				return
			}
			for i := range callsPerClient {
				id := c*callsPerClient + i
				text := fmt.Sprintf("c%d-i%d", c, i)
				tool := "echo"
				if i%2 == 1 {
					tool = "chatty"
				}
				r, err := call(session, mcptest.Call(id, tool, mcptest.Object("text", text)))
				if err != nil {
					t.Errorf("call %d: %v", id, err)
					return
				}
				msgs, err := r.Messages()
				if err != nil {
					t.Errorf("call %d: %v", id, err)
					return
				}
				last := msgs[len(msgs)-1]
				if got, err := mcptest.ToolText(last); string(last.ID) != fmt.Sprint(id) || got != text {
					t.Errorf("call %d (%s) answered with id %s, text %q, %v", id, text, last.ID, got, err)
					return
				}
				if tool == "chatty" {
					if len(msgs) != 3 || !bytes.Contains(msgs[0].Params, []byte("info "+text)) {
						t.Errorf("call %d: notifications %s", id, r.Body)
						return
					}
					streamed.Add(1)
				}
				answered.Add(1)
			}
			if r, err := call(session, ""); err != nil || r.Status != http.StatusBadRequest {
				t.Errorf("client %d: empty body: %v, status %d", c, err, r.Status)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	client.CloseIdleConnections()
	ts.Close()

	if got, want := answered.Load(), int64(clients*callsPerClient); got != want {
		t.Fatalf("%d calls answered correctly, want %d", got, want)
	}
	goleak.VerifyNone(t, ignore)
	after := runtime.NumGoroutine()
	t.Logf("%d clients, %d calls (%d streamed) in %v: %.0f calls/s; goroutines before %d, after %d",
		clients, answered.Load(), streamed.Load(), elapsed.Round(time.Millisecond), float64(answered.Load())/elapsed.Seconds(), before, after)
	if after > before {
		t.Errorf("goroutines grew from %d to %d", before, after)
	}
}
