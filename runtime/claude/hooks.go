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
// ElicitationResult.
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

// HookInput is the input of a hook: a pointer to one of the *Input types
// of this file. Base returns the fields every event has.
type HookInput interface {
	Base() *HookBase
}

// HookBase holds the fields every hook input has.
type HookBase struct {
	HookEventName  HookEvent `json:"hook_event_name"`
	SessionID      string    `json:"session_id"`
	TranscriptPath string    `json:"transcript_path"`
	CWD            string    `json:"cwd"`
	// PromptID identifies the user prompt the event belongs to.
	PromptID       string `json:"prompt_id,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	// AgentID and AgentType are set when the event happens inside a
	// subagent (and for SubagentStart and SubagentStop).
	AgentID   string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
	Effort    *struct {
		Level string `json:"level"`
	} `json:"effort,omitempty"`
	// Raw is the input as the CLI sent it, with the fields that no Go
	// type of this package names.
	Raw json.RawMessage `json:"-"`
}

// Base returns b.
func (b *HookBase) Base() *HookBase { return b }

// MCPServerRef names the MCP server of an mcp__ tool and where it was
// configured: Source "sdk" is a server of this process.
type MCPServerRef struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// PreToolUseInput is the input of PreToolUse, before a tool runs (and
// before the CLI's permission check).
type PreToolUseInput struct {
	HookBase
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	ToolUseID string          `json:"tool_use_id"`
	MCPServer *MCPServerRef   `json:"mcp_server,omitempty"`
}

// PostToolUseInput is the input of PostToolUse, after a tool succeeded.
// For an MCP tool, ToolResponse is the result's content array.
type PostToolUseInput struct {
	HookBase
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	ToolUseID    string          `json:"tool_use_id"`
	DurationMS   int64           `json:"duration_ms,omitempty"`
	MCPServer    *MCPServerRef   `json:"mcp_server,omitempty"`
}

// PostToolUseFailureInput is the input of PostToolUseFailure, after a
// tool failed.
type PostToolUseFailureInput struct {
	HookBase
	ToolName    string          `json:"tool_name"`
	ToolInput   json.RawMessage `json:"tool_input"`
	ToolUseID   string          `json:"tool_use_id"`
	Error       string          `json:"error"`
	IsInterrupt bool            `json:"is_interrupt,omitempty"`
	DurationMS  int64           `json:"duration_ms,omitempty"`
	MCPServer   *MCPServerRef   `json:"mcp_server,omitempty"`
}

// PostToolBatchInput is the input of PostToolBatch, after all the tool
// calls of one model message.
type PostToolBatchInput struct {
	HookBase
	ToolCalls []struct {
		ToolName     string          `json:"tool_name"`
		ToolInput    json.RawMessage `json:"tool_input"`
		ToolUseID    string          `json:"tool_use_id"`
		ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	} `json:"tool_calls"`
}

// PermissionRequestInput is the input of PermissionRequest, when the CLI
// would ask whether a tool may run. It comes at the same time as the
// CanUseTool call; the first answer wins.
type PermissionRequestInput struct {
	HookBase
	ToolName    string             `json:"tool_name"`
	ToolInput   json.RawMessage    `json:"tool_input"`
	Suggestions []PermissionUpdate `json:"permission_suggestions,omitempty"`
	MCPServer   *MCPServerRef      `json:"mcp_server,omitempty"`
}

// PermissionDeniedInput is the input of PermissionDenied, after the
// auto mode's classifier denied a tool.
type PermissionDeniedInput struct {
	HookBase
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	ToolUseID string          `json:"tool_use_id"`
	Reason    string          `json:"reason"`
	MCPServer *MCPServerRef   `json:"mcp_server,omitempty"`
}

// NotificationInput is the input of Notification.
type NotificationInput struct {
	HookBase
	Message          string `json:"message"`
	Title            string `json:"title,omitempty"`
	NotificationType string `json:"notification_type"`
}

// UserPromptSubmitInput is the input of UserPromptSubmit, before a user
// turn reaches the model.
type UserPromptSubmitInput struct {
	HookBase
	Prompt       string `json:"prompt"`
	Source       string `json:"source,omitempty"`
	SessionTitle string `json:"session_title,omitempty"`
}

// UserPromptExpansionInput is the input of UserPromptExpansion, when a
// slash command or an MCP prompt expands.
type UserPromptExpansionInput struct {
	HookBase
	ExpansionType string `json:"expansion_type"`
	CommandName   string `json:"command_name"`
	CommandArgs   string `json:"command_args"`
	CommandSource string `json:"command_source,omitempty"`
	Prompt        string `json:"prompt"`
}

// SessionStartInput is the input of SessionStart.
type SessionStartInput struct {
	HookBase
	// Source is "startup", "resume", "clear", "compact" or "fork".
	Source                   string  `json:"source"`
	Model                    string  `json:"model,omitempty"`
	SessionTitle             string  `json:"session_title,omitempty"`
	SecondsSinceLastResponse float64 `json:"seconds_since_last_response,omitempty"`
	ContextTokens            int     `json:"context_tokens,omitempty"`
	PromptCacheLikelyExpired bool    `json:"prompt_cache_likely_expired,omitempty"`
	EstimatedCacheWriteUSD   float64 `json:"estimated_cache_write_usd,omitempty"`
}

// SessionEndInput is the input of SessionEnd.
type SessionEndInput struct {
	HookBase
	// Reason is "clear", "resume", "logout", "prompt_input_exit" or
	// "other".
	Reason string `json:"reason"`
}

// StopInput is the input of Stop, when the main thread's turn ends.
type StopInput struct {
	HookBase
	// StopHookActive is set when the turn goes on because a Stop hook
	// blocked its end before.
	StopHookActive       bool            `json:"stop_hook_active"`
	LastAssistantMessage string          `json:"last_assistant_message,omitempty"`
	BackgroundTasks      json.RawMessage `json:"background_tasks,omitempty"`
	SessionCrons         json.RawMessage `json:"session_crons,omitempty"`
}

// StopFailureInput is the input of StopFailure, when a turn ends with an
// API error.
type StopFailureInput struct {
	HookBase
	Error                string `json:"error"`
	ErrorDetails         string `json:"error_details,omitempty"`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
}

// SubagentStartInput is the input of SubagentStart; AgentID and
// AgentType name the subagent.
type SubagentStartInput struct {
	HookBase
}

// SubagentStopInput is the input of SubagentStop; AgentID and AgentType
// name the subagent.
type SubagentStopInput struct {
	HookBase
	StopHookActive       bool            `json:"stop_hook_active"`
	AgentTranscriptPath  string          `json:"agent_transcript_path"`
	LastAssistantMessage string          `json:"last_assistant_message,omitempty"`
	BackgroundTasks      json.RawMessage `json:"background_tasks,omitempty"`
	SessionCrons         json.RawMessage `json:"session_crons,omitempty"`
}

// PreCompactInput is the input of PreCompact.
type PreCompactInput struct {
	HookBase
	// Trigger is "manual" (/compact) or "auto".
	Trigger            string  `json:"trigger"`
	CustomInstructions *string `json:"custom_instructions"`
}

// PostCompactInput is the input of PostCompact.
type PostCompactInput struct {
	HookBase
	Trigger        string `json:"trigger"`
	CompactSummary string `json:"compact_summary"`
}

// PreModelSwitchInput is the input of PreModelSwitch, before the model
// changes (Session.SetModel, say).
type PreModelSwitchInput struct {
	HookBase
	ModelSwitch
}

// PostModelSwitchInput is the input of PostModelSwitch, at the start of
// the first turn with the new model.
type PostModelSwitchInput struct {
	HookBase
	ModelSwitch
}

// ModelSwitch holds the fields of PreModelSwitchInput and
// PostModelSwitchInput.
type ModelSwitch struct {
	FromModel      string `json:"from_model"`
	ToModel        string `json:"to_model"`
	RequestedModel string `json:"requested_model"`
	// Source is "command", "picker", "sdk" (Session.SetModel), and for
	// PostModelSwitch also "auto" or "resume".
	Source                 string  `json:"source"`
	ContextTokens          int     `json:"context_tokens"`
	PromptCacheWarm        bool    `json:"prompt_cache_warm"`
	CacheTTL               string  `json:"cache_ttl"`
	EstimatedCacheWriteUSD float64 `json:"estimated_cache_write_usd"`
	Pricing                string  `json:"pricing"`
}

// SetupInput is the input of Setup.
type SetupInput struct {
	HookBase
	Trigger string `json:"trigger"`
}

// TeammateIdleInput is the input of TeammateIdle.
type TeammateIdleInput struct {
	HookBase
	TeammateName string `json:"teammate_name"`
	TeamName     string `json:"team_name"`
}

// TaskCreatedInput is the input of TaskCreated.
type TaskCreatedInput struct {
	HookBase
	Task
}

// TaskCompletedInput is the input of TaskCompleted.
type TaskCompletedInput struct {
	HookBase
	Task
}

// Task holds the fields of TaskCreatedInput and TaskCompletedInput.
type Task struct {
	TaskID          string `json:"task_id"`
	TaskSubject     string `json:"task_subject"`
	TaskDescription string `json:"task_description,omitempty"`
	TeammateName    string `json:"teammate_name,omitempty"`
	TeamName        string `json:"team_name,omitempty"`
}

// ElicitationInput is the input of Elicitation, before an MCP server's
// question reaches Options.OnElicitation.
type ElicitationInput struct {
	HookBase
	ServerName      string          `json:"mcp_server_name"`
	Message         string          `json:"message"`
	Mode            string          `json:"mode,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitation_id,omitempty"`
	RequestedSchema json.RawMessage `json:"requested_schema,omitempty"`
}

// ElicitationResultInput is the input of ElicitationResult, after the
// answer and before it reaches the server.
type ElicitationResultInput struct {
	HookBase
	ServerName    string               `json:"mcp_server_name"`
	ElicitationID string               `json:"elicitation_id,omitempty"`
	Mode          string               `json:"mode,omitempty"`
	Action        runtime.ElicitAction `json:"action"`
	Content       json.RawMessage      `json:"content,omitempty"`
}

// ConfigChangeInput is the input of ConfigChange.
type ConfigChangeInput struct {
	HookBase
	Source   string `json:"source"`
	FilePath string `json:"file_path,omitempty"`
}

// InstructionsLoadedInput is the input of InstructionsLoaded, when a
// CLAUDE.md file is read.
type InstructionsLoadedInput struct {
	HookBase
	FilePath        string   `json:"file_path"`
	MemoryType      string   `json:"memory_type"`
	LoadReason      string   `json:"load_reason"`
	Globs           []string `json:"globs,omitempty"`
	TriggerFilePath string   `json:"trigger_file_path,omitempty"`
	ParentFilePath  string   `json:"parent_file_path,omitempty"`
}

// WorktreeCreateInput is the input of WorktreeCreate.
type WorktreeCreateInput struct {
	HookBase
	Name string `json:"name"`
}

// WorktreeRemoveInput is the input of WorktreeRemove.
type WorktreeRemoveInput struct {
	HookBase
	WorktreePath string `json:"worktree_path"`
}

// CwdChangedInput is the input of CwdChanged.
type CwdChangedInput struct {
	HookBase
	OldCWD string `json:"old_cwd"`
	NewCWD string `json:"new_cwd"`
}

// FileChangedInput is the input of FileChanged.
type FileChangedInput struct {
	HookBase
	FilePath string `json:"file_path"`
	// Event is "change", "add" or "unlink".
	Event string `json:"event"`
}

// DirectoryAddedInput is the input of DirectoryAdded.
type DirectoryAddedInput struct {
	HookBase
	Directory string `json:"directory"`
	Source    string `json:"source"`
}

// MessageDisplayInput is the input of MessageDisplay, once per text
// message of the model that is shown.
type MessageDisplayInput struct {
	HookBase
	TurnID    string `json:"turn_id"`
	MessageID string `json:"message_id"`
	Index     int    `json:"index"`
	Final     bool   `json:"final"`
	Delta     string `json:"delta"`
}

// OtherHookInput is the input of an event this package does not know;
// HookBase.Raw holds all of it.
type OtherHookInput struct {
	HookBase
}

// newHookInput returns an empty input of event's type.
func newHookInput(event HookEvent) HookInput {
	switch event {
	case HookPreToolUse:
		return &PreToolUseInput{}
	case HookPostToolUse:
		return &PostToolUseInput{}
	case HookPostToolUseFailure:
		return &PostToolUseFailureInput{}
	case HookPostToolBatch:
		return &PostToolBatchInput{}
	case HookPermissionRequest:
		return &PermissionRequestInput{}
	case HookPermissionDenied:
		return &PermissionDeniedInput{}
	case HookNotification:
		return &NotificationInput{}
	case HookUserPromptSubmit:
		return &UserPromptSubmitInput{}
	case HookUserPromptExpansion:
		return &UserPromptExpansionInput{}
	case HookSessionStart:
		return &SessionStartInput{}
	case HookSessionEnd:
		return &SessionEndInput{}
	case HookStop:
		return &StopInput{}
	case HookStopFailure:
		return &StopFailureInput{}
	case HookSubagentStart:
		return &SubagentStartInput{}
	case HookSubagentStop:
		return &SubagentStopInput{}
	case HookPreCompact:
		return &PreCompactInput{}
	case HookPostCompact:
		return &PostCompactInput{}
	case HookPreModelSwitch:
		return &PreModelSwitchInput{}
	case HookPostModelSwitch:
		return &PostModelSwitchInput{}
	case HookSetup:
		return &SetupInput{}
	case HookTeammateIdle:
		return &TeammateIdleInput{}
	case HookTaskCreated:
		return &TaskCreatedInput{}
	case HookTaskCompleted:
		return &TaskCompletedInput{}
	case HookElicitation:
		return &ElicitationInput{}
	case HookElicitationResult:
		return &ElicitationResultInput{}
	case HookConfigChange:
		return &ConfigChangeInput{}
	case HookInstructionsLoaded:
		return &InstructionsLoadedInput{}
	case HookWorktreeCreate:
		return &WorktreeCreateInput{}
	case HookWorktreeRemove:
		return &WorktreeRemoveInput{}
	case HookCwdChanged:
		return &CwdChangedInput{}
	case HookFileChanged:
		return &FileChangedInput{}
	case HookDirectoryAdded:
		return &DirectoryAddedInput{}
	case HookMessageDisplay:
		return &MessageDisplayInput{}
	}
	return &OtherHookInput{}
}

// parseHookInput decodes the input of a hook_callback request into its
// event's type.
func parseHookInput(raw json.RawMessage) (HookInput, error) {
	var head struct {
		Event HookEvent `json:"hook_event_name"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("malformed hook input: %w", err)
	}
	in := newHookInput(head.Event)
	if err := json.Unmarshal(raw, in); err != nil {
		// A field of an unexpected type: the hook still sees the event.
		in = &OtherHookInput{}
		json.Unmarshal(raw, in)
	}
	in.Base().Raw = raw
	return in, nil
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

// A HookPermissionDecision is a PreToolUse hook's verdict on a tool call.
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
	// four) and PreModelSwitch (allow, deny, ask).
	PermissionDecision       HookPermissionDecision `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string                 `json:"permissionDecisionReason,omitempty"`
	// UpdatedInput replaces the tool's input (PreToolUse, with
	// PermissionDecision allow).
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
