package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/greet"
	"github.com/mcpgen/mcpgen/examples/tickets"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/testdata/golden/client_tools"
)

// serveStdio serves s over pipes and returns the client's end. The input
// stays open until the test ends, as a real client's would.
func serveStdio(t *testing.T, s *runtime.Server) *linepeer.Peer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	p := linepeer.New(t, outR, inW)
	t.Cleanup(func() {
		inW.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		<-p.ReadDone
	})
	return p
}

// reply waits for the response with the given JSON id (as JSON: 1, "a",
// null).
func reply(p *linepeer.Peer, id string) string {
	return string(p.Take("the response to id "+id, func(l []byte) bool {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		return json.Unmarshal(l, &m) == nil && m.Method == "" && string(m.ID) == id
	}))
}

// ticketsAndGreet is seed 000's and seed 001's tools in one server.
func ticketsAndGreet() *runtime.Server {
	s := tickets.NewServer()
	greet.Register(s)
	return s
}

// TestErrorTable pins every row of the error table in
// shared/reference/go-mcp-anchors.md, section 6, and the malformed
// requests around it: each gets one answer a model or a person can act
// on, with a real JSON-RPC code, and the server keeps serving.
func TestErrorTable(t *testing.T) {
	p := serveStdio(t, ticketsAndGreet())
	rows := []struct {
		name, request, want string
	}{
		{"tools/list before initialize is answered",
			`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"missing required argument",
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{}}}`,
			mcptest.ToolError(3, "invalid arguments for tool greet:\n- name: is required")},
		{"value outside the enum",
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash","description":"App crashes","kind":"epic"}}}`,
			mcptest.ToolError(4, "invalid arguments for tool create_ticket:\n- kind: must be one of \"bug\", \"feature\", \"task\"; got \"epic\"")},
		{"misspelled field",
			`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada","extra":1}}}`,
			mcptest.ToolError(5, "invalid arguments for tool greet:\n- extra: unknown property (allowed: name)")},
		{"wrong type",
			`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"greet","arguments":{"name":42}}}`,
			mcptest.ToolError(6, "invalid arguments for tool greet:\n- name: must be a string; got 42")},
		{"unknown tool",
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"invalid params: unknown tool \"nope\"; available tools: create_ticket, greet"}}`},
		{"absent arguments count as {}",
			`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"greet"}}`,
			mcptest.ToolError(8, "invalid arguments for tool greet:\n- name: is required")},
		{"every mistake at once",
			`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":7,"kind":"epic","labels":["a","b","c","d","e","f"]}}}`,
			mcptest.ToolError(9, "invalid arguments for tool create_ticket:\n- title: must be a string; got 7\n- kind: must be one of \"bug\", \"feature\", \"task\"; got \"epic\"\n- labels: must have at most 5 items; got 6\n- description: is required")},
		{"unknown method",
			`{"jsonrpc":"2.0","id":10,"method":"no/such/method"}`,
			`{"jsonrpc":"2.0","id":10,"error":{"code":-32601,"message":"method not found: no/such/method"}}`},
		{"tools/call without a name",
			`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"arguments":{}}}`,
			`{"jsonrpc":"2.0","id":11,"error":{"code":-32602,"message":"invalid params: \"name\" must be a string"}}`},
		{"params not an object",
			`{"jsonrpc":"2.0","id":12,"method":"tools/list","params":[1]}`,
			`{"jsonrpc":"2.0","id":12,"error":{"code":-32602,"message":"invalid params: \"params\" must be an object"}}`},
		{"no jsonrpc member",
			`{"id":13,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":13,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`},
		{"an id that is an object",
			`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: id must be a string or a number"}}`},
		{"a line that is not JSON",
			`not json`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid JSON at offset 0: unexpected 'n'"}}`},
		{"after all that, the server still serves",
			`{"jsonrpc":"2.0","id":"last","method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`,
			`{"jsonrpc":"2.0","id":"last","result":{"content":[{"type":"text","text":"Hello, Ada! Welcome."}]}}`},
	}
	for _, r := range rows {
		p.Send(r.request)
		var m struct{ ID json.RawMessage }
		json.Unmarshal([]byte(r.want), &m)
		if got := reply(p, string(m.ID)); got != r.want {
			t.Errorf("%s:\n got %s\nwant %s", r.name, got, r.want)
		}
	}
	if left := p.Pending(); len(left) > 0 {
		t.Errorf("unexpected output: %q", left)
	}
}

func TestInitializeNegotiates(t *testing.T) {
	p := serveStdio(t, ticketsAndGreet())
	for i, v := range []struct{ asked, answered string }{
		{"2024-11-05", "2024-11-05"}, {"2025-03-26", "2025-03-26"}, {"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"}, {"2026-07-28", "2025-11-25"}, {"1999-01-01", "2025-11-25"},
	} {
		p.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, i, v.asked))
		want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"protocolVersion":%q,"capabilities":{"logging":{},"tools":{"listChanged":true}},"serverInfo":{"name":"cci","version":"1.0.0"}}}`, i, v.answered)
		if got := reply(p, fmt.Sprint(i)); got != want {
			t.Errorf("asked %s:\n got %s\nwant %s", v.asked, got, want)
		}
	}
}

// probeServer has tools whose behaviour the tests control.
type probeServer struct {
	*runtime.Server
	started  chan string
	release  chan struct{}
	finished chan string // tag, and why: "released" or "cancelled"
	running  atomic.Int32
	maxSeen  atomic.Int32
}

func newProbe() *probeServer {
	p := &probeServer{Server: &runtime.Server{Name: "probe", Version: "1"},
		started: make(chan string, 64), release: make(chan struct{}), finished: make(chan string, 64)}
	p.AddTool(&runtime.Tool{
		Name:        "hold",
		InputSchema: `{"type":"object","properties":{"tag":{"type":"string"}},"required":["tag"],"additionalProperties":false}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			var in struct{ Tag string }
			req.Bind(&in)
			n := p.running.Add(1)
			defer p.running.Add(-1)
			for {
				m := p.maxSeen.Load()
				if n <= m || p.maxSeen.CompareAndSwap(m, n) {
					break
				}
			}
			p.started <- in.Tag
			select {
			case <-p.release:
				p.finished <- in.Tag + " released"
				return runtime.TextResult("released " + in.Tag), nil
			case <-ctx.Done():
				p.finished <- in.Tag + " cancelled"
				return nil, ctx.Err()
			}
		},
	})
	p.AddTool(&runtime.Tool{
		Name: "boom",
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			panic("boom")
		},
	})
	p.AddTool(&runtime.Tool{
		Name:    "slow",
		Timeout: 20 * time.Millisecond,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	return p
}

func hold(id int, tag string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{"tag":%q}}}`, id, tag)
}

// TestPanicKeepsServing: a panicking handler is an isError result; the
// official Go SDK lets it kill the process. The client reads an incident
// id and nothing of the panic (its value may hold what it should not
// see); the server's log has the value, the stack and the same id.
func TestPanicKeepsServing(t *testing.T) {
	linepeer.CheckLeaks(t)
	probe := newProbe()
	var log bytes.Buffer
	var mu sync.Mutex
	probe.Logger = slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil))
	p := serveStdio(t, probe.Server)
	web := httptest.NewServer(probe.Server.HTTPHandler(nil))
	defer web.Close()
	const boom = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"boom"}}`
	incident := regexp.MustCompile(`"tool boom failed: internal error \(incident ([A-Z0-9]{12})\)"`)
	for transport, call := range map[string]func() string{
		"stdio": func() string { p.Send(boom); return reply(p, "1") },
		"HTTP":  func() string { return postOne(t, web.URL, boom) },
		"Conn":  func() string { return string(probe.Server.NewConn(nil).Handle(context.Background(), []byte(boom))) },
	} {
		got := call()
		m := incident.FindStringSubmatch(got)
		if m == nil || strings.Contains(got, "panic") {
			t.Errorf("%s: got %s; want an isError result that names an incident, and not the panic", transport, got)
			continue
		}
		mu.Lock()
		logged := log.String()
		mu.Unlock()
		if !strings.Contains(logged, "incident="+m[1]) || !strings.Contains(logged, "panic=boom") || !strings.Contains(logged, "goroutine") {
			t.Errorf("%s: the log lacks the incident, the panic or its stack:\n%s", transport, logged)
		}
	}
	p.Send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	reply(p, "2")
	if got := postOne(t, web.URL, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); !strings.Contains(got, `"result":{}`) {
		t.Errorf("HTTP: ping after the panic: %s", got)
	}
}

// lockedWriter serialises writes to a buffer that a test reads.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestCallsRunConcurrently: eight calls that each wait for all eight to
// have started can only finish if they run at once (mcp-go runs five at a
// time; a reader that ran handlers inline would run one).
func TestCallsRunConcurrently(t *testing.T) {
	probe := newProbe()
	p := serveStdio(t, probe.Server)
	var lines []string
	for i := range 8 {
		lines = append(lines, hold(i, fmt.Sprint(i)))
	}
	p.Send(strings.Join(lines, "\n")) // one burst
	for range 8 {
		<-probe.started
	}
	close(probe.release)
	for i := range 8 {
		reply(p, fmt.Sprint(i))
	}
}

// TestMaxInFlight: at most MaxInFlight calls run at once, as many more
// wait for a slot while the reading goes on, and past that the server
// stops reading until a call ends: the client's further messages wait in
// the pipe instead of in the server's memory.
func TestMaxInFlight(t *testing.T) {
	probe := newProbe()
	probe.MaxInFlight = 2
	p := serveStdio(t, probe.Server)
	for i := range 4 {
		p.Send(hold(i, fmt.Sprint(i)))
	}
	<-probe.started
	<-probe.started
	p.Send(`{"jsonrpc":"2.0","id":98,"method":"ping"}`)
	reply(p, "98") // requests keep being read while 2 calls wait for a slot
	p.Send(hold(4, "4"))
	sent := make(chan struct{})
	go func() {
		// The pipe blocks this write while the server does not read.
		p.Send(`{"jsonrpc":"2.0","id":99,"method":"ping"}`)
		close(sent)
	}()
	time.Sleep(100 * time.Millisecond)
	if slices.ContainsFunc(p.Pending(), func(l string) bool { return strings.Contains(l, `"id":99`) }) {
		t.Error("a message behind a full queue of calls was read and answered")
	}
	close(probe.release)
	<-sent
	reply(p, "99")
	for i := range 5 {
		reply(p, fmt.Sprint(i))
	}
	if m := probe.maxSeen.Load(); m != 2 {
		t.Errorf("%d calls ran at once, want at most 2 (and 2 reached)", m)
	}
}

// TestCancelledInSameBurst: a cancellation that arrives right behind its
// call (mcp-go loses it) cancels the call, and the call gets no response
// (both official SDKs send one).
func TestCancelledInSameBurst(t *testing.T) {
	probe := newProbe()
	p := serveStdio(t, probe.Server)
	p.Send(hold(1, "a") + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	if got := <-probe.finished; got != "a cancelled" {
		t.Errorf("handler: %s", got)
	}
	p.Send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	reply(p, "2")
	if left := p.Pending(); len(left) > 0 {
		t.Errorf("the cancelled call was answered: %q", left)
	}
}

func TestDuplicateIDInFlight(t *testing.T) {
	probe := newProbe()
	p := serveStdio(t, probe.Server)
	p.Send(hold(1, "a"))
	<-probe.started
	p.Send(hold(1, "b"))
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: a request with id 1 is already in flight"}}`
	if got := reply(p, "1"); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	close(probe.release)
	if got := reply(p, "1"); got != `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"released a"}]}}` {
		t.Errorf("the first call: %s", got)
	}
}

func TestToolTimeout(t *testing.T) {
	p := serveStdio(t, newProbe().Server)
	p.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	if got, want := reply(p, "1"), mcptest.ToolError(1, "tool slow timed out after 20ms"); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// TestProgressAndLogInBurst: progress and log notifications work even
// when the call arrives in the same burst as initialize (mcp-go fails
// there), and come before the call's response.
func TestProgressAndLogInBurst(t *testing.T) {
	p := serveStdio(t, client_tools.NewServer())
	p.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"to":3},"_meta":{"progressToken":"tok"}}}`)
	reply(p, "0")
	reply(p, "1")
	var notes []string
	for _, l := range p.Pending() {
		notes = append(notes, l)
	}
	want := []string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":1,"total":3,"message":"step 1"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":2,"total":3,"message":"step 2"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":3,"total":3,"message":"step 3"}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"count","data":{"msg":"counted","to":3}}}`,
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notifications before the response:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
}

func TestLogLevel(t *testing.T) {
	p := serveStdio(t, client_tools.NewServer())
	p.Send(`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"warning"}}`)
	if got := reply(p, "1"); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("setLevel: %s", got)
	}
	p.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count","arguments":{"to":1}}}`)
	reply(p, "2")
	if left := p.Pending(); len(left) > 0 {
		t.Errorf("an info record passed a warning level, or progress went out without a token: %q", left)
	}
	p.Send(`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"loud"}}`)
	if got := reply(p, "3"); !strings.Contains(got, `"code":-32602`) {
		t.Errorf("unknown level: %s", got)
	}
}

// TestOversizedLine: a line over MaxMessageSize gets an error and serving
// goes on; a message of exactly MaxMessageSize bytes is served, whatever
// its line terminator (it once counted the terminator, so that stdio
// refused what HTTP took).
func TestOversizedLine(t *testing.T) {
	s := ticketsAndGreet()
	s.MaxMessageSize = 1024
	p := serveStdio(t, s)
	line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"` + strings.Repeat("x", 5000) + `"}}}`
	p.Send(line)
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: message of %d bytes exceeds the limit of 1024 bytes"}}`, len(line))
	if got := reply(p, "null"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	p.Send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	reply(p, "2")
	for i, end := range []string{"", "\r"} {
		id := 3 + i
		atLimit := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"greet","arguments":{"name":"`, id)
		atLimit += strings.Repeat("x", 1024-len(atLimit)-len(`"}}}`)) + `"}}}`
		p.Send(atLimit + end)
		if got := reply(p, fmt.Sprint(id)); !strings.Contains(got, "Hello, xxx") {
			t.Errorf("a message of exactly MaxMessageSize bytes, ending %q: %s", end+"\n", got)
		}
	}
}

// TestBatch: a session that negotiated 2025-03-26 may send JSON-RPC
// batches, answered with one array.
func TestBatch(t *testing.T) {
	p := serveStdio(t, ticketsAndGreet())
	p.Send(mcptest.Initialize(0, "2025-03-26"))
	reply(p, "0")
	p.Send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"nope"},{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"name":"B"}}}]`)
	got := string(p.Take("a batch response", func(l []byte) bool { return l[0] == '[' }))
	want := `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: nope"}},{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Hello, B! Welcome."}]}}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	p.Send(`[]`)
	if got := reply(p, "null"); !strings.Contains(got, "empty batch") {
		t.Errorf("empty batch: %s", got)
	}
}

// TestBatchLimits: batches are refused before initialize and once a
// client negotiated 2025-06-18 or later (which removed them); where they
// are allowed, a batch holds at most 64 messages, and its answer stays
// near MaxMessageSize however large the answers it holds.
func TestBatchLimits(t *testing.T) {
	ping := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id) }
	batchOf := func(n int, msg func(int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = msg(i + 10)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	for _, version := range []string{"", "2025-06-18", "2025-11-25"} {
		p := serveStdio(t, ticketsAndGreet())
		if version != "" {
			p.Send(mcptest.Initialize(0, version))
			reply(p, "0")
		}
		p.Send(batchOf(2, ping))
		if got := reply(p, "null"); !strings.Contains(got, `"code":-32600`) || !strings.Contains(got, "batch") {
			t.Errorf("version %q: a batch was not refused: %s", version, got)
		}
	}

	s := ticketsAndGreet()
	s.MaxMessageSize = 4 << 10
	p := serveStdio(t, s)
	p.Send(mcptest.Initialize(0, "2024-11-05"))
	reply(p, "0")
	p.Send(batchOf(65, ping))
	if got := reply(p, "null"); !strings.Contains(got, "a batch of 65 messages; at most 64 are allowed") {
		t.Errorf("65 messages: %s", got)
	}
	p.Send(batchOf(64, func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id) }))
	got := p.Take("a batch response", func(l []byte) bool { return l[0] == '[' })
	var answers []struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct{ Message string }
	}
	if err := json.Unmarshal(got, &answers); err != nil || len(answers) != 64 {
		t.Fatalf("batch answer of %d bytes: %v, %d answers", len(got), err, len(answers))
	}
	if len(got) > s.MaxMessageSize+64*200 {
		t.Errorf("the answer to a batch of 64 tools/list is %d bytes, over the bound", len(got))
	}
	if answers[0].Result == nil || answers[63].Error == nil || !strings.Contains(answers[63].Error.Message, "send it on its own") {
		t.Errorf("the first answer should be whole, the last replaced: %s", got[len(got)-200:])
	}
}

// eofSignal is an input that reports when it has returned io.EOF.
type eofSignal struct {
	r   io.Reader
	eof chan struct{}
	mu  sync.Once
}

func (e *eofSignal) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.mu.Do(func() { close(e.eof) })
	}
	return n, err
}

// TestEOFDrainsCalls: calls already received when stdin ends still get
// their responses before Serve returns (the official Go SDK drops them:
// its issue #1061).
func TestEOFDrainsCalls(t *testing.T) {
	probe := newProbe()
	var in strings.Builder
	for i := range 5 {
		in.WriteString(hold(i, fmt.Sprint(i)) + "\n")
	}
	src := &eofSignal{r: strings.NewReader(in.String()), eof: make(chan struct{})}
	var out lockedBuffer
	done := make(chan error, 1)
	go func() { done <- probe.Serve(context.Background(), src, &out) }()
	<-src.eof
	for range 5 {
		<-probe.started
	}
	close(probe.release) // every call finishes after EOF
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d responses after EOF, want 5:\n%s", len(lines), out.String())
	}
}

// TestShutdownCancels: cancelling Serve's context cancels the calls in
// flight and Serve returns once they have finished.
func TestShutdownCancels(t *testing.T) {
	linepeer.CheckLeaks(t)
	probe := newProbe()
	inR, inW := io.Pipe()
	defer inW.Close()
	var out lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- probe.Serve(ctx, inR, &out) }()
	io.WriteString(inW, hold(1, "a")+"\n"+hold(2, "b")+"\n")
	<-probe.started
	<-probe.started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Serve returned %v, want context.Canceled", err)
	}
	for range 2 {
		if got := <-probe.finished; !strings.HasSuffix(got, "cancelled") {
			t.Errorf("a call was not cancelled: %s", got)
		}
	}
	inW.Close() // lets the reading goroutine go
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestNonJSONWhitespace: only JSON's own whitespace may surround a line;
// a line wrapped in other space characters is not JSON.
func TestNonJSONWhitespace(t *testing.T) {
	p := serveStdio(t, ticketsAndGreet())
	p.Send(" \t" + `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\r")
	reply(p, "1")
	p.Send("\u00a0\v" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\f")
	if got := reply(p, "null"); !strings.Contains(got, `"code":-32700`) {
		t.Errorf("got %s, want a parse error", got)
	}
}

// writeLog records each Write separately.
type writeLog struct {
	mu     sync.Mutex
	writes []string
	more   chan struct{}
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, string(p))
	w.mu.Unlock()
	select {
	case w.more <- struct{}{}:
	default:
	}
	return len(p), nil
}

// waitLines waits until n lines have been written, and returns the writes.
func (w *writeLog) waitLines(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.After(linepeer.HangGuard)
	for {
		w.mu.Lock()
		writes := slices.Clone(w.writes)
		w.mu.Unlock()
		if strings.Count(strings.Join(writes, ""), "\n") >= n {
			return writes
		}
		select {
		case <-w.more:
		case <-deadline:
			t.Fatalf("%d lines written, want %d: %q", strings.Count(strings.Join(writes, ""), "\n"), n, writes)
		}
	}
}

// TestBurstAnsweredInOneWrite: requests that arrive together are answered
// in one write, and what the reader held back is written before it waits
// for more input (the input stays open here).
func TestBurstAnsweredInOneWrite(t *testing.T) {
	inR, inW := io.Pipe()
	out := &writeLog{more: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() { done <- ticketsAndGreet().Serve(context.Background(), inR, out) }()
	defer func() {
		inW.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	burst := func(from int) string {
		var lines []string
		for i := from; i < from+8; i++ {
			lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i))
		}
		return strings.Join(lines, "\n") + "\n"
	}
	io.WriteString(inW, burst(0))
	if writes := out.waitLines(t, 8); len(writes) != 1 {
		t.Errorf("8 pings in one burst were answered in %d writes, want 1: %q", len(writes), writes)
	}
	io.WriteString(inW, burst(8))
	if writes := out.waitLines(t, 16); len(writes) != 2 {
		t.Errorf("two bursts were answered in %d writes, want 2: %q", len(writes), writes)
	}
}
