package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// The initialize request, which the host sends first, declares what the
// CLI takes only there (hooks, agents, and the options below); the CLI's
// answer says what the session offers: commands, models, agents, the
// account.

// initializeRequest is the initialize request's fields, as the
// TypeScript SDK 0.3.332 sends them. "hooks": null is what the Python
// SDK sends without hooks.
type initializeRequest struct {
	Hooks                  map[HookEvent][]hookMatcherDecl `json:"hooks"`
	Agents                 map[string]AgentDefinition      `json:"agents,omitempty"`
	SDKMCPServers          []string                        `json:"sdkMcpServers,omitempty"`
	SDKMCPServerConfigs    map[string]sdkServerConfig      `json:"sdkMcpServerConfigs,omitempty"`
	SystemPrompt           []string                        `json:"systemPrompt,omitempty"`
	ExcludeDynamicSections bool                            `json:"excludeDynamicSections,omitempty"`
	PlanModeInstructions   string                          `json:"planModeInstructions,omitempty"`
	ToolAliases            map[string]string               `json:"toolAliases,omitempty"`
	Title                  string                          `json:"title,omitempty"`
	Skills                 []string                        `json:"skills,omitempty"`
	PromptSuggestions      bool                            `json:"promptSuggestions,omitempty"`
	AgentProgressSummaries bool                            `json:"agentProgressSummaries,omitempty"`
	ForwardSubagentText    bool                            `json:"forwardSubagentText,omitempty"`
	SupportedDialogKinds   []string                        `json:"supportedDialogKinds,omitempty"`
	PerTaskStopAffordance  bool                            `json:"perTaskStopAffordance,omitempty"`
	Plugins                []pluginConfig                  `json:"plugins,omitempty"`
	MCPServers             map[string]MCPServerConfig      `json:"mcpServers,omitempty"`
}

// sdkServerConfig is what the CLI keeps for a server of this process
// (the initialize request's sdkMcpServerConfigs).
type sdkServerConfig struct {
	// Timeout is the tool-call timeout in milliseconds.
	Timeout int64 `json:"timeout,omitempty"`
}

// pluginConfig is a plugin as the initialize request lists it.
type pluginConfig struct {
	Type             string `json:"type"`
	Path             string `json:"path"`
	SkipMCPDiscovery bool   `json:"skipMcpDiscovery,omitempty"`
}

// pluginConfigs lists plugins as the control protocol does.
func pluginConfigs(plugins []Plugin) []pluginConfig {
	var out []pluginConfig
	for _, p := range plugins {
		out = append(out, pluginConfig{Type: "local", Path: p.Path, SkipMCPDiscovery: p.SkipMCPDiscovery})
	}
	return out
}

// initializeRequest builds the initialize request of a session with
// opts and hooks.
func (opts *Options) initializeRequest(hooks *hookRegistry) (*initializeRequest, error) {
	req := &initializeRequest{Hooks: hooks.decl}
	if len(opts.Agents) > 0 {
		for name, a := range opts.Agents {
			if name == "" || a.Description == "" || a.Prompt == "" {
				return nil, fmt.Errorf("claude: Options.Agents[%q] needs a name, a Description and a Prompt", name)
			}
		}
		req.Agents = opts.Agents
	}
	for name := range opts.Servers {
		req.SDKMCPServers = append(req.SDKMCPServers, name)
	}
	slices.Sort(req.SDKMCPServers)
	for name, timeout := range opts.ServerTimeouts {
		// The CLI takes it from --mcp-config (sdkServer), where it
		// registers the server before initialize; as the TypeScript SDK,
		// which declares its servers only here, the request says it too.
		if opts.Servers[name] == nil {
			return nil, fmt.Errorf("claude: Options.ServerTimeouts[%q]: no such server in Options.Servers", name)
		}
		if req.SDKMCPServerConfigs == nil {
			req.SDKMCPServerConfigs = map[string]sdkServerConfig{}
		}
		req.SDKMCPServerConfigs[name] = sdkServerConfig{Timeout: timeout.Milliseconds()}
	}
	if len(opts.SystemPromptBlocks) > 0 {
		if opts.SystemPrompt != "" || opts.ClaudeCodePrompt {
			return nil, fmt.Errorf("claude: set one of Options.SystemPrompt, SystemPromptBlocks and ClaudeCodePrompt")
		}
		req.SystemPrompt = opts.SystemPromptBlocks
	}
	if opts.ExcludeDynamicSections && !opts.ClaudeCodePrompt {
		return nil, fmt.Errorf("claude: Options.ExcludeDynamicSections applies to Claude Code's own prompt: set ClaudeCodePrompt")
	}
	req.ExcludeDynamicSections = opts.ExcludeDynamicSections
	req.PlanModeInstructions = opts.PlanModeInstructions
	req.ToolAliases = opts.ToolAliases
	req.Title = opts.Title
	if opts.Skills != nil && !opts.AllSkills {
		req.Skills = opts.Skills
	}
	req.PromptSuggestions = opts.PromptSuggestions
	req.AgentProgressSummaries = opts.AgentProgressSummaries
	req.ForwardSubagentText = opts.ForwardSubagentText
	if len(opts.SupportedDialogKinds) > 0 && opts.OnUserDialog == nil {
		return nil, fmt.Errorf("claude: Options.SupportedDialogKinds needs Options.OnUserDialog")
	}
	req.SupportedDialogKinds = opts.SupportedDialogKinds
	req.PerTaskStopAffordance = opts.PerTaskStopAffordance
	if opts.PluginDelivery == DeliverInInitialize {
		req.Plugins = pluginConfigs(opts.Plugins)
	}
	if opts.MCPServersDelivery == DeliverInInitialize && len(opts.MCPServers) > 0 {
		req.MCPServers = opts.MCPServers
	}
	return req, nil
}

// InitializeResult is the CLI's answer to the initialize request: what
// the session offers (the TypeScript SDK's SDKControlInitializeResponse).
type InitializeResult struct {
	// Commands are the slash commands and skills the session has.
	Commands []SlashCommand `json:"commands"`
	// Agents are the subagents the model can use, Options.Agents
	// included.
	Agents []AgentInfo `json:"agents"`
	// OutputStyle is the session's output style, and
	// AvailableOutputStyles all there are.
	OutputStyle           string   `json:"output_style"`
	AvailableOutputStyles []string `json:"available_output_styles"`
	// Models are the models the account can use.
	Models []ModelInfo `json:"models"`
	// Account is who the CLI runs as.
	Account AccountInfo `json:"account"`
	// HooksApplied says whether the request's hooks were registered; nil
	// when it had none.
	HooksApplied *bool `json:"hooks_applied,omitempty"`
	// HookOnFailureSupported is true when the CLI honours
	// HookMatcher.OnFailure.
	HookOnFailureSupported bool `json:"hook_on_failure_supported,omitempty"`
	// PluginsApplied and MCPServersApplied say whether the plugins and
	// servers the request carried (Options.PluginDelivery and
	// MCPServersDelivery DeliverInInitialize) were loaded at launch; nil
	// when it carried none.
	PluginsApplied    *bool `json:"plugins_applied,omitempty"`
	MCPServersApplied *bool `json:"mcp_servers_applied,omitempty"`
	// ClaudeCodeVersion is the CLI's version.
	ClaudeCodeVersion string `json:"claude_code_version,omitempty"`
	// FastModeState is "off", "cooldown" or "on", and
	// FastModeDisabledReason why it is off.
	FastModeState          string `json:"fast_mode_state,omitempty"`
	FastModeDisabledReason string `json:"fast_mode_disabled_reason,omitempty"`
	// Raw is the whole answer, which holds more.
	Raw json.RawMessage `json:"-"`
}

// A SlashCommand is a command or skill the session offers, invoked as
// /name.
type SlashCommand struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint"`
	// Aliases are other names that run it.
	Aliases []string `json:"aliases,omitempty"`
	// Builtin is true for Claude Code's own commands.
	Builtin bool `json:"builtin,omitempty"`
}

// ModelInfo is a model the session can use.
type ModelInfo struct {
	// Value is what SetModel and Options.Model take ("default",
	// "sonnet", a model id).
	Value string `json:"value"`
	// ResolvedModel is the model id Value stands for.
	ResolvedModel string `json:"resolvedModel,omitempty"`
	DisplayName   string `json:"displayName"`
	Description   string `json:"description"`
	// SupportsEffort says whether Options.Effort applies, with the
	// levels in SupportedEffortLevels.
	SupportsEffort           bool     `json:"supportsEffort,omitempty"`
	SupportedEffortLevels    []string `json:"supportedEffortLevels,omitempty"`
	SupportsAdaptiveThinking bool     `json:"supportsAdaptiveThinking,omitempty"`
	SupportsFastMode         bool     `json:"supportsFastMode,omitempty"`
	SupportsAutoMode         bool     `json:"supportsAutoMode,omitempty"`
}

// AgentInfo is a subagent the session offers.
type AgentInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Model is an alias, a model id or "inherit"; empty means the CLI's
	// subagent default.
	Model string `json:"model,omitempty"`
}

// AccountInfo is who the CLI runs as.
type AccountInfo struct {
	Email            string `json:"email,omitempty"`
	Organization     string `json:"organization,omitempty"`
	SubscriptionType string `json:"subscriptionType,omitempty"`
	TokenSource      string `json:"tokenSource,omitempty"`
	// APIKeySource is where the API key came from: "ANTHROPIC_API_KEY",
	// "apiKeyHelper", "/login managed key" or "none".
	APIKeySource string `json:"apiKeySource,omitempty"`
	// APIProvider is "firstParty", "bedrock", "vertex", "foundry", …
	APIProvider string `json:"apiProvider,omitempty"`
}

// parseInitializeResult decodes the CLI's answer to initialize.
func parseInitializeResult(raw json.RawMessage) (*InitializeResult, error) {
	r := &InitializeResult{Raw: raw}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, r); err != nil {
			return nil, fmt.Errorf("claude: initialize: malformed answer: %w", err)
		}
	}
	return r, nil
}

// InitializationResult returns the CLI's answer to the initialize request
// that Start sent.
func (s *Session) InitializationResult() *InitializeResult { return s.initResult }

// SupportedCommands returns the slash commands and skills of the
// session, as the CLI listed them in its answer to initialize.
func (s *Session) SupportedCommands() []SlashCommand { return s.initResult.Commands }

// SupportedModels returns the models the session can use, as the CLI
// listed them in its answer to initialize.
func (s *Session) SupportedModels() []ModelInfo { return s.initResult.Models }

// SupportedAgents returns the subagents of the session, as the CLI
// listed them in its answer to initialize.
func (s *Session) SupportedAgents() []AgentInfo { return s.initResult.Agents }

// AccountInfo returns who the CLI runs as, from its answer to
// initialize.
func (s *Session) AccountInfo() AccountInfo { return s.initResult.Account }

// Reinitialize sends the initialize request again and returns the CLI's
// fresh answer; InitializationResult keeps the first. The CLI registers
// the hooks again from it (HooksApplied).
func (s *Session) Reinitialize(ctx context.Context) (*InitializeResult, error) {
	raw, err := s.control(ctx, "initialize", s.init)
	if err != nil {
		return nil, err
	}
	return parseInitializeResult(raw)
}
