package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The control requests a host sends the CLI while a session runs, each a
// method with a typed answer (the Agent SDKs' Query methods of the same
// names). Interrupt is in session.go.

// SetPermissionMode changes how the CLI asks before it runs a tool, and
// returns the mode now in effect, which is not always the mode asked for:
// record the answer, not mode. The CLI takes "manual" for
// PermissionDefault, say, and answers PermissionDefault. The answer is ""
// when the CLI's answer names no mode (sdk.d.ts allows that of hosts other
// than the CLI); mode is then only a best guess. The CLI refuses
// PermissionBypass (a *ControlError with Code "bypass_not_launched")
// unless the session started in it or with
// Options.AllowDangerouslySkipPermissions, and a mode it does not know
// (Code "invalid_mode").
func (s *Session) SetPermissionMode(ctx context.Context, mode PermissionMode) (PermissionMode, error) {
	var out struct {
		Mode PermissionMode `json:"mode"`
	}
	if err := s.controlInto(ctx, "set_permission_mode", map[string]any{"mode": mode}, &out); err != nil {
		return "", err
	}
	return out.Mode, nil
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
		all[name] = sdkServer(name, s.serverTimeouts[name])
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

// control sends a control request and returns the CLI's answer. fields
// are as for controlConn.request.
func (s *Session) control(ctx context.Context, subtype string, fields any) (json.RawMessage, error) {
	raw, err := s.conn.request(ctx, subtype, fields)
	if err != nil {
		return nil, s.failure(subtype, err)
	}
	return raw, nil
}

// controlInto sends a control request and decodes the answer into out.
func (s *Session) controlInto(ctx context.Context, subtype string, fields any, out any) error {
	raw, err := s.control(ctx, subtype, fields)
	if err != nil {
		return err
	}
	if len(raw) == 0 {
		return nil // a success without a payload: nothing to decode
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("claude: %s: malformed answer: %w", subtype, err)
	}
	return nil
}

// An InterruptReceipt says what an interrupt left to run: the ids of the
// user turns still queued, which will run unless cancelled, and, with
// cancelQueued, those it cancelled.
type InterruptReceipt struct {
	StillQueued []string `json:"still_queued"`
	Cancelled   []string `json:"cancelled,omitempty"`
}

// InterruptWithReceipt asks the CLI to stop the current turn, and with
// cancelQueued to cancel the queued user turns too. It returns the CLI's
// receipt, or nil from a CLI that gives none (system/init capability
// "interrupt_receipt_v1"; the CLI 2.1.330 gives none).
func (s *Session) InterruptWithReceipt(ctx context.Context, cancelQueued bool) (*InterruptReceipt, error) {
	var fields any
	if cancelQueued {
		fields = struct {
			CancelQueued bool `json:"cancel_queued"`
		}{true}
	}
	raw, err := s.control(ctx, "interrupt", fields)
	if err != nil {
		return nil, err
	}
	var r struct {
		StillQueued []string `json:"still_queued"`
		Cancelled   []string `json:"cancelled"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &r) != nil || r.StillQueued == nil {
		return nil, nil
	}
	return &InterruptReceipt{StillQueued: r.StillQueued, Cancelled: r.Cancelled}, nil
}

// SetThinkingDisplay sets what the CLI shows of the model's thinking for
// the rest of the session: "summarized", "omitted" or "highlights"
// (which only sessions Anthropic hosts get; the CLI refuses it
// otherwise); "" goes back to the CLI's default. The thinking budget
// stays as it is.
func (s *Session) SetThinkingDisplay(ctx context.Context, display string) error {
	var d any
	if display != "" {
		d = display
	}
	_, err := s.control(ctx, "set_max_thinking_tokens", struct {
		Display any `json:"thinking_display"`
	}{d})
	return err
}

// SetMCPPermissionModeOverride pins the permission mode of the tools of
// the MCP server named server: "default" (ask for each call) or "auto"
// (the CLI's classifier decides); "" removes the pin. It only tightens:
// it applies when the session's mode would allow the call without
// asking. The CLI keeps it for a server not connected yet, and warns
// (the returned text) when no server has that name.
func (s *Session) SetMCPPermissionModeOverride(ctx context.Context, server string, mode PermissionMode) (warning string, err error) {
	var m any
	switch mode {
	case "":
	case PermissionDefault, PermissionAuto:
		m = mode
	default:
		return "", fmt.Errorf("claude: SetMCPPermissionModeOverride: mode %q: want default, auto or none", mode)
	}
	var out struct {
		Warning string `json:"warning"`
	}
	err = s.controlInto(ctx, "set_mcp_permission_mode_override", struct {
		ServerName string `json:"serverName"`
		Mode       any    `json:"mode"`
	}{server, m}, &out)
	return out.Warning, err
}

// ApplyFlagSettings merges settings into the session's flag settings
// (those of Options.Settings), as the CLI's --settings would, while it
// runs: each top-level member replaces the one set before, and a JSON
// null removes it. settings is anything that encodes as a JSON object: a
// *Settings, a map. The CLI refuses the whole call when a value would
// make it drop the flag settings.
func (s *Session) ApplyFlagSettings(ctx context.Context, settings any) error {
	_, err := s.control(ctx, "apply_flag_settings", struct {
		Settings any `json:"settings"`
	}{settings})
	return err
}

// A SettingsFile is a settings file of the CLI that UpdateSettings
// writes.
type SettingsFile string

// The settings files UpdateSettings writes.
const (
	// LocalSettingsFile is the project's .claude/settings.local.json; the
	// CLI writes only "outputStyle" there.
	LocalSettingsFile SettingsFile = "localSettings"
	// UserSettingsFile is ~/.claude/settings.json; the CLI writes only
	// "effortLevel" there, for the session's model.
	UserSettingsFile SettingsFile = "userSettings"
)

// UpdateSettings writes settings into a settings file through the CLI's
// own writer, as /config does, and applies them. The CLI takes only the
// keys it allows for each file, with string values, and refuses a file
// that Options.SettingSources leaves out.
func (s *Session) UpdateSettings(ctx context.Context, file SettingsFile, settings map[string]string) error {
	_, err := s.control(ctx, "update_settings", struct {
		Source   SettingsFile      `json:"source"`
		Settings map[string]string `json:"settings"`
	}{file, settings})
	return err
}

// ReloadPluginsOptions change what ReloadPlugins does.
type ReloadPluginsOptions struct {
	// HoldOnCacheImpact applies nothing if the reload would change the
	// session's tools while the prompt cache depends on them: the result
	// is Held, with CacheImpact.
	HoldOnCacheImpact bool
	// AddPlugins are loaded as well, as if they had been in
	// Options.Plugins; their paths must be absolute.
	AddPlugins []Plugin
	// RefuseIfBusy fails the call (a *ControlError with code
	// "reload_plugins_busy") while a turn or background work runs.
	RefuseIfBusy bool
}

// ReloadPluginsResult is the session after ReloadPlugins.
type ReloadPluginsResult struct {
	Commands []SlashCommand `json:"commands"`
	Agents   []AgentInfo    `json:"agents"`
	Plugins  []struct {
		Name    string `json:"name"`
		Path    string `json:"path"`
		Source  string `json:"source,omitempty"`
		Version string `json:"version,omitempty"`
	} `json:"plugins"`
	MCPServers []MCPServerStatus `json:"mcpServers"`
	ErrorCount int               `json:"error_count"`
	// Held is true when HoldOnCacheImpact held the reload back, and
	// CacheImpact says what it would change.
	Held        bool `json:"held,omitempty"`
	CacheImpact *struct {
		MCPServersAdded   []string `json:"mcp_servers_added"`
		MCPServersRemoved []string `json:"mcp_servers_removed"`
		LSPToolChange     string   `json:"lsp_tool_change"`
	} `json:"cache_impact,omitempty"`
}

// ReloadPlugins reloads the plugins from disk and returns the session's
// commands, agents, plugins and MCP servers after it.
func (s *Session) ReloadPlugins(ctx context.Context, opts ReloadPluginsOptions) (*ReloadPluginsResult, error) {
	req := struct {
		HoldOnCacheImpact bool           `json:"hold_on_cache_impact,omitempty"`
		AddPlugins        []pluginConfig `json:"add_plugins,omitempty"`
		RefuseIfBusy      bool           `json:"refuse_if_busy,omitempty"`
	}{opts.HoldOnCacheImpact, pluginConfigs(opts.AddPlugins), opts.RefuseIfBusy}
	out := &ReloadPluginsResult{}
	if err := s.controlInto(ctx, "reload_plugins", req, out); err != nil {
		return nil, err
	}
	return out, nil
}

// ReloadSkills reloads the skills from disk and returns them.
func (s *Session) ReloadSkills(ctx context.Context) ([]SlashCommand, error) {
	var out struct {
		Skills []SlashCommand `json:"skills"`
	}
	if err := s.controlInto(ctx, "reload_skills", nil, &out); err != nil {
		return nil, err
	}
	return out.Skills, nil
}

// ReloadOutputStyles reads the output-style folders again and returns the
// names of the styles, built-in and custom.
func (s *Session) ReloadOutputStyles(ctx context.Context) ([]string, error) {
	var out struct {
		Styles []string `json:"available_output_styles"`
	}
	if err := s.controlInto(ctx, "reload_output_styles", nil, &out); err != nil {
		return nil, err
	}
	return out.Styles, nil
}

// FileContents is a file as ReadFile read it.
type FileContents struct {
	// Contents is the text, or with Base64 the bytes in base64.
	Contents string `json:"contents"`
	AbsPath  string `json:"absPath"`
	// Truncated is true when the file is longer than was read.
	Truncated bool `json:"truncated,omitempty"`
	// Base64 is true when Contents is base64.
	Base64 bool `json:"-"`
	// Lossy is true when the bytes read were not all valid UTF-8, so that
	// Contents is not exactly the file's text.
	Lossy bool `json:"lossy,omitempty"`
}

// ReadFile reads a file of the session (path relative to Dir, or
// absolute) under the rules of the CLI's Read tool, up to maxBytes (0
// means the CLI's default, 1 MB), as text or, with asBase64, in base64.
func (s *Session) ReadFile(ctx context.Context, path string, maxBytes int, asBase64 bool) (*FileContents, error) {
	req := struct {
		Path     string `json:"path"`
		MaxBytes int    `json:"max_bytes,omitempty"`
		Encoding string `json:"encoding,omitempty"`
	}{Path: path, MaxBytes: maxBytes}
	if asBase64 {
		req.Encoding = "base64"
	}
	var out struct {
		FileContents
		Encoding string `json:"encoding"`
	}
	if err := s.controlInto(ctx, "read_file", req, &out); err != nil {
		return nil, err
	}
	out.FileContents.Base64 = out.Encoding == "base64"
	return &out.FileContents, nil
}

// SeedReadState tells the CLI that the model has read the file at path
// as it was at mtime, so that an Edit of it does not fail with "file not
// read yet" once the Read has left the context. If the file changed since
// mtime, the CLI ignores it.
func (s *Session) SeedReadState(ctx context.Context, path string, mtime time.Time) error {
	_, err := s.control(ctx, "seed_read_state", struct {
		Path  string `json:"path"`
		MTime int64  `json:"mtime"`
	}{path, mtime.UnixMilli()})
	return err
}

// BackgroundTasks moves the running foreground tasks (Bash commands,
// subagents) to the background, or only the one started by the tool call
// toolUseID: the turn goes on, and a task_notification reports each when
// it ends. It returns false when toolUseID matched no task.
func (s *Session) BackgroundTasks(ctx context.Context, toolUseID string) (bool, error) {
	var out struct {
		Backgrounded *bool `json:"backgrounded"`
	}
	fields := struct {
		ToolUseID string `json:"tool_use_id,omitempty"`
	}{toolUseID}
	if err := s.controlInto(ctx, "background_tasks", fields, &out); err != nil {
		return false, err
	}
	return out.Backgrounded == nil || *out.Backgrounded, nil
}

// Usage is the session's cost and usage, and the plan's rate limits where
// they apply (what /usage shows). The CLI marks the request experimental.
type Usage struct {
	Session struct {
		TotalCostUSD       float64                    `json:"total_cost_usd"`
		TotalAPIDurationMS int64                      `json:"total_api_duration_ms"`
		TotalDurationMS    int64                      `json:"total_duration_ms"`
		TotalLinesAdded    int                        `json:"total_lines_added"`
		TotalLinesRemoved  int                        `json:"total_lines_removed"`
		ModelUsage         map[string]json.RawMessage `json:"model_usage"`
	} `json:"session"`
	// SubscriptionType is "pro", "max", "team", "enterprise", or "" for
	// an API key.
	SubscriptionType string `json:"subscription_type"`
	// RateLimitsAvailable is false where plan limits do not apply (an
	// API key); the rest of Raw then has none.
	RateLimitsAvailable bool `json:"rate_limits_available"`
	// Raw is the CLI's whole answer.
	Raw json.RawMessage `json:"-"`
}

// Usage returns the session's cost and usage; skipBehaviors skips the
// scan of local transcripts that the answer's "behaviors" need.
func (s *Session) Usage(ctx context.Context, skipBehaviors bool) (*Usage, error) {
	fields := struct {
		SkipBehaviors bool `json:"skip_behaviors,omitempty"`
	}{skipBehaviors}
	raw, err := s.control(ctx, "get_usage", fields)
	if err != nil {
		return nil, err
	}
	out := &Usage{Raw: raw}
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, fmt.Errorf("claude: get_usage: malformed answer: %w", err)
	}
	return out, nil
}

// MCPResourceContents is a resource an MCP server gave ReadMCPResource.
type MCPResourceContents struct {
	Contents []struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType,omitempty"`
		Text     string `json:"text,omitempty"`
		// Blob is base64, for binary contents.
		Blob string          `json:"blob,omitempty"`
		Meta json.RawMessage `json:"_meta,omitempty"`
	} `json:"contents"`
}

// ReadMCPResource reads the MCP Apps resource uri (a ui:// URI, such as
// a tool's _meta.ui.resourceUri) from server, a server the CLI connects
// to itself, for the host to render (sandboxed: it is untrusted HTML).
// It needs a CLI with the system/init capability "mcp_read_resource_v1".
func (s *Session) ReadMCPResource(ctx context.Context, server, uri string) (*MCPResourceContents, error) {
	out := &MCPResourceContents{}
	if err := s.controlInto(ctx, "mcp_read_resource", struct {
		ServerName string `json:"serverName"`
		URI        string `json:"uri"`
	}{server, uri}, out); err != nil {
		return nil, err
	}
	return out, nil
}
