package claude_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// The tests in this file check the host's side of the wire against the
// TypeScript Agent SDK 0.3.332's type definitions (sdk.d.ts: HookInput,
// SyncHookJSONOutput, PermissionResult, PermissionUpdate,
// ElicitationRequest, Options) and the requests captured from the CLI
// 2.1.330 in the research notes, for what a test cannot make the real
// CLI do offline (the hook events it was never seen to send, say).

// hookCall is a hook_callback control request as the CLI sends it.
func hookCall(id, callbackID, input string) string {
	return fmt.Sprintf(`{"type":"control_request","request_id":%q,"request":{"subtype":"hook_callback","callback_id":%q,"input":%s,"tool_use_id":"toolu_1"}}`, id, callbackID, input)
}

// payload returns the response payload of a success line, or the error
// and its code.
func payload(t *testing.T, line string) (resp json.RawMessage, errText, code string) {
	t.Helper()
	var env struct {
		Response struct {
			Subtype   string          `json:"subtype"`
			Response  json.RawMessage `json:"response"`
			Error     string          `json:"error"`
			ErrorCode string          `json:"error_code"`
		} `json:"response"`
	}
	if err := json.Unmarshal([]byte(line), &env); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	return env.Response.Response, env.Response.Error, env.Response.ErrorCode
}

// preToolUseInput is the PreToolUse input the CLI 2.1.330 sent (notes
// §1.4, verbatim but for the paths).
const preToolUseInput = `{"session_id":"45ce57d6","transcript_path":"/home/.claude/projects/-tmp/45ce57d6.jsonl","cwd":"/tmp/cwd","prompt_id":"6a36f408","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"mcp__demo__greet","tool_input":{"name":"Alice"},"tool_use_id":"toolu_fake_4553e1da4ada","mcp_server":{"name":"demo","source":"sdk"}}`

func TestHookCallback(t *testing.T) {
	linepeer.CheckLeaks(t)
	seen := make(chan claude.HookInput, 1)
	cli := newCLISideOpts(t, claude.Options{Hooks: map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreToolUse: {{Hooks: []claude.HookFunc{
			func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				seen <- in
				return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{PermissionDecision: claude.HookDeny, PermissionDecisionReason: "R"}}, nil
			},
			func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				return claude.HookOutput{}, errors.New("audit log down")
			},
			func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				panic("bug")
			},
			func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				return claude.HookOutput{}, nil
			},
		}}},
	}})

	cli.Send(hookCall("h0", "hook_0", preToolUseInput))
	resp, _, _ := payload(t, cli.response("h0"))
	if got, want := canonical(t, resp), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R"}}`; got != want {
		t.Errorf("deny:\n got %s\nwant %s", got, want)
	}
	in, ok := (<-seen).(*claude.PreToolUseInput)
	if !ok || in.SessionID != "45ce57d6" || in.TranscriptPath == "" || in.CWD != "/tmp/cwd" || in.PromptID != "6a36f408" || in.PermissionMode != "default" ||
		in.ToolName != "mcp__demo__greet" || string(in.ToolInput) != `{"name":"Alice"}` || in.ToolUseID != "toolu_fake_4553e1da4ada" ||
		in.MCPServer == nil || *in.MCPServer != (claude.MCPServerRef{Name: "demo", Source: "sdk"}) || string(in.Raw) != preToolUseInput {
		t.Errorf("the hook saw %+v", in)
	}

	// An error and a panic are error answers; the connection goes on.
	cli.Send(hookCall("h1", "hook_1", preToolUseInput))
	if _, e, _ := payload(t, cli.response("h1")); !strings.Contains(e, "audit log down") {
		t.Errorf("error hook answered %q", e)
	}
	cli.Send(hookCall("h2", "hook_2", preToolUseInput))
	if _, e, _ := payload(t, cli.response("h2")); !strings.Contains(e, "panic: bug") {
		t.Errorf("panicking hook answered %q", e)
	}
	// No opinion is {}.
	cli.Send(hookCall("h3", "hook_3", preToolUseInput))
	if resp, _, _ := payload(t, cli.response("h3")); string(resp) != `{}` {
		t.Errorf("zero output answered %s", resp)
	}
	// The SDKs' words for an id they never gave.
	cli.Send(hookCall("h4", "hook_9", preToolUseInput))
	if _, e, _ := payload(t, cli.response("h4")); e != "No hook callback found for ID: hook_9" {
		t.Errorf("unknown id answered %q", e)
	}
}

// TestHookCallbackCancelled: control_cancel_request (the matcher's
// timeout ran out) cancels the hook's ctx, and nothing is written.
func TestHookCallbackCancelled(t *testing.T) {
	linepeer.CheckLeaks(t)
	started, done := make(chan struct{}), make(chan error, 1)
	cli := newCLISideOpts(t, claude.Options{Hooks: map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreToolUse: {{Timeout: time.Second, Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
			close(started)
			<-ctx.Done()
			done <- ctx.Err()
			return claude.HookOutput{}, nil
		}}}},
	}})
	cli.Send(hookCall("h0", "hook_0", preToolUseInput))
	<-started
	cli.Send(`{"type":"control_cancel_request","request_id":"h0"}`)
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the hook's ctx ended with %v", err)
	}
	cli.Send(`{"type":"control_request","request_id":"x","request":{"subtype":"no_such"}}`)
	cli.response("x")
	if p := cli.Pending(); len(p) > 0 {
		t.Errorf("a withdrawn hook was answered: %q", p)
	}
}

// TestHookInputs: the input of every event of HOOK_EVENTS decodes into
// its Go type (fields as sdk.d.ts declares them).
func TestHookInputs(t *testing.T) {
	linepeer.CheckLeaks(t)
	base := `"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","agent_id":"a1","agent_type":"greeter","effort":{"level":"high"}`
	cases := []struct {
		event  claude.HookEvent
		fields string
		check  func(claude.HookInput) bool
	}{
		{claude.HookPreToolUse, `"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"tu"`, func(in claude.HookInput) bool {
			x := in.(*claude.PreToolUseInput)
			return x.ToolName == "Bash" && string(x.ToolInput) == `{"command":"ls"}` && x.ToolUseID == "tu"
		}},
		{claude.HookPostToolUse, `"tool_name":"mcp__demo__greet","tool_input":{},"tool_response":[{"type":"text","text":"Hello"}],"tool_use_id":"tu","duration_ms":12,"mcp_server":{"name":"demo","source":"sdk"}`, func(in claude.HookInput) bool {
			x := in.(*claude.PostToolUseInput)
			return string(x.ToolResponse) == `[{"type":"text","text":"Hello"}]` && x.DurationMS == 12 && x.MCPServer.Source == "sdk"
		}},
		{claude.HookPostToolUseFailure, `"tool_name":"Bash","tool_input":{},"tool_use_id":"tu","error":"Exit code 3","is_interrupt":false`, func(in claude.HookInput) bool {
			return in.(*claude.PostToolUseFailureInput).Error == "Exit code 3"
		}},
		{claude.HookPostToolBatch, `"tool_calls":[{"tool_name":"Bash","tool_input":{},"tool_use_id":"tu","tool_response":"ok"}]`, func(in claude.HookInput) bool {
			x := in.(*claude.PostToolBatchInput)
			return len(x.ToolCalls) == 1 && x.ToolCalls[0].ToolName == "Bash" && string(x.ToolCalls[0].ToolResponse) == `"ok"`
		}},
		{claude.HookPermissionRequest, `"tool_name":"Write","tool_input":{},"permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`, func(in claude.HookInput) bool {
			x := in.(*claude.PermissionRequestInput)
			return len(x.Suggestions) == 1 && x.Suggestions[0].Mode == claude.PermissionAcceptEdits
		}},
		{claude.HookPermissionDenied, `"tool_name":"Bash","tool_input":{},"tool_use_id":"tu","reason":"classifier"`, func(in claude.HookInput) bool {
			return in.(*claude.PermissionDeniedInput).Reason == "classifier"
		}},
		{claude.HookNotification, `"message":"m","title":"t","notification_type":"idle"`, func(in claude.HookInput) bool {
			return in.(*claude.NotificationInput).NotificationType == "idle"
		}},
		{claude.HookUserPromptSubmit, `"prompt":"hi","source":"sdk"`, func(in claude.HookInput) bool {
			return in.(*claude.UserPromptSubmitInput).Prompt == "hi"
		}},
		{claude.HookUserPromptExpansion, `"expansion_type":"slash_command","command_name":"review","command_args":"go","prompt":"/review go"`, func(in claude.HookInput) bool {
			return in.(*claude.UserPromptExpansionInput).CommandName == "review"
		}},
		{claude.HookSessionStart, `"source":"compact","model":"claude-sonnet-4-5"`, func(in claude.HookInput) bool {
			return in.(*claude.SessionStartInput).Source == "compact"
		}},
		{claude.HookSessionEnd, `"reason":"clear"`, func(in claude.HookInput) bool { return in.(*claude.SessionEndInput).Reason == "clear" }},
		{claude.HookStop, `"stop_hook_active":true,"last_assistant_message":"bye"`, func(in claude.HookInput) bool {
			x := in.(*claude.StopInput)
			return x.StopHookActive && x.LastAssistantMessage == "bye"
		}},
		{claude.HookStopFailure, `"error":"rate_limit","error_details":"429"`, func(in claude.HookInput) bool {
			return in.(*claude.StopFailureInput).Error == "rate_limit"
		}},
		{claude.HookSubagentStart, ``, func(in claude.HookInput) bool {
			_, ok := in.(*claude.SubagentStartInput)
			return ok
		}},
		{claude.HookSubagentStop, `"stop_hook_active":false,"agent_transcript_path":"/a.jsonl"`, func(in claude.HookInput) bool {
			return in.(*claude.SubagentStopInput).AgentTranscriptPath == "/a.jsonl"
		}},
		{claude.HookPreCompact, `"trigger":"manual","custom_instructions":null`, func(in claude.HookInput) bool {
			x := in.(*claude.PreCompactInput)
			return x.Trigger == "manual" && x.CustomInstructions == nil
		}},
		{claude.HookPostCompact, `"trigger":"auto","compact_summary":"sum"`, func(in claude.HookInput) bool {
			return in.(*claude.PostCompactInput).CompactSummary == "sum"
		}},
		{claude.HookPreModelSwitch, `"from_model":"a","to_model":"b","requested_model":"b","source":"sdk","context_tokens":5,"prompt_cache_warm":true,"cache_ttl":"5m","estimated_cache_write_usd":0.1,"pricing":"catalog"`, func(in claude.HookInput) bool {
			x := in.(*claude.PreModelSwitchInput)
			return x.FromModel == "a" && x.ToModel == "b" && x.CacheTTL == "5m"
		}},
		{claude.HookPostModelSwitch, `"from_model":"a","to_model":"b","requested_model":null,"source":"resume","context_tokens":5,"prompt_cache_warm":false,"cache_ttl":"1h","estimated_cache_write_usd":0,"pricing":"default"`, func(in claude.HookInput) bool {
			return in.(*claude.PostModelSwitchInput).Source == "resume"
		}},
		{claude.HookSetup, `"trigger":"init"`, func(in claude.HookInput) bool { return in.(*claude.SetupInput).Trigger == "init" }},
		{claude.HookTeammateIdle, `"teammate_name":"t","team_name":"x"`, func(in claude.HookInput) bool { return in.(*claude.TeammateIdleInput).TeammateName == "t" }},
		{claude.HookTaskCreated, `"task_id":"1","task_subject":"s"`, func(in claude.HookInput) bool { return in.(*claude.TaskCreatedInput).TaskID == "1" }},
		{claude.HookTaskCompleted, `"task_id":"1","task_subject":"s","task_description":"d"`, func(in claude.HookInput) bool {
			return in.(*claude.TaskCompletedInput).TaskDescription == "d"
		}},
		{claude.HookElicitation, `"mcp_server_name":"st","message":"Colour?","mode":"form","requested_schema":{"type":"object"}`, func(in claude.HookInput) bool {
			x := in.(*claude.ElicitationInput)
			return x.ServerName == "st" && string(x.RequestedSchema) == `{"type":"object"}`
		}},
		{claude.HookElicitationResult, `"mcp_server_name":"st","action":"accept","content":{"colour":"blue"}`, func(in claude.HookInput) bool {
			x := in.(*claude.ElicitationResultInput)
			return x.Action == runtime.ElicitAccept && string(x.Content) == `{"colour":"blue"}`
		}},
		{claude.HookConfigChange, `"source":"user_settings","file_path":"/s.json"`, func(in claude.HookInput) bool {
			return in.(*claude.ConfigChangeInput).FilePath == "/s.json"
		}},
		{claude.HookWorktreeCreate, `"name":"w"`, func(in claude.HookInput) bool { return in.(*claude.WorktreeCreateInput).Name == "w" }},
		{claude.HookWorktreeRemove, `"worktree_path":"/w"`, func(in claude.HookInput) bool { return in.(*claude.WorktreeRemoveInput).WorktreePath == "/w" }},
		{claude.HookInstructionsLoaded, `"file_path":"/CLAUDE.md","memory_type":"Project","load_reason":"session_start","globs":["*.go"]`, func(in claude.HookInput) bool {
			return in.(*claude.InstructionsLoadedInput).MemoryType == "Project"
		}},
		{claude.HookCwdChanged, `"old_cwd":"/a","new_cwd":"/b"`, func(in claude.HookInput) bool { return in.(*claude.CwdChangedInput).NewCWD == "/b" }},
		{claude.HookFileChanged, `"file_path":"/f","event":"add"`, func(in claude.HookInput) bool { return in.(*claude.FileChangedInput).Event == "add" }},
		{claude.HookDirectoryAdded, `"directory":"/d","source":"slash_command"`, func(in claude.HookInput) bool { return in.(*claude.DirectoryAddedInput).Directory == "/d" }},
		{claude.HookMessageDisplay, `"turn_id":"t","message_id":"m","index":2,"final":true,"delta":"hi"`, func(in claude.HookInput) bool {
			x := in.(*claude.MessageDisplayInput)
			return x.Index == 2 && x.Final && x.Delta == "hi"
		}},
		{claude.HookPreSkillShellCommand, `"tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"skill-shell-1","command_name":"review","command_source":"projectSettings","invoked_by":"user"`, func(in claude.HookInput) bool {
			x := in.(*claude.PreSkillShellCommandInput)
			return x.ToolName == "Bash" && x.ToolInput.Command == "git status" && x.ToolUseID == "skill-shell-1" &&
				x.CommandName == "review" && x.CommandSource == "projectSettings" && x.InvokedBy == "user"
		}},
		{"SomethingNew", `"novel":1`, func(in claude.HookInput) bool { _, ok := in.(*claude.OtherHookInput); return ok }},
	}
	if len(cases) != 35 {
		t.Fatalf("%d cases, want the 34 events of HOOK_EVENTS and an unknown one", len(cases))
	}
	seen := make(chan claude.HookInput, 1)
	hooks := map[claude.HookEvent][]claude.HookMatcher{}
	for _, c := range cases {
		hooks[c.event] = []claude.HookMatcher{{Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
			seen <- in
			return claude.HookOutput{}, nil
		}}}}
	}
	cli := newCLISideOpts(t, claude.Options{Hooks: hooks})
	// Ids follow the sorted event names.
	events := make([]string, 0, len(cases))
	for _, c := range cases {
		events = append(events, string(c.event))
	}
	slices.Sort(events)
	for _, c := range cases {
		input := `{` + base + `,"hook_event_name":"` + string(c.event) + `"`
		if c.fields != "" {
			input += "," + c.fields
		}
		input += "}"
		id := fmt.Sprintf("hook_%d", slices.Index(events, string(c.event)))
		cli.Send(hookCall("r-"+string(c.event), id, input))
		if resp, e, _ := payload(t, cli.response("r-"+string(c.event))); string(resp) != "{}" {
			t.Errorf("%s: answered %s %s", c.event, resp, e)
			continue
		}
		in := <-seen
		b := in.Base()
		if b.HookEventName != c.event || b.SessionID != "s" || b.AgentType != "greeter" || b.AgentID != "a1" || b.Effort == nil || b.Effort.Level != "high" || !c.check(in) {
			t.Errorf("%s: decoded as %T %+v", c.event, in, in)
		}
	}
}

// TestHookOutputs: each output is written as sdk.d.ts's
// SyncHookJSONOutput / AsyncHookJSONOutput, with the hookEventName the
// CLI requires.
func TestHookOutputs(t *testing.T) {
	cases := []struct {
		event claude.HookEvent
		out   claude.HookOutput
		want  string
	}{
		{claude.HookPreToolUse, claude.HookOutput{}, `{}`},
		{claude.HookPreToolUse, claude.HookOutput{Stop: true, StopReason: "S", SystemMessage: "M", SuppressOutput: true},
			`{"continue":false,"stopReason":"S","suppressOutput":true,"systemMessage":"M"}`},
		{claude.HookPreToolUse, claude.HookOutput{Decision: "block", Reason: "R"}, `{"decision":"block","reason":"R"}`},
		{claude.HookPreToolUse, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
			PermissionDecision: claude.HookAllow, UpdatedInput: json.RawMessage(`{"name":"Bob"}`), AdditionalContext: "X"}},
			`{"hookSpecificOutput":{"additionalContext":"X","hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"name":"Bob"}}}`},
		{claude.HookPreToolUse, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{PermissionDecision: claude.HookDefer}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`},
		{claude.HookPostToolUse, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
			UpdatedMCPToolOutput: json.RawMessage(`[{"type":"text","text":"REPLACED"}]`), UpdatedToolOutput: json.RawMessage(`"R"`)}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":[{"text":"REPLACED","type":"text"}],"updatedToolOutput":"R"}}`},
		{claude.HookUserPromptSubmit, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{AdditionalContext: "C", SessionTitle: "T", SuppressOriginalPrompt: true}},
			`{"hookSpecificOutput":{"additionalContext":"C","hookEventName":"UserPromptSubmit","sessionTitle":"T","suppressOriginalPrompt":true}}`},
		{claude.HookSessionStart, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{InitialUserMessage: "go", WatchPaths: []string{"/w"}, ReloadSkills: true}},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","initialUserMessage":"go","reloadSkills":true,"watchPaths":["/w"]}}`},
		{claude.HookPermissionRequest, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{Decision: &claude.PermissionResult{
			Allow: true, UpdatedInput: json.RawMessage(`{"name":"Carol"}`),
			UpdatedPermissions: []claude.PermissionUpdate{{Type: "addRules", Rules: []claude.PermissionRule{{ToolName: "mcp__demo__greet"}}, Behavior: "allow", Destination: "session"}}}}},
			`{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"name":"Carol"},"updatedPermissions":[{"behavior":"allow","destination":"session","rules":[{"toolName":"mcp__demo__greet"}],"type":"addRules"}]},"hookEventName":"PermissionRequest"}}`},
		{claude.HookPermissionRequest, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{Decision: &claude.PermissionResult{Allow: true}}},
			`{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}`},
		{claude.HookPermissionRequest, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{Decision: &claude.PermissionResult{Message: "D", Interrupt: true}}},
			`{"hookSpecificOutput":{"decision":{"behavior":"deny","interrupt":true,"message":"D"},"hookEventName":"PermissionRequest"}}`},
		{claude.HookPermissionDenied, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{Retry: true}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}`},
		{claude.HookElicitation, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{Action: runtime.ElicitAccept, Content: json.RawMessage(`{"colour":"red"}`)}},
			`{"hookSpecificOutput":{"action":"accept","content":{"colour":"red"},"hookEventName":"Elicitation"}}`},
		{claude.HookWorktreeCreate, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{WorktreePath: "/w"}},
			`{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/w"}}`},
		{claude.HookMessageDisplay, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{DisplayContent: "shown"}},
			`{"hookSpecificOutput":{"displayContent":"shown","hookEventName":"MessageDisplay"}}`},
		{claude.HookPreSkillShellCommand, claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{PermissionDecision: claude.HookDeny, PermissionDecisionReason: "no git here"}},
			`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no git here"}}`},
		{claude.HookPreToolUse, claude.HookOutput{Async: true, AsyncTimeout: 5 * time.Second}, `{"async":true,"asyncTimeout":5000}`},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, c.event), func(t *testing.T) {
			linepeer.CheckLeaks(t)
			got := make(chan struct{})
			cli := newCLISideOpts(t, claude.Options{Hooks: map[claude.HookEvent][]claude.HookMatcher{
				c.event: {{Hooks: []claude.HookFunc{func(context.Context, claude.HookInput) (claude.HookOutput, error) { close(got); return c.out, nil }}}},
			}})
			cli.Send(hookCall("o", "hook_0", `{"hook_event_name":"`+string(c.event)+`","session_id":"s","transcript_path":"/t","cwd":"/"}`))
			resp, e, _ := payload(t, cli.response("o"))
			<-got
			if e != "" || canonical(t, resp) != c.want {
				t.Errorf("got %s %s\nwant %s", resp, e, c.want)
			}
		})
	}
}

// TestHookOptionErrors: a malformed hook configuration fails Start.
func TestHookOptionErrors(t *testing.T) {
	for _, hooks := range []map[claude.HookEvent][]claude.HookMatcher{
		{claude.HookStop: {{OnFailure: "sometimes", Hooks: []claude.HookFunc{func(context.Context, claude.HookInput) (claude.HookOutput, error) { return claude.HookOutput{}, nil }}}}},
		{claude.HookStop: {{Hooks: []claude.HookFunc{nil}}}},
	} {
		_, err := claude.Start(context.Background(), claude.Options{Path: "/bin/true", Hooks: hooks})
		if err == nil || !strings.Contains(err.Error(), "Options.Hooks[Stop]") {
			t.Errorf("Start: %v", err)
		}
	}
}

// TestPermissionAnswers: the answers to can_use_tool, as sdk.d.ts's
// PermissionResult has them; the request's fields, typed.
func TestPermissionAnswers(t *testing.T) {
	linepeer.CheckLeaks(t)
	var asked claude.PermissionRequest
	answer := claude.PermissionResult{}
	cli := newCLISide(t, nil, func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
		asked = req
		return answer, nil
	})
	// A request the CLI 2.1.330 sent (notes §4.1).
	req := `{"subtype":"can_use_tool","tool_name":"Write","display_name":"Write","input":{"file_path":"/etc/x","content":"x"},"description":"/etc/x","permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"},{"type":"addDirectories","directories":["/etc"],"destination":"session"}],"decision_reason":"Path is outside allowed working directories","decision_reason_type":"workingDir","tool_use_id":"toolu_fake_b230bf60edec","agent_id":"ag"}`
	for i, c := range []struct {
		answer claude.PermissionResult
		want   string
	}{
		{claude.PermissionResult{Allow: true, UpdatedPermissions: []claude.PermissionUpdate{
			{Type: "setMode", Mode: claude.PermissionAcceptEdits, Destination: "session"},
			{Type: "addRules", Rules: []claude.PermissionRule{{ToolName: "Bash", RuleContent: "npm test:*"}}, Behavior: "allow", Destination: "localSettings"},
		}, DecisionClassification: "user_permanent"},
			`{"behavior":"allow","decisionClassification":"user_permanent","updatedInput":{"content":"x","file_path":"/etc/x"},"updatedPermissions":[{"destination":"session","mode":"acceptEdits","type":"setMode"},{"behavior":"allow","destination":"localSettings","rules":[{"ruleContent":"npm test:*","toolName":"Bash"}],"type":"addRules"}]}`},
		{claude.PermissionResult{Allow: true, UpdatedInput: json.RawMessage(`{"file_path":"/tmp/x","content":"x"}`)},
			`{"behavior":"allow","updatedInput":{"content":"x","file_path":"/tmp/x"}}`},
		{claude.PermissionResult{}, `{"behavior":"deny","message":"The user denied this tool."}`},
		{claude.PermissionResult{Message: "NOPE", Interrupt: true, DecisionClassification: "user_reject"},
			`{"behavior":"deny","decisionClassification":"user_reject","interrupt":true,"message":"NOPE"}`},
	} {
		answer = c.answer
		id := fmt.Sprint("p", i)
		cli.Send(`{"type":"control_request","request_id":"` + id + `","request":` + req + `}`)
		resp, e, _ := payload(t, cli.response(id))
		if e != "" || canonical(t, resp) != c.want {
			t.Errorf("%d:\n got %s %s\nwant %s", i, resp, e, c.want)
		}
	}
	want := []claude.PermissionUpdate{{Type: "setMode", Mode: "acceptEdits", Destination: "session"}, {Type: "addDirectories", Directories: []string{"/etc"}, Destination: "session"}}
	if asked.DisplayName != "Write" || asked.Description != "/etc/x" || asked.DecisionReasonType != "workingDir" || asked.AgentID != "ag" ||
		len(asked.Suggestions) != 2 || asked.Suggestions[0].Mode != want[0].Mode || !slices.Equal(asked.Suggestions[1].Directories, want[1].Directories) ||
		string(asked.Raw) != req {
		t.Errorf("the callback saw %+v", asked)
	}
}

// TestElicitationAnswers: the elicitation control request (sdk.d.ts's
// ElicitationRequest) reaches OnElicitation; without one it is
// declined, as the TypeScript SDK does.
func TestElicitationAnswers(t *testing.T) {
	req := `{"type":"control_request","request_id":"e1","request":{"subtype":"elicitation","mcp_server_name":"st","message":"Favourite colour?","mode":"form","requested_schema":{"type":"object","properties":{"colour":{"type":"string"}},"required":["colour"]},"property_order":["colour"]}}`
	t.Run("unset", func(t *testing.T) {
		linepeer.CheckLeaks(t)
		cli := newCLISide(t, nil, nil)
		cli.Send(req)
		if resp, _, _ := payload(t, cli.response("e1")); string(resp) != `{"action":"decline"}` {
			t.Errorf("without OnElicitation: %s", resp)
		}
	})

	linepeer.CheckLeaks(t)
	var got claude.ElicitationRequest
	cli := newCLISideOpts(t, claude.Options{OnElicitation: func(ctx context.Context, r claude.ElicitationRequest) (claude.ElicitationResult, error) {
		got = r
		if r.Message == "fail" {
			return claude.ElicitationResult{}, errors.New("no one to ask")
		}
		return claude.ElicitationResult{Action: runtime.ElicitAccept, Content: json.RawMessage(`{"colour":"blue"}`)}, nil
	}})
	cli.Send(req)
	if resp, _, _ := payload(t, cli.response("e1")); string(resp) != `{"action":"accept","content":{"colour":"blue"}}` {
		t.Errorf("with OnElicitation: %s", resp)
	}
	if got.ServerName != "st" || got.Mode != "form" || !slices.Equal(got.PropertyOrder, []string{"colour"}) || !strings.Contains(string(got.RequestedSchema), `"required":["colour"]`) {
		t.Errorf("OnElicitation saw %+v", got)
	}
	cli.Send(strings.Replace(strings.Replace(req, "Favourite colour?", "fail", 1), `"e1"`, `"e2"`, 1))
	if _, e, _ := payload(t, cli.response("e2")); e != "no one to ask" {
		t.Errorf("a failing OnElicitation answered %q", e)
	}
}

// TestOptionFlags: every option the CLI takes as a flag, on the command
// line the way the Agent SDKs put it there.
func TestOptionFlags(t *testing.T) {
	yes := true
	opts := claude.Options{
		Model: "claude-sonnet-4-5", Agent: "greeter", FallbackModel: "claude-haiku-4-5", MaxTurns: 4, MaxBudgetUSD: 0.25,
		Thinking: claude.Thinking{BudgetTokens: 4096, Display: "summarized"}, Effort: "high", Betas: []string{"b1", "b2"},
		SystemPrompt: "S", AppendSystemPrompt: "A",
		Tools: []string{"Read", "Bash"}, AllowedTools: []string{"Read"}, DisallowedTools: []string{"Write"},
		PermissionMode: claude.PermissionDontAsk, AllowDangerouslySkipPermissions: true,
		OutputSchema: `{"type":"object", "properties":{}}`,
		Resume:       "sid", ForkSession: true, ResumeSessionAt: "msg", SessionID: "new", NoSessionPersistence: true,
		IncludePartialMessages: true, IncludeHookEvents: true,
		SettingSources:  []claude.SettingSource{claude.SettingsUser, claude.SettingsProject},
		Settings:        `{"env":{"A":"1"}}`,
		Sandbox:         &claude.SandboxSettings{Enabled: true, AllowUnsandboxedCommands: &yes, Extra: map[string]any{"enableWeakerNestedSandbox": true}},
		Plugins:         []claude.Plugin{{Path: "/p1"}, {Path: "/p2", SkipMCPDiscovery: true}},
		AddDirs:         []string{"/d1"},
		MCPServers:      map[string]claude.MCPServerConfig{"web": {Type: "http", URL: "https://x/mcp", Headers: map[string]string{"Authorization": "Bearer t"}}, "st": {Command: "st", Env: map[string]string{"K": "V"}}},
		StrictMCPConfig: true,
		CanUseTool: func(context.Context, claude.PermissionRequest) (claude.PermissionResult, error) {
			return claude.PermissionResult{}, nil
		},
		ExtraArgs:         []string{"--debug"},
		TaskBudget:        5000,
		PermissionPrompts: "none",
		ProjectConfigRoot: "/root-checkout",
		ResumeDropsTurn:   "prompt-1",
		ManagedSettings:   `{"permissions":{"deny":["Bash"]}}`,
		DebugFile:         "/tmp/debug.log",
		Skills:            []string{"pdf", "docx"},
		Servers:           map[string]*runtime.Server{"slow": {Name: "slow"}},
		ServerTimeouts:    map[string]time.Duration{"slow": 90 * time.Second},
		SessionStore:      &claude.MemorySessionStore{},
	}
	opts.NoSessionPersistence = false // not with a SessionStore
	args, err := opts.Args()
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(args, " ")
	for _, want := range []string{
		"--output-format stream-json --verbose --input-format stream-json",
		"--system-prompt S", "--append-system-prompt A",
		"--max-thinking-tokens 4096", "--thinking-display summarized", "--effort high",
		"--max-turns 4", "--max-budget-usd 0.25", "--model claude-sonnet-4-5", "--agent greeter", "--fallback-model claude-haiku-4-5", "--betas b1,b2",
		`--json-schema {"properties":{},"type":"object"}`,
		"--permission-prompt-tool stdio", "--resume sid",
		"--allowedTools Read,Skill(pdf),Skill(docx)", "--disallowedTools Write", "--tools Read,Bash",
		`--mcp-config {"mcpServers":{"slow":{"type":"sdk","name":"slow","timeout":90000},"st":{"type":"stdio","command":"st","env":{"K":"V"},"args":[]},"web":{"type":"http","url":"https://x/mcp","headers":{"Authorization":"Bearer t"}}}}`,
		"--task-budget 5000", "--permission-prompts none", "--project-config-root /root-checkout", "--resume-drops-turn prompt-1",
		`--managed-settings {"permissions":{"deny":["Bash"]}}`, "--debug-file /tmp/debug.log", "--session-mirror",
		"--setting-sources=user,project", "--strict-mcp-config",
		"--permission-mode dontAsk", "--allow-dangerously-skip-permissions",
		"--include-hook-events", "--include-partial-messages", "--add-dir /d1",
		"--plugin-dir /p1", "--plugin-dir-no-mcp /p2",
		"--fork-session", "--resume-session-at msg", "--session-id new",
		`--settings {"env":{"A":"1"},"sandbox":{"allowUnsandboxedCommands":true,"enableWeakerNestedSandbox":true,"enabled":true,"failIfUnavailable":true}}`,
		"--debug",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("the command line lacks %q:\n%s", want, line)
		}
	}

	for _, c := range []struct {
		opts claude.Options
		want []string
	}{
		{claude.Options{Tools: []string{}}, []string{"--tools", ""}},
		{claude.Options{SettingSources: []claude.SettingSource{}}, []string{"--setting-sources="}},
		{claude.Options{Thinking: claude.Thinking{Mode: "adaptive"}}, []string{"--thinking=adaptive"}},
		{claude.Options{Thinking: claude.Thinking{Mode: "disabled", Display: "omitted"}}, []string{"--thinking=disabled"}},
		{claude.Options{Continue: true, ForkSession: true}, []string{"--continue", "--fork-session"}},
		{claude.Options{PermissionPromptTool: "mcp__auth__check"}, []string{"--permission-prompt-tool", "mcp__auth__check"}},
		{claude.Options{ClaudeCodePrompt: true}, nil},
		{claude.Options{AllSkills: true, AllowedTools: []string{"Read"}}, []string{"--allowedTools", "Read,Skill"}},
		{claude.Options{Debug: true}, []string{"--debug"}},
		{claude.Options{MCPServers: map[string]claude.MCPServerConfig{"st": {Command: "st", Env: map[string]string{"TOKEN": "secret"}}}, MCPServersDelivery: claude.DeliverInInitialize}, []string{"--await-initialize"}},
		{claude.Options{Plugins: []claude.Plugin{{Path: "/p"}}, PluginDelivery: claude.DeliverInInitialize}, []string{"--await-initialize"}},
		{claude.Options{MCPServers: map[string]claude.MCPServerConfig{"st": {Command: "st", Timeout: 30 * time.Second}}}, []string{"--mcp-config", `{"mcpServers":{"st":{"type":"stdio","command":"st","args":[],"timeout":30000}}}`}},
	} {
		args, err := c.opts.Args()
		if err != nil {
			t.Fatal(err)
		}
		rest := args[5:]
		if c.opts.ClaudeCodePrompt {
			if len(rest) != 0 {
				t.Errorf("ClaudeCodePrompt: %q", rest)
			}
			continue
		}
		rest = rest[2:] // --system-prompt ""
		if !slices.Equal(rest, c.want) {
			t.Errorf("%+v: %q, want %q", c.opts, rest, c.want)
		}
	}

	for _, c := range []struct {
		opts claude.Options
		want string
	}{
		{claude.Options{ForkSession: true}, "needs Options.Resume or Options.Continue"},
		{claude.Options{Model: "m", FallbackModel: "m"}, "FallbackModel is the same"},
		{claude.Options{Thinking: claude.Thinking{Mode: "maybe"}}, "Thinking.Mode"},
		{claude.Options{Sandbox: &claude.SandboxSettings{}, Settings: "/etc/settings.json"}, "JSON text, not a path"},
		{claude.Options{MCPServers: map[string]claude.MCPServerConfig{"x": {Type: "http"}}}, "needs a URL"},
		{claude.Options{MCPServers: map[string]claude.MCPServerConfig{"x": {Type: "ws", URL: "ws://x"}}}, `unknown type "ws"`},
		{claude.Options{MCPServers: map[string]claude.MCPServerConfig{"x y": {Command: "c"}}}, "must match"},
		{claude.Options{Servers: map[string]*runtime.Server{"x": {Store: store.NewMemory()}}}, `server "x": runtime: Server.Store is set, but Server.StateKey is empty`},
		{claude.Options{OutputSchema: "[1]"}, "not a JSON object"},
		{claude.Options{PermissionPrompts: "sometimes"}, "want host or none"},
		{claude.Options{ResumeDropsTurn: "p"}, "needs Options.ResumeSessionAt"},
		{claude.Options{Skills: []string{"a"}, AllSkills: true}, "not both"},
		{claude.Options{Skills: []string{" a"}}, "spaces around it"},
		{claude.Options{MCPServersDelivery: "stdin"}, `MCPServersDelivery "stdin"`},
		{claude.Options{SessionStore: &claude.MemorySessionStore{}, NoSessionPersistence: true}, "unset NoSessionPersistence"},
	} {
		if _, err := c.opts.Args(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.opts, err, c.want)
		}
	}
}

// plainResult has no MCPSchema method.
type plainResult struct{ N int }

// valueSchema has MCPSchema on the value.
type valueSchema struct{}

func (valueSchema) MCPSchema() string {
	return `{"type":"object","properties":{"v":{"type":"string"}}}`
}

// TestOutputType: OutputType takes a value or a pointer of a type with
// an MCPSchema method; a type without one is refused with what to do.
func TestOutputType(t *testing.T) {
	for _, v := range []any{forecast{}, &forecast{}, valueSchema{}, &valueSchema{}} {
		args, err := (&claude.Options{OutputType: v}).Args()
		if err != nil {
			t.Errorf("%T: %v", v, err)
			continue
		}
		if i := slices.Index(args, "--json-schema"); i < 0 || !strings.HasPrefix(args[i+1], `{"`) {
			t.Errorf("%T: %q", v, args)
		}
	}
	_, err := (&claude.Options{OutputType: plainResult{}}).Args()
	if err == nil || !strings.Contains(err.Error(), "claude_test.plainResult has no MCPSchema method: mark the type with //mcp:output and run go generate") {
		t.Errorf("a type without MCPSchema: %v", err)
	}
	_, err = (&claude.Options{OutputType: forecast{}, OutputSchema: "{}"}).Args()
	if err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("both: %v", err)
	}
}

// TestResultAndStreamMessages: the result fields and stream events of the
// CLI 2.1.330 (notes §5, §9.3) parse into their types; a type this
// package does not know is an *OtherMessage.
func TestResultAndStreamMessages(t *testing.T) {
	linepeer.CheckLeaks(t)
	cli := newCLISide(t, nil, nil)
	cli.Send(`{"type":"result","subtype":"success","is_error":false,"result":"{\"city\":\"Paris\",\"celsius\":21}","structured_output":{"city":"Paris","celsius":21},"stop_reason":"tool_use","terminal_reason":"completed","session_id":"s1","permission_denials":[{"tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"rm"}}],"num_turns":1}`)
	cli.Send(`{"type":"result","subtype":"error_max_structured_output_retries","is_error":true,"terminal_reason":"structured_output_retry_exhausted","errors":["Failed to provide valid structured output after 5 attempts"],"session_id":"s1"}`)
	cli.Send(`{"type":"stream_event","event":{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"partial answer"}},"session_id":"s1","parent_tool_use_id":null,"uuid":"u1","api_message_id":"msg_1"}`)
	cli.Send(`{"type":"tool_use_summary","summary":"ran ls","preceding_tool_use_ids":["t1"]}`)
	ctx := context.Background()
	m, _ := cli.cc.Receive(ctx)
	r := m.(*claude.ResultMessage)
	var f forecast
	if err := r.DecodeStructuredOutput(&f); err != nil || f != (forecast{"Paris", 21}) || r.TerminalReason != "completed" || r.PermissionDenials[0].ToolName != "Bash" {
		t.Errorf("result: %+v %v", f, err)
	}
	m, _ = cli.cc.Receive(ctx)
	r = m.(*claude.ResultMessage)
	if err := r.DecodeStructuredOutput(&f); !errors.Is(err, claude.ErrNoStructuredOutput) || !strings.Contains(err.Error(), "after 5 attempts") {
		t.Errorf("a failed structured output: %v", err)
	}
	m, _ = cli.cc.Receive(ctx)
	e := m.(*claude.StreamEvent)
	if e.Event.Type != "content_block_delta" || e.Event.Index != 1 || e.Event.Delta.Text != "partial answer" || e.UUID != "u1" {
		t.Errorf("stream event %+v", e)
	}
	m, _ = cli.cc.Receive(ctx)
	if o, ok := m.(*claude.OtherMessage); !ok || o.Type() != "tool_use_summary" || !strings.Contains(string(o.Raw()), "ran ls") {
		t.Errorf("unknown type: %T %s", m, m.Raw())
	}
}
