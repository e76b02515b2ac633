package runtime_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

type traceKey struct{}

// recorder is a middleware that records what it sees, puts a value in
// the handler's context, and refuses the tool "forbidden".
type recorder struct {
	mu   sync.Mutex
	seen []seenRequest
}

type seenRequest struct {
	runtime.RequestInfo
	outcome     runtime.Outcome
	traceparent string // req.Meta("traceparent"), read while req was valid
}

func (r *recorder) middleware(next runtime.RequestHandler) runtime.RequestHandler {
	return func(ctx context.Context, req *runtime.RequestInfo) runtime.Outcome {
		var o runtime.Outcome
		if req.Target == "forbidden" {
			o = runtime.Refuse(-32001, "forbidden by policy")
		} else {
			o = next(context.WithValue(ctx, traceKey{}, "span-"+req.Method), req)
		}
		r.mu.Lock()
		seen := *req
		seen.Params = append([]byte(nil), req.Params...)
		r.seen = append(r.seen, seenRequest{seen, o, req.Meta("traceparent")})
		r.mu.Unlock()
		return o
	}
}

func (r *recorder) last(t *testing.T) seenRequest {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) == 0 {
		t.Fatal("the middleware saw nothing")
	}
	return r.seen[len(r.seen)-1]
}

// middlewareServer has a tool that reports the middleware's context
// value, one that fails, one that asks, and one the middleware forbids.
func middlewareServer(rec *recorder) *runtime.Server {
	s := &runtime.Server{Name: "mw", Logger: linepeer.DiscardLogger(), Middleware: []runtime.Middleware{rec.middleware}}
	tool := func(name string, h runtime.ToolHandler) { s.AddTool(&runtime.Tool{Name: name, Handler: h}) }
	tool("trace", func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		v, _ := ctx.Value(traceKey{}).(string)
		return runtime.TextResult(v), nil
	})
	tool("fail", func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return nil, io.ErrUnexpectedEOF
	})
	tool("forbidden", func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		panic("the middleware let a forbidden call through")
	})
	tool("ask", func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		_, _, err := runtime.Elicit(ctx, "?", `{"type":"object","properties":{}}`)
		return runtime.TextResult("asked"), err
	})
	return s
}

// TestMiddleware: a middleware sees every request, on every transport,
// with its method, target, revision, transport and session; its context
// reaches the handler; it sees the outcome (a tool error, a JSON-RPC
// error, questions for the client); and its refusal is the answer.
func TestMiddleware(t *testing.T) {
	rec := &recorder{}
	s := middlewareServer(rec)

	// A Conn.
	conn := s.NewConn(nil)
	defer conn.Close()
	got := string(conn.Handle(context.Background(), []byte(mcptest.Call(1, "trace", ""))))
	if !strings.Contains(got, `"text":"span-tools/call"`) {
		t.Errorf("the handler's context lacks the middleware's value: %s", got)
	}
	if r := rec.last(t); r.Method != "tools/call" || r.Target != "trace" || r.Transport != "conn" || string(r.ID) != "1" || r.outcome.Code != 0 || r.outcome.ToolError {
		t.Errorf("over a Conn: %+v", r)
	}
	conn.Handle(context.Background(), []byte(mcptest.Call(2, "fail", "")))
	if r := rec.last(t); !r.outcome.ToolError {
		t.Errorf("a failing tool: %+v", r.outcome)
	}
	got = string(conn.Handle(context.Background(), []byte(mcptest.Call(3, "forbidden", ""))))
	if got != `{"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"forbidden by policy"}}` {
		t.Errorf("a refusal: %s", got)
	}
	conn.Handle(context.Background(), []byte(mcptest.Request(4, "no/such", "")))
	if r := rec.last(t); r.outcome.Code != -32601 || r.Target != "" {
		t.Errorf("an unknown method: %+v", r)
	}

	// stdio, a session revision and the per-request revision.
	p := serveStdio(t, s)
	p.Send(mcptest.Initialize(5, "2025-06-18"))
	reply(p, "5")
	p.Send(mcptest.Call(6, "trace", ""))
	reply(p, "6")
	if r := rec.last(t); r.Transport != "stdio" || r.Revision != "2025-06-18" {
		t.Errorf("over stdio: %+v", r)
	}
	p.Send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask","_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + mcptest.AllCaps + `}}}`)
	reply(p, "7")
	if r := rec.last(t); r.Revision != "2026-07-28" || !r.outcome.InputRequired || r.traceparent != "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" {
		t.Errorf("per request: %+v, traceparent %q", r, r.traceparent)
	}

	// Streamable HTTP, with a session.
	ts := httptest.NewServer(s.HTTPHandler(&runtime.HTTPOptions{Sessions: true}))
	defer ts.Close()
	post := func(body, session string) (*http.Response, string) {
		return sendHTTP(t, ts.URL, http.MethodPost, body, session)
	}
	resp, _ := post(mcptest.Initialize(8, "2025-11-25"), "")
	session := resp.Header.Get("Mcp-Session-Id")
	if _, body := post(mcptest.Call(9, "forbidden", ""), session); !strings.Contains(body, "forbidden by policy") {
		t.Errorf("a refusal over HTTP: %s", body)
	}
	if r := rec.last(t); r.Transport != "http" || r.SessionID != session || session == "" {
		t.Errorf("over HTTP: %+v, session %q", r, session)
	}
}

// sessionRecorder records the Session, RemoteAddr and Proto of each
// request, and when each session ends.
type sessionRecorder struct {
	mu       sync.Mutex
	sessions []*runtime.SessionInfo
	addrs    []string
	ended    map[*runtime.SessionInfo]int
}

func (r *sessionRecorder) middleware(next runtime.RequestHandler) runtime.RequestHandler {
	return func(ctx context.Context, req *runtime.RequestInfo) runtime.Outcome {
		r.mu.Lock()
		r.sessions = append(r.sessions, req.Session)
		r.addrs = append(r.addrs, req.RemoteAddr+" "+req.Proto)
		seen := false
		for s := range r.ended {
			seen = seen || s == req.Session
		}
		if req.Session != nil && !seen {
			if r.ended == nil {
				r.ended = map[*runtime.SessionInfo]int{}
			}
			r.ended[req.Session] = 0
			s := req.Session
			s.OnEnd(func() { r.mu.Lock(); r.ended[s]++; r.mu.Unlock() })
		}
		r.mu.Unlock()
		return next(ctx, req)
	}
}

func (r *sessionRecorder) take() (sessions []*runtime.SessionInfo, addrs []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	sessions, addrs = r.sessions, r.addrs
	r.sessions, r.addrs = nil, nil
	return sessions, addrs
}

func (r *sessionRecorder) endings(s *runtime.SessionInfo) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ended[s]
}

// TestMiddlewareSession: a middleware sees one Session for every request
// of a stdio connection, a Conn and a Streamable HTTP session, none for a
// request served on its own; what it registers with OnEnd runs once when
// the session ends (before Serve returns, at the end of stdio's input);
// over HTTP it sees the client's address and HTTP version.
func TestMiddlewareSession(t *testing.T) {
	rec := &sessionRecorder{}
	s := &runtime.Server{Name: "mw", Logger: linepeer.DiscardLogger(), Middleware: []runtime.Middleware{rec.middleware}}
	s.AddTool(&runtime.Tool{Name: "echo", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return runtime.TextResult("ok"), nil
	}})

	// stdio: Serve returns at the end of the input, and the session has
	// ended by then.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), inR, outW); outW.Close() }()
	p := linepeer.New(t, outR, inW)
	p.Send(mcptest.Initialize(1, "2025-11-25"))
	reply(p, "1")
	p.Send(mcptest.Call(2, "echo", ""))
	reply(p, "2")
	sessions, addrs := rec.take()
	if len(sessions) != 2 || sessions[0] == nil || sessions[0] != sessions[1] || addrs[0] != " " {
		t.Fatalf("over stdio: sessions %v, addresses %q", sessions, addrs)
	}
	if sessions[0].Started().IsZero() {
		t.Error("over stdio: the session has no start")
	}
	if n := rec.endings(sessions[0]); n != 0 {
		t.Errorf("over stdio: the session ended %d times while open", n)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	<-p.ReadDone
	if n := rec.endings(sessions[0]); n != 1 {
		t.Errorf("over stdio: the session ended %d times by the time Serve returned, want 1", n)
	}
	ran := false
	sessions[0].OnEnd(func() { ran = true })
	if !ran {
		t.Error("OnEnd on an ended session did not run at once")
	}

	// A Conn: its session ends when it is closed.
	conn := s.NewConn(nil)
	conn.Handle(context.Background(), []byte(mcptest.Call(3, "echo", "")))
	conn.Handle(context.Background(), []byte(mcptest.Call(4, "echo", "")))
	sessions, _ = rec.take()
	if len(sessions) != 2 || sessions[0] == nil || sessions[0] != sessions[1] {
		t.Fatalf("over a Conn: sessions %v", sessions)
	}
	conn.Close()
	conn.Close()
	if n := rec.endings(sessions[0]); n != 1 {
		t.Errorf("a Conn closed twice ended its session %d times, want 1", n)
	}

	// Streamable HTTP: a session with an id ends when it is deleted; a
	// request served on its own has none.
	ts := httptest.NewServer(s.HTTPHandler(&runtime.HTTPOptions{Sessions: true}))
	defer ts.Close()
	do := func(method, body, session string) *http.Response {
		resp, _ := sendHTTP(t, ts.URL, method, body, session)
		return resp
	}
	id := do(http.MethodPost, mcptest.Initialize(5, "2025-11-25"), "").Header.Get("Mcp-Session-Id")
	do(http.MethodPost, mcptest.Call(6, "echo", ""), id)
	sessions, addrs = rec.take()
	if len(sessions) != 2 || sessions[0] == nil || sessions[0] != sessions[1] {
		t.Fatalf("over HTTP with a session: sessions %v", sessions)
	}
	for _, a := range addrs {
		if !strings.HasPrefix(a, "127.0.0.1:") || !strings.HasSuffix(a, " HTTP/1.1") {
			t.Errorf("over HTTP: address and version %q, want 127.0.0.1:port HTTP/1.1", a)
		}
	}
	if n := rec.endings(sessions[0]); n != 0 {
		t.Errorf("over HTTP: the session ended %d times while open", n)
	}
	do(http.MethodDelete, "", id)
	if n := rec.endings(sessions[0]); n != 1 {
		t.Errorf("over HTTP: a deleted session ended %d times, want 1", n)
	}
	stateless := httptest.NewServer(s.HTTPHandler(&runtime.HTTPOptions{}))
	defer stateless.Close()
	ts.URL = stateless.URL
	do(http.MethodPost, mcptest.Call(7, "echo", ""), "")
	if sessions, _ = rec.take(); len(sessions) != 1 || sessions[0] != nil {
		t.Errorf("a request served on its own: sessions %v, want one nil", sessions)
	}
}

// sendHTTP sends a JSON-RPC message to a Streamable HTTP endpoint, in the
// session if one is named, and returns the response and its body.
func sendHTTP(t *testing.T, url, method, body, session string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestCallbackPanicKeepsServing: a panic in a Server.Middleware, before
// or after it calls next, in ListResources or in OnRootsChanged is
// recovered as a handler's is: the request gets an internal error that
// names an incident, and nothing of the panic; the log has the incident,
// the panic and its stack; and the server keeps serving. Before, each
// ended a stdio server (and a middleware's, a Conn's caller).
func TestCallbackPanicKeepsServing(t *testing.T) {
	linepeer.CheckLeaks(t)
	var log strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil))
	logged := func() string { mu.Lock(); defer mu.Unlock(); return log.String() }
	panicky := func(next runtime.RequestHandler) runtime.RequestHandler {
		return func(ctx context.Context, req *runtime.RequestInfo) runtime.Outcome {
			if req.Target == "boom-before" {
				panic("secret before")
			}
			o := next(ctx, req)
			if req.Target == "boom-after" {
				panic("secret after")
			}
			return o
		}
	}
	mw := &runtime.Server{Name: "middleware", Middleware: []runtime.Middleware{panicky}, Logger: logger}
	for _, name := range []string{"boom-before", "boom-after"} {
		mw.AddTool(&runtime.Tool{Name: name, Handler: func(context.Context, *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return runtime.TextResult("ok"), nil
		}})
	}
	// Without middleware, which would recover what panics inside it.
	plain := &runtime.Server{Name: "callbacks", Logger: logger}
	plain.ListResources = func(ctx context.Context, cursor string) ([]*runtime.Resource, string, error) {
		panic("secret list")
	}
	rootsDone := make(chan struct{})
	plain.OnRootsChanged = func(ctx context.Context) {
		defer close(rootsDone)
		panic("secret roots")
	}
	incident := regexp.MustCompile(`"code":-32603,"message":"[^"]*failed: internal error \(incident ([A-Z0-9]{12})\)"`)
	id := 0
	for _, tc := range []struct {
		s   *runtime.Server
		msg string
	}{
		{mw, `"method":"tools/call","params":{"name":"boom-before"}`},
		{mw, `"method":"tools/call","params":{"name":"boom-after"}`},
		{plain, `"method":"resources/list"`},
	} {
		p := serveStdio(t, tc.s)
		web := httptest.NewServer(tc.s.HTTPHandler(nil))
		defer web.Close()
		for transport, send := range map[string]func(string) string{
			"stdio": func(m string) string { p.Send(m); return reply(p, fmt.Sprint(id)) },
			"HTTP":  func(m string) string { return postOne(t, web.URL, m) },
			"Conn":  func(m string) string { return string(tc.s.NewConn(nil).Handle(context.Background(), []byte(m))) },
		} {
			id++
			got := send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, id, tc.msg))
			m := incident.FindStringSubmatch(got)
			if m == nil || strings.Contains(got, "secret") {
				t.Errorf("%s over %s: %s; want an internal error that names an incident, and not the panic", tc.msg, transport, got)
				continue
			}
			if l := logged(); !strings.Contains(l, "incident="+m[1]) || !strings.Contains(l, `panic="secret`) || !strings.Contains(l, "goroutine") {
				t.Errorf("%s over %s: the log lacks the incident, the panic or its stack:\n%s", tc.msg, transport, l)
			}
		}
		p.Send(`{"jsonrpc":"2.0","id":"last","method":"ping"}`)
		if got := reply(p, `"last"`); !strings.Contains(got, `"result":{}`) {
			t.Errorf("ping after the panics: %s", got)
		}
	}

	p := serveStdio(t, plain)
	p.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}}}}`)
	reply(p, "0")
	p.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	<-rootsDone
	for deadline := time.Now().Add(linepeer.HangGuard); !strings.Contains(logged(), `panic="secret roots"`); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("OnRootsChanged's panic was not logged:\n%s", logged())
		}
	}
	p.Send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if got := reply(p, "1"); !strings.Contains(got, `"result":{}`) {
		t.Errorf("ping after OnRootsChanged panicked: %s", got)
	}
}

// TestMiddlewareKnown: a middleware is told whether the request's method
// is one the runtime serves, and whether the tool or prompt it names is
// one the server has: what a client chose, of any length, otherwise.
func TestMiddlewareKnown(t *testing.T) {
	rec := &recorder{}
	s := middlewareServer(rec)
	s.AddPrompt(&runtime.Prompt{Name: "p", Handler: func(context.Context, *runtime.PromptRequest) (*runtime.PromptResult, error) {
		return runtime.UserPrompt("x"), nil
	}})
	conn := s.NewConn(nil)
	defer conn.Close()
	for _, tc := range []struct {
		msg            string
		method, target bool
	}{
		{`"method":"tools/call","params":{"name":"trace"}`, true, true},
		{`"method":"tools/call","params":{"name":"` + strings.Repeat("n", 1<<10) + `"}`, true, false},
		{`"method":"prompts/get","params":{"name":"p"}`, true, true},
		{`"method":"prompts/get","params":{"name":"trace"}`, true, false},
		{`"method":"resources/read","params":{"uri":"x://y"}`, true, false},
		{`"method":"tools/list"`, true, false},
		{`"method":"` + strings.Repeat("m", 1<<10) + `"`, false, false},
	} {
		conn.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,`+tc.msg+`}`))
		if got := rec.last(t); got.KnownMethod != tc.method || got.KnownTarget != tc.target {
			t.Errorf("%.60s: known method %v, target %v; want %v, %v", tc.msg, got.KnownMethod, got.KnownTarget, tc.method, tc.target)
		}
	}
}
