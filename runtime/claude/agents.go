package claude

// An AgentDefinition is a subagent: the model hands it work with its
// Agent tool (subagent_type set to the agent's name), and it runs with
// its own system prompt and tools, then reports back.
type AgentDefinition struct {
	// Description tells the model when to use the agent.
	Description string `json:"description"`
	// Prompt is the agent's system prompt.
	Prompt string `json:"prompt"`
	// Tools the agent may use, MCP tools by their full names
	// (mcp__<server>__<tool>); nil means all of the session's.
	Tools []string `json:"tools,omitempty"`
	// DisallowedTools are taken away; "mcp__<server>" removes a server's.
	DisallowedTools []string `json:"disallowedTools,omitempty"`
	// Model is an alias ("sonnet", "opus", "haiku"), a model id, or
	// "inherit"; empty means the CLI's subagent default.
	Model string `json:"model,omitempty"`
	// MCPServers are more MCP servers for the agent: names of the
	// session's servers, or one-entry maps of a name to a config.
	MCPServers []any `json:"mcpServers,omitempty"`
	// Skills are skills to load into the agent's context.
	Skills []string `json:"skills,omitempty"`
	// InitialPrompt is sent as the first user turn when the agent is the
	// main thread's.
	InitialPrompt string `json:"initialPrompt,omitempty"`
	// MaxTurns bounds the agent's API round trips.
	MaxTurns int `json:"maxTurns,omitempty"`
	// Background runs the agent as a background task.
	Background bool `json:"background,omitempty"`
	// Memory is "user", "project" or "local": where the agent's memory
	// files are.
	Memory string `json:"memory,omitempty"`
	// Effort is the agent's reasoning effort: a level such as "high", or
	// a number.
	Effort any `json:"effort,omitempty"`
	// PermissionMode is the agent's permission mode.
	PermissionMode PermissionMode `json:"permissionMode,omitempty"`
}
