package claude_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/fakeapi"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// The tests in this file drive the real Claude Code CLI, offline: its
// model is a fake Messages API on 127.0.0.1 (internal/fakeapi) scripted
// to call one tool and then quote the tool's result. .ci/run installs the
// pinned CLI and runs these tests in a network namespace that has only
// loopback, so nothing can leave the machine even if a flag is missed.

// offline returns options that keep the CLI on the fake API.
func offline(t *testing.T, api *fakeapi.Server) claude.Options {
	return claude.Options{Path: claudetest.CLI(t), Dir: t.TempDir(), Env: claudetest.Env(t, api)}
}

// greetRecorder is a demo_tools server whose greet tool records its calls.
type greetRecorder struct {
	mu    sync.Mutex
	names []string
	fail  error
}

type greetInput struct {
	Name string `json:"name"`
}

func (g *greetRecorder) server() *runtime.Server {
	s := &runtime.Server{Name: "demo_tools", Version: "1.0.0"}
	s.AddTool(&runtime.Tool{
		Name:        "greet",
		Description: "Greet a person by name.",
		InputSchema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`,
		Handler: mcpimpl.Handle(func(ctx context.Context, in greetInput) (string, error) {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.names = append(g.names, in.Name)
			if g.fail != nil {
				return "", g.fail
			}
			return fmt.Sprintf("Hello, %s! Welcome.", in.Name), nil
		}, mcpimpl.DecodeJSON, mcpimpl.Text),
	})
	return s
}

func (g *greetRecorder) calls() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.names)
}

// runGreet runs one prompt through the real CLI with the greet server and
// returns the result and every message.
func runGreet(t *testing.T, g *greetRecorder, decide func(claude.PermissionRequest) claude.PermissionResult) (*claude.ResultMessage, []claude.Message, *fakeapi.Server) {
	t.Helper()
	linepeer.CheckLeaks(t)
	api := claudetest.API(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	opts := offline(t, api)
	opts.Servers = map[string]*runtime.Server{"demo_tools": g.server()}
	opts.CanUseTool = func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
		return decide(req), nil
	}
	var stderr strings.Builder
	opts.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var msgs []claude.Message
	res, err := claude.Query(ctx, "Please greet Alice using the greet tool.", opts, func(m claude.Message) { msgs = append(msgs, m) })
	if err != nil {
		t.Fatalf("Query: %v\nstderr: %s\nfake API saw: %+v", err, stderr.String(), answers(api))
	}
	return res, msgs, api
}

func answers(api *fakeapi.Server) []string {
	var out []string
	for _, r := range api.Requests() {
		out = append(out, r.Answer)
	}
	return out
}

func allow(req claude.PermissionRequest) claude.PermissionResult {
	return claude.PermissionResult{Allow: true}
}

func TestClaudeCLIEndToEnd(t *testing.T) {
	g := &greetRecorder{}
	var asked []string
	res, msgs, api := runGreet(t, g, func(req claude.PermissionRequest) claude.PermissionResult {
		asked = append(asked, req.ToolName)
		return allow(req)
	})

	var init *claude.SystemMessage
	for _, m := range msgs {
		if s, ok := m.(*claude.SystemMessage); ok && s.Subtype == "init" {
			init = s
			break
		}
	}
	switch {
	case init == nil:
		t.Fatal("no system/init message")
	case !slices.Contains(init.Tools, "mcp__demo_tools__greet"):
		t.Errorf("system/init tools do not include mcp__demo_tools__greet: %v", init.Tools)
	case !slices.ContainsFunc(init.MCPServers, func(s claude.MCPServerStatus) bool { return s.Name == "demo_tools" && s.Status == "connected" }):
		t.Errorf("system/init MCP servers: %+v, want demo_tools connected", init.MCPServers)
	}
	if got := g.calls(); !slices.Equal(got, []string{"Alice"}) {
		t.Errorf("the Go handler was called with %q, want once with Alice", got)
	}
	if !slices.Equal(asked, []string{"mcp__demo_tools__greet"}) {
		t.Errorf("permission asked for %q", asked)
	}
	trs := api.ToolResults()
	if len(trs) != 1 || trs[0].Text != "Hello, Alice! Welcome." || trs[0].IsError {
		t.Errorf("the model received tool results %+v, want one \"Hello, Alice! Welcome.\"", trs)
	}
	if res.Subtype != "success" || res.IsError {
		t.Errorf("result %s (is_error %v): %s", res.Subtype, res.IsError, res.Result)
	}
	if !strings.Contains(res.Result, "Hello, Alice! Welcome.") {
		t.Errorf("the final answer does not quote the tool: %q", res.Result)
	}
}

func TestClaudeCLIHandlerError(t *testing.T) {
	g := &greetRecorder{fail: errors.New("greet failed: demo error")}
	res, _, api := runGreet(t, g, allow)
	trs := api.ToolResults()
	if len(trs) != 1 || !trs[0].IsError || !strings.Contains(trs[0].Text, "greet failed: demo error") {
		t.Errorf("the model received %+v, want one is_error result with the handler's error", trs)
	}
	if res.Subtype != "success" {
		t.Errorf("result %s: the session should go on after a tool error", res.Subtype)
	}
}

func TestClaudeCLIPermissionDenied(t *testing.T) {
	g := &greetRecorder{}
	res, _, api := runGreet(t, g, func(claude.PermissionRequest) claude.PermissionResult {
		return claude.PermissionResult{Message: "greeting is not allowed today"}
	})
	if got := g.calls(); len(got) != 0 {
		t.Errorf("a denied tool reached the handler: %q", got)
	}
	trs := api.ToolResults()
	if len(trs) != 1 || !trs[0].IsError || !strings.Contains(trs[0].Text, "greeting is not allowed today") {
		t.Errorf("the model received %+v, want one is_error result with the denial", trs)
	}
	if res.Subtype != "success" {
		t.Errorf("result %s", res.Subtype)
	}
}
