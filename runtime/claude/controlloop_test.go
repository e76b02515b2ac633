package claude_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/greet"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
	"github.com/mcpgen/mcpgen/runtime/internal/bridge"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// cliSide plays the Claude Code CLI against the host's control loop over
// pipes: it writes what the CLI would write and reads what the host
// answers.
type cliSide struct {
	*linepeer.Peer
	cc *claude.ControlConn
}

func newCLISide(t *testing.T, servers map[string]*runtime.Server, canUseTool func(context.Context, claude.PermissionRequest) (claude.PermissionResult, error)) *cliSide {
	t.Helper()
	return newCLISideOpts(t, claude.Options{Servers: servers, CanUseTool: canUseTool})
}

// newCLISideOpts is newCLISide for a host answering as a session with
// opts would.
func newCLISideOpts(t *testing.T, opts claude.Options) *cliSide {
	t.Helper()
	hostIn, cliOut := io.Pipe()
	cliIn, hostOut := io.Pipe()
	c := &cliSide{Peer: linepeer.New(t, cliIn, cliOut)}
	c.cc = claude.NewControlConnOptions(context.Background(), hostIn, hostOut, opts)
	t.Cleanup(func() {
		cliOut.Close()
		<-c.cc.Done()
		hostOut.Close()
		<-c.ReadDone
	})
	return c
}

// response waits for the host's control_response to request id.
func (c *cliSide) response(id string) string {
	return string(c.Take("a response to "+id, func(l []byte) bool { return responseID(l) == id }))
}

func responseID(line []byte) string {
	var env struct {
		Type     string `json:"type"`
		Response struct {
			RequestID string `json:"request_id"`
		} `json:"response"`
	}
	json.Unmarshal(line, &env)
	if env.Type != "control_response" {
		return ""
	}
	return env.Response.RequestID
}

func mcpMessage(id, server, message string) string {
	return fmt.Sprintf(`{"type":"control_request","request_id":%q,"request":{"subtype":"mcp_message","server_name":%q,"message":%s}}`, id, server, message)
}

func success(id, response string) string {
	return fmt.Sprintf(`{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":%s}}`, id, response)
}

// TestSeed001Sequence replays the sequence captured from the real CLI in
// seed 001 (two MCP initializations, tools/list twice, a permission check,
// a tools/call with _meta) and checks the host's bytes.
func TestSeed001Sequence(t *testing.T) {
	var asked claude.PermissionRequest
	cli := newCLISide(t, map[string]*runtime.Server{"demo_tools": greet.NewServer()},
		func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
			asked = req
			return claude.PermissionResult{Allow: true}, nil
		})

	initialize := `{"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.33"}},"jsonrpc":"2.0","id":0}`
	initResult := `{"mcp_response":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{"listChanged":true}},"serverInfo":{"name":"demo_tools","version":"1.0.0"}}}}`
	ack := `{"mcp_response":{"jsonrpc":"2.0","result":{}}}`
	list := `{"method":"tools/list","jsonrpc":"2.0","id":1}`
	listResult := `{"mcp_response":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"greet","description":"Greet a person by name.","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"name":{"type":"string"}},"additionalProperties":false,"type":"object","required":["name"],"description":"GreetInput names the person to greet."}}]}}}`

	steps := []struct{ id, message, want string }{
		{"init-1", initialize, initResult},
		{"notif-1", `{"method":"notifications/initialized","jsonrpc":"2.0"}`, ack},
		{"init-2", initialize, initResult},
		{"list-1", list, listResult},
		{"notif-2", `{"method":"notifications/initialized","jsonrpc":"2.0"}`, ack},
		{"list-2", list, listResult},
	}
	for _, s := range steps {
		cli.Send(mcpMessage(s.id, "demo_tools", s.message))
		if got, want := cli.response(s.id), success(s.id, s.want); got != want {
			t.Errorf("%s:\n got %s\nwant %s", s.id, got, want)
		}
	}

	cli.Send(`{"type":"control_request","request_id":"perm-1","request":{"subtype":"can_use_tool","tool_name":"mcp__demo_tools__greet","input":{"name":"Alice"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"mcp__demo_tools__greet"}],"behavior":"allow","destination":"localSettings"}],"tool_use_id":"toolu_011ps2HcHPddjonXwz1ezAnE"}}`)
	if got, want := cli.response("perm-1"), success("perm-1", `{"behavior":"allow","updatedInput":{"name":"Alice"}}`); got != want {
		t.Errorf("can_use_tool:\n got %s\nwant %s", got, want)
	}
	if asked.ToolName != "mcp__demo_tools__greet" || string(asked.Input) != `{"name":"Alice"}` || asked.ToolUseID != "toolu_011ps2HcHPddjonXwz1ezAnE" {
		t.Errorf("the callback saw %+v", asked)
	}

	cli.Send(mcpMessage("call-1", "demo_tools", `{"method":"tools/call","params":{"name":"greet","arguments":{"name":"Alice"},"_meta":{"claudecode/toolUseId":"toolu_011ps2HcHPddjonXwz1ezAnE","progressToken":2}},"jsonrpc":"2.0","id":2}`))
	if got, want := cli.response("call-1"), success("call-1", `{"mcp_response":{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Hello, Alice! Welcome."}]}}}`); got != want {
		t.Errorf("tools/call:\n got %s\nwant %s", got, want)
	}
	if p := cli.Pending(); len(p) > 0 {
		t.Errorf("the host wrote lines nobody asked for: %q", p)
	}
}

// blockingServer has a tool that waits for release (or cancellation) and
// an echo tool.
func blockingServer(started chan<- string, release <-chan struct{}, cancelled chan<- string) *runtime.Server {
	s := &runtime.Server{Name: "test", Version: "1"}
	s.AddTool(&runtime.Tool{
		Name:        "block",
		InputSchema: `{"type":"object","properties":{"tag":{"type":"string"}},"additionalProperties":false}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			var in struct{ Tag string }
			req.Bind(&in)
			started <- in.Tag
			select {
			case <-release:
				return runtime.TextResult("released " + in.Tag), nil
			case <-ctx.Done():
				cancelled <- in.Tag
				return nil, ctx.Err()
			}
		},
	})
	s.AddTool(&runtime.Tool{
		Name:        "echo",
		InputSchema: `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return runtime.TextResult(string(req.Arguments)), nil
		},
	})
	return s
}

// TestConcurrentCalls sends 1000 tools/call at once, all with the same
// JSON-RPC id (the CLI reuses ids across its connections), while another
// call is blocked: every one is answered, under its own request_id, with
// its own arguments.
func TestConcurrentCalls(t *testing.T) {
	linepeer.CheckLeaks(t)
	started, cancelled := make(chan string, 1), make(chan string, 1)
	release := make(chan struct{})
	cli := newCLISide(t, map[string]*runtime.Server{"test": blockingServer(started, release, cancelled)}, nil)

	cli.Send(mcpMessage("blocked", "test", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block","arguments":{"tag":"b"}}}`))
	<-started
	const n = 1000
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			cli.Send(mcpMessage(fmt.Sprintf("echo-%d", i), "test", fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"n":%d}}}`, i)))
		})
	}
	wg.Wait()
	for i := range n {
		id := fmt.Sprintf("echo-%d", i)
		want := success(id, fmt.Sprintf(`{"mcp_response":{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"n\":%d}"}]}}}`, i))
		if got := cli.response(id); got != want {
			t.Fatalf("%s:\n got %s\nwant %s", id, got, want)
		}
	}
	close(release)
	if got, want := cli.response("blocked"), success("blocked", `{"mcp_response":{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"released b"}]}}}`); got != want {
		t.Errorf("blocked call:\n got %s\nwant %s", got, want)
	}
}

// TestBurstFromCLI: requests that arrive in one write, answered together,
// all reach the CLI while its output stays open (the host holds back
// answers only while it has requests in hand).
func TestBurstFromCLI(t *testing.T) {
	linepeer.CheckLeaks(t)
	cli := newCLISide(t, map[string]*runtime.Server{"demo": greet.NewServer()}, nil)
	var burst []string
	for i := range 8 {
		burst = append(burst, mcpMessage(fmt.Sprintf("p%d", i), "demo", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)))
	}
	cli.Send(strings.Join(burst, "\n"))
	for i := range 8 {
		id := fmt.Sprintf("p%d", i)
		if got, want := cli.response(id), success(id, fmt.Sprintf(`{"mcp_response":{"jsonrpc":"2.0","id":%d,"result":{}}}`, i)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", id, got, want)
		}
	}
}

// TestControlCancel: control_cancel_request cancels the handler's context
// and the host writes nothing for that request.
func TestControlCancel(t *testing.T) {
	started, cancelled := make(chan string, 1), make(chan string, 1)
	cli := newCLISide(t, map[string]*runtime.Server{"test": blockingServer(started, make(chan struct{}), cancelled)}, nil)
	cli.Send(mcpMessage("c1", "test", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"block","arguments":{"tag":"x"}}}`))
	<-started
	cli.Send(`{"type":"control_cancel_request","request_id":"c1"}`)
	select {
	case tag := <-cancelled:
		if tag != "x" {
			t.Fatalf("cancelled %q", tag)
		}
	case <-time.After(linepeer.HangGuard):
		t.Fatal("the handler's context was not cancelled")
	}
	// A later request is answered; nothing was written for c1 before it.
	cli.Send(mcpMessage("p1", "test", `{"jsonrpc":"2.0","id":6,"method":"ping"}`))
	cli.response("p1")
	if p := cli.Pending(); len(p) > 0 {
		t.Errorf("the host answered a withdrawn request: %q", p)
	}
}

// TestMCPCancelledNotification: notifications/cancelled cancels the named
// call; the notification is acknowledged, and the cancelled call's
// control request still gets its one answer, -32800.
func TestMCPCancelledNotification(t *testing.T) {
	started, cancelled := make(chan string, 1), make(chan string, 1)
	cli := newCLISide(t, map[string]*runtime.Server{"test": blockingServer(started, make(chan struct{}), cancelled)}, nil)
	cli.Send(mcpMessage("c1", "test", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"block","arguments":{"tag":"y"}}}`))
	<-started
	cli.Send(mcpMessage("n1", "test", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`))
	if got, want := cli.response("n1"), success("n1", `{"mcp_response":{"jsonrpc":"2.0","result":{}}}`); got != want {
		t.Errorf("notification ack:\n got %s\nwant %s", got, want)
	}
	if got, want := cli.response("c1"), success("c1", `{"mcp_response":{"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"request cancelled"}}}`); got != want {
		t.Errorf("cancelled call:\n got %s\nwant %s", got, want)
	}
	if tag := <-cancelled; tag != "y" {
		t.Errorf("cancelled %q", tag)
	}
}

func TestUnknownSubtypeAndServer(t *testing.T) {
	cli := newCLISide(t, map[string]*runtime.Server{"demo_tools": greet.NewServer()}, nil)
	cli.Send(`{"type":"control_request","request_id":"u1","request":{"subtype":"remote_frobnicate"}}`)
	// The TypeScript SDK's exact words and code.
	if got, want := cli.response("u1"), `{"type":"control_response","response":{"subtype":"error","request_id":"u1","error":"Unsupported control request subtype: remote_frobnicate","error_code":"unsupported_request"}}`; got != want {
		t.Errorf("unknown subtype:\n got %s\nwant %s", got, want)
	}
	cli.Send(mcpMessage("s1", "nope", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`))
	if got, want := cli.response("s1"), success("s1", `{"mcp_response":{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Server 'nope' not found"}}}`); got != want {
		t.Errorf("unknown server:\n got %s\nwant %s", got, want)
	}
	// Without a permission callback, a permission check is refused, not
	// left unanswered.
	cli.Send(`{"type":"control_request","request_id":"p1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{}}}`)
	if got, want := cli.response("p1"), `{"type":"control_response","response":{"subtype":"error","request_id":"p1","error":"canUseTool callback is not provided"}}`; got != want {
		t.Errorf("no callback:\n got %s\nwant %s", got, want)
	}
}

func TestPermissionDenyAndUpdate(t *testing.T) {
	cli := newCLISide(t, nil, func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
		if req.ToolName == "Bash" {
			return claude.PermissionResult{Message: "no shell", Interrupt: true}, nil
		}
		return claude.PermissionResult{Allow: true, UpdatedInput: json.RawMessage(`{"name":"Bob"}`)}, nil
	})
	cli.Send(`{"type":"control_request","request_id":"d1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"rm -rf /"}}}`)
	if got, want := cli.response("d1"), success("d1", `{"behavior":"deny","message":"no shell","interrupt":true}`); got != want {
		t.Errorf("deny:\n got %s\nwant %s", got, want)
	}
	cli.Send(`{"type":"control_request","request_id":"a1","request":{"subtype":"can_use_tool","tool_name":"mcp__x__greet","input":{"name":"Alice"}}}`)
	if got, want := cli.response("a1"), success("a1", `{"behavior":"allow","updatedInput":{"name":"Bob"}}`); got != want {
		t.Errorf("allow with update:\n got %s\nwant %s", got, want)
	}
}

// TestHostRequestsAndMessages: the host's own requests are matched to
// replies by request_id (nested in "response"), and every other line is a
// conversation message, unknown types included.
func TestHostRequestsAndMessages(t *testing.T) {
	cli := newCLISide(t, nil, nil)
	ctx := context.Background()
	replied := make(chan error, 1)
	go func() {
		_, err := cli.cc.Request(ctx, "interrupt")
		replied <- err
	}()
	req := cli.Take("an interrupt request", func(l []byte) bool { return strings.Contains(string(l), `"subtype":"interrupt"`) })
	var env struct {
		RequestID string `json:"request_id"`
	}
	json.Unmarshal(req, &env)
	cli.Send(`{"type":"control_response","response":{"subtype":"success","request_id":"someone-else"}}`)
	cli.Send(`{"type":"control_response","response":{"subtype":"success","request_id":"` + env.RequestID + `","response":{}}}`)
	if err := <-replied; err != nil {
		t.Fatalf("interrupt: %v", err)
	}

	cli.Send(`{"type":"keep_alive"}`)
	cli.Send(`{"type":"system","subtype":"init","session_id":"s","tools":["mcp__demo_tools__greet"],"mcp_servers":[{"name":"demo_tools","status":"connected"}]}`)
	cli.Send(`{"type":"rate_limit_event","whatever":1}`)
	cli.Send(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"mcp__demo_tools__greet","input":{"name":"Alice"}}]}}`)
	cli.Send(`{"type":"user","message":{"role":"user","content":"plain text prompt"}}`)
	cli.Send(`{"type":"result","subtype":"success","is_error":false,"result":"done","num_turns":2}`)
	var got []string
	for range 5 {
		m, err := cli.cc.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch m := m.(type) {
		case *claude.SystemMessage:
			got = append(got, fmt.Sprintf("system/%s %v %s:%s", m.Subtype, m.Tools, m.MCPServers[0].Name, m.MCPServers[0].Status))
		case *claude.AssistantMessage:
			b := m.Message.Content[0]
			got = append(got, fmt.Sprintf("assistant %s %s %s", b.Type, b.Name, b.Input))
		case *claude.UserMessage:
			got = append(got, "user "+m.Message.Content[0].Text)
		case *claude.ResultMessage:
			got = append(got, fmt.Sprintf("result %s %s %d", m.Subtype, m.Result, m.NumTurns))
		case *claude.OtherMessage:
			got = append(got, "other "+m.Type())
		}
	}
	want := []string{
		"system/init [mcp__demo_tools__greet] demo_tools:connected",
		"other rate_limit_event",
		`assistant tool_use mcp__demo_tools__greet {"name":"Alice"}`,
		"user plain text prompt",
		"result success done 2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProgressReachesCLI: a handler's progress goes to the CLI as an
// mcp_message control request of the host's.
func TestProgressReachesCLI(t *testing.T) {
	s := &runtime.Server{Name: "p"}
	s.AddTool(&runtime.Tool{Name: "work", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		runtime.ReportProgress(ctx, 1, 2, "half")
		return runtime.TextResult("ok"), nil
	}})
	cli := newCLISide(t, map[string]*runtime.Server{"p": s}, nil)
	cli.Send(mcpMessage("w1", "p", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"work","_meta":{"progressToken":2}}}`))
	cli.response("w1")
	note := string(cli.Take("a progress notification", func(l []byte) bool { return strings.Contains(string(l), "notifications/progress") }))
	want := `"request":{"subtype":"mcp_message","server_name":"p","message":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1,"total":2,"message":"half"}}}}`
	if !strings.HasPrefix(note, `{"type":"control_request","request_id":"req_`) || !strings.HasSuffix(note, want) {
		t.Errorf("progress: %s", note)
	}
}

// TestCLIDeathMidCall: when the CLI's output ends while a call is running,
// the loop ends, the handler is cancelled, pending host requests fail, and
// no goroutine is left behind.
func TestCLIDeathMidCall(t *testing.T) {
	linepeer.CheckLeaks(t)
	started, cancelled := make(chan string, 1), make(chan string, 1)
	hostIn, cliOut := io.Pipe()
	cliIn, hostOut := io.Pipe()
	go io.Copy(io.Discard, cliIn)
	cc := claude.NewControlConn(context.Background(), hostIn, hostOut,
		map[string]*runtime.Server{"test": blockingServer(started, make(chan struct{}), cancelled)}, nil)
	io.WriteString(cliOut, mcpMessage("c1", "test", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block","arguments":{"tag":"z"}}}`)+"\n")
	<-started
	reqErr := make(chan error, 1)
	go func() {
		_, err := cc.Request(context.Background(), "interrupt")
		reqErr <- err
	}()
	cliOut.Close() // the CLI dies
	<-cc.Done()
	if tag := <-cancelled; tag != "z" {
		t.Errorf("cancelled %q", tag)
	}
	if err := <-reqErr; err == nil {
		t.Error("a request pending when the CLI died succeeded")
	}
	if _, err := cc.Receive(context.Background()); err != io.EOF {
		t.Errorf("Receive after the CLI died: %v, want io.EOF", err)
	}
	hostOut.Close()
}

// countingWriter counts the writes that reach w.
type countingWriter struct {
	w      io.Writer
	writes atomic.Int32
}

// Write counts the write and passes it on.
func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.w.Write(p)
}

// TestQuickToolBurst: once a tool's calls are quick, a burst of calls of
// it is answered on the reading goroutine, its answers in one write;
// when such a call blocks, the reading passes to another goroutine and
// the tool stops being quick, so that eight calls that each wait for all
// eight to have started all start.
func TestQuickToolBurst(t *testing.T) {
	linepeer.CheckLeaks(t)
	var block atomic.Bool
	started, release := make(chan struct{}, 8), make(chan struct{})
	srv := &runtime.Server{Name: "quick", Version: "1"}
	srv.AddTool(&runtime.Tool{Name: "flip", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		if block.Load() {
			started <- struct{}{}
			<-release
		}
		return runtime.TextResult("ok"), nil
	}})
	hostIn, cliOut := io.Pipe()
	cliIn, hostOut := io.Pipe()
	out := &countingWriter{w: hostOut}
	cli := linepeer.New(t, cliIn, cliOut)
	cc := claude.NewControlConn(context.Background(), hostIn, out, map[string]*runtime.Server{"quick": srv}, nil)
	t.Cleanup(func() {
		cliOut.Close()
		<-cc.Done()
		hostOut.Close()
		<-cli.ReadDone
	})
	// Cleanups run last first: a test that fails while calls block
	// releases them before it waits for the loop to end.
	releaseAll := sync.OnceFunc(func() { close(release) })
	t.Cleanup(releaseAll)
	call := func(id string) string {
		return mcpMessage(id, "quick", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"flip"}}`)
	}
	response := func(id string) {
		t.Helper()
		cli.Take("a response to "+id, func(l []byte) bool { return responseID(l) == id })
	}
	flip := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"flip"}}`)
	warm := 0
	warmUp := func() {
		t.Helper()
		for !quick(t, srv, flip) {
			if warm == 1000 {
				t.Fatal("after 1000 calls, flip is not quick")
			}
			id := fmt.Sprintf("warm-%d", warm)
			cli.Send(call(id))
			response(id)
			warm++
		}
	}

	// How long a call takes is measured, so a busy machine (the race
	// detector, other tests) can make one run past the reader's budget
	// and hand the reading over: the burst is tried again then, with the
	// tool quick again.
	var writes []int32
	for attempt := range 5 {
		warmUp()
		var burst []string
		for i := range 8 {
			burst = append(burst, call(fmt.Sprintf("quick-%d-%d", attempt, i)))
		}
		before := out.writes.Load()
		cli.Send(strings.Join(burst, "\n"))
		for i := range 8 {
			response(fmt.Sprintf("quick-%d-%d", attempt, i))
		}
		if writes = append(writes, out.writes.Load()-before); writes[attempt] == 1 {
			break
		}
	}
	if writes[len(writes)-1] != 1 {
		t.Errorf("the answers to bursts of 8 quick calls took %v writes, want 1", writes)
	}

	warmUp()
	var burst []string
	block.Store(true)
	for i := range 8 {
		burst = append(burst, call(fmt.Sprintf("slow-%d", i)))
	}
	cli.Send(strings.Join(burst, "\n"))
	for i := range 8 {
		select {
		case <-started:
		case <-time.After(time.Minute):
			t.Fatalf("%d of 8 blocking calls started in a minute: a call held the reading", i)
		}
	}
	if quick(t, srv, flip) {
		t.Error("a quick tool's call blocked the reading, and the tool is still quick")
	}
	releaseAll()
	for i := range 8 {
		response(fmt.Sprintf("slow-%d", i))
	}
}

// quick reports whether srv would answer the message msg on the reading
// goroutine while more lines wait (see bridge.Conn.QuickTool).
func quick(t *testing.T, srv *runtime.Server, msg []byte) bool {
	t.Helper()
	var tree jsonvalue.Tree
	v, err := tree.Parse(msg)
	if err != nil {
		t.Fatal(err)
	}
	conn := srv.NewConn(nil)
	defer conn.Close()
	return bridge.ConnOf(conn).QuickTool(v) != nil
}

// TestParamsOfTheWrongShape: an MCP message whose params have the wrong
// JSON type where the runtime reads them (a completion/complete "ref"
// that is a list, which once panicked in the value tree) is answered
// -32602 inside its control response, and the host goes on serving.
func TestParamsOfTheWrongShape(t *testing.T) {
	linepeer.CheckLeaks(t)
	srv := &runtime.Server{Name: "shapes", Version: "1"}
	srv.AddPrompt(&runtime.Prompt{
		Name:      "summarize",
		Arguments: []runtime.PromptArgument{{Name: "id", Required: true}},
		Handler: func(ctx context.Context, req *runtime.PromptRequest) (*runtime.PromptResult, error) {
			return runtime.UserPrompt("Summarize " + req.Arguments["id"]), nil
		},
		Complete: func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
			return runtime.CompletePrefix([]string{"N1", "N2"}, req.Value), nil
		},
	})
	cli := newCLISide(t, map[string]*runtime.Server{"shapes": srv}, nil)
	for i, params := range []string{
		`{"ref":[1],"argument":{"name":"id","value":""}}`,
		`{"ref":{"type":["ref/prompt"],"name":"summarize"},"argument":{"name":"id","value":""}}`,
		`{"ref":{"type":"ref/prompt","name":"summarize"},"argument":[1]}`,
	} {
		id := fmt.Sprintf("shape-%d", i)
		cli.Send(mcpMessage(id, "shapes", `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":`+params+`}`))
		if got := cli.response(id); !strings.Contains(got, `"code":-32602`) {
			t.Errorf("params %s: %s", params, got)
		}
	}
	cli.Send(mcpMessage("good", "shapes", `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"id","value":"N"}}}`))
	if got := cli.response("good"); !strings.Contains(got, `"values":["N1","N2"]`) {
		t.Errorf("a good completion after the bad ones: %s", got)
	}
}
