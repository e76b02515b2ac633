package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	mcpruntime "github.com/mcpgen/mcpgen/runtime"
)

// notesServer has delete_note and find_notes, and records which ran.
func notesServer() (*mcpruntime.Server, func() []string) {
	var mu sync.Mutex
	var ran []string
	s := &mcpruntime.Server{Name: "notes"}
	for _, name := range []string{"delete_note", "find_notes"} {
		s.AddTool(&mcpruntime.Tool{
			Name:        name,
			InputSchema: `{"type":"object","properties":{"id":{"type":"string"}},"additionalProperties":false}`,
			Handler: func(ctx context.Context, req *mcpruntime.ToolRequest) (*mcpruntime.ToolResult, error) {
				mu.Lock()
				ran = append(ran, name+string(req.Arguments))
				mu.Unlock()
				return mcpruntime.TextResult(name), nil
			},
		})
	}
	return s, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(ran) }
}

// TestDuplicateNamesRefused: a message that repeats a member name, in its
// envelope, its params or its arguments, is refused whole (-32600) and
// runs nothing. The server used to run delete_note for the first message
// below, while encoding/json, JavaScript and Python read find_notes({}).
func TestDuplicateNamesRefused(t *testing.T) {
	s, ran := notesServer()
	p := serveStdio(t, s)
	for i, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_note","arguments":{"id":"N1"},"name":"find_notes","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"id":3,"method":"tools/call","params":{"name":"find_notes"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"delete_note","arguments":{"id":"N1","\u0069d":"N2"}}}`,
	} {
		p.Send(msg)
		got := reply(p, "null")
		if !strings.Contains(got, `"code":-32600`) || !strings.Contains(got, "appears more than once") {
			t.Errorf("message %d: %s", i, got)
		}
	}
	p.Send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	reply(p, "5")
	if r := ran(); len(r) > 0 {
		t.Errorf("tools ran: %q", r)
	}
	// Through a Conn, the same.
	if got := s.NewConn(nil).Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_note","arguments":{"id":"N1"},"name":"find_notes","arguments":{}}}`)); !strings.Contains(string(got), "appears more than once") {
		t.Errorf("over a Conn: %s", got)
	}
}

// allocated runs f and returns the bytes it allocated: an upper bound of
// what it held at its peak, whatever the garbage collector did.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestMessageMemoryBound: a message costs at most 10 times its size in
// memory, accepted or refused for its types. A 4 MiB tools/call whose
// argument is [0,0,…] once took a process from 9 MB to 620 MB.
func TestMessageMemoryBound(t *testing.T) {
	s := &mcpruntime.Server{Name: "mem", MaxMessageSize: 8 << 20}
	for _, tool := range []struct{ name, items string }{{"ints", "integer"}, {"strs", "string"}} {
		s.AddTool(&mcpruntime.Tool{
			Name:        tool.name,
			InputSchema: `{"type":"object","properties":{"xs":{"type":"array","items":{"type":"` + tool.items + `"}}},"additionalProperties":false}`,
			Handler: func(ctx context.Context, req *mcpruntime.ToolRequest) (*mcpruntime.ToolResult, error) {
				return mcpruntime.TextResult("ok"), nil
			},
		})
	}
	conn := s.NewConn(nil)
	zeros := strings.Repeat("0,", 2<<20) + "0"
	for _, tool := range []string{"ints", "strs"} {
		msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"xs":[` + zeros + `]}}}`)
		var resp []byte
		n := allocated(func() { resp = conn.Handle(context.Background(), msg) })
		t.Logf("%s: %d-byte message, %d bytes allocated (%.1fx)", tool, len(msg), n, float64(n)/float64(len(msg)))
		if ratio := float64(n) / float64(len(msg)); ratio > 10 {
			t.Errorf("%s: a %d-byte message allocated %d bytes, %.1f times its size", tool, len(msg), n, ratio)
		}
		if len(resp) > 4<<10 {
			t.Errorf("%s: a %d-byte answer", tool, len(resp))
		}
	}
}

// TestPendingBytesPushBack: the server holds messages up to
// MaxPendingBytes, each counted 4 KiB more than its size; at that limit,
// stdio stops reading until a call ends.
func TestPendingBytesPushBack(t *testing.T) {
	probe := newProbe()
	probe.MaxPendingBytes = 64 << 10
	p := serveStdio(t, probe.Server)
	big := strings.Repeat("b", 20<<10) // 24 KiB counted: two fit, not three
	p.Send(hold(1, big))
	p.Send(hold(2, big))
	<-probe.started
	<-probe.started // at the limit: both run
	p.Send(hold(3, big))
	sent := make(chan struct{})
	go func() {
		p.Send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
		close(sent)
	}()
	time.Sleep(100 * time.Millisecond)
	select {
	case <-probe.started:
		t.Error("a third message past MaxPendingBytes was admitted")
	default:
	}
	if slices.ContainsFunc(p.Pending(), func(l string) bool { return strings.Contains(l, `"id":4`) }) {
		t.Error("a message behind a full budget was read and answered")
	}
	close(probe.release)
	<-sent
	for _, id := range []string{"1", "2", "3", "4"} {
		reply(p, id)
	}
}

// TestProgressNonFinite: JSON has no NaN or infinity. A progress report
// that is not a finite number is dropped, a total that is not finite is
// left out, and every line written stays JSON.
func TestProgressNonFinite(t *testing.T) {
	s := &mcpruntime.Server{Name: "p", Logger: linepeer.DiscardLogger()}
	s.AddTool(&mcpruntime.Tool{Name: "p", Handler: func(ctx context.Context, req *mcpruntime.ToolRequest) (*mcpruntime.ToolResult, error) {
		mcpruntime.ReportProgress(ctx, math.NaN(), 1, "nan")
		mcpruntime.ReportProgress(ctx, math.Inf(1), 1, "inf")
		mcpruntime.ReportProgress(ctx, 1, math.Inf(1), "total inf")
		mcpruntime.ReportProgress(ctx, 2, math.NaN(), "total nan")
		return mcpruntime.TextResult("done"), nil
	}})
	p := serveStdio(t, s)
	p.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p","_meta":{"progressToken":"t"}}}`)
	reply(p, "1")
	var got []string
	for _, l := range p.Pending() {
		if !json.Valid([]byte(l)) {
			t.Errorf("not JSON: %s", l)
		}
		got = append(got, l)
	}
	want := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"message":"total inf"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2,"message":"total nan"}}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("notifications:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRootsRefreshesCoalesce: a client that floods
// notifications/roots/list_changed holds one refresh of its roots at a
// time, not one goroutine per notification, and the refresh ends with its
// session. Before, every notification started a goroutine that waited up
// to AskTimeout (10 minutes) for the client's answer: 100,000 lines held
// 557 MiB.
func TestRootsRefreshesCoalesce(t *testing.T) {
	linepeer.CheckLeaks(t)
	var running, peak atomic.Int32
	s := &mcpruntime.Server{Name: "roots", Logger: linepeer.DiscardLogger()}
	s.OnRootsChanged = func(ctx context.Context) {
		peak.Store(max(peak.Load(), running.Add(1)))
		defer running.Add(-1)
		mcpruntime.Roots(ctx) // the client never answers: waits for the session's end
	}
	before := runtime.NumGoroutine()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), inR, outW); outW.Close() }()
	p := linepeer.New(t, outR, inW)
	p.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	reply(p, "1")
	for range 10_000 {
		p.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	}
	p.Send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`) // answered after every notification is handled
	reply(p, "2")
	if n := runtime.NumGoroutine() - before; n > 20 {
		t.Errorf("%d goroutines after 10,000 notifications", n)
	}
	if p := peak.Load(); p != 1 {
		t.Errorf("%d refreshes at once", p)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(linepeer.HangGuard):
		t.Fatal("Serve did not return at EOF while a refresh of the roots waited")
	}
	<-p.ReadDone
}

// TestSubscriptionsBounded: resources/subscribe refuses a URI that no
// resource or template matches, and a session keeps at most 1024
// subscriptions and 256 KiB of their URIs. Before, it kept whatever a
// session sent: sixty 4 MiB URIs added 360 MiB for the session's life.
func TestSubscriptionsBounded(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := &mcpruntime.Server{Name: "subs", Logger: linepeer.DiscardLogger()}
	s.AddResourceTemplate(&mcpruntime.ResourceTemplate{URITemplate: "app://{+path}", Name: "any",
		Handler: func(ctx context.Context, req *mcpruntime.ResourceRequest) (*mcpruntime.ResourceResult, error) {
			return mcpruntime.TextResource(req.URI, "text/plain", "x"), nil
		}})
	s.AddResource(&mcpruntime.Resource{URI: "fixed://one", Name: "one",
		Handler: func(ctx context.Context, req *mcpruntime.ResourceRequest) (*mcpruntime.ResourceResult, error) {
			return mcpruntime.TextResource(req.URI, "text/plain", "x"), nil
		}})
	p := serveStdio(t, s)
	p.Send(mcptest.Initialize(0, "2025-11-25"))
	reply(p, "0")
	checkSubscriptionBounds(t, "stdio", func(id int, method, params string) string {
		p.Send(mcptest.Request(id, method, params))
		return reply(p, fmt.Sprint(id))
	})

	web := httptest.NewServer(s.HTTPHandler(&mcpruntime.HTTPOptions{Sessions: true}))
	defer web.Close()
	session := ""
	post := func(msg string) string {
		req, err := http.NewRequest(http.MethodPost, web.URL, strings.NewReader(msg))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	post(mcptest.Initialize(0, "2025-11-25"))
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	checkSubscriptionBounds(t, "HTTP", func(id int, method, params string) string {
		return post(mcptest.Request(id, method, params))
	})
}

// checkSubscriptionBounds subscribes through request (which sends one
// request and returns its response) to an unknown URI, a resource, a URI
// of 256 KiB, up to the 1024th subscription and one past it, then
// unsubscribes once and subscribes again.
func checkSubscriptionBounds(t *testing.T, transport string, request func(id int, method, params string) string) {
	t.Helper()
	subscribe := func(id int, uri string) string {
		return request(id, "resources/subscribe", `"uri":`+string(mustJSON(uri)))
	}
	if code, _ := mcptest.Error(t, subscribe(1, "nothing://here")); code != -32002 {
		t.Errorf("%s: an unknown URI: code %d", transport, code)
	}
	if got := subscribe(2, "fixed://one"); !strings.Contains(got, `"result":{}`) {
		t.Errorf("%s: a resource: %s", transport, got)
	}
	if code, _ := mcptest.Error(t, subscribe(3, "app://"+strings.Repeat("x", 256<<10))); code != -32602 {
		t.Errorf("%s: a URI of 256 KiB: code %d", transport, code)
	}
	for i := 1; i < 1024; i++ {
		if got := subscribe(10+i, fmt.Sprintf("app://%d", i)); !strings.Contains(got, `"result":{}`) {
			t.Fatalf("%s: subscription %d: %s", transport, i+1, got)
		}
	}
	if code, _ := mcptest.Error(t, subscribe(5000, "app://one-too-many")); code != -32602 {
		t.Errorf("%s: subscription 1025: code %d", transport, code)
	}
	request(5001, "resources/unsubscribe", `"uri":"app://1"`)
	if got := subscribe(5002, "app://room-again"); !strings.Contains(got, `"result":{}`) {
		t.Errorf("%s: after an unsubscribe: %s", transport, got)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestParamsOfTheWrongShape: every member of params that the runtime
// reads is checked for its JSON type, and one of another type is invalid
// params that names it; nothing panics. Before, completion/complete with
// "ref":[1] walked the array as an object and panicked: a stdio server
// exited, and so did any Conn's host.
func TestParamsOfTheWrongShape(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := catalog()
	web := httptest.NewServer(s.HTTPHandler(nil))
	defer web.Close()
	for i, params := range []string{
		`"ref":[1],"argument":{"name":"id","value":""}`,
		`"ref":"x","argument":{"name":"id","value":""}`,
		`"ref":{"type":"ref/prompt","name":"summarize"},"argument":[1]`,
		`"ref":{"type":["ref/prompt"],"name":"summarize"},"argument":{"name":"id","value":""}`,
		`"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"id","value":7}`,
		`"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"id","value":""},"context":[1]`,
		`"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"id","value":""},"context":{"arguments":[1]}`,
	} {
		msg := mcptest.Request(i, "completion/complete", params)
		for name, got := range map[string]string{
			"Conn":  string(s.NewConn(nil).Handle(context.Background(), []byte(msg))),
			"stdio": serveOne(t, s, msg, fmt.Sprint(i)),
			"HTTP":  postOne(t, web.URL, msg),
		} {
			if code, _ := mcptest.Error(t, got); code != -32602 {
				t.Errorf("%s, %s: %s", name, params, got)
			}
		}
	}
}

// postOne posts msg to the Streamable HTTP endpoint at url, as a client
// of revision 2025-11-25 without a session, and returns the JSON body of
// the answer.
func postOne(t *testing.T, url, msg string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// serveOne sends msg to a fresh stdio connection to s and returns the
// response to id.
func serveOne(t *testing.T, s *mcpruntime.Server, msg, id string) string {
	t.Helper()
	p := serveStdio(t, s)
	p.Send(msg)
	return reply(p, id)
}
