package claude_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// TestInitializeRequest: the options that only the initialize request
// carries are sent there, as the TypeScript SDK 0.3.332 sends them; the
// stand-in CLI records the request.
func TestInitializeRequest(t *testing.T) {
	linepeer.CheckLeaks(t)
	opts := standIn(t, "script")
	record := filepath.Join(t.TempDir(), "args.json")
	opts.Env = append(opts.Env, "MCPGEN_FAKE_CLI_RECORD="+record)
	opts.Title = "T"
	opts.Skills = []string{"pdf"}
	opts.ToolAliases = map[string]string{"Bash": "mcp__demo_tools__greet"}
	opts.PlanModeInstructions = "plan"
	opts.PromptSuggestions = true
	opts.AgentProgressSummaries = true
	opts.ForwardSubagentText = true
	opts.PerTaskStopAffordance = true
	opts.SystemPromptBlocks = []string{"a", claude.SystemPromptDynamicBoundary, "b"}
	opts.OnUserDialog = func(context.Context, claude.UserDialogRequest) (claude.UserDialogResult, error) {
		return claude.UserDialogResult{Cancelled: true}, nil
	}
	opts.SupportedDialogKinds = []string{"refusal_fallback_prompt"}
	opts.ServerTimeouts = map[string]time.Duration{"demo_tools": 2 * time.Second}
	opts.MCPServers = map[string]claude.MCPServerConfig{"st": {Command: "st", Env: map[string]string{"TOKEN": "secret"}}}
	opts.MCPServersDelivery = claude.DeliverInInitialize
	opts.Plugins = []claude.Plugin{{Path: "/p", SkipMCPDiscovery: true}}
	opts.PluginDelivery = claude.DeliverInInitialize
	if _, err := claude.Query(context.Background(), "hi", opts, nil); err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Args       []string
		Initialize json.RawMessage
	}
	data, _ := os.ReadFile(record)
	json.Unmarshal(data, &rec)
	want := `{"agentProgressSummaries":true,"forwardSubagentText":true,"hooks":null,` +
		`"mcpServers":{"st":{"args":[],"command":"st","env":{"TOKEN":"secret"},"type":"stdio"}},"perTaskStopAffordance":true,` +
		`"planModeInstructions":"plan","plugins":[{"path":"/p","skipMcpDiscovery":true,"type":"local"}],"promptSuggestions":true,` +
		`"sdkMcpServerConfigs":{"demo_tools":{"timeout":2000}},"sdkMcpServers":["demo_tools"],"skills":["pdf"],"subtype":"initialize",` +
		`"supportedDialogKinds":["refusal_fallback_prompt"],"systemPrompt":["a","__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__","b"],` +
		`"title":"T","toolAliases":{"Bash":"mcp__demo_tools__greet"}}`
	if got := canonical(t, rec.Initialize); got != want {
		t.Errorf("initialize:\n got %s\nwant %s", got, want)
	}
	if line := strings.Join(rec.Args, " "); strings.Contains(line, "secret") || strings.Contains(line, "--plugin-dir") {
		t.Errorf("what goes in initialize is on the command line too: %s", line)
	}

	for _, c := range []struct {
		opts claude.Options
		want string
	}{
		{claude.Options{SupportedDialogKinds: []string{"x"}}, "needs Options.OnUserDialog"},
		{claude.Options{SystemPrompt: "s", SystemPromptBlocks: []string{"b"}}, "set one of"},
		{claude.Options{ExcludeDynamicSections: true}, "set ClaudeCodePrompt"},
		{claude.Options{ServerTimeouts: map[string]time.Duration{"nope": time.Second}}, "no such server"},
	} {
		c.opts.Path = opts.Path
		if _, err := claude.Start(context.Background(), c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.opts, err, c.want)
		}
	}
}

// TestUserDialog: a request_user_dialog is answered by OnUserDialog, a
// completion or a cancellation; without it the host refuses it, which
// the CLI discards, leaving the dialog to its deadline (the TypeScript
// SDK stays silent). The CLI 2.1.330 showed no dialog offline.
func TestUserDialog(t *testing.T) {
	linepeer.CheckLeaks(t)
	req := `{"type":"control_request","request_id":"%s","request":{"subtype":"request_user_dialog","dialog_kind":"%s","payload":{"q":1},"tool_use_id":"toolu_1"}}`
	var seen claude.UserDialogRequest
	cli := newCLISideOpts(t, claude.Options{OnUserDialog: func(ctx context.Context, r claude.UserDialogRequest) (claude.UserDialogResult, error) {
		seen = r
		switch r.DialogKind {
		case "pick":
			return claude.UserDialogResult{Result: json.RawMessage(`{"choice":2}`)}, nil
		case "panic":
			panic("boom")
		}
		return claude.UserDialogResult{Cancelled: true}, nil
	}})
	for _, c := range []struct{ id, kind, want string }{
		{"d1", "pick", success("d1", `{"behavior":"completed","result":{"choice":2}}`)},
		{"d2", "unknown_kind", success("d2", `{"behavior":"cancelled"}`)},
	} {
		cli.Send(strings.ReplaceAll(strings.Replace(strings.Replace(req, "%s", c.id, 1), "%s", c.kind, 1), "%%", "%"))
		if got := cli.response(c.id); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.kind, got, c.want)
		}
	}
	if seen.ToolUseID != "toolu_1" || string(seen.Payload) != `{"q":1}` {
		t.Errorf("the callback saw %+v", seen)
	}
	cli.Send(strings.Replace(strings.Replace(req, "%s", "d3", 1), "%s", "panic", 1))
	if got := cli.response("d3"); !strings.Contains(got, `"subtype":"error"`) || !strings.Contains(got, "boom") {
		t.Errorf("a panicking callback: %s", got)
	}

	bare := newCLISideOpts(t, claude.Options{})
	bare.Send(strings.Replace(strings.Replace(req, "%s", "d4", 1), "%s", "pick", 1))
	if got := bare.response("d4"); !strings.Contains(got, `"error_code":"unsupported_request"`) {
		t.Errorf("without OnUserDialog: %s", got)
	}
}

// slowStore is a SessionStore whose Load waits for its context.
type slowStore struct{ claude.MemorySessionStore }

func (s *slowStore) Load(ctx context.Context, key claude.SessionKey) ([]json.RawMessage, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestStoreLoadTimeout: resuming from a SessionStore that does not
// answer fails after SessionStoreLoadTimeout, before the CLI starts.
func TestStoreLoadTimeout(t *testing.T) {
	linepeer.CheckLeaks(t)
	opts := standIn(t, "script")
	opts.SessionStore = &slowStore{}
	opts.SessionStoreLoadTimeout = 50 * time.Millisecond
	opts.Resume = "6f1d2c3b-0a9e-4b8c-8d7f-1e2d3c4b5a69"
	_, err := claude.Start(context.Background(), opts)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "resuming from the session store: Load") {
		t.Errorf("Start: %v", err)
	}
	if claude.DefaultStoreLoadTimeout != 60*time.Second {
		t.Errorf("DefaultStoreLoadTimeout is %v; the documentation says 60s", claude.DefaultStoreLoadTimeout)
	}
	opts.SessionStore = &claude.MemorySessionStore{}
	if _, err := claude.Start(context.Background(), opts); !errors.Is(err, claude.ErrSessionNotFound) {
		t.Errorf("resuming a session the store lacks: %v", err)
	}
}
