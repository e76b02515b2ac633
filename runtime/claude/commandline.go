package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The command line and the environment the host starts the CLI with,
// from Options, the way the Agent SDKs build them; what the CLI reads in
// the initialize request instead is in initialize.go.

// settingsJSON merges opts.Sandbox into opts.Settings, as the
// TypeScript SDK does. A sandbox that is enabled fails when the CLI
// cannot sandbox, unless FailIfUnavailable says otherwise.
func (opts *Options) settingsJSON() (string, error) {
	if opts.Sandbox == nil {
		return opts.Settings, nil
	}
	settings := map[string]any{}
	if s := strings.TrimSpace(opts.Settings); s != "" {
		if !strings.HasPrefix(s, "{") {
			return "", errors.New("claude: Options.Sandbox needs Options.Settings to be JSON text, not a path: put the sandbox settings in the file instead")
		}
		if err := json.Unmarshal([]byte(s), &settings); err != nil {
			return "", fmt.Errorf("claude: Options.Settings is not a JSON object: %w", err)
		}
	}
	sb := *opts.Sandbox
	if sb.Enabled && sb.FailIfUnavailable == nil {
		t := true
		sb.FailIfUnavailable = &t
	}
	b, err := json.Marshal(sb)
	if err != nil {
		return "", err
	}
	m := map[string]any{}
	json.Unmarshal(b, &m)
	for k, v := range sb.Extra {
		if _, set := m[k]; !set {
			m[k] = v
		}
	}
	settings["sandbox"] = m
	b, err = json.Marshal(settings)
	return string(b), err
}

// outputSchema is the JSON Schema of the structured result opts ask
// for, or "".
func (opts *Options) outputSchema() (string, error) {
	if opts.OutputType != nil && opts.OutputSchema != "" {
		return "", errors.New("claude: set Options.OutputType or Options.OutputSchema, not both")
	}
	text := opts.OutputSchema
	if opts.OutputType != nil {
		s, ok := opts.OutputType.(interface{ MCPSchema() string })
		if !ok {
			// MCPSchema has a pointer receiver; accept a value too.
			if t := reflect.TypeOf(opts.OutputType); t.Kind() != reflect.Pointer {
				s, ok = reflect.New(t).Interface().(interface{ MCPSchema() string })
			}
		}
		if !ok {
			return "", fmt.Errorf("claude: Options.OutputType: %T has no MCPSchema method: mark the type with //mcp:output and run go generate (or give its JSON Schema in Options.OutputSchema)", opts.OutputType)
		}
		text = s.MCPSchema()
	}
	if text == "" {
		return "", nil
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		return "", fmt.Errorf("claude: the structured output's schema is not a JSON object: %w", err)
	}
	compact, _ := json.Marshal(obj)
	return string(compact), nil
}

// args builds the command line the way the Agent SDKs do.
func (opts *Options) args() ([]string, error) {
	args := []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json"}
	if !opts.ClaudeCodePrompt {
		args = append(args, "--system-prompt", opts.SystemPrompt)
	}
	if opts.AppendSystemPrompt != "" {
		args = append(args, "--append-system-prompt", opts.AppendSystemPrompt)
	}
	switch opts.Thinking.Mode {
	case "", "enabled":
		if opts.Thinking.BudgetTokens > 0 {
			args = append(args, "--max-thinking-tokens", strconv.Itoa(opts.Thinking.BudgetTokens))
		} else if opts.Thinking.Mode == "enabled" {
			args = append(args, "--thinking=adaptive") // as the TypeScript SDK does without a budget
		}
	case "adaptive", "disabled":
		args = append(args, "--thinking="+opts.Thinking.Mode)
	default:
		return nil, fmt.Errorf("claude: Options.Thinking.Mode %q: want adaptive, enabled or disabled", opts.Thinking.Mode)
	}
	if opts.Thinking.Display != "" && opts.Thinking.Mode != "disabled" {
		args = append(args, "--thinking-display", opts.Thinking.Display)
	}
	if opts.Effort != "" {
		args = append(args, "--effort", opts.Effort)
	}
	if opts.MaxTurns > 0 {
		args = append(args, "--max-turns", strconv.Itoa(opts.MaxTurns))
	}
	if opts.MaxBudgetUSD > 0 {
		args = append(args, "--max-budget-usd", strconv.FormatFloat(opts.MaxBudgetUSD, 'f', -1, 64))
	}
	if opts.TaskBudget > 0 {
		args = append(args, "--task-budget", strconv.Itoa(opts.TaskBudget))
	}
	if opts.Model != "" {
		args = append(args, "--model", opts.Model)
	}
	if opts.Agent != "" {
		args = append(args, "--agent", opts.Agent)
	}
	if opts.FallbackModel != "" {
		if opts.FallbackModel == opts.Model {
			return nil, errors.New("claude: Options.FallbackModel is the same as Options.Model")
		}
		args = append(args, "--fallback-model", opts.FallbackModel)
	}
	if len(opts.Betas) > 0 {
		args = append(args, "--betas", strings.Join(opts.Betas, ","))
	}
	schema, err := opts.outputSchema()
	if err != nil {
		return nil, err
	}
	if schema != "" {
		args = append(args, "--json-schema", schema)
	}
	switch {
	case opts.DebugFile != "":
		args = append(args, "--debug-file", opts.DebugFile)
	case opts.Debug:
		args = append(args, "--debug")
	}
	switch {
	case opts.CanUseTool != nil:
		args = append(args, "--permission-prompt-tool", "stdio")
	case opts.PermissionPromptTool != "":
		args = append(args, "--permission-prompt-tool", opts.PermissionPromptTool)
	}
	switch opts.PermissionPrompts {
	case "":
	case "host", "none":
		args = append(args, "--permission-prompts", opts.PermissionPrompts)
	default:
		return nil, fmt.Errorf("claude: Options.PermissionPrompts %q: want host or none", opts.PermissionPrompts)
	}
	if opts.Continue {
		args = append(args, "--continue")
	}
	if opts.Resume != "" {
		args = append(args, "--resume", opts.Resume)
	}
	allowed, err := opts.allowedTools()
	if err != nil {
		return nil, err
	}
	if len(allowed) > 0 {
		args = append(args, "--allowedTools", strings.Join(allowed, ","))
	}
	if len(opts.DisallowedTools) > 0 {
		args = append(args, "--disallowedTools", strings.Join(opts.DisallowedTools, ","))
	}
	if opts.Tools != nil {
		args = append(args, "--tools", strings.Join(opts.Tools, ","))
	}
	for _, d := range []struct {
		name string
		d    Delivery
	}{{"MCPServersDelivery", opts.MCPServersDelivery}, {"PluginDelivery", opts.PluginDelivery}} {
		if d.d != "" && d.d != DeliverOnCommandLine && d.d != DeliverInInitialize {
			return nil, fmt.Errorf("claude: Options.%s %q: want %q or %q", d.name, d.d, DeliverOnCommandLine, DeliverInInitialize)
		}
	}
	cfg, err := opts.mcpConfig()
	if err != nil {
		return nil, err
	}
	if cfg != "" {
		args = append(args, "--mcp-config", cfg)
	}
	if opts.SettingSources != nil {
		var names []string
		for _, s := range opts.SettingSources {
			names = append(names, string(s))
		}
		// One token: an empty list must stay an (empty) value.
		args = append(args, "--setting-sources="+strings.Join(names, ","))
	}
	if opts.StrictMCPConfig {
		args = append(args, "--strict-mcp-config")
	}
	if opts.PermissionMode != "" {
		args = append(args, "--permission-mode", string(opts.PermissionMode))
	}
	if opts.AllowDangerouslySkipPermissions {
		args = append(args, "--allow-dangerously-skip-permissions")
	}
	if opts.IncludeHookEvents {
		args = append(args, "--include-hook-events")
	}
	if opts.IncludePartialMessages {
		args = append(args, "--include-partial-messages")
	}
	if opts.ProjectConfigRoot != "" {
		args = append(args, "--project-config-root", opts.ProjectConfigRoot)
	}
	for _, d := range opts.AddDirs {
		args = append(args, "--add-dir", d)
	}
	if opts.awaitsInitialize() {
		args = append(args, "--await-initialize")
	}
	if opts.PluginDelivery != DeliverInInitialize {
		for _, p := range opts.Plugins {
			if p.SkipMCPDiscovery {
				args = append(args, "--plugin-dir-no-mcp", p.Path)
			} else {
				args = append(args, "--plugin-dir", p.Path)
			}
		}
	}
	if opts.ForkSession {
		if opts.Resume == "" && !opts.Continue {
			return nil, errors.New("claude: Options.ForkSession needs Options.Resume or Options.Continue")
		}
		args = append(args, "--fork-session")
	}
	if opts.ResumeSessionAt != "" {
		args = append(args, "--resume-session-at", opts.ResumeSessionAt)
	}
	if opts.ResumeDropsTurn != "" {
		if opts.ResumeSessionAt == "" {
			return nil, errors.New("claude: Options.ResumeDropsTurn needs Options.ResumeSessionAt")
		}
		args = append(args, "--resume-drops-turn", opts.ResumeDropsTurn)
	}
	if opts.SessionID != "" {
		args = append(args, "--session-id", opts.SessionID)
	}
	if opts.NoSessionPersistence {
		if opts.SessionStore != nil {
			return nil, errors.New("claude: Options.SessionStore needs the session on disk: unset NoSessionPersistence")
		}
		args = append(args, "--no-session-persistence")
	}
	if opts.SessionStore != nil {
		args = append(args, "--session-mirror")
	}
	settings, err := opts.settingsJSON()
	if err != nil {
		return nil, err
	}
	if settings != "" {
		args = append(args, "--settings", settings)
	}
	if opts.ManagedSettings != "" {
		args = append(args, "--managed-settings", opts.ManagedSettings)
	}
	return append(args, opts.ExtraArgs...), nil
}

// awaitsInitialize reports whether the CLI must read the initialize
// request at launch, for what opts deliver there.
func (opts *Options) awaitsInitialize() bool {
	return opts.MCPServersDelivery == DeliverInInitialize && len(opts.MCPServers) > 0 ||
		opts.PluginDelivery == DeliverInInitialize && len(opts.Plugins) > 0
}

// allowedTools is AllowedTools, with the skills of Skills or AllSkills
// allowed as the TypeScript SDK allows them: "Skill" for all, else
// "Skill(name)" for each.
func (opts *Options) allowedTools() ([]string, error) {
	if opts.AllSkills && opts.Skills != nil {
		return nil, errors.New("claude: set Options.Skills or Options.AllSkills, not both")
	}
	var skills []string
	switch {
	case opts.AllSkills:
		skills = []string{"Skill"}
	case opts.Skills != nil:
		for _, name := range opts.Skills {
			if name == "" || name != strings.TrimSpace(name) {
				return nil, fmt.Errorf("claude: Options.Skills: skill name %q is empty or has spaces around it", name)
			}
			skills = append(skills, "Skill("+name+")")
		}
	}
	allowed := slices.Clone(opts.AllowedTools)
	for _, s := range skills {
		if !slices.Contains(allowed, s) {
			allowed = append(allowed, s)
		}
	}
	return allowed, nil
}

// mcpConfig is the --mcp-config JSON declaring Servers (as "sdk"
// servers, which the CLI reaches through the host) and MCPServers, or ""
// when there are none.
func (opts *Options) mcpConfig() (string, error) {
	if len(opts.Servers) == 0 && len(opts.MCPServers) == 0 {
		return "", nil
	}
	servers := map[string]any{}
	for name, srv := range opts.Servers {
		if srv == nil {
			return "", fmt.Errorf("claude: server %q is nil", name)
		}
		if !validServerName(name) {
			return "", fmt.Errorf("claude: server name %q must match ^[a-zA-Z0-9_-]{1,64}$", name)
		}
		if err := srv.Check(); err != nil {
			return "", fmt.Errorf("claude: server %q: %w", name, err)
		}
		servers[name] = sdkServer(name, opts.ServerTimeouts[name])
	}
	for name, c := range opts.MCPServers {
		if _, dup := opts.Servers[name]; dup {
			return "", fmt.Errorf("claude: server %q is in both Options.Servers and Options.MCPServers", name)
		}
		if !validServerName(name) {
			return "", fmt.Errorf("claude: server name %q must match ^[a-zA-Z0-9_-]{1,64}$", name)
		}
		if err := c.check(); err != nil {
			return "", fmt.Errorf("claude: MCP server %q: %w", name, err)
		}
		if opts.MCPServersDelivery != DeliverInInitialize {
			servers[name] = c
		}
	}
	if len(servers) == 0 {
		return "", nil
	}
	cfg, err := json.Marshal(map[string]any{"mcpServers": servers})
	return string(cfg), err
}

// sdkServer declares a server of this process to the CLI. It needs
// "name": without it the CLI silently ignores the server.
func sdkServer(name string, timeout time.Duration) any {
	return struct {
		Type    string `json:"type"`
		Name    string `json:"name"`
		Timeout int64  `json:"timeout,omitempty"` // in milliseconds
	}{"sdk", name, timeout.Milliseconds()}
}

// environ is this process's environment, without CLAUDECODE (which would
// make the CLI think it runs inside itself), plus opts.Env.
func (opts *Options) environ() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "CLAUDECODE=") })
	if !slices.ContainsFunc(opts.Env, func(kv string) bool { return strings.HasPrefix(kv, "CLAUDE_CODE_ENTRYPOINT=") }) {
		env = append(env, "CLAUDE_CODE_ENTRYPOINT=sdk-go")
	}
	// A CLI that refuses to start then says why in a result (see
	// StartupError), not only on its stderr.
	env = append(env, "CLAUDE_CODE_STARTUP_FAILURE_RESULTS=1")
	if opts.FileCheckpointing {
		// The CLI takes this one only from its environment.
		env = append(env, "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true")
	}
	if f := opts.ToolConfig.AskUserQuestionPreviewFormat; f != "" {
		env = append(env, "CLAUDE_CODE_QUESTION_PREVIEW_FORMAT="+f)
	}
	return append(env, opts.Env...)
}
