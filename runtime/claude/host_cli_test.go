package claude_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
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
)

// The tests in this file prove the host's features against the real
// Claude Code CLI, offline (see claude_cli_test.go): hooks, subagents,
// the control requests of a running session, permission updates,
// structured output, sessions, options and elicitation. Each checks what
// reached the fake Messages API or the Go code, not only what the CLI
// said.

// host is one real-CLI test setup: the greet server, a fake API that
// makes the model call tool with input, and options that keep the CLI
// offline with the CLI's tool search off (MCP tools are offered at
// once, so "the next request" is the one after the tool ran).
type host struct {
	t    *testing.T
	api  *fakeapi.Server
	g    *greetRecorder
	opts claude.Options
	err  strings.Builder // the CLI's stderr

	mu    sync.Mutex
	asked []claude.PermissionRequest
}

func newHost(t *testing.T, tool, input string, apiOpts ...fakeapi.Option) *host {
	t.Helper()
	linepeer.CheckLeaks(t)
	h := &host{t: t, g: &greetRecorder{}}
	h.api = claudetest.API(t, tool, input, apiOpts...)
	h.opts = offline(t, h.api)
	h.opts.Env = append(h.opts.Env, "ENABLE_TOOL_SEARCH=false")
	h.opts.Servers = map[string]*runtime.Server{"demo_tools": h.g.server()}
	h.opts.Model = "claude-sonnet-4-5"
	h.opts.Stderr = &h.err
	h.opts.Logger = linepeer.DiscardLogger()
	return h
}

// allowAll makes CanUseTool allow everything, recording each request.
func (h *host) allowAll() {
	h.opts.CanUseTool = func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
		h.mu.Lock()
		h.asked = append(h.asked, req)
		h.mu.Unlock()
		return claude.PermissionResult{Allow: true}, nil
	}
}

func (h *host) permissionRequests() []claude.PermissionRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.asked)
}

// start starts a session that the test's end closes.
func (h *host) start() *claude.Session {
	h.t.Helper()
	// Cancelling Start's ctx kills the CLI: it lives as long as the test.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	h.t.Cleanup(cancel)
	s, err := claude.Start(ctx, h.opts)
	if err != nil {
		h.t.Fatalf("Start: %v\nstderr: %s", err, h.err.String())
	}
	h.t.Cleanup(func() { s.Close() })
	return s
}

// turn sends prompt and returns the messages up to the run's result.
func (h *host) turn(s *claude.Session, prompt string) (*claude.ResultMessage, []claude.Message) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Send(ctx, prompt); err != nil {
		h.t.Fatalf("Send: %v", err)
	}
	return h.until(ctx, s)
}

func (h *host) until(ctx context.Context, s *claude.Session) (*claude.ResultMessage, []claude.Message) {
	h.t.Helper()
	var msgs []claude.Message
	for m, err := range s.Messages(ctx) {
		if err != nil {
			h.t.Fatalf("Receive: %v\nstderr: %s\nfake API answered: %v", err, h.err.String(), answers(h.api))
		}
		msgs = append(msgs, m)
		if r, ok := m.(*claude.ResultMessage); ok {
			return r, msgs
		}
	}
	h.t.Fatalf("the conversation ended without a result\nstderr: %s", h.err.String())
	return nil, nil
}

// query runs one prompt in a session of its own.
func (h *host) query(prompt string) (*claude.ResultMessage, []claude.Message) {
	h.t.Helper()
	s := h.start()
	defer s.Close()
	return h.turn(s, prompt)
}

// requestsWith returns the API requests whose body contains text.
func requestsWith(api *fakeapi.Server, text string) []fakeapi.Request {
	var out []fakeapi.Request
	for _, r := range api.Requests() {
		if strings.Contains(string(r.Body), text) {
			out = append(out, r)
		}
	}
	return out
}

// toolText is a tool result's text without the reminders the CLI adds
// to it (the tokens left).
func toolText(tr fakeapi.ToolResult) string {
	text, _, _ := strings.Cut(tr.Text, "\n <system-reminder>")
	return strings.TrimSpace(text)
}

// jsonText is s as it appears inside a JSON string in a request body.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestCLIHookDeniesTool: a PreToolUse hook that denies the greet tool.
// The Go handler never runs, the CLI asks no permission, and the next
// API request carries the hook's reason as the tool's (error) result.
func TestCLIHookDeniesTool(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	var seen []*claude.PreToolUseInput
	var mu sync.Mutex
	h.opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreToolUse: {{
			Matcher: "mcp__demo_tools__.*",
			Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				mu.Lock()
				seen = append(seen, in.(*claude.PreToolUseInput))
				mu.Unlock()
				return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
					PermissionDecision:       claude.HookDeny,
					PermissionDecisionReason: "greetings are closed on Sundays",
				}}, nil
			}},
		}},
	}
	res, _ := h.query("Please greet Alice using the greet tool.")

	if got := h.g.calls(); len(got) != 0 {
		t.Errorf("the denied tool ran with %q", got)
	}
	if got := h.permissionRequests(); len(got) != 0 {
		t.Errorf("the CLI asked permission although the hook denied: %+v", got)
	}
	if len(seen) != 1 {
		t.Fatalf("the hook ran %d times, want 1", len(seen))
	}
	in := seen[0]
	if in.HookEventName != claude.HookPreToolUse || in.ToolName != "mcp__demo_tools__greet" || string(in.ToolInput) != `{"name":"Alice"}` ||
		in.ToolUseID == "" || in.SessionID == "" || in.MCPServer == nil || in.MCPServer.Source != "sdk" {
		t.Errorf("the hook saw %+v (server %+v)", in, in.MCPServer)
	}
	trs := h.api.ToolResults()
	if len(trs) != 1 || !trs[0].IsError || !strings.Contains(trs[0].Text, "greetings are closed on Sundays") {
		t.Errorf("the next API request carried tool results %+v, want the hook's reason", trs)
	}
	if len(res.PermissionDenials) != 1 || res.PermissionDenials[0].ToolName != "mcp__demo_tools__greet" {
		t.Errorf("result permission_denials %+v", res.PermissionDenials)
	}
}

// TestCLIHookRewritesInput: a PreToolUse hook that allows the call with
// a new input. The Go handler receives the rewritten input, without a
// permission check.
func TestCLIHookRewritesInput(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	h.opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreToolUse: {{
			Matcher: "mcp__demo_tools__greet",
			Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
					PermissionDecision: claude.HookAllow,
					UpdatedInput:       json.RawMessage(`{"name":"Bob"}`),
				}}, nil
			}},
		}},
	}
	h.query("Please greet Alice using the greet tool.")
	if got := h.g.calls(); !slices.Equal(got, []string{"Bob"}) {
		t.Errorf("the tool ran with %q, want the hook's input Bob", got)
	}
	if got := h.permissionRequests(); len(got) != 0 {
		t.Errorf("the CLI asked permission although the hook allowed: %+v", got)
	}
	if trs := h.api.ToolResults(); len(trs) != 1 || toolText(trs[0]) != "Hello, Bob! Welcome." {
		t.Errorf("the model received %+v", trs)
	}
}

// TestCLIPostToolUseContext: a PostToolUse hook's additional context
// reaches the next API request; the hook sees the tool's response.
func TestCLIPostToolUseContext(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	responses := make(chan string, 4)
	h.opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPostToolUse: {{
			Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				responses <- string(in.(*claude.PostToolUseInput).ToolResponse)
				return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
					AdditionalContext: "the greeting was logged as #4711",
				}}, nil
			}},
		}},
	}
	h.query("Please greet Alice using the greet tool.")
	want := "PostToolUse:mcp__demo_tools__greet hook additional context: the greeting was logged as #4711"
	if rs := requestsWith(h.api, want); len(rs) == 0 || rs[0].Answer != "final" {
		t.Errorf("no API request after the tool carries %q (requests: %v)", want, answers(h.api))
	}
	select {
	case r := <-responses:
		if !strings.Contains(r, "Hello, Alice! Welcome.") {
			t.Errorf("the hook saw the tool response %s", r)
		}
	default:
		t.Error("the PostToolUse hook did not run")
	}
}

// TestCLIHookFailuresGoOn: a hook that returns an error and one that
// panics are answered as failures; the CLI treats them as no opinion,
// says so in an informational message, and the session goes on.
func TestCLIHookFailuresGoOn(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	h.opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreToolUse: {{
			Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				return claude.HookOutput{}, errors.New("the audit log is down")
			}},
		}},
		claude.HookPostToolUse: {{
			Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				panic("hook bug")
			}},
		}},
	}
	res, msgs := h.query("Please greet Alice using the greet tool.")
	if got := h.g.calls(); !slices.Equal(got, []string{"Alice"}) {
		t.Errorf("the tool ran with %q", got)
	}
	if res.Subtype != "success" || res.IsError {
		t.Errorf("result %s: %s", res.Subtype, res.Result)
	}
	failed := 0
	for _, m := range msgs {
		if m.Type() == "system" && strings.Contains(string(m.Raw()), `"hook_callback_failed"`) {
			failed++
		}
	}
	if failed != 2 {
		t.Errorf("%d hook_callback_failed messages, want 2 (one per failed hook)", failed)
	}
	if !strings.Contains(h.err.String(), "the audit log is down") {
		t.Errorf("the CLI's stderr does not name the hook's error:\n%s", h.err.String())
	}
}

// TestCLISkillShellCommandHook: a PreSkillShellCommand hook sees each
// shell command of a skill as the skill loads (here typed as a slash
// command). The command it denies does not run, and the model reads the
// hook's reason where the command's output would have been; the one it
// allows runs.
func TestCLISkillShellCommandHook(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`, fakeapi.EachPrompt())
	h.allowAll()
	for _, name := range []string{"guarded", "open"} {
		dir := filepath.Join(h.opts.Dir, ".claude", "skills", name)
		os.MkdirAll(dir, 0o755)
		skill := "---\nname: " + name + "\ndescription: Stamps the folder\nallowed-tools: Bash(touch:*)\n---\nStamped: !`touch " + name + ".txt`\n"
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var seen []*claude.PreSkillShellCommandInput
	h.opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreSkillShellCommand: {{
			Matcher: "Bash",
			Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				cmd := in.(*claude.PreSkillShellCommandInput)
				mu.Lock()
				seen = append(seen, cmd)
				mu.Unlock()
				if cmd.CommandName != "guarded" {
					return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{PermissionDecision: claude.HookAllow}}, nil
				}
				return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
					PermissionDecision:       claude.HookDeny,
					PermissionDecisionReason: "no stamping on Sundays",
				}}, nil
			}},
		}},
	}
	s := h.start()
	h.turn(s, "/guarded")
	h.turn(s, "/open")

	if _, err := os.Stat(filepath.Join(h.opts.Dir, "guarded.txt")); err == nil {
		t.Errorf("the command the hook denied ran")
	}
	if _, err := os.Stat(filepath.Join(h.opts.Dir, "open.txt")); err != nil {
		t.Errorf("the command the hook allowed did not run: %v", err)
	}
	if len(requestsWith(h.api, jsonText("Stamped: [not run: blocked by hook: no stamping on Sundays]"))) == 0 {
		t.Errorf("no request tells the model the hook's reason")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 {
		t.Fatalf("the hook ran %d times, want 2 (one per command)", len(seen))
	}
	for i, name := range []string{"guarded", "open"} {
		in := seen[i]
		if in.HookEventName != claude.HookPreSkillShellCommand || in.ToolName != "Bash" || in.ToolInput.Command != "touch "+name+".txt" ||
			in.CommandName != name || in.CommandSource == "" || in.InvokedBy != "user" || in.ToolUseID == "" || in.SessionID == "" {
			t.Errorf("the hook saw %+v", in)
		}
	}
}

// TestCLISetPermissionMode: SetPermissionMode returns the mode the CLI
// put in effect, which the next turn runs in; asked for "manual", the
// CLI's other name for the default mode, the CLI answers default.
func TestCLISetPermissionMode(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`, fakeapi.EachPrompt())
	h.allowAll()
	s := h.start()
	ctx := context.Background()
	for _, c := range []struct{ ask, want claude.PermissionMode }{
		{claude.PermissionPlan, claude.PermissionPlan},
		{"manual", claude.PermissionDefault},
	} {
		mode, err := s.SetPermissionMode(ctx, c.ask)
		if err != nil || mode != c.want {
			t.Errorf("SetPermissionMode(%s): %q, %v; want %q", c.ask, mode, err, c.want)
		}
		_, msgs := h.turn(s, "Please greet Alice.")
		var ran []string
		for _, m := range msgs {
			if init, ok := m.(*claude.SystemMessage); ok && init.Subtype == "init" {
				ran = append(ran, init.PermissionMode)
			}
		}
		if len(ran) != 1 || ran[0] != string(c.want) {
			t.Errorf("after SetPermissionMode(%s), the turn ran in %q, want %q", c.ask, ran, c.want)
		}
	}
}

// TestCLISetModel: after SetModel the next API request names the new
// model; the PreModelSwitch hook sees the switch.
func TestCLISetModel(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	switches := make(chan *claude.PreModelSwitchInput, 4)
	h.opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreModelSwitch: {{Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
			switches <- in.(*claude.PreModelSwitchInput)
			return claude.HookOutput{}, nil
		}}}},
	}
	s := h.start()
	h.turn(s, "Please greet Alice using the greet tool.")
	before := len(h.api.Requests())
	if m := h.api.Requests()[before-1].Model; m != "claude-sonnet-4-5" {
		t.Fatalf("the first turn used %q", m)
	}
	ctx := context.Background()
	resolved, err := s.SetModel(ctx, "claude-haiku-4-5")
	if err != nil {
		t.Fatal(err)
	}
	if resolved != "claude-haiku-4-5" {
		t.Errorf("SetModel resolved to %q", resolved)
	}
	h.turn(s, "And now say goodbye.")
	reqs := h.api.Requests()
	if len(reqs) <= before {
		t.Fatal("no API request after SetModel")
	}
	if m := reqs[before].Model; m != "claude-haiku-4-5" {
		t.Errorf("the request after SetModel names %q, want claude-haiku-4-5", m)
	}
	select {
	case sw := <-switches:
		if sw.FromModel != "claude-sonnet-4-5" || sw.ToModel != "claude-haiku-4-5" || sw.Source != "sdk" {
			t.Errorf("PreModelSwitch saw %+v", sw)
		}
	default:
		t.Error("no PreModelSwitch hook call")
	}
}

// TestCLIMCPStatus: MCPStatus shows the in-process server connected,
// with its tools; the other control requests of a session get the
// answers the notes recorded.
func TestCLIMCPStatus(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	s := h.start()
	h.turn(s, "Please greet Alice using the greet tool.")
	ctx := context.Background()
	st, err := s.MCPStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(st, func(s claude.MCPServerStatus) bool { return s.Name == "demo_tools" })
	if i < 0 {
		t.Fatalf("MCPStatus lacks demo_tools: %+v", st)
	}
	demo := st[i]
	if demo.Status != "connected" || demo.Source != "sdk" || demo.Transport != "sdk" || demo.ServerInfo == nil || demo.ServerInfo.Name != "demo_tools" ||
		!slices.ContainsFunc(demo.Tools, func(t claude.MCPToolInfo) bool { return t.Name == "greet" }) {
		t.Errorf("demo_tools: %+v (server info %+v)", demo, demo.ServerInfo)
	}

	// The CLI reconnects only servers it dials itself.
	var ce *claude.ControlError
	if err := s.ReconnectMCPServer(ctx, "demo_tools"); !errors.As(err, &ce) {
		t.Errorf("ReconnectMCPServer of an sdk server: %v, want the CLI's refusal", err)
	}
	if err := s.ToggleMCPServer(ctx, "demo_tools", false); err != nil {
		t.Fatal(err)
	}
	st, err = s.MCPStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(st, func(s claude.MCPServerStatus) bool { return s.Name == "demo_tools" }); i < 0 || st[i].Status != "disabled" {
		t.Errorf("after ToggleMCPServer(false): %+v", st)
	}
	if err := s.ToggleMCPServer(ctx, "nope", true); !errors.As(err, &ce) || !strings.Contains(ce.Message, "Server not found: nope") {
		t.Errorf("ToggleMCPServer of an unknown server: %v", err)
	}
	if err := s.SetMaxThinkingTokens(ctx, 2048); err != nil {
		t.Errorf("SetMaxThinkingTokens: %v", err)
	}
	if err := s.Interrupt(ctx); err != nil {
		t.Errorf("Interrupt when idle: %v", err)
	}
	if err := s.StopTask(ctx, "no-such-task"); err != nil {
		t.Errorf("StopTask: %v", err)
	}
	u, err := s.ContextUsage(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if u.TotalTokens <= 0 || u.MaxTokens <= 0 || len(u.Categories) == 0 {
		t.Errorf("ContextUsage: %+v", u)
	}
	if mode, err := s.SetPermissionMode(ctx, claude.PermissionPlan); err != nil || mode != claude.PermissionPlan {
		t.Errorf("SetPermissionMode(plan): %q, %v", mode, err)
	}
	if _, err := s.SetPermissionMode(ctx, "sometimes"); !errors.As(err, &ce) || ce.Code != "invalid_mode" {
		t.Errorf("SetPermissionMode(sometimes): %v, want a ControlError with code invalid_mode", err)
	}
	// The CLI's answer to a request it does not know, which the host
	// gives in the same words.
	if _, err := s.Control(ctx, "no_such_request", nil); !errors.As(err, &ce) ||
		ce.Message != "Unsupported control request subtype: no_such_request" || ce.Code != "unsupported_request" {
		t.Errorf("an unknown request: %v (%+v)", err, ce)
	}
}

// forecast is the structured result of TestCLIStructuredOutput.
type forecast struct {
	City    string `json:"city"`
	Celsius int    `json:"celsius"`
}

// MCPSchema returns forecast's JSON Schema. mcpgen generates this method
// for a type marked //mcp:output; it is written by hand here.
func (*forecast) MCPSchema() string {
	return `{"type":"object","properties":{"city":{"type":"string"},"celsius":{"type":"integer"}},"required":["city","celsius"],"additionalProperties":false}`
}

// TestCLIStructuredOutput: the schema of Options.OutputType reaches the
// model as the StructuredOutput tool, and the result's structured output
// decodes into the Go type.
func TestCLIStructuredOutput(t *testing.T) {
	h := newHost(t, "StructuredOutput", `{"city":"Paris","celsius":21}`)
	h.opts.OutputType = forecast{}
	res, _ := h.query("What is the weather in Paris?")
	var f forecast
	if err := res.DecodeStructuredOutput(&f); err != nil {
		t.Fatalf("DecodeStructuredOutput: %v (result %s %v)", err, res.Subtype, res.Errors)
	}
	if f != (forecast{"Paris", 21}) {
		t.Errorf("decoded %+v", f)
	}
	reqs := h.api.Requests()
	if len(reqs) == 0 || !slices.Contains(reqs[0].Tools, "StructuredOutput") ||
		!strings.Contains(string(reqs[0].Body), `"celsius":{"type":"integer"}`) {
		t.Errorf("the model was not offered the StructuredOutput tool with the schema")
	}
}

// TestCLIResume: resuming a finished session sends its earlier turns
// with the next prompt, under the same session id; forking sends them
// under a new id; Continue picks the directory's latest session.
func TestCLIResume(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	first, _ := h.query("FIRST PROMPT: please greet Alice.")
	if first.SessionID == "" {
		t.Fatal("no session id")
	}

	latest := func() fakeapi.Request { r := h.api.Requests(); return r[len(r)-1] }
	hasHistory := func(r fakeapi.Request) bool {
		return strings.Contains(string(r.Body), "FIRST PROMPT: please greet Alice.") &&
			strings.Contains(string(r.Body), jsonText("Hello, Alice! Welcome."))
	}

	h.opts.Resume = first.SessionID
	s := h.start()
	if s.SessionID() != first.SessionID {
		t.Errorf("before the first prompt, SessionID is %q", s.SessionID())
	}
	res, _ := h.turn(s, "SECOND PROMPT")
	s.Close()
	if !hasHistory(latest()) || !strings.Contains(string(latest().Body), "SECOND PROMPT") {
		t.Errorf("the resumed session's request lacks the earlier turns:\n%.2000s", latest().Body)
	}
	if res.SessionID != first.SessionID || s.SessionID() != first.SessionID {
		t.Errorf("resumed under %q (Session.SessionID %q), want %q", res.SessionID, s.SessionID(), first.SessionID)
	}

	h.opts.ForkSession = true
	res, _ = h.query("THIRD PROMPT")
	if !hasHistory(latest()) {
		t.Errorf("the forked session's request lacks the earlier turns")
	}
	if res.SessionID == first.SessionID || res.SessionID == "" {
		t.Errorf("the fork kept the session id %q", res.SessionID)
	}

	h.opts.Resume, h.opts.ForkSession, h.opts.Continue = "", false, true
	res, _ = h.query("FOURTH PROMPT")
	if !hasHistory(latest()) {
		t.Errorf("the continued session's request lacks the earlier turns")
	}
	if res.SessionID == first.SessionID {
		t.Errorf("Continue took the first session, not the latest (the fork)")
	}
}

// TestCLIResumeUnknown: resuming a session that does not exist fails
// Start with the CLI's reason, at once.
func TestCLIResumeUnknown(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.opts.Resume = "0f2d8e55-6d3c-4b8e-9a1f-1d2c3b4a5f60"
	ctx, cancel := context.WithTimeout(context.Background(), linepeer.HangGuard)
	defer cancel()
	s, err := claude.Start(ctx, h.opts)
	if err == nil {
		s.Close()
		t.Fatal("Start resumed a session that does not exist")
	}
	if !strings.Contains(err.Error(), "No conversation found with session ID: 0f2d8e55-6d3c-4b8e-9a1f-1d2c3b4a5f60") {
		t.Errorf("Start: %v", err)
	}
}

// TestCLISideloadFlagsDisabled: under a managed policy that sets
// disableSideloadFlags, the CLI refuses a launch that brings plugins or
// MCP servers of its own on the command line. Start fails at once with a
// *StartupError whose reason is sideload_flags_disabled and whose message
// says what the policy forbids, not with a timeout. The servers of this
// process are not refused, nor are Options.Agents (the initialize
// request carries them): a session with both starts and its tool runs.
func TestCLISideloadFlagsDisabled(t *testing.T) {
	const policy = `{"disableSideloadFlags":true}`
	for _, c := range []struct {
		name string
		flag string // what the CLI says it refuses
		set  func(*host)
	}{
		{"Plugins", "--plugin-dir", func(h *host) { h.opts.Plugins = []claude.Plugin{{Path: testPlugin(t, "sideloaded")}} }},
		{"PluginsInInitialize", "plugins (initialize request)", func(h *host) {
			h.opts.Plugins = []claude.Plugin{{Path: testPlugin(t, "sideloaded")}}
			h.opts.PluginDelivery = claude.DeliverInInitialize
		}},
		{"MCPServers", "--mcp-config", func(h *host) { h.opts.MCPServers = map[string]claude.MCPServerConfig{"st": stdioServer(t)} }},
		{"MCPServersInInitialize", "--mcp-config", func(h *host) {
			h.opts.MCPServers = map[string]claude.MCPServerConfig{"st": stdioServer(t)}
			h.opts.MCPServersDelivery = claude.DeliverInInitialize
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
			h.opts.ManagedSettings = policy
			c.set(h)
			ctx, cancel := context.WithTimeout(context.Background(), linepeer.HangGuard)
			defer cancel()
			s, err := claude.Start(ctx, h.opts)
			if err == nil {
				s.Close()
				t.Fatalf("Start succeeded under a policy that forbids %s", c.flag)
			}
			var refused *claude.StartupError
			var cliErr *claude.CLIError
			if !errors.As(err, &refused) || refused.Reason != claude.StartupSideloadFlagsDisabled || !errors.As(err, &cliErr) {
				t.Fatalf("Start: %v, want a *StartupError (sideload_flags_disabled) wrapping a *CLIError", err)
			}
			for _, want := range []string{
				c.flag + " is disabled by your organization's managed settings (disableSideloadFlags)",
				"Plugins, custom agents, and MCP servers can only be loaded from sources your administrator has approved",
			} {
				if !strings.Contains(refused.Message, want) || !strings.Contains(err.Error(), want) {
					t.Errorf("the error does not say %q: %v", want, err)
				}
			}
		})
	}
	t.Run("ServersAndAgents", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.ManagedSettings = policy
		h.opts.Agents = map[string]claude.AgentDefinition{"greeter": {Description: "Greets people", Prompt: "You greet."}}
		h.query("Please greet Alice.")
		if got := h.g.calls(); !slices.Equal(got, []string{"Alice"}) {
			t.Errorf("the tool of this process ran with %q", got)
		}
	})
}

// TestCLISessionID: Options.SessionID names a new session.
func TestCLISessionID(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	h.opts.SessionID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
	h.opts.NoSessionPersistence = true
	res, _ := h.query("Please greet Alice.")
	if res.SessionID != h.opts.SessionID {
		t.Errorf("session id %q, want %q", res.SessionID, h.opts.SessionID)
	}
	var home string
	for _, kv := range h.opts.Env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	transcripts, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
	if len(transcripts) != 0 {
		t.Errorf("NoSessionPersistence, yet the CLI wrote %q", transcripts)
	}
}

// TestCLISubagent: a subagent defined in Go is invoked through the Agent
// tool; its prompt is the system prompt of the requests it makes, it has
// only the tools it was given, and the hooks see it start and stop.
func TestCLISubagent(t *testing.T) {
	h := newHost(t, "Agent", `{"description":"Greet Alice","prompt":"Greet Alice using the greet tool","subagent_type":"greeter","run_in_background":false}`)
	h.allowAll()
	const prompt = "You are the greeter subagent. Greet whoever you are asked to greet."
	h.opts.Agents = map[string]claude.AgentDefinition{
		"greeter": {
			Description: "Greets people by name",
			Prompt:      prompt,
			Tools:       []string{"mcp__demo_tools__greet"},
			Model:       "inherit",
		},
	}
	events := make(chan string, 8)
	record := func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
		events <- fmt.Sprintf("%s %s", in.Base().HookEventName, in.Base().AgentType)
		return claude.HookOutput{}, nil
	}
	h.opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookSubagentStart: {{Hooks: []claude.HookFunc{record}}},
		claude.HookSubagentStop:  {{Hooks: []claude.HookFunc{record}}},
	}
	res, msgs := h.query("Have the greeter greet Alice.")
	if res.Subtype != "success" {
		t.Errorf("result %s %v", res.Subtype, res.Errors)
	}
	sub := requestsWith(h.api, jsonText(prompt))
	if len(sub) == 0 {
		t.Fatalf("no API request has the subagent's prompt (requests %v)", answers(h.api))
	}
	if !slices.Equal(sub[0].Tools, []string{"mcp__demo_tools__greet"}) {
		t.Errorf("the subagent was offered %v", sub[0].Tools)
	}
	if !strings.Contains(string(sub[0].Body), "Greet Alice using the greet tool") {
		t.Errorf("the subagent's request lacks the task it was given")
	}
	var init *claude.SystemMessage
	started := false
	for _, m := range msgs {
		if s, ok := m.(*claude.SystemMessage); ok && s.Subtype == "init" {
			init = s
		}
		if m.Type() == "system" && strings.Contains(string(m.Raw()), `"subtype":"task_started"`) && strings.Contains(string(m.Raw()), `"subagent_type":"greeter"`) {
			started = true
		}
	}
	if init == nil || !slices.Contains(init.Agents, "greeter") {
		t.Errorf("system/init does not list the agent")
	}
	if !started {
		t.Errorf("no task_started message for the greeter")
	}
	close(events)
	var got []string
	for e := range events {
		got = append(got, e)
	}
	if !slices.Equal(got, []string{"SubagentStart greeter", "SubagentStop greeter"}) {
		t.Errorf("hooks saw %q", got)
	}
}

// TestCLIUpdatedPermissions: the CLI's permission suggestions arrive
// typed, and answering with them in UpdatedPermissions is accepted: the
// CLI writes the rule to the local settings file and does not ask again
// for the next call.
func TestCLIUpdatedPermissions(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`, fakeapi.EachPrompt())
	var asked []claude.PermissionRequest
	h.opts.CanUseTool = func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
		asked = append(asked, req)
		return claude.PermissionResult{Allow: true, UpdatedPermissions: req.Suggestions}, nil
	}
	s := h.start()
	h.turn(s, "Please greet Alice.")
	h.turn(s, "Please greet Alice again.")
	if got := h.g.calls(); !slices.Equal(got, []string{"Alice", "Alice"}) {
		t.Fatalf("the tool ran with %q, want twice", got)
	}
	if len(asked) != 1 {
		t.Fatalf("the CLI asked %d times, want once (the rule should allow the second call)", len(asked))
	}
	sug := asked[0].Suggestions
	if len(sug) == 0 || sug[0].Type != "addRules" || len(sug[0].Rules) == 0 || sug[0].Rules[0].ToolName != "mcp__demo_tools__greet" || sug[0].Behavior != "allow" {
		t.Errorf("suggestions %+v", sug)
	}
	if asked[0].MCPServer == nil || asked[0].MCPServer.Name != "demo_tools" || asked[0].DisplayName == "" {
		t.Errorf("permission request %+v", asked[0])
	}
	t.Logf("suggestions: %+v", sug)
	if sug[0].Destination == "localSettings" {
		data, err := os.ReadFile(filepath.Join(h.opts.Dir, ".claude", "settings.local.json"))
		if err != nil || !strings.Contains(string(data), "mcp__demo_tools__greet") {
			t.Errorf("the local settings do not hold the rule: %s %v", data, err)
		}
	}
}

// TestCLIAskingNotSupported: a tool of this process that asks the client
// (elicitation, sampling, roots) gets runtime.ErrNotSupported at once:
// the CLI declares no such capability to in-process servers.
func TestCLIAskingNotSupported(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__probe", `{}`)
	h.allowAll()
	var report string
	h.opts.Servers["demo_tools"].AddTool(&runtime.Tool{
		Name:        "probe",
		Description: "Asks the client everything it can.",
		InputSchema: `{"type":"object"}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			start := time.Now()
			_, _, eErr := runtime.Elicit(ctx, "Favourite colour?", `{"type":"object","properties":{"colour":{"type":"string"}}}`)
			_, sErr := runtime.Sample(ctx, &runtime.SampleRequest{MaxTokens: 10, Messages: []runtime.SampleMessage{{Role: "user", Content: runtime.TextContent{Text: "hi"}}}})
			_, rErr := runtime.Roots(ctx)
			took := time.Since(start)
			var parts []string
			for _, err := range []error{eErr, sErr, rErr} {
				parts = append(parts, fmt.Sprintf("%v", errors.Is(err, runtime.ErrNotSupported)))
			}
			report = fmt.Sprintf("not supported: %s in %v", strings.Join(parts, ","), took)
			if took > time.Second {
				return nil, fmt.Errorf("asking took %v", took)
			}
			return runtime.TextResult(strings.Join(parts, ",")), nil
		},
	})
	h.query("Probe the client.")
	trs := h.api.ToolResults()
	if len(trs) != 1 || toolText(trs[0]) != "true,true,true" {
		t.Errorf("the model received %+v (%s), want every question refused with ErrNotSupported", trs, report)
	}
}

// askServer is an MCP server for the CLI to start (Options.MCPServers):
// its tool asks the user a question through the client.
func askServer() *runtime.Server {
	s := &runtime.Server{Name: "st", Version: "1.0.0"}
	s.AddTool(&runtime.Tool{
		Name:        "ask",
		Description: "Asks the user for a colour.",
		InputSchema: `{"type":"object"}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			action, content, err := runtime.Elicit(ctx, "Favourite colour?", `{"type":"object","properties":{"colour":{"type":"string"}},"required":["colour"]}`)
			if err != nil {
				return nil, err
			}
			return runtime.TextResult(fmt.Sprintf("action=%s content=%s", action, content)), nil
		},
	})
	// An MCP Apps widget, for TestCLIReadMCPResource.
	s.AddResource(&runtime.Resource{URI: widgetURI, Name: "widget", MIMEType: "text/html;profile=mcp-app",
		Handler: func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
			return runtime.TextResource(widgetURI, "text/html;profile=mcp-app", widgetHTML), nil
		}})
	return s
}

// stdioServer configures this test binary as the stdio MCP server st.
func stdioServer(t *testing.T) claude.MCPServerConfig {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return claude.MCPServerConfig{Command: exe, Env: map[string]string{"MCPGEN_STDIO_SERVER": "1"}}
}

// TestCLIElicitation: an MCP server the CLI starts itself, next to the
// in-process one, asks the user; Options.OnElicitation answers, and its
// answer reaches the server's tool. Without OnElicitation the question
// is declined, as in the Agent SDKs.
func TestCLIElicitation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(context.Context, claude.ElicitationRequest) (claude.ElicitationResult, error)
		want   string
	}{
		{"OnElicitation", func(ctx context.Context, req claude.ElicitationRequest) (claude.ElicitationResult, error) {
			if req.ServerName != "st" || req.Message != "Favourite colour?" || !strings.Contains(string(req.RequestedSchema), "colour") {
				return claude.ElicitationResult{}, fmt.Errorf("unexpected request %+v", req)
			}
			return claude.ElicitationResult{Action: runtime.ElicitAccept, Content: json.RawMessage(`{"colour":"blue"}`)}, nil
		}, `action=accept content={"colour":"blue"}`},
		{"unset", nil, "action=decline content="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHost(t, "mcp__st__ask", `{}`)
			h.allowAll()
			h.opts.MCPServers = map[string]claude.MCPServerConfig{"st": stdioServer(t)}
			h.opts.OnElicitation = tc.answer
			h.query("Ask me for my favourite colour.")
			trs := h.api.ToolResults()
			if len(trs) != 1 || toolText(trs[0]) != tc.want {
				t.Errorf("the model received %+v, want %q", trs, tc.want)
			}
		})
	}
}

// TestCLISetMCPServers: servers set while the session runs connect next
// to the in-process one, which stays.
func TestCLISetMCPServers(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	s := h.start()
	h.turn(s, "Please greet Alice.")
	ctx := context.Background()
	res, err := s.SetMCPServers(ctx, map[string]claude.MCPServerConfig{"st": stdioServer(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Added, "st") || len(res.Errors) != 0 {
		t.Errorf("SetMCPServers: %+v", res)
	}
	deadline := time.Now().Add(linepeer.HangGuard)
	for {
		st, err := s.MCPStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		status := map[string]string{}
		for _, s := range st {
			status[s.Name] = s.Status
		}
		if status["st"] == "connected" && status["demo_tools"] == "connected" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("servers after SetMCPServers: %+v", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := s.ReconnectMCPServer(ctx, "st"); err != nil {
		t.Errorf("ReconnectMCPServer(st): %v", err)
	}
}

// TestCLIHTTPServer: an MCP server the CLI reaches over Streamable HTTP
// (this package's own HTTP transport, on 127.0.0.1), next to the
// in-process one.
func TestCLIHTTPServer(t *testing.T) {
	h := newHost(t, "mcp__web__greet", `{"name":"Carol"}`)
	h.allowAll()
	web := &greetRecorder{}
	srv := httptest.NewServer(web.server().HTTPHandler(nil))
	t.Cleanup(srv.Close)
	h.opts.MCPServers = map[string]claude.MCPServerConfig{"web": {Type: "http", URL: srv.URL + "/mcp"}}
	s := h.start()
	h.turn(s, "Please greet Carol.")
	if got := web.calls(); !slices.Equal(got, []string{"Carol"}) {
		t.Errorf("the HTTP server's tool ran with %q", got)
	}
	st, err := s.MCPStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, s := range st {
		status[s.Name] = s.Status + "/" + s.Transport
	}
	if status["web"] != "connected/http" || status["demo_tools"] != "connected/sdk" {
		t.Errorf("MCPStatus: %v", status)
	}
}

// TestCLIMainThreadAgent: Options.Agent runs the main thread as one of
// Options.Agents: its prompt becomes the system prompt.
func TestCLIMainThreadAgent(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	const prompt = "You are the front desk agent of the test."
	h.opts.Agents = map[string]claude.AgentDefinition{"desk": {Description: "Front desk", Prompt: prompt}}
	h.opts.Agent = "desk"
	h.query("Please greet Alice.")
	if rs := requestsWith(h.api, jsonText(prompt)); len(rs) == 0 || rs[0].Answer != "tool_use" {
		t.Errorf("the main thread's first request does not have the agent's prompt (%v)", answers(h.api))
	}
}

// TestCLIIncludeHookEvents: with IncludeHookEvents, the hooks of the
// settings (not the host's own) report their runs as system messages.
func TestCLIIncludeHookEvents(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	h.opts.IncludeHookEvents = true
	h.opts.Settings = `{"hooks":{"PreToolUse":[{"matcher":"mcp__demo_tools__greet","hooks":[{"type":"command","command":"echo '{\"systemMessage\":\"from-settings\"}'"}]}]}}`
	_, msgs := h.query("Please greet Alice.")
	var subtypes []string
	for _, m := range msgs {
		if s, ok := m.(*claude.SystemMessage); ok && strings.HasPrefix(s.Subtype, "hook_") {
			subtypes = append(subtypes, s.Subtype)
		}
	}
	if !slices.Contains(subtypes, "hook_started") || !slices.Contains(subtypes, "hook_response") {
		t.Errorf("hook messages %q", subtypes)
	}
}

// TestCLIPartialMessages: with IncludePartialMessages the model's output
// arrives as typed stream events before the complete message.
func TestCLIPartialMessages(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	h.opts.IncludePartialMessages = true
	_, msgs := h.query("Please greet Alice.")
	var types []string
	var text string
	for _, m := range msgs {
		if e, ok := m.(*claude.StreamEvent); ok {
			types = append(types, e.Event.Type)
			if e.Event.Delta != nil && e.Event.Delta.Type == "text_delta" {
				text += e.Event.Delta.Text
			}
		}
	}
	if !slices.Contains(types, "message_start") || !slices.Contains(types, "content_block_delta") || !slices.Contains(types, "message_stop") {
		t.Errorf("stream events %q", types)
	}
	if !strings.Contains(text, "Hello, Alice! Welcome.") {
		t.Errorf("the text deltas say %q", text)
	}
}

// TestCLIRewindFiles: with FileCheckpointing, RewindFiles undoes what
// the model wrote since a user message (a dry run only says what it
// would undo). An administrator's managed fileCheckpointingEnabled false
// keeps checkpointing off; the host's own Options.ManagedSettings does
// not.
func TestCLIRewindFiles(t *testing.T) {
	t.Run("on", func(t *testing.T) {
		h, s, id, path := writeNotes(t, "", nil)
		ctx := context.Background()
		dry, err := s.RewindFiles(ctx, id, true)
		if err != nil {
			t.Fatal(err)
		}
		if !dry.CanRewind || !slices.Contains(dry.FilesChanged, path) {
			t.Errorf("dry run: %+v", dry)
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("a dry run changed the file: %v", err)
		}
		done, err := s.RewindFiles(ctx, id, false)
		if err != nil || !done.CanRewind {
			t.Fatalf("RewindFiles: %+v %v (stderr %s)", done, err, h.err.String())
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("after RewindFiles the file is still there: %v", err)
		}
	})
	t.Run("ManagedSettings false", func(t *testing.T) {
		_, s, id, path := writeNotes(t, `{"fileCheckpointingEnabled":false}`, nil)
		if dry, err := s.RewindFiles(context.Background(), id, true); err != nil || !dry.CanRewind || !slices.Contains(dry.FilesChanged, path) {
			t.Errorf("under the host's managed settings: %+v, %v; want checkpointing on", dry, err)
		}
	})
	t.Run("administrator's false", func(t *testing.T) {
		_, s, id, _ := writeNotes(t, "", []byte(`{"fileCheckpointingEnabled":false}`))
		if dry, err := s.RewindFiles(context.Background(), id, true); err != nil || dry.CanRewind || dry.Error != "File rewinding is not enabled." {
			t.Errorf("under an administrator's managed settings: %+v, %v; want checkpointing off", dry, err)
		}
	})
}

// writeNotes starts a session with FileCheckpointing, managed (the host's
// Options.ManagedSettings) and, if set, admin as the machine's
// managed-settings.json, and has the model write a file. It returns the
// session, the id of the user message, and the file's path.
func writeNotes(t *testing.T, managed string, admin []byte) (*host, *claude.Session, string, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	input, _ := json.Marshal(map[string]string{"file_path": path, "content": "written by the model\n"})
	h := newHost(t, "Write", string(input))
	h.opts.Dir = dir
	h.opts.FileCheckpointing = true
	h.opts.PermissionMode = claude.PermissionAcceptEdits
	h.opts.ManagedSettings = managed
	if admin != nil {
		h.opts.Path = withAdminSettings(t, h.opts.Path, admin)
	}
	s := h.start()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	id, err := s.SendMessage(ctx, "Write the notes file.")
	if err != nil {
		t.Fatal(err)
	}
	h.until(ctx, s)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the Write tool did not write: %v", err)
	}
	return h, s, id, path
}

// withAdminSettings returns a wrapper of the CLI at cli that runs it with
// settings as the machine's managed-settings.json, which only an
// administrator writes (/etc/claude-code on Linux): in a mount namespace
// of its own, /etc is an overlay that holds the file, so that nothing
// else on the machine sees it. It needs root, as .ci/run has.
func withAdminSettings(t *testing.T, cli string, settings []byte) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("an administrator's managed settings need root (a mount namespace of the CLI's own)")
	}
	dir := t.TempDir()
	upper := filepath.Join(dir, "upper")
	if err := os.MkdirAll(filepath.Join(upper, "claude-code"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(upper, "claude-code", "managed-settings.json"), settings, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "work"), 0o755)
	script := "#!/bin/sh\nexec unshare -m sh -c 'mount -t overlay overlay -o lowerdir=/etc,upperdir=" + upper + ",workdir=" + filepath.Join(dir, "work") +
		" /etc && exec \"$0\" \"$@\"' " + cli + " \"$@\"\n"
	wrapper := filepath.Join(dir, "claude")
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper
}

// TestCLIOptionFlags: options the CLI takes as flags take effect: the
// thinking budget and the betas reach the API, the settings and the
// sandbox reach the CLI's settings, a plugin is loaded, the budget ends
// the run, and dontAsk denies without asking.
func TestCLIOptionFlags(t *testing.T) {
	t.Run("thinking", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.Thinking = claude.Thinking{BudgetTokens: 4096}
		h.opts.Betas = []string{"context-1m-2025-08-07"}
		h.opts.Tools = []string{"Read", "Bash"}
		h.opts.DisallowedTools = []string{"Bash"}
		h.opts.AppendSystemPrompt = "Always greet politely."
		extra := t.TempDir()
		h.opts.AddDirs = []string{extra}
		_, msgs := h.query("Please greet Alice.")
		if rs := requestsWith(h.api, `"budget_tokens":4096`); len(rs) == 0 {
			t.Errorf("no API request has the thinking budget")
		}
		first := h.api.Requests()[0]
		if !slices.Contains(first.Tools, "Read") || slices.Contains(first.Tools, "Bash") || slices.Contains(first.Tools, "Write") ||
			!slices.Contains(first.Tools, "mcp__demo_tools__greet") {
			t.Errorf("Tools and DisallowedTools: the model was offered %v", first.Tools)
		}
		if !strings.Contains(string(first.Body), "Always greet politely.") || !strings.Contains(string(first.Body), jsonText(extra)) {
			t.Errorf("the first request lacks the appended system prompt or the added directory")
		}
		if !slices.ContainsFunc(msgs, func(m claude.Message) bool {
			s, ok := m.(*claude.SystemMessage)
			return ok && s.Subtype == "init" && strings.Contains(string(s.Raw()), `"betas":["context-1m-2025-08-07"]`)
		}) {
			t.Errorf("system/init does not list the beta")
		}
	})
	t.Run("budget", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.MaxBudgetUSD = 0.0001
		res, _ := h.query("Please greet Alice.")
		if res.Subtype != "error_max_budget_usd" || res.TerminalReason != "budget_exhausted" {
			t.Errorf("result %s (%s) %v", res.Subtype, res.TerminalReason, res.Errors)
		}
	})
	t.Run("maxTurns", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.MaxTurns = 1
		res, _ := h.query("Please greet Alice.")
		if res.Subtype != "error_max_turns" || res.TerminalReason != "max_turns" {
			t.Errorf("result %s (%s) %v", res.Subtype, res.TerminalReason, res.Errors)
		}
	})
	t.Run("bypassPermissions", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		// As root, the CLI refuses to bypass permissions outside a sandbox.
		h.opts.Env = append(h.opts.Env, "IS_SANDBOX=1")
		h.opts.PermissionMode = claude.PermissionBypass
		h.query("Please greet Alice.")
		if len(h.g.calls()) != 1 || len(h.permissionRequests()) != 0 {
			t.Errorf("bypassPermissions: the tool ran %q, asked %d times", h.g.calls(), len(h.permissionRequests()))
		}
	})
	t.Run("allowDangerouslySkipPermissions", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.Env = append(h.opts.Env, "IS_SANDBOX=1")
		h.opts.AllowDangerouslySkipPermissions = true
		s := h.start()
		if mode, err := s.SetPermissionMode(context.Background(), claude.PermissionBypass); err != nil || mode != claude.PermissionBypass {
			t.Fatalf("SetPermissionMode(bypassPermissions): %q, %v", mode, err)
		}
		h.turn(s, "Please greet Alice.")
		if len(h.g.calls()) != 1 || len(h.permissionRequests()) != 0 {
			t.Errorf("after switching to bypassPermissions: the tool ran %q, asked %d times", h.g.calls(), len(h.permissionRequests()))
		}
	})
	t.Run("auto", func(t *testing.T) {
		// With an API key and no classifier, the CLI runs auto as default.
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.PermissionMode = claude.PermissionAuto
		h.query("Please greet Alice.")
		if len(h.g.calls()) != 1 || len(h.permissionRequests()) != 1 {
			t.Errorf("auto: the tool ran %q, asked %d times", h.g.calls(), len(h.permissionRequests()))
		}
	})
	t.Run("dontAsk", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.PermissionMode = claude.PermissionDontAsk
		h.query("Please greet Alice.")
		if len(h.g.calls()) != 0 || len(h.permissionRequests()) != 0 {
			t.Errorf("dontAsk: the tool ran %q, asked %d times", h.g.calls(), len(h.permissionRequests()))
		}
		if trs := h.api.ToolResults(); len(trs) != 1 || !strings.Contains(trs[0].Text, "don't ask mode") {
			t.Errorf("the model received %+v", trs)
		}
	})
	t.Run("settings", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.opts.SettingSources = []claude.SettingSource{}
		h.opts.Settings = `{"env":{"MCPGEN_FROM_SETTINGS":"yes"}}`
		h.opts.Sandbox = &claude.SandboxSettings{ExcludedCommands: []string{"docker"}, Network: &claude.SandboxNetwork{AllowedDomains: []string{"example.com"}}}
		plugin := filepath.Join(t.TempDir(), "gotest-plugin")
		os.MkdirAll(filepath.Join(plugin, ".claude-plugin"), 0o755)
		os.WriteFile(filepath.Join(plugin, ".claude-plugin", "plugin.json"), []byte(`{"name":"gotest-plugin","version":"0.0.1"}`), 0o644)
		h.opts.Plugins = []claude.Plugin{{Path: plugin}}
		s := h.start()
		raw, err := s.Control(context.Background(), "get_settings", nil)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Effective struct {
				Env     map[string]string `json:"env"`
				Sandbox struct {
					ExcludedCommands []string `json:"excludedCommands"`
					Network          struct {
						AllowedDomains []string `json:"allowedDomains"`
					} `json:"network"`
				} `json:"sandbox"`
			} `json:"effective"`
			Sources []struct {
				Source string `json:"source"`
			} `json:"sources"`
		}
		json.Unmarshal(raw, &got)
		if got.Effective.Env["MCPGEN_FROM_SETTINGS"] != "yes" || !slices.Equal(got.Effective.Sandbox.ExcludedCommands, []string{"docker"}) ||
			!slices.Equal(got.Effective.Sandbox.Network.AllowedDomains, []string{"example.com"}) {
			t.Errorf("get_settings: %s", raw)
		}
		for _, src := range got.Sources {
			if src.Source == "userSettings" || src.Source == "projectSettings" || src.Source == "localSettings" {
				t.Errorf("SettingSources empty, yet the CLI loaded %s", src.Source)
			}
		}
		_, msgs := h.turn(s, "hello")
		loaded := false
		for _, m := range msgs {
			if sm, ok := m.(*claude.SystemMessage); ok && sm.Subtype == "init" && strings.Contains(string(sm.Raw()), `"gotest-plugin"`) {
				loaded = true
			}
		}
		if !loaded {
			t.Errorf("system/init does not list the plugin")
		}
	})
}

// TestCLIStrictMCPConfig: the CLI takes the servers of a project's
// .mcp.json beside the host's own; with StrictMCPConfig it takes only the
// host's (Servers and MCPServers), and the project's is not even listed.
func TestCLIStrictMCPConfig(t *testing.T) {
	for _, strict := range []bool{false, true} {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		project := `{"mcpServers":{"project_notes":{"type":"stdio","command":"true"}}}`
		if err := os.WriteFile(filepath.Join(h.opts.Dir, ".mcp.json"), []byte(project), 0o600); err != nil {
			t.Fatal(err)
		}
		h.opts.StrictMCPConfig = strict
		h.allowAll()
		s := h.start()
		h.turn(s, "Please greet Alice using the greet tool.") // the host's servers connect
		st, err := s.MCPStatus(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, server := range st {
			names = append(names, server.Name+" "+server.Status)
		}
		listed := slices.ContainsFunc(st, func(s claude.MCPServerStatus) bool { return s.Name == "project_notes" })
		if listed == strict || !slices.ContainsFunc(st, func(s claude.MCPServerStatus) bool { return s.Name == "demo_tools" }) {
			t.Errorf("StrictMCPConfig %v: the CLI's servers are %q", strict, names)
		}
	}
}

// TestCLIResumeSessionAt: resuming at the last message of the first turn
// (ResumeSessionAt) leaves the second turn out of what the model sees
// next. With ResumeDropsTurn the CLI first checks that what it drops is
// that turn: naming another prompt, it refuses to start, with the message
// the SDK documents; naming the second turn's prompt, it resumes.
func TestCLIResumeSessionAt(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	s := h.start()
	_, msgs := h.turn(s, "FIRST PROMPT: please greet Alice.")
	keep := ""
	for _, m := range msgs {
		if a, ok := m.(*claude.AssistantMessage); ok {
			keep = a.UUID
		}
	}
	second, _ := h.turn(s, "SECOND PROMPT")
	s.Close()
	if keep == "" {
		t.Fatal("the first turn has no assistant message")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	entries, err := claude.GetSessionMessages(ctx, second.SessionID, claude.MessagesOptions{SessionOptions: sessionOptions(h)})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(entries, func(m claude.SessionMessage) bool {
		return m.Type == "user" && strings.Contains(string(m.Message), "SECOND PROMPT")
	})
	if i < 0 {
		t.Fatalf("the session's messages lack the second prompt")
	}

	h.opts.Resume, h.opts.ResumeSessionAt = second.SessionID, keep
	h.opts.ResumeDropsTurn = "0f2d8e55-6d3c-4b8e-9a1f-1d2c3b4a5f60" // no prompt of the session
	if s, err := claude.Start(ctx, h.opts); err == nil {
		s.Close()
		t.Error("Start resumed, dropping a turn other than the one named")
	} else if !strings.Contains(err.Error(), "Resume rejected by --resume-drops-turn:") {
		t.Errorf("Start: %v", err)
	}

	h.opts.ResumeDropsTurn = entries[i].UUID
	s = h.start()
	h.turn(s, "THIRD PROMPT")
	r := h.api.Requests()
	if body := string(r[len(r)-1].Body); !strings.Contains(body, "FIRST PROMPT") || !strings.Contains(body, "THIRD PROMPT") || strings.Contains(body, "SECOND PROMPT") {
		t.Errorf("resumed at the first turn's end, the request holds:\n%.3000s", body)
	}
}

// TestCLIPermissionPromptTool: without CanUseTool, the CLI asks the MCP
// tool PermissionPromptTool names whether a tool may run, giving it the
// tool's name and input; the tool's answer, a deny with a message here,
// is what the model reads, and the denied tool never runs.
func TestCLIPermissionPromptTool(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	var mu sync.Mutex
	var asked []string
	perm := &runtime.Server{Name: "perm", Version: "1.0.0"}
	perm.AddTool(&runtime.Tool{
		Name:        "approve",
		Description: "Decides whether a tool may run.",
		InputSchema: `{"type":"object","properties":{"tool_name":{"type":"string"},"input":{"type":"object"},"tool_use_id":{"type":"string"}},"required":["tool_name","input"]}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			mu.Lock()
			asked = append(asked, string(req.Arguments))
			mu.Unlock()
			return runtime.TextResult(`{"behavior":"deny","message":"No greetings today, says the approver."}`), nil
		},
	})
	h.opts.Servers["perm"] = perm
	h.opts.PermissionPromptTool = "mcp__perm__approve"
	h.query("Please greet Alice using the greet tool.")
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0], `"tool_name":"mcp__demo_tools__greet"`) || !strings.Contains(asked[0], `"name":"Alice"`) {
		t.Errorf("the approver was asked %q", asked)
	}
	if calls := h.g.calls(); len(calls) != 0 {
		t.Errorf("greet ran although the approver denied it: %q", calls)
	}
	if len(requestsWith(h.api, "No greetings today, says the approver.")) == 0 {
		t.Errorf("the approver's message did not reach the model: %v", answers(h.api))
	}
}
