package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Hooks: the CLI calls the host at the events of a session, with a
// HookInput of the event's type, and acts on the HookOutput it gets back.
// Options.Hooks registers them, in the initialize request; each call is a
// hook_callback control request.

// A HookEvent names an event of a session at which hooks run.
type HookEvent string

// The events of the pinned CLI (the TypeScript SDK's HOOK_EVENTS). The
// CLI 2.1.330 was seen to call an SDK host's hooks at PreToolUse,
// PostToolUse, PostToolUseFailure, PostToolBatch, PermissionRequest,
// UserPromptSubmit, Stop, SubagentStart, SubagentStop, PreCompact,
// PostCompact, SessionStart (after /clear and /compact, not at start-up:
// the hooks are registered after that), SessionEnd (after /clear),
// PreModelSwitch, PostModelSwitch, MessageDisplay, Elicitation and
// ElicitationResult; 2.1.332 also at PreSkillShellCommand.
const (
	HookPreToolUse          HookEvent = "PreToolUse"
	HookPostToolUse         HookEvent = "PostToolUse"
	HookPostToolUseFailure  HookEvent = "PostToolUseFailure"
	HookPostToolBatch       HookEvent = "PostToolBatch"
	HookNotification        HookEvent = "Notification"
	HookUserPromptSubmit    HookEvent = "UserPromptSubmit"
	HookUserPromptExpansion HookEvent = "UserPromptExpansion"
	HookSessionStart        HookEvent = "SessionStart"
	HookSessionEnd          HookEvent = "SessionEnd"
	HookStop                HookEvent = "Stop"
	HookStopFailure         HookEvent = "StopFailure"
	HookSubagentStart       HookEvent = "SubagentStart"
	HookSubagentStop        HookEvent = "SubagentStop"
	HookPreCompact          HookEvent = "PreCompact"
	HookPostCompact         HookEvent = "PostCompact"
	HookPreModelSwitch      HookEvent = "PreModelSwitch"
	HookPostModelSwitch     HookEvent = "PostModelSwitch"
	HookPermissionRequest   HookEvent = "PermissionRequest"
	HookPermissionDenied    HookEvent = "PermissionDenied"
	HookSetup               HookEvent = "Setup"
	HookTeammateIdle        HookEvent = "TeammateIdle"
	HookTaskCreated         HookEvent = "TaskCreated"
	HookTaskCompleted       HookEvent = "TaskCompleted"
	HookElicitation         HookEvent = "Elicitation"
	HookElicitationResult   HookEvent = "ElicitationResult"
	HookConfigChange        HookEvent = "ConfigChange"
	HookWorktreeCreate      HookEvent = "WorktreeCreate"
	HookWorktreeRemove      HookEvent = "WorktreeRemove"
	HookInstructionsLoaded  HookEvent = "InstructionsLoaded"
	HookCwdChanged          HookEvent = "CwdChanged"
	HookFileChanged         HookEvent = "FileChanged"
	HookDirectoryAdded      HookEvent = "DirectoryAdded"
	HookMessageDisplay      HookEvent = "MessageDisplay"
	// HookPreSkillShellCommand comes before each shell command that a
	// skill or slash command runs as it loads (a !`command` in its text);
	// its Matcher matches the shell tool's name, Bash or PowerShell.
	HookPreSkillShellCommand HookEvent = "PreSkillShellCommand"
)

// A HookFunc is called at an event. in is a pointer to the event's input
// type (*PreToolUseInput for PreToolUse, …; *OtherHookInput for an event
// this package does not know). The zero HookOutput lets the session go
// on as if there were no hook. An error, or a panic, is answered as a
// failure of the hook: the CLI then goes on as if the hook had answered
// nothing, unless the matcher's OnFailure is "block".
type HookFunc func(ctx context.Context, in HookInput) (HookOutput, error)

// A HookMatcher selects the calls of an event that its Hooks see.
type HookMatcher struct {
	// Matcher, for the tool events, is a regular expression that must
	// match the whole tool name ("Bash", "mcp__demo__.*",
	// "mcp__demo__greet|Read"); empty or "*" matches every tool.
	Matcher string
	// Hooks are called in turn, each once per matching call.
	Hooks []HookFunc
	// Timeout bounds each hook's answer (the CLI counts whole seconds;
	// it rounds up here). After it the CLI withdraws the call, cancelling
	// the hook's ctx, and a PreToolUse hook blocks its tool. Zero means
	// the CLI's default.
	Timeout time.Duration
	// OnFailure is what a failed hook (an error or an invalid answer)
	// does: "continue" (the default) goes on, "block" blocks what the
	// event guards (a tool call, a prompt).
	OnFailure string
}

// HookOutput is a hook's answer. The zero value means "no opinion".
type HookOutput struct {
	// Stop ends the run after this hook (the wire's "continue": false),
	// with StopReason.
	Stop       bool
	StopReason string
	// SuppressOutput hides the hook's output from the transcript.
	SuppressOutput bool
	// Decision is "approve" or "block", the older way to allow or block
	// what the event guards, with Reason, which the model sees. For
	// PreToolUse prefer HookSpecificOutput.PermissionDecision.
	Decision string
	Reason   string
	// SystemMessage is shown to the user (as a "system" message of
	// subtype "informational"), not to the model.
	SystemMessage string
	// HookSpecificOutput holds what only some events take; its
	// HookEventName is filled in with the event's.
	HookSpecificOutput *HookSpecificOutput
	// Async says the hook gives no decision and the CLI need not wait,
	// for AsyncTimeout at most.
	Async        bool
	AsyncTimeout time.Duration
}

// A HookPermissionDecision is a PreToolUse hook's verdict on a tool call,
// or a PreSkillShellCommand hook's on a skill's shell command: there
// HookAllow adds nothing (the command runs unless a hook refuses it), and
// HookDeny, HookAsk and HookDefer all keep it from running.
type HookPermissionDecision string

// The verdicts of a PreToolUse hook.
const (
	// HookAllow runs the tool without asking CanUseTool.
	HookAllow HookPermissionDecision = "allow"
	// HookDeny does not run the tool; the model is told
	// PermissionDecisionReason.
	HookDeny HookPermissionDecision = "deny"
	// HookAsk asks CanUseTool as usual.
	HookAsk HookPermissionDecision = "ask"
	// HookDefer ends the turn at once, leaving the call to the host: the
	// result's deferred_tool_use names it.
	HookDefer HookPermissionDecision = "defer"
)

// HookSpecificOutput is the part of a HookOutput that only some events
// take; the CLI ignores or rejects fields that are not its event's.
type HookSpecificOutput struct {
	// HookEventName must be the event's; empty means that.
	HookEventName HookEvent `json:"hookEventName"`
	// PermissionDecision and PermissionDecisionReason: PreToolUse (all
	// four), PreSkillShellCommand (all four; the model reads the reason
	// where the command's output would have been) and PreModelSwitch
	// (allow, deny, ask).
	PermissionDecision       HookPermissionDecision `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string                 `json:"permissionDecisionReason,omitempty"`
	// UpdatedInput replaces the tool's input (PreToolUse, with
	// PermissionDecision allow). A PreSkillShellCommand hook cannot
	// rewrite a command: any UpdatedInput keeps it from running.
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	// AdditionalContext is added for the model, after the tool's result
	// or the prompt (PreToolUse, HookPostToolUse, HookPostToolUseFailure,
	// PostToolBatch, HookUserPromptSubmit, HookSessionStart, HookStop, HookSubagentStart,
	// SubagentStop, HookNotification, HookSetup, PostModelSwitch).
	AdditionalContext string `json:"additionalContext,omitempty"`
	// UpdatedToolOutput replaces a tool's result (PostToolUse);
	// UpdatedMCPToolOutput, the older form, an MCP tool's content.
	UpdatedToolOutput    json.RawMessage `json:"updatedToolOutput,omitempty"`
	UpdatedMCPToolOutput json.RawMessage `json:"updatedMCPToolOutput,omitempty"`
	// SessionTitle (UserPromptSubmit, SessionStart) names the session;
	// SuppressOriginalPrompt (UserPromptSubmit, UserPromptExpansion)
	// keeps the prompt from the transcript.
	SessionTitle           string `json:"sessionTitle,omitempty"`
	SuppressOriginalPrompt bool   `json:"suppressOriginalPrompt,omitempty"`
	// InitialUserMessage, WatchPaths and ReloadSkills: SessionStart
	// (WatchPaths also CwdChanged and FileChanged).
	InitialUserMessage string   `json:"initialUserMessage,omitempty"`
	WatchPaths         []string `json:"watchPaths,omitempty"`
	ReloadSkills       bool     `json:"reloadSkills,omitempty"`
	// Decision answers a PermissionRequest, instead of CanUseTool.
	Decision *PermissionResult `json:"-"`
	// Retry lets the model retry a denied tool (PermissionDenied).
	Retry bool `json:"retry,omitempty"`
	// Action and Content answer an elicitation (Elicitation), or replace
	// the answer (ElicitationResult).
	Action  runtime.ElicitAction `json:"action,omitempty"`
	Content json.RawMessage      `json:"content,omitempty"`
	// WorktreePath is the worktree made (WorktreeCreate).
	WorktreePath string `json:"worktreePath,omitempty"`
	// DisplayContent replaces the text shown (MessageDisplay).
	DisplayContent string `json:"displayContent,omitempty"`
}

// MarshalJSON writes the output as the CLI reads it.
func (o *HookSpecificOutput) MarshalJSON() ([]byte, error) {
	type plain HookSpecificOutput
	aux := struct {
		*plain
		Decision json.RawMessage `json:"decision,omitempty"`
	}{plain: (*plain)(o)}
	if o.Decision != nil {
		d, err := o.Decision.wire(nil, false)
		if err != nil {
			return nil, err
		}
		aux.Decision = d
	}
	return json.Marshal(aux)
}

// wire writes o for an event's hook_callback.
func (o HookOutput) wire(event HookEvent) ([]byte, error) {
	if o.Async {
		return json.Marshal(struct {
			Async        bool  `json:"async"`
			AsyncTimeout int64 `json:"asyncTimeout,omitempty"`
		}{true, o.AsyncTimeout.Milliseconds()})
	}
	w := struct {
		Continue           *bool               `json:"continue,omitempty"`
		StopReason         string              `json:"stopReason,omitempty"`
		SuppressOutput     bool                `json:"suppressOutput,omitempty"`
		Decision           string              `json:"decision,omitempty"`
		Reason             string              `json:"reason,omitempty"`
		SystemMessage      string              `json:"systemMessage,omitempty"`
		HookSpecificOutput *HookSpecificOutput `json:"hookSpecificOutput,omitempty"`
	}{
		StopReason:     o.StopReason,
		SuppressOutput: o.SuppressOutput,
		Decision:       o.Decision,
		Reason:         o.Reason,
		SystemMessage:  o.SystemMessage,
	}
	if o.Stop {
		w.Continue = new(bool)
	}
	if o.HookSpecificOutput != nil {
		hs := *o.HookSpecificOutput
		if hs.HookEventName == "" {
			hs.HookEventName = event
		}
		w.HookSpecificOutput = &hs
	}
	return json.Marshal(w)
}

// hookRegistry holds the hooks of a session by callback id, and the
// initialize request's "hooks" member that declares them.
type hookRegistry struct {
	funcs map[string]HookFunc
	decl  map[HookEvent][]hookMatcherDecl
}

type hookMatcherDecl struct {
	Matcher         string   `json:"matcher,omitempty"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	Timeout         int64    `json:"timeout,omitempty"`
	OnFailure       string   `json:"onFailure,omitempty"`
}

// newHookRegistry gives each hook an id, hook_0, hook_1, …, in the order
// of the events' names, then of the matchers and hooks.
func newHookRegistry(hooks map[HookEvent][]HookMatcher) (*hookRegistry, error) {
	r := &hookRegistry{funcs: map[string]HookFunc{}}
	if len(hooks) == 0 {
		return r, nil
	}
	r.decl = map[HookEvent][]hookMatcherDecl{}
	events := make([]HookEvent, 0, len(hooks))
	for e := range hooks {
		events = append(events, e)
	}
	slices.Sort(events)
	for _, e := range events {
		for i, m := range hooks[e] {
			switch m.OnFailure {
			case "", "continue", "block":
			default:
				return nil, fmt.Errorf("claude: Options.Hooks[%s][%d].OnFailure %q: want continue or block", e, i, m.OnFailure)
			}
			d := hookMatcherDecl{Matcher: m.Matcher, OnFailure: m.OnFailure}
			if m.Timeout > 0 {
				d.Timeout = int64((m.Timeout + time.Second - 1) / time.Second)
			}
			for j, f := range m.Hooks {
				if f == nil {
					return nil, fmt.Errorf("claude: Options.Hooks[%s][%d].Hooks[%d] is nil", e, i, j)
				}
				id := "hook_" + strconv.Itoa(len(r.funcs))
				r.funcs[id] = f
				d.HookCallbackIDs = append(d.HookCallbackIDs, id)
			}
			if len(d.HookCallbackIDs) > 0 {
				r.decl[e] = append(r.decl[e], d)
			}
		}
	}
	return r, nil
}

// hookCallback answers a hook_callback request.
func (cc *controlConn) hookCallback(ctx context.Context, id string, input json.RawMessage) ([]byte, error) {
	f := cc.hooks.funcs[id]
	if f == nil {
		return nil, fmt.Errorf("No hook callback found for ID: %s", id)
	}
	in, err := parseHookInput(input)
	if err != nil {
		return nil, err
	}
	out, err := cc.callHook(ctx, f, in)
	if err != nil {
		return nil, fmt.Errorf("hook %s (%s) failed: %w", id, in.Base().HookEventName, err)
	}
	return out.wire(in.Base().HookEventName)
}

// callHook runs a hook, turning a panic into an error.
func (cc *controlConn) callHook(ctx context.Context, f HookFunc, in HookInput) (out HookOutput, err error) {
	defer func() {
		if p := recover(); p != nil {
			cc.logger.Error("claude: hook panicked", "event", in.Base().HookEventName, "panic", p)
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f(ctx, in)
}
