package claude

import (
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// HookInput is the input of a hook: a pointer to one of this package's
// *Input types (PreToolUseInput, StopInput, …). Base returns the fields
// every event has.
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

// PreSkillShellCommandInput is the input of PreSkillShellCommand, before
// a shell command in the text of a skill or slash command (a !`command`)
// runs as the skill loads; its output would take the command's place in
// the text the model reads. It comes after the CLI's permission check
// allowed the command.
type PreSkillShellCommandInput struct {
	HookBase
	// ToolName is the shell tool that runs the command: "Bash" or
	// "PowerShell".
	ToolName  string `json:"tool_name"`
	ToolInput struct {
		// Command is the command as it would run, arguments filled in.
		Command string `json:"command"`
	} `json:"tool_input"`
	// ToolUseID identifies this command; it names no tool call of the
	// transcript.
	ToolUseID string `json:"tool_use_id"`
	// CommandName is the skill or slash command whose text holds the
	// command, and CommandSource where it was defined.
	CommandName   string `json:"command_name"`
	CommandSource string `json:"command_source,omitempty"`
	// InvokedBy is who loaded it: "user" (typed, or sent by a host),
	// "claude" (the Skill tool, or a turn Claude scheduled) or "other".
	InvokedBy string `json:"invoked_by"`
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
	case HookPreSkillShellCommand:
		return &PreSkillShellCommandInput{}
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
