package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A Message is one message of a conversation with the Claude Code CLI:
// *SystemMessage, *AssistantMessage, *UserMessage, *ResultMessage,
// *StreamEvent (with Options.IncludePartialMessages), or *OtherMessage
// for any type this package does not model (which is never an error: the
// CLI adds message types over time).
type Message interface {
	// Type is the message's "type" field: "system", "assistant", "user",
	// "result", …
	Type() string
	// Raw is the message as the CLI sent it.
	Raw() json.RawMessage
}

// raw is embedded by every message type.
type raw struct {
	typ  string
	data json.RawMessage
}

func (r raw) Type() string { return r.typ }

func (r raw) Raw() json.RawMessage { return r.data }

// SystemMessage is a "system" message. The first, subtype "init", lists
// the session's tools and the status of each MCP server; the others
// ("status", "task_started", "session_writes_lost", …, whatever the CLI
// adds) carry their Subtype, and their members in Raw. A member of
// another subtype that has the name of one of init's, but not its shape,
// is left to Raw.
type SystemMessage struct {
	raw
	Subtype        string            `json:"subtype"`
	SessionID      string            `json:"session_id"`
	CWD            string            `json:"cwd"`
	Model          string            `json:"model"`
	PermissionMode string            `json:"permissionMode"`
	Tools          []string          `json:"tools"`
	MCPServers     []MCPServerStatus `json:"mcp_servers"`
	Version        string            `json:"claude_code_version"`
	// Agents are the names of the subagents the model can use.
	Agents []string `json:"agents"`
}

// MCPServerStatus is one MCP server of a session, as a system/init
// message and MCPStatus report it. Status is "connected" when the CLI can
// use its tools; else "failed", "needs-auth", "pending" or "disabled".
type MCPServerStatus struct {
	Name       string `json:"name"`
	Status     string `json:"status"`
	ServerInfo *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo,omitempty"`
	Error string `json:"error,omitempty"`
	// Transport is "sdk" for a server of this process, else "stdio",
	// "http", "sse", … (MCPStatus only).
	Transport string `json:"transport,omitempty"`
	// Scope and Source say where the server was configured: Source "sdk"
	// is a server of this process, "dynamic" one of Options.MCPServers.
	Scope  string `json:"scope,omitempty"`
	Source string `json:"source,omitempty"`
	// Config is the server's configuration, for servers the CLI connects
	// to itself (MCPStatus only).
	Config *MCPServerConfig `json:"config,omitempty"`
	// Tools are the server's tools (MCPStatus only).
	Tools []MCPToolInfo `json:"tools,omitempty"`
}

// MCPToolInfo is one tool of an MCP server, as the CLI knows it.
type MCPToolInfo struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Annotations *struct {
		ReadOnly    bool `json:"readOnly,omitempty"`
		Destructive bool `json:"destructive,omitempty"`
		OpenWorld   bool `json:"openWorld,omitempty"`
	} `json:"annotations,omitempty"`
}

// AssistantMessage is a message from the model.
type AssistantMessage struct {
	raw
	Message         APIMessage `json:"message"`
	ParentToolUseID string     `json:"parent_tool_use_id"`
	SessionID       string     `json:"session_id"`
	UUID            string     `json:"uuid"`
	// Error is set on a message the CLI wrote itself about a failed API
	// request, whose text says what failed: "authentication_failed"
	// ("Not logged in · Please run /login"), "billing_error",
	// "rate_limit", "invalid_request", "server_error", "unknown", …
	Error string `json:"error,omitempty"`
}

// UserMessage is a message on the user's side of the conversation: a
// prompt, or the results of tool calls.
type UserMessage struct {
	raw
	Message         APIMessage `json:"message"`
	ParentToolUseID string     `json:"parent_tool_use_id"`
	SessionID       string     `json:"session_id"`
}

// APIMessage is the Anthropic Messages API message inside an assistant or
// user message.
type APIMessage struct {
	ID         string         `json:"id"`
	Role       string         `json:"role"`
	Model      string         `json:"model"`
	Content    []ContentBlock `json:"content"`
	StopReason string         `json:"stop_reason"`
}

// UnmarshalJSON accepts content as a list of blocks or, as the CLI writes
// plain prompts, a string.
func (m *APIMessage) UnmarshalJSON(data []byte) error {
	type plain APIMessage
	var aux struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*m = APIMessage(aux.plain)
	if len(aux.Content) > 0 && aux.Content[0] == '"' {
		var text string
		if err := json.Unmarshal(aux.Content, &text); err != nil {
			return err
		}
		m.Content = []ContentBlock{{Type: "text", Text: text}}
		return nil
	}
	if len(aux.Content) > 0 && string(aux.Content) != "null" {
		return json.Unmarshal(aux.Content, &m.Content)
	}
	return nil
}

// ContentBlock is one block of an APIMessage: "text", "thinking",
// "tool_use" or "tool_result" (others keep only their Type).
type ContentBlock struct {
	Type string `json:"type"`
	// Text of a "text" block; Thinking of a "thinking" block.
	Text     string `json:"text,omitempty"`
	Thinking string `json:"thinking,omitempty"`
	// ID, Name and Input of a "tool_use" block.
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// ToolUseID, Content and IsError of a "tool_result" block. Content is
	// a string or a list of blocks, as sent.
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// ResultMessage ends a run: Subtype is "success" or the kind of error
// ("error_max_turns", "error_during_execution", "error_max_budget_usd",
// "error_max_structured_output_retries"). An API failure can be Subtype
// "success" with IsError set.
type ResultMessage struct {
	raw
	Subtype       string          `json:"subtype"`
	IsError       bool            `json:"is_error"`
	Result        string          `json:"result"`
	NumTurns      int             `json:"num_turns"`
	DurationMS    int64           `json:"duration_ms"`
	DurationAPIMS int64           `json:"duration_api_ms"`
	TotalCostUSD  float64         `json:"total_cost_usd"`
	SessionID     string          `json:"session_id"`
	StopReason    string          `json:"stop_reason"`
	Usage         json.RawMessage `json:"usage"`
	// ModelUsage is the usage and cost per model.
	ModelUsage json.RawMessage `json:"modelUsage,omitempty"`
	// Errors explain an error Subtype.
	Errors []string `json:"errors,omitempty"`
	// TerminalReason says why the run ended: "completed", "max_turns",
	// "hook_stopped", "tool_deferred", "aborted_tools", …
	TerminalReason string `json:"terminal_reason,omitempty"`
	// PermissionDenials are the tool calls that were not allowed.
	PermissionDenials []struct {
		ToolName  string          `json:"tool_name"`
		ToolUseID string          `json:"tool_use_id"`
		ToolInput json.RawMessage `json:"tool_input"`
	} `json:"permission_denials,omitempty"`
	// StructuredOutput is the object the model gave, with
	// Options.OutputType or OutputSchema; see DecodeStructuredOutput.
	StructuredOutput json.RawMessage `json:"structured_output,omitempty"`
	// StartupFailureReason is set on the result of a CLI that refused to
	// start, which Start returns as a *StartupError.
	StartupFailureReason StartupFailureReason `json:"startup_failure_reason,omitempty"`
	// DeferredToolUse is the tool call a PreToolUse hook deferred
	// (HookDefer), which ended the run.
	DeferredToolUse *struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"deferred_tool_use,omitempty"`
}

// ErrRunFailed is wrapped by ResultMessage.Err for a run that failed.
var ErrRunFailed = errors.New("claude: the run failed")

// Err returns nil when the run succeeded, and otherwise an error wrapping
// ErrRunFailed that says why, in the CLI's words: "Not logged in · Please
// run /login", an API error, the result's Errors, with its Subtype and
// TerminalReason. A run can fail with Subtype "success" (IsError says
// so): check Err, not Subtype.
func (r *ResultMessage) Err() error {
	if !r.IsError && r.Subtype == "success" {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrRunFailed, r.why())
}

// why says why the run failed: the CLI's text, then the kind of failure.
func (r *ResultMessage) why() string {
	var reasons []string
	if r.IsError && strings.TrimSpace(r.Result) != "" {
		reasons = append(reasons, strings.TrimSpace(r.Result))
	}
	reasons = append(reasons, r.Errors...)
	kind := r.Subtype
	if r.TerminalReason != "" {
		kind += ", " + r.TerminalReason
	}
	if len(reasons) == 0 {
		return kind
	}
	return strings.Join(reasons, "; ") + " (" + kind + ")"
}

// ErrNoStructuredOutput reports a result without structured output: the
// session did not ask for it, the run failed, or the model failed to
// give a valid one.
var ErrNoStructuredOutput = errors.New("claude: the result has no structured output")

// DecodeStructuredOutput decodes the result's structured output into v,
// a pointer to the type of Options.OutputType. The CLI has already
// checked the output against the type's schema. Without one it returns
// an error wrapping ErrNoStructuredOutput that says why (for a failed
// run, what Err says).
func (r *ResultMessage) DecodeStructuredOutput(v any) error {
	if len(r.StructuredOutput) == 0 || string(r.StructuredOutput) == "null" {
		if r.Err() != nil {
			return fmt.Errorf("%w: the run failed: %s", ErrNoStructuredOutput, r.why())
		}
		return fmt.Errorf("%w (%s)", ErrNoStructuredOutput, r.why())
	}
	if err := json.Unmarshal(r.StructuredOutput, v); err != nil {
		return fmt.Errorf("claude: decoding the structured output: %w", err)
	}
	return nil
}

// A StreamEvent is a piece of the model's output as it streams, with
// Options.IncludePartialMessages: one event of the Messages API's stream
// ("message_start", "content_block_start", "content_block_delta", …).
// The complete *AssistantMessage follows the events.
type StreamEvent struct {
	raw
	Event struct {
		// Type is the event's type.
		Type  string `json:"type"`
		Index int    `json:"index"`
		// Delta, of a "content_block_delta": Type "text_delta" with Text,
		// "input_json_delta" with PartialJSON, "thinking_delta" with
		// Thinking. Of a "message_delta": StopReason.
		Delta *struct {
			Type        string `json:"type"`
			Text        string `json:"text,omitempty"`
			PartialJSON string `json:"partial_json,omitempty"`
			Thinking    string `json:"thinking,omitempty"`
			StopReason  string `json:"stop_reason,omitempty"`
		} `json:"delta,omitempty"`
		// ContentBlock is the block a "content_block_start" opens.
		ContentBlock *ContentBlock `json:"content_block,omitempty"`
		// Message is the message a "message_start" opens.
		Message *APIMessage `json:"message,omitempty"`
	} `json:"event"`
	ParentToolUseID string `json:"parent_tool_use_id"`
	SessionID       string `json:"session_id"`
	UUID            string `json:"uuid"`
}

// OtherMessage is a message of a type this package does not model, such
// as "rate_limit_event" or "tool_progress".
type OtherMessage struct {
	raw
}

// parseMessage turns one line of the CLI's conversation output into a
// Message. A line that does not fit its type's shape is still delivered,
// as an *OtherMessage.
func parseMessage(line []byte) Message {
	data := json.RawMessage(append([]byte(nil), line...))
	var head struct {
		Type string `json:"type"`
	}
	json.Unmarshal(data, &head)
	r := raw{typ: head.Type, data: data}
	var m Message
	switch head.Type {
	case "system":
		m = &SystemMessage{raw: r}
	case "assistant":
		m = &AssistantMessage{raw: r}
	case "user":
		m = &UserMessage{raw: r}
	case "result":
		m = &ResultMessage{raw: r}
	case "stream_event":
		m = &StreamEvent{raw: r}
	default:
		return &OtherMessage{raw: r}
	}
	if err := json.Unmarshal(data, m); err != nil {
		if _, ok := m.(*SystemMessage); ok {
			// A subtype whose members use the names of init's for other
			// shapes (the CLI adds subtypes): still a system message.
			sm := &SystemMessage{raw: r}
			var head struct {
				Subtype   string `json:"subtype"`
				SessionID string `json:"session_id"`
			}
			json.Unmarshal(data, &head)
			sm.Subtype, sm.SessionID = head.Subtype, head.SessionID
			return sm
		}
		return &OtherMessage{raw: r}
	}
	return m
}
