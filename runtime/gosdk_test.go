package runtime_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/testdata/golden/client_tools"
)

func TestMain(m *testing.M) {
	if os.Getenv("MCPGEN_SERVE_STDIO") != "" {
		os.Exit(serveGenerated())
	}
	os.Exit(m.Run())
}

// serveGenerated is the server process of TestOfficialClient: this test
// binary, run with $MCPGEN_SERVE_STDIO set, serves the generated
// client_tools package on its stdin and stdout.
func serveGenerated() int {
	if err := client_tools.NewServer().ServeStdio(context.Background()); err != nil {
		return 1
	}
	return 0
}

// TestOfficialClient drives a generated server over stdio, in its own
// process, with the official Go SDK's client: list, call, invalid
// arguments, progress, logging and cancellation.
func TestOfficialClient(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "MCPGEN_SERVE_STDIO=1")

	progress := make(chan float64, 16)
	logs := make(chan string, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "official-client", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params.Progress
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			logs <- string(req.Params.Level) + " " + req.Params.Logger
		},
	})
	ctx := context.Background()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer session.Close()
	if v := session.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Errorf("negotiated %s", v)
	}

	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, []string{"echo", "count", "wait"}) {
		t.Errorf("tools %q", names)
	}
	if ann := tools.Tools[0].Annotations; ann == nil || !ann.ReadOnlyHint {
		t.Errorf("echo's annotations: %+v", ann)
	}

	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi", "times": 3}})
	if err != nil || res.IsError || text(res) != "hi hi hi" {
		t.Errorf("echo: %v %+v", err, res)
	}

	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "", "times": 9, "loud": true}})
	// The client sends the arguments with sorted keys; violations come in
	// the order of the arguments.
	want := "invalid arguments for tool echo:\n- loud: unknown property (allowed: text, times)\n- text: must be at least 1 character long; got 0\n- times: must be at most 3; got 9"
	if err != nil || !res.IsError || text(res) != want {
		t.Errorf("invalid arguments: %v %q, want isError %q", err, text(res), want)
	}

	if err := session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"to": 4}}
	params.SetProgressToken("count-1")
	res, err = session.CallTool(ctx, params)
	if err != nil || text(res) != "counted to 4" {
		t.Errorf("count: %v %+v", err, res)
	}
	// The client hands notifications to its handlers asynchronously, so
	// they may come after CallTool has returned.
	var got []float64
	for range 4 {
		got = append(got, receive(t, progress))
	}
	if !slices.Equal(got, []float64{1, 2, 3, 4}) {
		t.Errorf("progress %v", got)
	}
	if l := receive(t, logs); l != "info count" {
		t.Errorf("log %q", l)
	}

	// Cancelling the client's context sends notifications/cancelled; the
	// handler's context is cancelled and the server goes on.
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := session.CallTool(cctx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v", err)
	}
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "still here"}})
	if err != nil || text(res) != "still here" {
		t.Errorf("after a cancellation: %v %+v", err, res)
	}
}

func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(linepeer.HangGuard):
		t.Fatal("a notification never arrived")
		panic("unreachable")
	}
}

func text(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TestOfficialClientLogsPerRequest: the official Go SDK's client at its
// default revision (2026-07-28) sets a log level with logging/setLevel,
// which that revision removed, and then sees its calls' logs: the level
// holds for the requests of its connection that name none. Before, the
// method was unknown to such a request, and the client never saw a log.
func TestOfficialClientLogsPerRequest(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "MCPGEN_SERVE_STDIO=1")
	logs := make(chan string, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "official-client", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			logs <- string(req.Params.Level) + " " + req.Params.Logger
		},
	})
	ctx := context.Background()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer session.Close()
	if err := session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	if res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"to": 1}}); err != nil || text(res) != "counted to 1" {
		t.Fatalf("count: %v %+v", err, res)
	}
	if l := receive(t, logs); l != "info count" {
		t.Errorf("log %q", l)
	}
}
