package claude

import (
	"encoding/json"
)

// A Message is one message of a conversation with the Claude Code CLI:
// *SystemMessage, *AssistantMessage, *UserMessage, *ResultMessage, or
// *OtherMessage for any type this package does not model (which is never
// an error: the CLI adds message types over time).
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
// the session's tools and the status of each MCP server.
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
}

// MCPServerStatus is one MCP server in a system/init message; Status is
// "connected" when the CLI can use its tools.
type MCPServerStatus struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

// AssistantMessage is a message from the model.
type AssistantMessage struct {
	raw
	Message         APIMessage `json:"message"`
	ParentToolUseID string     `json:"parent_tool_use_id"`
	SessionID       string     `json:"session_id"`
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
// ("error_max_turns", "error_during_execution", …). An API failure can be
// Subtype "success" with IsError set.
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
}

// OtherMessage is a message of a type this package does not model, such
// as "stream_event" or "rate_limit_event".
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
	default:
		return &OtherMessage{raw: r}
	}
	if err := json.Unmarshal(data, m); err != nil {
		return &OtherMessage{raw: r}
	}
	return m
}
