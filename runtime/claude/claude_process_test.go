package claude_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/greet"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
	"go.uber.org/goleak"
)

// The tests in this file start a scripted stand-in for the CLI as a real
// process (this test binary, in the mode $MCPGEN_FAKE_CLI names), so they
// exercise Start's command line, environment, pipes and process
// handling without the real CLI.

func TestMain(m *testing.M) {
	if os.Getenv("MCPGEN_STDIO_SERVER") != "" {
		// An MCP server the real CLI starts itself (Options.MCPServers).
		if err := askServer().ServeStdio(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if mode := os.Getenv("MCPGEN_FAKE_CLI"); mode != "" {
		os.Exit(fakeCLI(mode))
	}
	// Besides the tests that check their own goroutines, no test may
	// leave one behind.
	goleak.VerifyTestMain(m)
}

// fakeCLI is the stand-in's main.
func fakeCLI(mode string) int {
	record := func(init json.RawMessage) {
		if f := os.Getenv("MCPGEN_FAKE_CLI_RECORD"); f != "" {
			rec, _ := json.Marshal(map[string]any{"args": os.Args[1:], "entrypoint": os.Getenv("CLAUDE_CODE_ENTRYPOINT"),
				"claudecode": os.Getenv("CLAUDECODE"), "checkpointing": os.Getenv("CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING"), "initialize": init})
			os.WriteFile(f, rec, 0o666)
		}
	}
	record(nil)
	if mode == "exit-early" {
		fmt.Fprintln(os.Stderr, "Error: no credentials found; run claude /login")
		return 3
	}
	if mode == "refuse-to-start" {
		// As the CLI refuses to start: the reason in a result, when the
		// host asks for one, and the message on stderr.
		const why = "Your organization requires its managed settings, and Anthropic refused them for this sign-in."
		if os.Getenv("CLAUDE_CODE_STARTUP_FAILURE_RESULTS") == "1" {
			fmt.Printf(`{"type":"result","subtype":"error_during_execution","is_error":true,"num_turns":0,"errors":[%q],"startup_failure_reason":"org_config_refused"}`+"\n", why)
		}
		fmt.Fprintln(os.Stderr, why)
		return 1
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	if mode == "mute" {
		// A CLI that never answers initialize (stuck at a prompt, say)
		// until its input closes.
		fmt.Fprintln(os.Stderr, "waiting for a login that never comes")
		for in.Scan() {
		}
		return 0
	}
	out := bufio.NewWriter(os.Stdout)
	send := func(v string) { out.WriteString(v + "\n"); out.Flush() }
	// next reads the host's next line; it skips nothing, so the script
	// below is the exact conversation.
	next := func() map[string]any {
		if !in.Scan() {
			os.Exit(0)
		}
		var m map[string]any
		json.Unmarshal(in.Bytes(), &m)
		return m
	}
	init := next()
	initReq, _ := json.Marshal(init["request"])
	record(initReq)
	send(fmt.Sprintf(`{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":{"commands":[]}}}`, init["request_id"]))
	if mode == "flood" {
		// More messages than the host holds unreceived, then the result.
		next() // the user turn
		for i := range floodMessages {
			send(fmt.Sprintf(`{"type":"system","subtype":"status","n":%d}`, i))
		}
		send(`{"type":"result","subtype":"success","is_error":false,"result":"done","num_turns":1}`)
		for in.Scan() {
		}
		return 0
	}
	if mode == "die-mid-hook" {
		next() // the user turn
		send(`{"type":"control_request","request_id":"h1","request":{"subtype":"hook_callback","callback_id":"hook_0","input":{"hook_event_name":"PreToolUse","session_id":"s","transcript_path":"/t","cwd":"/","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"},"tool_use_id":"toolu_1"}}`)
		time.Sleep(100 * time.Millisecond) // let the hook start
		fmt.Fprintln(os.Stderr, "fatal: the stand-in crashed in a hook on purpose")
		return 2
	}
	if next()["type"] != "user" {
		return 4
	}
	call := func(id, msg string) map[string]any {
		send(fmt.Sprintf(`{"type":"control_request","request_id":%q,"request":{"subtype":"mcp_message","server_name":"demo_tools","message":%s}}`, id, msg))
		return next()
	}
	call("i1", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`)
	call("n1", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call("l1", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	send(`{"type":"system","subtype":"init","tools":["mcp__demo_tools__greet"],"mcp_servers":[{"name":"demo_tools","status":"connected"}]}`)
	if mode == "die-mid-call" {
		send(`{"type":"control_request","request_id":"c1","request":{"subtype":"mcp_message","server_name":"demo_tools","message":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Alice"}}}}}`)
		fmt.Fprintln(os.Stderr, "fatal: the stand-in crashed on purpose")
		return 2
	}
	reply := call("c1", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Alice"}}}`)
	text := fmt.Sprint(reply["response"].(map[string]any)["response"].(map[string]any)["mcp_response"].(map[string]any)["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
	send(fmt.Sprintf(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":%q}]}}`, "The tool said: "+text))
	send(fmt.Sprintf(`{"type":"result","subtype":"success","is_error":false,"result":%q,"num_turns":2}`, text))
	for in.Scan() { // like the real CLI, wait for stdin to close
	}
	return 0
}

func standIn(t *testing.T, mode string) claude.Options {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return claude.Options{
		Path:    exe,
		Servers: map[string]*runtime.Server{"demo_tools": greet.NewServer()},
		Env:     []string{"MCPGEN_FAKE_CLI=" + mode},
	}
}

func TestQueryWithStandIn(t *testing.T) {
	linepeer.CheckLeaks(t)
	t.Setenv("CLAUDECODE", "1") // as when running inside Claude Code
	opts := standIn(t, "script")
	record := filepath.Join(t.TempDir(), "args.json")
	opts.Env = append(opts.Env, "MCPGEN_FAKE_CLI_RECORD="+record)
	opts.CanUseTool = func(context.Context, claude.PermissionRequest) (claude.PermissionResult, error) {
		return claude.PermissionResult{Allow: true}, nil
	}
	opts.AllowedTools = []string{"mcp__demo_tools__*"}
	opts.MaxTurns = 3
	res, err := claude.Query(context.Background(), "hi", opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Result != "Hello, Alice! Welcome." {
		t.Errorf("result %q", res.Result)
	}

	var rec struct {
		Args       []string
		Entrypoint string
		Claudecode string
	}
	data, _ := os.ReadFile(record)
	json.Unmarshal(data, &rec)
	args := strings.Join(rec.Args, " ")
	for _, want := range []string{
		"--output-format stream-json --verbose --input-format stream-json",
		`--system-prompt  `,
		"--max-turns 3",
		"--allowedTools mcp__demo_tools__*",
		"--permission-prompt-tool stdio",
		`--mcp-config {"mcpServers":{"demo_tools":{"type":"sdk","name":"demo_tools"}}}`,
	} {
		if !strings.Contains(args, want) {
			t.Errorf("command line lacks %q:\n%s", want, args)
		}
	}
	if rec.Entrypoint != "sdk-go" || rec.Claudecode != "" {
		t.Errorf("environment: CLAUDE_CODE_ENTRYPOINT=%q CLAUDECODE=%q", rec.Entrypoint, rec.Claudecode)
	}
}

func TestCLIMissing(t *testing.T) {
	_, err := claude.Start(context.Background(), claude.Options{Path: filepath.Join(t.TempDir(), "no-such-claude")})
	if err == nil || !strings.Contains(err.Error(), "cannot find the Claude Code CLI") {
		t.Errorf("err = %v", err)
	}
}

func TestCLIExitsEarly(t *testing.T) {
	linepeer.CheckLeaks(t)
	_, err := claude.Start(context.Background(), standIn(t, "exit-early"))
	var cliErr *claude.CLIError
	if !errors.As(err, &cliErr) {
		t.Fatalf("err = %v, want a *claude.CLIError", err)
	}
	if !strings.Contains(cliErr.Stderr, "no credentials found") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("the error does not carry the exit status and stderr: %v", err)
	}
}

// TestStartupFailure: a CLI that refuses to start fails Start with a
// *StartupError that names the reason and says why in the CLI's words,
// wrapping the *CLIError of its exit; the host asks the CLI for the
// reason (CLAUDE_CODE_STARTUP_FAILURE_RESULTS), which the stand-in gives
// only then, as the CLI does.
func TestStartupFailure(t *testing.T) {
	linepeer.CheckLeaks(t)
	_, err := claude.Start(context.Background(), standIn(t, "refuse-to-start"))
	var refused *claude.StartupError
	var cliErr *claude.CLIError
	if !errors.As(err, &refused) || refused.Reason != claude.StartupOrgConfigRefused || !errors.As(err, &cliErr) {
		t.Fatalf("Start: %v, want a *StartupError (org_config_refused) wrapping a *CLIError", err)
	}
	const why = "Anthropic refused them for this sign-in"
	if !strings.Contains(refused.Message, why) || !strings.Contains(err.Error(), "refused to start (org_config_refused): ") || !strings.Contains(cliErr.Error(), "exit status 1") {
		t.Errorf("Start: %v", err)
	}
}

// talkToStandIn starts the stand-in in mode and sends it a user turn. It
// returns the session, which the test's end closes, and a context that
// bounds the test's waits.
func talkToStandIn(t *testing.T, mode string) (*claude.Session, context.Context) {
	t.Helper()
	c, err := claude.Start(context.Background(), standIn(t, mode))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), linepeer.HangGuard)
	t.Cleanup(cancel)
	return c, ctx
}

// TestCLIDiesMidCall: the CLI exits while a tool call it sent is being
// answered; the host reports the failure promptly, with the CLI's
// stderr, and leaves no goroutine behind.
func TestCLIDiesMidCall(t *testing.T) {
	linepeer.CheckLeaks(t)
	c, ctx := talkToStandIn(t, "die-mid-call")
	var last error
	for m, err := range c.Messages(ctx) {
		if err != nil {
			last = err
			break
		}
		_ = m
	}
	var cliErr *claude.CLIError
	if !errors.As(last, &cliErr) || !strings.Contains(cliErr.Stderr, "crashed on purpose") {
		t.Fatalf("the conversation ended with %v, want a *claude.CLIError carrying the stderr", last)
	}
	if _, err := c.Receive(ctx); !errors.As(err, &cliErr) {
		t.Errorf("Receive after the failure: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestCLIDiesMidHook: the CLI exits while a hook it called is running;
// the hook's ctx is cancelled, the session fails with the CLI's stderr,
// and nothing hangs or leaks.
func TestCLIDiesMidHook(t *testing.T) {
	linepeer.CheckLeaks(t)
	opts := standIn(t, "die-mid-hook")
	cancelled := make(chan error, 1)
	opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreToolUse: {{Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
			<-ctx.Done()
			cancelled <- ctx.Err()
			return claude.HookOutput{}, ctx.Err()
		}}}},
	}
	c, err := claude.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), linepeer.HangGuard)
	defer cancel()
	var last error
	for _, err := range c.Messages(ctx) {
		if err != nil {
			last = err
			break
		}
	}
	var cliErr *claude.CLIError
	if !errors.As(last, &cliErr) || !strings.Contains(cliErr.Stderr, "crashed in a hook on purpose") {
		t.Fatalf("the conversation ended with %v, want a *claude.CLIError carrying the stderr", last)
	}
	select {
	case <-cancelled:
	case <-ctx.Done():
		t.Fatal("the hook's ctx was not cancelled when the CLI died")
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestStartContextKills: cancelling Start's ctx (the Agent SDKs'
// abortController) kills the CLI, and the conversation ends at once.
func TestStartContextKills(t *testing.T) {
	linepeer.CheckLeaks(t)
	ctx, cancel := context.WithCancel(context.Background())
	c, err := claude.Start(ctx, standIn(t, "script"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cancel()
	wait, stop := context.WithTimeout(context.Background(), linepeer.HangGuard)
	defer stop()
	_, err = c.Receive(wait)
	var cliErr *claude.CLIError
	if !errors.As(err, &cliErr) || !strings.Contains(err.Error(), "killed") || !errors.Is(err, context.Canceled) {
		t.Errorf("Receive after cancelling: %v, want the CLI killed, wrapping context.Canceled", err)
	}
}

// startAsync runs Start on its own goroutine, so that a Start that never
// returns fails the test instead of hanging it.
func startAsync(t *testing.T, ctx context.Context, opts claude.Options) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		c, err := claude.Start(ctx, opts)
		if err == nil {
			c.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(linepeer.HangGuard):
		t.Fatal("Start still waits for the CLI's answer to initialize")
		return nil
	}
}

// TestInitializeTimeout: a CLI that never answers initialize, started
// with a ctx that has no deadline, does not hold Start for ever (item 14
// of the hardening issue): after Options.InitializeTimeout the CLI is
// stopped, and the error says so, wraps context.DeadlineExceeded and
// carries what the CLI wrote on stderr.
func TestInitializeTimeout(t *testing.T) {
	linepeer.CheckLeaks(t)
	opts := standIn(t, "mute")
	opts.InitializeTimeout = 200 * time.Millisecond
	err := startAsync(t, context.Background(), opts)
	var cliErr *claude.CLIError
	if !errors.As(err, &cliErr) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Start: %v, want a *claude.CLIError wrapping context.DeadlineExceeded", err)
	}
	for _, want := range []string{"did not answer initialize within 200ms (Options.InitializeTimeout)", "the CLI was stopped", "waiting for a login that never comes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q: %v", want, err)
		}
	}
}

// TestStartDeadline: when Start's ctx expires while the CLI starts, the
// CLI is killed and the error wraps context.DeadlineExceeded (it read
// "the CLI exited (signal: killed)" before, which errors.Is could not
// tell from a crash).
func TestStartDeadline(t *testing.T) {
	linepeer.CheckLeaks(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := startAsync(t, ctx, standIn(t, "mute"))
	var cliErr *claude.CLIError
	if !errors.As(err, &cliErr) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "context deadline exceeded; the CLI was stopped") {
		t.Fatalf("Start: %v, want a *claude.CLIError wrapping context.DeadlineExceeded", err)
	}
}

// TestInitializeAndFlags: what the CLI takes only in initialize (hooks,
// agents) goes there, with the ids, matchers and timeouts the Agent
// SDKs send; the rest are flags and environment.
func TestInitializeAndFlags(t *testing.T) {
	linepeer.CheckLeaks(t)
	opts := standIn(t, "script")
	record := filepath.Join(t.TempDir(), "args.json")
	opts.Env = append(opts.Env, "MCPGEN_FAKE_CLI_RECORD="+record)
	nop := func(context.Context, claude.HookInput) (claude.HookOutput, error) { return claude.HookOutput{}, nil }
	opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookStop:       {{Hooks: []claude.HookFunc{nop}}},
		claude.HookPreToolUse: {{Matcher: "Bash", Hooks: []claude.HookFunc{nop, nop}, Timeout: 2500 * time.Millisecond, OnFailure: "block"}, {Hooks: []claude.HookFunc{nop}}},
	}
	opts.Agents = map[string]claude.AgentDefinition{"greeter": {Description: "Greets", Prompt: "You greet.", Tools: []string{"mcp__demo_tools__greet"}, Model: "haiku", MaxTurns: 3}}
	opts.FileCheckpointing = true
	if _, err := claude.Query(context.Background(), "hi", opts, nil); err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Initialize    json.RawMessage
		Checkpointing string
	}
	data, _ := os.ReadFile(record)
	json.Unmarshal(data, &rec)
	want := `{"agents":{"greeter":{"description":"Greets","maxTurns":3,"model":"haiku","prompt":"You greet.","tools":["mcp__demo_tools__greet"]}},` +
		`"hooks":{"PreToolUse":[{"hookCallbackIds":["hook_0","hook_1"],"matcher":"Bash","onFailure":"block","timeout":3},{"hookCallbackIds":["hook_2"]}],"Stop":[{"hookCallbackIds":["hook_3"]}]},` +
		`"sdkMcpServers":["demo_tools"],"subtype":"initialize"}`
	if got := canonical(t, rec.Initialize); got != want {
		t.Errorf("initialize:\n got %s\nwant %s", got, want)
	}
	if rec.Checkpointing != "true" {
		t.Errorf("CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=%q", rec.Checkpointing)
	}
}

// canonical re-encodes JSON with sorted keys.
func canonical(t *testing.T, data []byte) string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestReceiveAfterClose: after Close, Receive reports the end of the
// conversation, io.EOF, not an error.
func TestReceiveAfterClose(t *testing.T) {
	c, err := claude.Start(context.Background(), standIn(t, "script"))
	if err != nil {
		t.Fatal(err)
	}
	c.Send(context.Background(), "hi")
	ctx, cancel := context.WithTimeout(context.Background(), linepeer.HangGuard)
	defer cancel()
	for {
		m, err := c.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(*claude.ResultMessage); ok {
			break
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Receive(ctx); err != io.EOF {
		t.Errorf("Receive after Close: %v, want io.EOF", err)
	}
}

// floodMessages is how many messages the "flood" stand-in sends in one
// turn: more than the host holds for Receive (1024).
const floodMessages = 3000

// TestFloodReceived: a turn of more messages than the host holds
// unreceived reaches the caller whole and in order: the bound on the
// queue holds the CLI back, it drops nothing.
func TestFloodReceived(t *testing.T) {
	linepeer.CheckLeaks(t)
	c, ctx := talkToStandIn(t, "flood")
	n := 0
	for m, err := range c.Messages(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(*claude.ResultMessage); ok {
			break
		}
		var status struct{ N int }
		json.Unmarshal(m.Raw(), &status)
		if status.N != n {
			t.Fatalf("message %d is number %d", n, status.N)
		}
		n++
	}
	if n != floodMessages {
		t.Errorf("received %d messages before the result, want %d", n, floodMessages)
	}
}

// TestCloseWithFullQueue: a caller that closes a session without reading
// its conversation does not hang, though the host stopped reading the
// CLI's output when the queue filled up.
func TestCloseWithFullQueue(t *testing.T) {
	linepeer.CheckLeaks(t)
	c, ctx := talkToStandIn(t, "flood")
	// Let the queue fill: the first message is there once Receive has one.
	if _, err := c.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Close hangs while the conversation queue is full")
	}
	if _, err := c.Receive(ctx); err != io.EOF {
		t.Errorf("Receive after Close: %v, want io.EOF", err)
	}
}
