package claude

import "encoding/json"

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
	// MCPServers are more MCP servers for the agent: servers of the
	// session by name, or servers of its own.
	MCPServers []AgentMCPServer `json:"mcpServers,omitempty"`
	// CriticalSystemReminder is added to the agent's system prompt
	// (experimental in the CLI).
	CriticalSystemReminder string `json:"criticalSystemReminder_EXPERIMENTAL,omitempty"`
	// Skills are skills to load into the agent's context.
	Skills []string `json:"skills,omitempty"`
	// InitialPrompt is sent as the first user turn when the agent is the
	// main thread's.
	InitialPrompt string `json:"initialPrompt,omitempty"`
	// MaxTurns bounds the agent's API round trips.
	MaxTurns int `json:"maxTurns,omitempty"`
	// AutoCompactWindow, for a subagent, is the token count at which it
	// compacts its conversation (only lower than the one it inherits).
	AutoCompactWindow int `json:"autoCompactWindow,omitempty"`
	// OmitClaudeMd runs the subagent without the user's, project's and
	// local CLAUDE.md files.
	OmitClaudeMd bool `json:"omitClaudeMd,omitempty"`
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
	// Observer names agents (up to four, comma-separated) that run beside
	// this one and report on what it does, reading digests of its
	// activity; ObserverMessage is appended to each digest.
	Observer        string `json:"observer,omitempty"`
	ObserverMessage string `json:"observerMessage,omitempty"`
}

// An AgentMCPServer is an MCP server of a subagent: a server of the
// session, by Name alone, or one of its own, Name with Config.
type AgentMCPServer struct {
	Name   string
	Config *MCPServerConfig
}

// MarshalJSON writes s as the CLI reads it: the name, or an object of
// the name and the config.
func (s AgentMCPServer) MarshalJSON() ([]byte, error) {
	if s.Config == nil {
		return json.Marshal(s.Name)
	}
	return json.Marshal(map[string]*MCPServerConfig{s.Name: s.Config})
}
