package claude_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/fakeapi"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// The tests in this file prove, against the real CLI 2.1.332 offline,
// what the TypeScript Agent SDK 0.3.332 offers beyond the first set:
// the initialize answer, the newer control requests, user turns with
// content blocks, and the options the initialize request carries.

// TestCLIInitializeResult: the CLI's answer to initialize is kept, typed:
// models, commands, agents (Options.Agents among them), the account, the
// CLI's version; Reinitialize asks again and the CLI registers the hooks
// anew.
func TestCLIInitializeResult(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.opts.Agents = map[string]claude.AgentDefinition{"greeter": {Description: "Greets people", Prompt: "You greet.", Model: "haiku"}}
	nop := func(context.Context, claude.HookInput) (claude.HookOutput, error) { return claude.HookOutput{}, nil }
	h.opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{claude.HookStop: {{Hooks: []claude.HookFunc{nop}}}}
	s := h.start()
	r := s.InitializationResult()
	if r.ClaudeCodeVersion != claudetest.Version || !r.HookOnFailureSupported || r.HooksApplied == nil || !*r.HooksApplied {
		t.Errorf("initialize result: version %q, onFailure %v, hooks applied %v", r.ClaudeCodeVersion, r.HookOnFailureSupported, r.HooksApplied)
	}
	if !slices.ContainsFunc(s.SupportedModels(), func(m claude.ModelInfo) bool {
		return m.Value == "default" && m.ResolvedModel != "" && m.DisplayName != ""
	}) {
		t.Errorf("SupportedModels lacks the default model: %+v", s.SupportedModels())
	}
	if !slices.ContainsFunc(s.SupportedAgents(), func(a claude.AgentInfo) bool {
		return a.Name == "greeter" && a.Description == "Greets people" && a.Model == "haiku"
	}) {
		t.Errorf("SupportedAgents lacks Options.Agents' greeter: %+v", s.SupportedAgents())
	}
	if len(s.SupportedCommands()) == 0 || !slices.ContainsFunc(s.SupportedCommands(), func(c claude.SlashCommand) bool { return c.Builtin }) {
		t.Errorf("SupportedCommands: %+v", s.SupportedCommands())
	}
	if a := s.AccountInfo(); a.APIProvider != "firstParty" {
		t.Errorf("AccountInfo: %+v", a)
	}
	if !slices.Contains(r.AvailableOutputStyles, r.OutputStyle) {
		t.Errorf("output style %q not among %v", r.OutputStyle, r.AvailableOutputStyles)
	}
	again, err := s.Reinitialize(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if again.HooksApplied == nil || !*again.HooksApplied || len(again.Models) != len(r.Models) || s.InitializationResult() != r {
		t.Errorf("Reinitialize: hooks applied %v, %d models", again.HooksApplied, len(again.Models))
	}
}

// TestCLISessionRequests: the control requests of a running session that
// the first set lacked, each with its effect on the session.
func TestCLISessionRequests(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`, fakeapi.EachPrompt())
	h.allowAll()
	h.opts.Thinking = claude.Thinking{BudgetTokens: 2048}
	os.WriteFile(filepath.Join(h.opts.Dir, "notes.txt"), []byte("hello notes"), 0o644)
	s := h.start()
	h.turn(s, "Please greet Alice.")
	ctx := context.Background()
	var ce *claude.ControlError

	t.Run("InterruptWithReceipt", func(t *testing.T) {
		r, err := s.InterruptWithReceipt(ctx, true)
		if err != nil || r == nil || r.StillQueued == nil || len(r.StillQueued) != 0 {
			t.Errorf("InterruptWithReceipt when idle: %+v, %v", r, err)
		}
	})
	t.Run("SetThinkingDisplay", func(t *testing.T) {
		display := func() string {
			n := len(h.api.Requests())
			h.turn(s, "Please greet Alice again.")
			var b struct {
				Thinking struct {
					Display string `json:"display"`
				} `json:"thinking"`
			}
			json.Unmarshal(h.api.Requests()[n].Body, &b)
			return b.Thinking.Display
		}
		before := display()
		if err := s.SetThinkingDisplay(ctx, "summarized"); err != nil {
			t.Fatal(err)
		}
		if got := display(); got != "summarized" || before == "summarized" {
			t.Errorf("thinking display %q, then %q after SetThinkingDisplay(summarized)", before, got)
		}
		if err := s.SetThinkingDisplay(ctx, ""); err != nil {
			t.Fatal(err)
		}
		if got := display(); got != before {
			t.Errorf("after SetThinkingDisplay(\"\"): %q, want %q", got, before)
		}
	})
	t.Run("SetMCPPermissionModeOverride", func(t *testing.T) {
		w, err := s.SetMCPPermissionModeOverride(ctx, "demo_tools", claude.PermissionDefault)
		if err != nil || w != "" {
			t.Errorf("for demo_tools: %q, %v", w, err)
		}
		w, err = s.SetMCPPermissionModeOverride(ctx, "nope", claude.PermissionDefault)
		if err != nil || !strings.Contains(w, "'nope' is not yet known") {
			t.Errorf("for an unknown server: %q, %v", w, err)
		}
		// Offline, with an API key, the CLI has no auto mode to pin.
		if _, err := s.SetMCPPermissionModeOverride(ctx, "demo_tools", claude.PermissionAuto); !errors.As(err, &ce) || !strings.Contains(ce.Message, "auto mode unavailable") {
			t.Errorf("pinning auto: %v", err)
		}
		if _, err := s.SetMCPPermissionModeOverride(ctx, "demo_tools", ""); err != nil {
			t.Errorf("clearing: %v", err)
		}
	})
	t.Run("ReadFile", func(t *testing.T) {
		f, err := s.ReadFile(ctx, "notes.txt", 0, false)
		if err != nil || f.Contents != "hello notes" || f.AbsPath != filepath.Join(h.opts.Dir, "notes.txt") || f.Base64 {
			t.Errorf("ReadFile: %+v, %v", f, err)
		}
		f, err = s.ReadFile(ctx, "notes.txt", 5, true)
		if err != nil || f.Contents != base64.StdEncoding.EncodeToString([]byte("hello")) || !f.Truncated || !f.Base64 {
			t.Errorf("ReadFile, 5 bytes in base64: %+v, %v", f, err)
		}
		if _, err := s.ReadFile(ctx, "/etc/hostname", 0, false); !errors.As(err, &ce) || !strings.Contains(ce.Message, "read denied") {
			t.Errorf("ReadFile outside the working directories: %v", err)
		}
	})
	t.Run("SeedReadState", func(t *testing.T) {
		// Accepted; its effect (an Edit without a Read in the context)
		// needs a model that edits, which the fake API does not script.
		fi, _ := os.Stat(filepath.Join(h.opts.Dir, "notes.txt"))
		if err := s.SeedReadState(ctx, "notes.txt", fi.ModTime()); err != nil {
			t.Errorf("SeedReadState: %v", err)
		}
	})
	t.Run("ReloadOutputStyles", func(t *testing.T) {
		dir := filepath.Join(h.opts.Dir, ".claude", "output-styles")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "terse.md"), []byte("---\nname: Terse\ndescription: Short answers\n---\nAnswer in one line.\n"), 0o644)
		styles, err := s.ReloadOutputStyles(ctx)
		if err != nil || !slices.Contains(styles, "Terse") {
			t.Errorf("ReloadOutputStyles: %v, %v", styles, err)
		}
	})
	t.Run("ReloadSkills", func(t *testing.T) {
		dir := filepath.Join(h.opts.Dir, ".claude", "skills", "haiku-writer")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: haiku-writer\ndescription: Writes haiku\n---\nWrite a haiku.\n"), 0o644)
		skills, err := s.ReloadSkills(ctx)
		if err != nil || !slices.ContainsFunc(skills, func(c claude.SlashCommand) bool { return c.Name == "haiku-writer" }) {
			t.Errorf("ReloadSkills: %+v, %v", skills, err)
		}
	})
	t.Run("ReloadPlugins", func(t *testing.T) {
		plugin := testPlugin(t, "added-plugin")
		r, err := s.ReloadPlugins(ctx, claude.ReloadPluginsOptions{AddPlugins: []claude.Plugin{{Path: plugin}}})
		if err != nil || !slices.ContainsFunc(r.Plugins, func(p struct {
			Name    string `json:"name"`
			Path    string `json:"path"`
			Source  string `json:"source,omitempty"`
			Version string `json:"version,omitempty"`
		}) bool {
			return p.Name == "added-plugin" && p.Version == "0.0.1"
		}) {
			t.Errorf("ReloadPlugins: %+v, %v", r, err)
		}
	})
	t.Run("UpdateSettings", func(t *testing.T) {
		if err := s.UpdateSettings(ctx, claude.LocalSettingsFile, map[string]string{"outputStyle": "Concise"}); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(h.opts.Dir, ".claude", "settings.local.json"))
		if !strings.Contains(string(data), `"outputStyle": "Concise"`) {
			t.Errorf(".claude/settings.local.json: %s", data)
		}
		if err := s.UpdateSettings(ctx, claude.LocalSettingsFile, map[string]string{"model": "opus"}); !errors.As(err, &ce) {
			t.Errorf("UpdateSettings of a key the CLI does not allow: %v", err)
		}
	})
	t.Run("BackgroundTasks", func(t *testing.T) {
		// Nothing runs in the foreground now: the CLI answers true for
		// "all of them" and false for a tool call it does not know.
		if all, err := s.BackgroundTasks(ctx, ""); err != nil || !all {
			t.Errorf("BackgroundTasks(all): %v, %v", all, err)
		}
		if one, err := s.BackgroundTasks(ctx, "toolu_nope"); err != nil || one {
			t.Errorf("BackgroundTasks(unknown): %v, %v", one, err)
		}
	})
	t.Run("Usage", func(t *testing.T) {
		u, err := s.Usage(ctx, true)
		if err != nil || u.Session.TotalCostUSD <= 0 || u.RateLimitsAvailable || len(u.Session.ModelUsage) == 0 {
			t.Errorf("Usage: %+v, %v", u, err)
		}
	})
	t.Run("ReadMCPResource", func(t *testing.T) {
		// Only for servers the CLI dials itself.
		if _, err := s.ReadMCPResource(ctx, "demo_tools", "ui://demo/widget"); !errors.As(err, &ce) || !strings.Contains(ce.Message, "does not support SDK MCP servers") {
			t.Errorf("ReadMCPResource of an in-process server: %v", err)
		}
	})
	// Last: the deny rule stays.
	t.Run("ApplyFlagSettings", func(t *testing.T) {
		calls := len(h.g.calls())
		if err := s.ApplyFlagSettings(ctx, map[string]any{"permissions": map[string]any{"deny": []string{"mcp__demo_tools__greet"}}}); err != nil {
			t.Fatal(err)
		}
		h.turn(s, "Please greet Alice, once more.")
		if got := len(h.g.calls()); got != calls {
			t.Errorf("a tool denied by the applied settings ran")
		}
	})
}

// testPlugin writes a plugin folder named name.
func testPlugin(t *testing.T, name string) string {
	dir := filepath.Join(t.TempDir(), name)
	os.MkdirAll(filepath.Join(dir, ".claude-plugin"), 0o755)
	os.WriteFile(filepath.Join(dir, ".claude-plugin", "plugin.json"), []byte(`{"name":"`+name+`","version":"0.0.1"}`), 0o644)
	return dir
}

// TestCLIReadMCPResource: ReadMCPResource reads a ui:// resource of a
// server the CLI starts itself.
func TestCLIReadMCPResource(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.opts.MCPServers = map[string]claude.MCPServerConfig{"st": stdioServer(t)}
	s := h.start()
	h.turn(s, "Please greet Alice.") // the CLI connects its servers for the first turn
	r, err := s.ReadMCPResource(context.Background(), "st", widgetURI)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Contents) != 1 || r.Contents[0].Text != widgetHTML || r.Contents[0].MIMEType != "text/html;profile=mcp-app" {
		t.Errorf("ReadMCPResource: %+v", r)
	}
}

const (
	widgetURI  = "ui://st/widget"
	widgetHTML = "<p>a widget</p>"
)

// TestCLISendInput: a user turn of content blocks reaches the model as
// blocks: text, an image, a text document.
func TestCLISendInput(t *testing.T) {
	h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	h.allowAll()
	s := h.start()
	png := tinyPNG()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	id, err := s.SendInput(ctx, claude.UserInput{Content: []claude.InputBlock{
		claude.TextBlock("Please greet the person in this picture."),
		claude.ImageBlock("image/png", png),
		claude.TextDocumentBlock("guest list", "Alice is the only guest."),
	}})
	if err != nil {
		t.Fatal(err)
	}
	h.until(ctx, s)
	first := h.api.Requests()[0]
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	json.Unmarshal(first.Body, &body)
	var blocks []struct {
		Type   string `json:"type"`
		Text   string `json:"text"`
		Title  string `json:"title"`
		Source struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type"`
			Data      string `json:"data"`
		} `json:"source"`
	}
	for _, m := range body.Messages {
		var bs []struct {
			Type string `json:"type"`
		}
		json.Unmarshal(m.Content, &bs)
		if m.Role == "user" && slices.ContainsFunc(bs, func(b struct {
			Type string `json:"type"`
		}) bool {
			return b.Type == "image"
		}) {
			json.Unmarshal(m.Content, &blocks)
		}
	}
	var got []string
	for _, b := range blocks {
		switch b.Type {
		case "image":
			data, _ := base64.StdEncoding.DecodeString(b.Source.Data)
			if b.Source.MediaType == "image/png" && bytes.Equal(data, png) {
				got = append(got, "image")
			}
		case "document":
			got = append(got, "document "+b.Title+": "+b.Source.Data)
		case "text":
			if strings.Contains(b.Text, "Please greet the person") {
				got = append(got, "text")
			}
		}
	}
	if !slices.Equal(got, []string{"text", "image", "document guest list: Alice is the only guest."}) {
		t.Errorf("the model received the blocks %q\n%s", got, first.Body)
	}
	if len(id) != 36 {
		t.Errorf("SendInput's id %q", id)
	}
}

// tinyPNG is a 1×1 PNG.
func tinyPNG() []byte {
	b, _ := base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
	return b
}

// TestCLIVerbatimPrompts: the CLI expands @file mentions in a prompt into
// the file's contents, unless the turn is verbatim.
func TestCLIVerbatimPrompts(t *testing.T) {
	for _, verbatim := range []bool{false, true} {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.VerbatimPrompts = verbatim
		os.WriteFile(filepath.Join(h.opts.Dir, "guests.txt"), []byte("GUEST-LIST-CONTENTS"), 0o644)
		h.query("Please greet everyone in @guests.txt")
		if expanded := len(requestsWith(h.api, "GUEST-LIST-CONTENTS")) > 0; expanded == verbatim {
			t.Errorf("VerbatimPrompts %v: the file's contents reached the model: %v", verbatim, expanded)
		}
	}
}

// TestCLIInitializeOptions: the options that the initialize request
// carries, each with its effect.
func TestCLIInitializeOptions(t *testing.T) {
	t.Run("SystemPromptBlocks", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.SystemPromptBlocks = []string{"STATIC-PART", claude.SystemPromptDynamicBoundary, "DYNAMIC-PART"}
		h.query("Please greet Alice.")
		var body struct {
			System []struct {
				Text string `json:"text"`
			} `json:"system"`
		}
		json.Unmarshal(h.api.Requests()[0].Body, &body)
		if !slices.ContainsFunc(body.System, func(b struct {
			Text string `json:"text"`
		}) bool {
			return strings.Contains(b.Text, "STATIC-PART") && strings.Contains(b.Text, "DYNAMIC-PART")
		}) {
			t.Errorf("the system prompt lacks the blocks: %+v", body.System)
		}
	})
	t.Run("Title", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.Title = "Greeting Alice"
		res, _ := h.query("Please greet Alice.")
		info, err := claude.GetSessionInfo(context.Background(), res.SessionID, sessionOptions(h))
		if err != nil || info.CustomTitle != "Greeting Alice" {
			t.Errorf("the session's title: %+v, %v", info, err)
		}
	})
	t.Run("ToolAliases", func(t *testing.T) {
		// The model calls Bash; the alias routes the call to greet.
		h := newHost(t, "Bash", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.ToolAliases = map[string]string{"Bash": "mcp__demo_tools__greet"}
		h.query("Please greet Alice.")
		if got := h.g.calls(); !slices.Equal(got, []string{"Alice"}) {
			t.Errorf("greet ran with %q; the model received %+v", got, h.api.ToolResults())
		}
	})
	t.Run("PlanModeInstructions", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.PermissionMode = claude.PermissionPlan
		h.opts.PlanModeInstructions = "PLAN-BY-THE-BOOK"
		h.query("Please greet Alice.")
		if len(requestsWith(h.api, "PLAN-BY-THE-BOOK")) == 0 {
			t.Errorf("no request carries the plan mode instructions")
		}
	})
	t.Run("Skills", func(t *testing.T) {
		for _, allowed := range [][]string{{"haiku-writer"}, {"other"}} {
			h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
			h.allowAll()
			dir := filepath.Join(h.opts.Dir, ".claude", "skills", "haiku-writer")
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: haiku-writer\ndescription: WRITES-HAIKU-SKILL\n---\nWrite a haiku.\n"), 0o644)
			h.opts.Skills = allowed
			h.query("Please greet Alice.")
			if listed := len(requestsWith(h.api, "WRITES-HAIKU-SKILL")) > 0; listed != (allowed[0] == "haiku-writer") {
				t.Errorf("Skills %q: the skill listed to the model: %v", allowed, listed)
			}
		}
	})
	t.Run("ExcludeDynamicSections", func(t *testing.T) {
		for _, exclude := range []bool{false, true} {
			h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
			h.allowAll()
			h.opts.ClaudeCodePrompt = true
			h.opts.ExcludeDynamicSections = exclude
			h.query("Please greet Alice.")
			var body struct {
				System json.RawMessage `json:"system"`
			}
			json.Unmarshal(h.api.Requests()[0].Body, &body)
			// The path of the user's memory folder is such a section.
			if inSystem := strings.Contains(string(body.System), "persistent, file-based memory system at"); inSystem == exclude {
				t.Errorf("ExcludeDynamicSections %v: the memory folder in the system prompt: %v", exclude, inSystem)
			}
		}
	})
}

// configDir is the CLI's configuration folder in h's environment.
func configDir(h *host) string {
	for _, kv := range h.opts.Env {
		if home, ok := strings.CutPrefix(kv, "HOME="); ok {
			return filepath.Join(home, ".claude")
		}
	}
	return ""
}

// TestCLIFlagOptions: the options that are flags of the CLI, each with
// its effect.
func TestCLIFlagOptions(t *testing.T) {
	t.Run("TaskBudget", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.TaskBudget = 5000
		h.query("Please greet Alice.")
		if len(requestsWith(h.api, `"task_budget":{"type":"tokens","total":5000}`)) == 0 {
			t.Errorf("no request carries the task budget")
		}
	})
	t.Run("PermissionPrompts none", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.PermissionPrompts = "none"
		h.query("Please greet Alice.")
		if len(h.permissionRequests()) != 0 || len(h.g.calls()) != 0 {
			t.Errorf("CanUseTool asked %d times, the tool ran %q", len(h.permissionRequests()), h.g.calls())
		}
	})
	t.Run("DebugFile", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.DebugFile = filepath.Join(t.TempDir(), "debug.log")
		h.query("Please greet Alice.")
		if fi, err := os.Stat(h.opts.DebugFile); err != nil || fi.Size() == 0 {
			t.Errorf("debug file: %v", err)
		}
	})
	t.Run("ManagedSettings", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		h.opts.ManagedSettings = `{"permissions":{"deny":["mcp__demo_tools__greet"]}}`
		h.query("Please greet Alice.")
		if len(h.g.calls()) != 0 {
			t.Errorf("a tool the managed settings deny ran")
		}
	})
	t.Run("ProjectConfigRoot", func(t *testing.T) {
		h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
		h.allowAll()
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
		os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(`{"permissions":{"deny":["mcp__demo_tools__greet"]}}`), 0o644)
		h.opts.ProjectConfigRoot = root
		h.query("Please greet Alice.")
		if len(h.g.calls()) != 0 {
			t.Errorf("a tool the project root's settings deny ran")
		}
	})
	t.Run("ToolConfig", func(t *testing.T) {
		// The AskUserQuestion tool asks the model for HTML previews.
		html := func(format string) int {
			h := newHost(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
			h.allowAll()
			h.opts.ToolConfig = claude.ToolConfig{AskUserQuestionPreviewFormat: format}
			h.query("Please greet Alice.")
			return strings.Count(string(h.api.Requests()[0].Body), "HTML")
		}
		if plain, withHTML := html(""), html("html"); withHTML <= plain {
			t.Errorf("the tools mention HTML %d times with the html preview format, %d without", withHTML, plain)
		}
	})
	t.Run("ServerTimeouts", func(t *testing.T) {
		h := newHost(t, "mcp__slow__wait", `{}`)
		h.allowAll()
		slow := &runtime.Server{Name: "slow", Version: "1.0.0"}
		slow.AddTool(&runtime.Tool{Name: "wait", InputSchema: `{"type":"object"}`, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			<-ctx.Done() // until the CLI gives up on the call
			return nil, ctx.Err()
		}})
		h.opts.Servers["slow"] = slow
		h.opts.ServerTimeouts = map[string]time.Duration{"slow": time.Second}
		h.query("Please wait.")
		if trs := h.api.ToolResults(); len(trs) != 1 || !trs[0].IsError || !strings.Contains(trs[0].Text, "timed out") {
			t.Errorf("the model received %+v, want the call timed out", trs)
		}
	})
}

// TestCLIDeliverInInitialize: MCP servers and plugins delivered in the
// initialize request, off the command line, load as with flags.
func TestCLIDeliverInInitialize(t *testing.T) {
	h := newHost(t, "mcp__st__ask", `{}`)
	h.allowAll()
	srv := stdioServer(t)
	srv.Env["MCPGEN_SECRET"] = "not-on-the-command-line"
	h.opts.MCPServers = map[string]claude.MCPServerConfig{"st": srv}
	h.opts.MCPServersDelivery = claude.DeliverInInitialize
	h.opts.Plugins = []claude.Plugin{{Path: testPlugin(t, "init-plugin")}}
	h.opts.PluginDelivery = claude.DeliverInInitialize
	args, err := h.opts.Args()
	if err != nil {
		t.Fatal(err)
	}
	if line := strings.Join(args, " "); strings.Contains(line, "not-on-the-command-line") || strings.Contains(line, "--plugin-dir") || !strings.Contains(line, "--await-initialize") {
		t.Errorf("command line: %s", line)
	}
	s := h.start()
	r := s.InitializationResult()
	if r.MCPServersApplied == nil || !*r.MCPServersApplied || r.PluginsApplied == nil || !*r.PluginsApplied {
		t.Errorf("initialize result: servers applied %v, plugins applied %v", r.MCPServersApplied, r.PluginsApplied)
	}
	_, msgs := h.turn(s, "Ask me for my favourite colour.")
	if trs := h.api.ToolResults(); len(trs) != 1 || !strings.HasPrefix(toolText(trs[0]), "action=decline") {
		t.Errorf("the stdio server's tool: %+v", trs)
	}
	if !slices.ContainsFunc(msgs, func(m claude.Message) bool {
		sm, ok := m.(*claude.SystemMessage)
		return ok && sm.Subtype == "init" && strings.Contains(string(sm.Raw()), `"init-plugin"`)
	}) {
		t.Errorf("system/init does not list the plugin")
	}
}

// TestCLISubagentOptions: a subagent with a server of its own, and
// ForwardSubagentText, which delivers the subagent's text as messages of
// its own. The CLI 2.1.332 takes the agent's critical reminder but was
// not seen to send it to the model: the test pins that.
func TestCLISubagentOptions(t *testing.T) {
	for _, forward := range []bool{false, true} {
		h := newHost(t, "Agent", `{"description":"Greet Alice","prompt":"Greet Alice","subagent_type":"greeter","run_in_background":false}`)
		h.allowAll()
		h.opts.Agents = map[string]claude.AgentDefinition{"greeter": {
			Description:            "Greets people",
			Prompt:                 "You greet.",
			Tools:                  []string{"mcp__st__ask"},
			Model:                  "inherit",
			MCPServers:             []claude.AgentMCPServer{{Name: "st", Config: ptr(stdioServer(t))}},
			CriticalSystemReminder: "CRITICAL-REMINDER-X",
		}}
		h.opts.ForwardSubagentText = forward
		_, msgs := h.query("Have the greeter greet Alice.")
		sub := requestsWith(h.api, jsonText("You greet."))
		if len(sub) == 0 || !slices.Equal(sub[0].Tools, []string{"mcp__st__ask"}) {
			t.Fatalf("no subagent request offering the agent's own server (requests %v)", answers(h.api))
		}
		if n := len(requestsWith(h.api, "CRITICAL-REMINDER-X")); n != 0 {
			t.Errorf("the critical reminder reached the model now (%d requests): say so in docs/agent-sdk.md", n)
		}
		forwarded := slices.ContainsFunc(msgs, func(m claude.Message) bool {
			a, ok := m.(*claude.AssistantMessage)
			return ok && a.ParentToolUseID != "" && slices.ContainsFunc(a.Message.Content, func(b claude.ContentBlock) bool { return b.Type == "text" })
		})
		if forwarded != forward {
			t.Errorf("ForwardSubagentText %v: the subagent's text was delivered: %v", forward, forwarded)
		}
	}
}

func ptr[T any](v T) *T { return &v }
