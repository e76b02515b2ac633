package claude

import (
	"context"
	"encoding/json"
	"fmt"
)

// The control requests a host sends the CLI while a session runs, each a
// method with a typed answer (the Agent SDKs' Query methods of the same
// names). Interrupt is in session.go.

// SetPermissionMode changes how the CLI asks before it runs a tool. The
// CLI refuses PermissionBypass (a *ControlError with Code
// "bypass_not_launched") unless the session started in it or with
// Options.AllowDangerouslySkipPermissions.
func (s *Session) SetPermissionMode(ctx context.Context, mode PermissionMode) error {
	_, err := s.control(ctx, "set_permission_mode", map[string]any{"mode": mode})
	return err
}

// SetModel changes the model of the next turns and returns the model id
// the CLI resolved it to; "" goes back to the CLI's default model (not
// Options.Model).
func (s *Session) SetModel(ctx context.Context, model string) (string, error) {
	var m any
	if model != "" {
		m = model
	}
	var out struct {
		Model string `json:"model"`
	}
	if err := s.controlInto(ctx, "set_model", map[string]any{"model": m}, &out); err != nil {
		return "", err
	}
	return out.Model, nil
}

// SetMaxThinkingTokens bounds the model's thinking; 0 clears the bound.
func (s *Session) SetMaxThinkingTokens(ctx context.Context, n int) error {
	var v any
	if n > 0 {
		v = n
	}
	_, err := s.control(ctx, "set_max_thinking_tokens", map[string]any{"max_thinking_tokens": v})
	return err
}

// MCPStatus returns the status of every MCP server of the session, the
// in-process ones included, with their tools. Before the first prompt the
// CLI has connected none, and the list is empty.
func (s *Session) MCPStatus(ctx context.Context) ([]MCPServerStatus, error) {
	var out struct {
		MCPServers []MCPServerStatus `json:"mcpServers"`
	}
	if err := s.controlInto(ctx, "mcp_status", nil, &out); err != nil {
		return nil, err
	}
	return out.MCPServers, nil
}

// ReconnectMCPServer reconnects the MCP server named name, one of
// Options.MCPServers: the CLI refuses it for servers of this process.
func (s *Session) ReconnectMCPServer(ctx context.Context, name string) error {
	_, err := s.control(ctx, "mcp_reconnect", map[string]any{"serverName": name})
	return err
}

// ToggleMCPServer enables or disables the MCP server named name: a
// disabled server's tools are taken from the model.
func (s *Session) ToggleMCPServer(ctx context.Context, name string, enabled bool) error {
	_, err := s.control(ctx, "mcp_toggle", map[string]any{"serverName": name, "enabled": enabled})
	return err
}

// MCPSetServersResult says what SetMCPServers changed.
type MCPSetServersResult struct {
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// Errors are the servers that could not be added, with why.
	Errors map[string]string `json:"errors"`
}

// SetMCPServers replaces the MCP servers the CLI connects to itself
// (Options.MCPServers) with servers. The servers of this process stay:
// they are declared again with the others, as the TypeScript SDK does.
func (s *Session) SetMCPServers(ctx context.Context, servers map[string]MCPServerConfig) (*MCPSetServersResult, error) {
	all := map[string]any{}
	for name := range s.sdkServers {
		all[name] = sdkServer(name)
	}
	for name, c := range servers {
		if _, dup := all[name]; dup {
			return nil, fmt.Errorf("claude: SetMCPServers: %q is a server of this process", name)
		}
		if !validServerName(name) {
			return nil, fmt.Errorf("claude: SetMCPServers: server name %q must match ^[a-zA-Z0-9_-]{1,64}$", name)
		}
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("claude: SetMCPServers: %q: %w", name, err)
		}
		all[name] = c
	}
	out := &MCPSetServersResult{}
	if err := s.controlInto(ctx, "mcp_set_servers", map[string]any{"servers": all}, out); err != nil {
		return nil, err
	}
	return out, nil
}

// RewindFilesResult says what RewindFiles changed, or would change.
type RewindFilesResult struct {
	// CanRewind is false when the files cannot be rewound, and Error says
	// why ("File rewinding is not enabled.").
	CanRewind    bool     `json:"canRewind"`
	Error        string   `json:"error,omitempty"`
	FilesChanged []string `json:"filesChanged,omitempty"`
	Insertions   int      `json:"insertions,omitempty"`
	Deletions    int      `json:"deletions,omitempty"`
	// SkippedLinks counts symbolic links left as they were.
	SkippedLinks int `json:"skippedLinks,omitempty"`
}

// RewindFiles restores the files the session changed to what they were
// at the user message userMessageID (the id Session.SendMessage gave
// it; Options.FileCheckpointing must be set); with dryRun it only says
// what would change.
func (s *Session) RewindFiles(ctx context.Context, userMessageID string, dryRun bool) (*RewindFilesResult, error) {
	fields := map[string]any{"user_message_id": userMessageID}
	if dryRun {
		fields["dry_run"] = true
	}
	out := &RewindFilesResult{}
	if err := s.controlInto(ctx, "rewind_files", fields, out); err != nil {
		return nil, err
	}
	return out, nil
}

// ContextUsage is how full the model's context window is.
type ContextUsage struct {
	TotalTokens int     `json:"totalTokens"`
	MaxTokens   int     `json:"maxTokens"`
	Percentage  float64 `json:"percentage"`
	Model       string  `json:"model"`
	Categories  []struct {
		Name   string `json:"name"`
		Tokens int    `json:"tokens"`
		Kind   string `json:"kind"` // used, free, buffer, deferred
	} `json:"categories"`
	MCPTools []struct {
		Name       string `json:"name"`
		ServerName string `json:"serverName"`
		Tokens     int    `json:"tokens"`
	} `json:"mcpTools"`
	// Raw is the CLI's whole answer, which holds more.
	Raw json.RawMessage `json:"-"`
}

// ContextUsage returns how full the context window is, by category. With
// full, the CLI counts each category's tokens with the API (one request
// per category); without, it estimates.
func (s *Session) ContextUsage(ctx context.Context, full bool) (*ContextUsage, error) {
	detail := "summary"
	if full {
		detail = "full"
	}
	raw, err := s.control(ctx, "get_context_usage", map[string]any{"detail": detail})
	if err != nil {
		return nil, err
	}
	out := &ContextUsage{Raw: raw}
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, fmt.Errorf("claude: get_context_usage: malformed answer: %w", err)
	}
	return out, nil
}

// StopTask stops the background task taskID (a subagent or a shell), as
// a system message of subtype "task_started" named it. The CLI answers
// the same for ids it does not know.
func (s *Session) StopTask(ctx context.Context, taskID string) error {
	_, err := s.control(ctx, "stop_task", map[string]any{"task_id": taskID})
	return err
}

// Control sends the control request subtype, with fields, and returns the
// CLI's answer as it came. It is for the requests that have no method of
// their own, such as "get_settings"; a refusal is a *ControlError.
func (s *Session) Control(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	return s.control(ctx, subtype, fields)
}

// control sends a control request and returns the CLI's answer.
func (s *Session) control(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	raw, err := s.conn.request(ctx, subtype, fields)
	if err != nil {
		return nil, s.failure(subtype, err)
	}
	return raw, nil
}

// controlInto sends a control request and decodes the answer into out.
func (s *Session) controlInto(ctx context.Context, subtype string, fields map[string]any, out any) error {
	raw, err := s.control(ctx, subtype, fields)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("claude: %s: malformed answer: %w", subtype, err)
	}
	return nil
}
