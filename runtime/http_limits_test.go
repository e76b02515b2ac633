package runtime

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// TestHTTPDuplicateNamesRefused: a message that repeats a member name
// runs nothing; a proxy in front of the server that reads it as
// encoding/json does (the last name wins) cannot be shown one call while
// another runs.
func TestHTTPDuplicateNamesRefused(t *testing.T) {
	s, ht := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block","arguments":{"text":"x"},"name":"echo","arguments":{"text":"y"}}}`)
	r.WantError(t, http.StatusBadRequest, jsonrpc.InvalidRequest)
	if !strings.Contains(string(r.Body), `member \"name\" appears more than once`) {
		t.Errorf("body %s", r.Body)
	}
	select {
	case text := <-ht.started:
		t.Errorf("block ran with %q", text)
	default:
	}
}

// TestHTTPSlowBody: a body that arrives slower than BodyTimeout gets 408
// and its connection is closed, instead of holding it for ever.
func TestHTTPSlowBody(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, &HTTPOptions{BodyTimeout: 200 * time.Millisecond})
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := mcptest.Call(1, "echo", mcptest.Object("text", "slow"))
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body[:5])
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a trickled body: %v", err)
	}
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(got), "did not arrive within 200ms") {
		t.Errorf("status %d, body %s", resp.StatusCode, got)
	}
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Error("the connection stayed open after the timeout")
	}
}

// TestHTTPStreamOutlivesWriteTimeout: WriteTimeout bounds each write, not
// the stream: a call that keeps reporting progress for longer than it is
// answered whole, by the handler on a server of the test's and on
// ListenAndServeHTTP's, whose connections keep a write deadline while it
// leaves half of WriteTimeout.
func TestHTTPStreamOutlivesWriteTimeout(t *testing.T) {
	longStream := func() *Server {
		s := &Server{Name: "slow"}
		s.AddTool(&Tool{Name: "long", Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			for i := range 6 {
				ReportProgress(ctx, float64(i), 6, "")
				time.Sleep(100 * time.Millisecond)
			}
			return TextResult("done"), nil
		}})
		return s
	}
	opts := &HTTPOptions{WriteTimeout: 250 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	_, listened, result := listenHTTP(t, ctx, longStream(), "127.0.0.1:0", opts)
	defer func() { cancel(); <-result }()
	for server, url := range map[string]string{"HTTPHandler": serveHTTPTest(t, longStream(), opts), "ListenAndServeHTTP": listened} {
		r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"long","_meta":{"progressToken":1}}}`)
		msgs := r.MustMessages(t)
		if len(msgs) != 7 || mcptest.MustToolText(t, msgs[6]) != "done" {
			t.Errorf("%s: a 600 ms stream with a 250 ms write timeout: %s", server, r.Body)
		}
	}
}

// TestHTTPWriteDeadlineStandsOnKeptAliveConnection: on
// ListenAndServeHTTP's server, answers on one kept-alive connection keep
// the write deadline the first one set while it leaves at least half of
// WriteTimeout: moving it moved a runtime timer on every request, which
// woke an idle scheduler thread.
func TestHTTPWriteDeadlineStandsOnKeptAliveConnection(t *testing.T) {
	s := &Server{Name: "deadlines"}
	s.AddTool(&Tool{Name: "deadline", Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
		wd, _ := ctx.Value(writeDeadlineKey{}).(*writeDeadline)
		if wd == nil {
			return TextResult("none"), nil
		}
		return TextResult(fmt.Sprint(wd.unixNano.Load())), nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	_, url, result := listenHTTP(t, ctx, s, "127.0.0.1:0", &HTTPOptions{WriteTimeout: 10 * time.Second})
	defer func() { cancel(); <-result }()

	before := time.Now()
	var seen []string
	for i := range 3 { // one connection: mcptest's client keeps it alive
		seen = append(seen, mcptest.MustToolText(t, mcptest.Post(t, url, mcptest.Call(i, "deadline", "{}")).Response(t)))
	}
	// The first call sees the deadline of no answer yet; the second, the
	// first answer's; the third, the same.
	if seen[0] != "0" || seen[1] == "0" || seen[2] != seen[1] {
		t.Fatalf("the write deadline seen by three calls on one connection: %v; want 0, then one deadline twice", seen)
	}
	if d := time.Unix(0, mustInt64(t, seen[1])); d.Before(before.Add(10*time.Second)) || d.After(time.Now().Add(10*time.Second)) {
		t.Errorf("the deadline %v is not WriteTimeout after the first answer", d)
	}
}

func mustInt64(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWriteDeadlineCovers: a deadline covers a write while it leaves at
// least half of the timeout; none is known before one is set, or without
// a writeDeadline (a server other than ListenAndServeHTTP's).
func TestWriteDeadlineCovers(t *testing.T) {
	const timeout = 10 * time.Second
	now := time.Now()
	var nilDeadline *writeDeadline
	if nilDeadline.covers(now, timeout) || new(writeDeadline).covers(now, timeout) {
		t.Fatal("a deadline never set covers a write")
	}
	nilDeadline.set(now) // does nothing, and does not panic
	var wd writeDeadline
	wd.set(now.Add(timeout))
	if !wd.covers(now.Add(timeout/2), timeout) {
		t.Error("a deadline that leaves half the timeout does not cover a write")
	}
	if wd.covers(now.Add(timeout/2+time.Nanosecond), timeout) {
		t.Error("a deadline that leaves less than half the timeout covers a write")
	}
}

// TestHTTPInitializeNotificationStartsNoSession: only a successful
// initialize request starts a session. Notifications named initialize
// (10,000 of them) get 400 and evict no session.
func TestHTTPInitializeNotificationStartsNoSession(t *testing.T) {
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true, MaxSessions: 2})
	id := startHTTPSession(t, url)
	for range 10_000 {
		r := mcptest.Post(t, url, `{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2025-06-18"}}`)
		if r.Status != http.StatusBadRequest || r.Header.Get(wire.HeaderSessionID) != "" {
			t.Fatalf("an initialize notification: status %d, session %q", r.Status, r.Header.Get(wire.HeaderSessionID))
		}
	}
	if r := mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "still here")), wire.HeaderSessionID, id); mcptest.MustToolText(t, r.Response(t)) != "still here" {
		t.Errorf("the real session: %d %s", r.Status, r.Body)
	}
}

// TestHTTPBusy: requests beyond what the server may hold are refused with
// 503 and Retry-After, and served again once the calls end: MaxInFlight
// running plus as many waiting, and MaxPendingBytes of messages.
func TestHTTPBusy(t *testing.T) {
	s, ht := newHTTPTestServer()
	s.MaxInFlight = 1
	url := serveHTTPTest(t, s, nil)
	var wg sync.WaitGroup
	for i := range 2 { // one runs, one waits for the slot
		wg.Go(func() {
			r, err := mcptest.Send(context.Background(), http.DefaultClient, http.MethodPost, url, mcptest.Call(i, "block", mcptest.Object("text", fmt.Sprint(i))), mcptest.Headers())
			if err != nil || r.Status != http.StatusOK {
				t.Errorf("call %d: %v %d %s", i, err, r.Status, r.Body)
			}
		})
	}
	<-ht.started
	waitFor(t, "the second call to be admitted", func() bool { return s.admission().callsHeld() == 2 })
	r := mcptest.Post(t, url, mcptest.Call(9, "echo", mcptest.Object("text", "x")))
	r.WantError(t, http.StatusServiceUnavailable, jsonrpc.InternalError)
	if r.Header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	// What is not a call still gets through.
	if r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":5,"method":"ping"}`); r.Status != http.StatusOK {
		t.Errorf("ping while calls are full: %d", r.Status)
	}
	close(ht.release)
	wg.Wait()
	if got := mcptest.MustToolText(t, mcptest.Post(t, url, mcptest.Call(10, "echo", mcptest.Object("text", "again"))).Response(t)); got != "again" {
		t.Errorf("after the calls ended: %q", got)
	}

	// Bytes: with room for one large message, a second waits its turn.
	s2, ht2 := newHTTPTestServer()
	s2.MaxPendingBytes = 64 << 10
	url2 := serveHTTPTest(t, s2, nil)
	big := mcptest.Call(1, "block", mcptest.Object("text", strings.Repeat("b", 60<<10)))
	wg.Go(func() {
		mcptest.Send(context.Background(), http.DefaultClient, http.MethodPost, url2, big, mcptest.Headers())
	})
	<-ht2.started
	mcptest.Post(t, url2, mcptest.Call(2, "echo", mcptest.Object("text", strings.Repeat("c", 8<<10)))).WantError(t, http.StatusServiceUnavailable, jsonrpc.InternalError)
	close(ht2.release)
	wg.Wait()
	if got := mcptest.MustToolText(t, mcptest.Post(t, url2, mcptest.Call(3, "echo", mcptest.Object("text", "small"))).Response(t)); got != "small" {
		t.Errorf("after the large call ended: %q", got)
	}
}

// waitFor polls cond until it holds; what says what the test waits for.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// TestHTTPStandaloneStream: with sessions, a GET opens the session's
// stream, which carries what belongs to no request (here a list change
// and a resource update), numbered; reconnecting with Last-Event-ID
// replays what came after. Without a session id, or a session, GET is
// refused.
func TestHTTPStandaloneStream(t *testing.T) {
	s, _ := newHTTPTestServer()
	s.AddResource(&Resource{URI: "app://x", Name: "x", Handler: func(ctx context.Context, req *ResourceRequest) (*ResourceResult, error) {
		return TextResource(req.URI, "text/plain", "x"), nil
	}})
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true})
	id := startHTTPSession(t, url)
	if r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"app://x"}}`, wire.HeaderSessionID, id); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"result":{}`) {
		t.Fatalf("subscribe: %d %s", r.Status, r.Body)
	}
	mcptest.Do(t, http.MethodGet, url, "", http.Header{"Accept": {"text/event-stream"}}).WantError(t, http.StatusBadRequest, jsonrpc.InvalidRequest)
	mcptest.Do(t, http.MethodGet, url, "", http.Header{"Accept": {"text/event-stream"}, wire.HeaderSessionID: {"nope"}}).WantError(t, http.StatusNotFound, wire.SessionNotFound)

	open := func(last string) (*http.Response, *bufio.Reader) {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set(wire.HeaderSessionID, id)
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("GET: %v %v", err, resp)
		}
		return resp, bufio.NewReader(resp.Body)
	}
	next := func(r *bufio.Reader) (id, data string) {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the stream: %v", err)
			}
			line = strings.TrimSuffix(line, "\n")
			switch {
			case strings.HasPrefix(line, "id: "):
				id = line[4:]
			case strings.HasPrefix(line, "data: "):
				data = line[6:]
			case line == "" && data != "":
				return id, data
			}
		}
	}
	resp, r := open("")
	s.AddTool(&Tool{Name: "late", Handler: func(context.Context, *ToolRequest) (*ToolResult, error) { return TextResult(""), nil }})
	s.ResourceUpdated("app://x")
	if id1, data := next(r); id1 != "1" || data != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` {
		t.Errorf("first event %s %s", id1, data)
	}
	if id2, data := next(r); id2 != "2" || !strings.Contains(data, "notifications/resources/updated") {
		t.Errorf("second event %s %s", id2, data)
	}
	resp.Body.Close()

	resp, r = open("1")
	defer resp.Body.Close()
	if id2, data := next(r); id2 != "2" || !strings.Contains(data, `"uri":"app://x"`) {
		t.Errorf("replayed after 1: %s %s", id2, data)
	}
}

// openUpload starts a POST that announces a body of announced bytes,
// sends sent of them, and then holds its connection open.
func openUpload(t *testing.T, url string, announced, sent int) net.Conn {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
		addr, announced, strings.Repeat(" ", sent))
	return conn
}

// TestHTTPIdleUploadsHoldLittle: a body's bytes count against
// MaxPendingBytes as they arrive, not as the request announces them, so
// that uploads announcing the whole budget and sending one byte lock no
// one out; the bound still holds for bytes that did arrive. Before, four
// idle uploads of 16 MiB took the default 64 MiB, and every other request
// got 503 for BodyTimeout.
func TestHTTPIdleUploadsHoldLittle(t *testing.T) {
	linepeer.CheckLeaks(t)
	s, _ := newHTTPTestServer()
	s.MaxMessageSize = 1 << 20
	s.MaxPendingBytes = 4 << 20
	url := serveHTTPTest(t, s, nil)
	for range 4 {
		openUpload(t, url, 1<<20-messageOverhead-100, 1) // four of them announce the whole budget
	}
	waitFor(t, "the four uploads to be admitted", func() bool {
		s.admission().mu.Lock()
		defer s.admission().mu.Unlock()
		return s.admission().bytes >= 4*messageOverhead
	})
	if got := mcptest.MustToolText(t, mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "still served"))).Response(t)); got != "still served" {
		t.Errorf("a call while four uploads idle: %q", got)
	}

	// What did arrive counts: two uploads that sent 1.9 MiB each leave no
	// room for a third one's 300 KiB.
	s2, _ := newHTTPTestServer()
	s2.MaxMessageSize = 2 << 20
	s2.MaxPendingBytes = 4 << 20
	url2 := serveHTTPTest(t, s2, nil)
	for range 2 {
		openUpload(t, url2, 2<<20-100, 1900<<10)
	}
	waitFor(t, "the two uploads' bytes to arrive", func() bool {
		s2.admission().mu.Lock()
		defer s2.admission().mu.Unlock()
		return s2.admission().bytes >= 2*(1900<<10)
	})
	mcptest.Post(t, url2, mcptest.Call(2, "echo", mcptest.Object("text", strings.Repeat("x", 300<<10)))).WantError(t, http.StatusServiceUnavailable, jsonrpc.InternalError)
	if got := mcptest.MustToolText(t, mcptest.Post(t, url2, mcptest.Call(3, "echo", mcptest.Object("text", "small"))).Response(t)); got != "small" {
		t.Errorf("a small call still fits: %q", got)
	}
}

// TestHTTPStrayMessagesReleaseTheirSession: a POST that carries a
// response without an id, or a malformed notification, under a session
// uses that session only while it is answered. Before, each marked its
// session in use for ever, so that it was never evicted nor expired, and
// MaxSessions of them refused every later initialize with 503.
func TestHTTPStrayMessagesReleaseTheirSession(t *testing.T) {
	linepeer.CheckLeaks(t)
	s, _ := newHTTPTestServer()
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true, MaxSessions: 1})
	for _, stray := range []string{
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":"x"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}`,
	} {
		id := startHTTPSession(t, url)
		if r := mcptest.Post(t, url, stray, wire.HeaderSessionID, id); r.Status != http.StatusAccepted {
			t.Fatalf("%s: status %d %s", stray, r.Status, r.Body)
		}
		// The one session is idle again: a new client evicts it.
		if r := mcptest.Post(t, url, mcptest.Initialize(0, "2025-11-25")); r.Status != http.StatusOK || r.Header.Get(wire.HeaderSessionID) == "" {
			t.Errorf("after %s, initialize: status %d %s", stray, r.Status, r.Body)
		}
	}
}

// TestHTTPRootsRefreshesCoalesce is TestRootsRefreshesCoalesce over
// Streamable HTTP: a session's notifications/roots/list_changed run at
// most one refresh at a time, the rest coalesced, and ending the session
// ends the refresh that waits for the client. Before, each notification
// started a goroutine that waited up to 10 minutes, after the session's
// end too: 20,000 of them held 126 MiB.
func TestHTTPRootsRefreshesCoalesce(t *testing.T) {
	linepeer.CheckLeaks(t)
	var running, peak, refreshes atomic.Int32
	ended := make(chan error, 1)
	s := &Server{Name: "roots", Logger: linepeer.DiscardLogger()}
	s.OnRootsChanged = func(ctx context.Context) {
		refreshes.Add(1)
		peak.Store(max(peak.Load(), running.Add(1)))
		defer running.Add(-1)
		_, err := Roots(ctx)
		select {
		case ended <- err:
		default:
		}
	}
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true})
	r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	id := r.Header.Get(wire.HeaderSessionID)
	if r.Status != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", r.Status, id)
	}
	mcptest.Post(t, url, mcptest.Initialized, wire.HeaderSessionID, id)
	before := goruntime.NumGoroutine()
	for i := range 2000 {
		if r := mcptest.Post(t, url, `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`, wire.HeaderSessionID, id, wire.HeaderProtocolVersion, "2025-11-25"); r.Status != http.StatusAccepted {
			t.Fatalf("notification %d: status %d %s", i, r.Status, r.Body)
		}
	}
	if n := goruntime.NumGoroutine() - before; n > 20 {
		t.Errorf("%d goroutines after 2,000 notifications", n)
	}
	if p := peak.Load(); p != 1 {
		t.Errorf("%d refreshes at once", p)
	}
	if n := refreshes.Load(); n < 1 || n > 2 {
		t.Errorf("%d refreshes began for 2,000 notifications while the first waited; want it and at most one more", n)
	}
	select {
	case err := <-ended:
		t.Fatalf("a refresh ended before its session did, without an answer: %v", err)
	default:
	}
	if r := mcptest.Do(t, http.MethodDelete, url, "", http.Header{wire.HeaderSessionID: {id}}); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE: status %d %s", r.Status, r.Body)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the refresh's Roots returned %v, want the session's end (context.Canceled)", err)
		}
	case <-time.After(linepeer.HangGuard):
		t.Fatal("the refresh still waits for the client after its session ended")
	}
}

// TestHTTPRoutingHeadersAgreeUnderEveryRevision: a header that proxies
// route on must agree with the body whatever the request's revision.
// Before, a request of a session revision whose Mcp-Name said find_notes
// and whose body called delete_note ran delete_note.
func TestHTTPRoutingHeadersAgreeUnderEveryRevision(t *testing.T) {
	linepeer.CheckLeaks(t)
	s, ht := newHTTPTestServer()
	url := serveHTTPTest(t, s, nil)
	for _, hdr := range [][]string{
		{wire.HeaderName, "echo"},
		{wire.HeaderMethod, "tools/list"},
		{wire.HeaderName, "=?base64?ZWNobw==?="},
		{wire.HeaderName, "block", wire.HeaderName, "echo"},
	} {
		r := mcptest.Post(t, url, mcptest.Call(1, "block", mcptest.Object("text", "x")), hdr...)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"code":-32020`) {
			t.Errorf("headers %q: status %d %s", hdr, r.Status, r.Body)
		}
	}
	select {
	case text := <-ht.started:
		t.Errorf("block ran with %q", text)
	default:
	}
	// Headers that agree, and none at all, are served.
	if got := mcptest.MustToolText(t, mcptest.Post(t, url, mcptest.Call(2, "echo", mcptest.Object("text", "ok")), wire.HeaderName, "echo", wire.HeaderMethod, "tools/call").Response(t)); got != "ok" {
		t.Errorf("agreeing headers: %q", got)
	}
}

// TestHTTPIntegerHeaderExact: an integer Mcp-Param header must be a
// decimal integer equal to the body's, exactly. Before, it was compared
// through float64: 9007199254740993 passed for 9007199254740992, and
// 0x15p1, +42 and 4.2e1 for 42.
func TestHTTPIntegerHeaderExact(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := &Server{Name: "n", Logger: slog.New(slog.DiscardHandler)}
	ran := make(chan string, 10)
	s.AddTool(&Tool{Name: "pick", InputSchema: `{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}`,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			ran <- string(req.Arguments)
			return TextResult("ran"), nil
		}})
	url := serveHTTPTest(t, s, nil)
	call := func(n string) string {
		return mcptest.PerRequest(1, "tools/call", `"name":"pick","arguments":{"n":`+n+`}`, "{}")
	}
	for _, tc := range []struct{ header, body string }{
		{"9007199254740993", "9007199254740992"},
		{"0x15p1", "42"},
		{"+42", "42"},
		{"4.2e1", "42"},
	} {
		r := mcptest.Post(t, url, call(tc.body), perRequestHeaders("tools/call", wire.HeaderName, "pick", "Mcp-Param-N", tc.header)...)
		r.WantRequestError(t, "header "+tc.header, http.StatusBadRequest, wire.HeaderMismatch, 1)
	}
	select {
	case args := <-ran:
		t.Fatalf("the tool ran with %s", args)
	default:
	}
	if r := mcptest.Post(t, url, call("42.0"), perRequestHeaders("tools/call", wire.HeaderName, "pick", "Mcp-Param-N", "42")...); r.Status != http.StatusOK {
		t.Errorf("42 for 42.0: %d %s", r.Status, r.Body)
	}
}

// listenersOpen returns the number of open subscriptions/listen requests.
func listenersOpen(s *Server) int {
	s.fanout.mu.Lock()
	defer s.fanout.mu.Unlock()
	return len(s.fanout.listeners)
}

// openListen starts a subscriptions/listen for list changes over a raw
// connection, which reads nothing once the acknowledgement is there.
func openListen(t *testing.T, url string, id int, headerLines ...string) net.Conn {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	body := mcptest.PerRequest(id, "subscriptions/listen", `"notifications":{"toolsListChanged":true,"resourcesListChanged":true}`, "{}")
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\n%sContent-Length: %d\r\n\r\n%s", addr, strings.Join(headerLines, ""), len(body), body)
	return conn
}

// TestHTTPStalledListenerBlocksNoOne: notifications for a listen request
// queue for the request's own goroutine; a client that stops reading
// slows down no one else, and once its queue overflows its request ends.
// Before, every notifier wrote to each listener itself, waiting up to
// WriteTimeout (30 s) per stalled listener and notification.
func TestHTTPStalledListenerBlocksNoOne(t *testing.T) {
	linepeer.CheckLeaks(t)
	s, _ := newHTTPTestServer()
	s.MaxListensPerClient = 16
	url := serveHTTPTest(t, s, &HTTPOptions{WriteTimeout: 2 * time.Second})
	for i := range 16 { // waited for in turn, 16 stalled listeners would hold a notifier 32 s
		openListen(t, url, i)
	}
	waitFor(t, "sixteen listeners", func() bool { return listenersOpen(s) == 16 })
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100_000 { // far more than the sockets' buffers hold
			s.listChanged(tools)
		}
	}()
	select {
	case <-done:
	case <-time.After(linepeer.HangGuard):
		t.Fatal("notifying stalled listeners blocked the notifier")
	}
	waitFor(t, "the stalled listeners to end", func() bool { return listenersOpen(s) == 0 })
}

// TestHTTPListenShare: one client (here, one address) holds at most
// MaxListensPerClient listen requests, so that it cannot take the
// server's every slot. Before, the 256 slots were the server's alone, and
// one client could hold them all.
func TestHTTPListenShare(t *testing.T) {
	linepeer.CheckLeaks(t)
	s, _ := newHTTPTestServer()
	s.MaxListensPerClient = 3
	url := serveHTTPTest(t, s, nil)
	for i := range 3 {
		openListen(t, url, i)
	}
	waitFor(t, "three listeners", func() bool { return listenersOpen(s) == 3 })
	r := mcptest.Post(t, url, mcptest.PerRequest(3, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}"), perRequestHeaders("subscriptions/listen")...)
	r.WantRequestError(t, "a fourth listen of one client", http.StatusBadRequest, jsonrpc.InvalidRequest, 3)
	if !strings.Contains(string(r.Body), "the most one client may") {
		t.Errorf("body %s", r.Body)
	}
}

// TestHTTPListenShareByToken: with authorization, a client is the subject
// of its token, not its address: two users behind one address (a proxy, a
// NAT) each get their own share, and one user's listens on many
// connections count together.
func TestHTTPListenShareByToken(t *testing.T) {
	linepeer.CheckLeaks(t)
	s, _ := newHTTPTestServer()
	s.MaxListensPerClient = 2
	url := serveHTTPTest(t, s, &HTTPOptions{Authorization: testAuthorization()})
	for i := range 2 {
		openListen(t, url, i, "Authorization: Bearer reader\r\n") // ann
	}
	waitFor(t, "ann's two listeners", func() bool { return listenersOpen(s) == 2 })
	r := mcptest.Post(t, url, mcptest.PerRequest(2, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`, "{}"),
		perRequestHeaders("subscriptions/listen", "Authorization", "Bearer slash")...) // ann again, another token
	r.WantRequestError(t, "a third listen of ann", http.StatusBadRequest, jsonrpc.InvalidRequest, 2)
	openListen(t, url, 3, "Authorization: Bearer writer\r\n") // bob, from the same address
	waitFor(t, "bob's listener beside ann's", func() bool { return listenersOpen(s) == 3 })
}
