package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Options configure a session with the Claude Code CLI. The zero value
// runs the CLI found in PATH with an empty system prompt and no tools of
// this process. What the CLI takes as a flag is passed on its command
// line; what it takes only in the control protocol's initialize request
// (Hooks, Agents) is sent there.
type Options struct {
	// Path is the CLI executable. Empty means "claude", looked up in PATH.
	Path string
	// Servers are the MCP servers hosted in this process, by name; the
	// model sees their tools as mcp__<name>__<tool>.
	Servers map[string]*runtime.Server
	// MCPServers are MCP servers the CLI connects to itself (a command it
	// starts, or a URL), by name, next to Servers.
	MCPServers map[string]MCPServerConfig
	// StrictMCPConfig makes the CLI use only Servers and MCPServers,
	// ignoring the MCP servers of its settings files.
	StrictMCPConfig bool

	// CanUseTool, if set, decides whether the CLI may run a tool that
	// AllowedTools does not already allow (the CLI is started with
	// --permission-prompt-tool stdio). Without it, such tools are denied.
	CanUseTool func(ctx context.Context, req PermissionRequest) (PermissionResult, error)
	// Hooks are the functions the CLI calls at the events of a session
	// (before a tool runs, after, when the turn stops, …), with the
	// matchers that select them.
	Hooks map[HookEvent][]HookMatcher
	// OnElicitation, if set, answers the questions that MCPServers ask the
	// user (MCP elicitation). Without it they are declined, as in the
	// Agent SDKs. Servers in this process cannot ask: the CLI does not
	// offer them elicitation (runtime.Elicit returns
	// runtime.ErrNotSupported).
	OnElicitation func(ctx context.Context, req ElicitationRequest) (ElicitationResult, error)
	// Agents are subagents the model can hand work to with its Agent
	// tool, by name.
	Agents map[string]AgentDefinition
	// Agent names the agent (one of Agents, or of the CLI's settings) that
	// runs the main thread: its prompt, tools and model replace the
	// session's.
	Agent string

	// Model is the model to use; empty means the CLI's default.
	Model string
	// FallbackModel is used when Model is overloaded.
	FallbackModel string
	// MaxTurns bounds the agentic turns of each prompt; 0 means no bound.
	MaxTurns int
	// MaxBudgetUSD ends a prompt's run, with a result of subtype
	// "error_max_budget_usd", once its cost exceeds this many dollars; 0
	// means no bound.
	MaxBudgetUSD float64
	// Thinking sets the model's extended thinking; the zero value leaves
	// the CLI's default.
	Thinking Thinking
	// Effort is the model's reasoning effort ("low", "medium", "high",
	// "xhigh", "max"), for models that have it.
	Effort string
	// Betas are Anthropic API beta headers to send, such as
	// "context-1m-2025-08-07".
	Betas []string

	// SystemPrompt replaces the system prompt. Empty means an empty system
	// prompt, as in the Agent SDKs, unless ClaudeCodePrompt is set.
	SystemPrompt string
	// ClaudeCodePrompt keeps Claude Code's own system prompt (and ignores
	// SystemPrompt).
	ClaudeCodePrompt bool
	// AppendSystemPrompt is appended to the system prompt.
	AppendSystemPrompt string

	// Tools, if non-nil, is the set of built-in tools the model has
	// ("Read", "Bash", …); an empty non-nil slice means none. Nil means
	// the CLI's default set.
	Tools []string
	// AllowedTools run without asking, such as "mcp__tickets__create_ticket"
	// or "mcp__tickets__*".
	AllowedTools []string
	// DisallowedTools are removed from the model's tools.
	DisallowedTools []string
	// PermissionMode says how the CLI asks before it runs a tool; empty
	// means the CLI's default.
	PermissionMode PermissionMode
	// AllowDangerouslySkipPermissions lets SetPermissionMode switch to
	// PermissionBypass later in the session.
	AllowDangerouslySkipPermissions bool
	// PermissionPromptTool names an MCP tool that answers permission
	// checks, instead of CanUseTool (which takes precedence).
	PermissionPromptTool string

	// OutputType asks for a structured result: a value (or pointer) of a
	// Go type marked //mcp:output, for which go generate writes an
	// MCPSchema method returning the type's JSON Schema. The model then
	// ends each prompt by giving an object of that schema, and
	// ResultMessage.DecodeStructuredOutput decodes it. Start fails if the
	// type has no MCPSchema method.
	OutputType any
	// OutputSchema is the JSON Schema of a structured result, as text,
	// for types mcpgen does not generate. Set OutputType or OutputSchema,
	// not both.
	OutputSchema string

	// Resume continues the session with this id: its earlier turns are
	// sent to the model with the next prompt.
	Resume string
	// Continue continues the most recent session of Dir.
	Continue bool
	// ForkSession, with Resume or Continue, continues under a new session
	// id, leaving the original session as it was.
	ForkSession bool
	// ResumeSessionAt, with Resume, resumes only up to the message with
	// this uuid.
	ResumeSessionAt string
	// SessionID is the id (a UUID) of a new session; empty lets the CLI
	// choose one.
	SessionID string
	// NoSessionPersistence keeps the CLI from saving the session to disk,
	// so it cannot be resumed.
	NoSessionPersistence bool

	// IncludePartialMessages delivers the model's output as it streams,
	// as *StreamEvent messages, before each complete *AssistantMessage.
	IncludePartialMessages bool
	// IncludeHookEvents delivers the progress of the hooks of settings
	// files as system messages ("hook_started", "hook_response").
	IncludeHookEvents bool

	// SettingSources, if non-nil, are the settings files the CLI loads
	// ("user", "project", "local"); an empty non-nil slice loads none.
	// Nil leaves the CLI's default, all of them.
	SettingSources []SettingSource
	// Settings is more settings, as JSON text or the path of a file.
	Settings string
	// Sandbox, if set, runs the Bash tool in a sandbox with these
	// settings. They are merged into Settings, which must then be JSON
	// text, not a path.
	Sandbox *SandboxSettings
	// Plugins are local plugin folders to load.
	Plugins []Plugin
	// AddDirs are more folders, besides Dir, that the tools may use.
	AddDirs []string
	// FileCheckpointing makes the CLI keep a checkpoint of the files it
	// changes at each user message, for Session.RewindFiles. An
	// administrator's managed settings with fileCheckpointingEnabled
	// false (the machine's managed-settings.json, say) keep it off;
	// ManagedSettings, the host's own, do not.
	FileCheckpointing bool

	// Dir is the CLI's working directory; empty means the current one.
	// Sessions are kept per directory.
	Dir string
	// Env holds KEY=VALUE entries added to this process's environment for
	// the CLI (set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL here, say).
	Env []string
	// ExtraArgs are appended to the CLI's command line.
	ExtraArgs []string
	// Stderr, if set, receives the CLI's standard error. The last lines
	// are kept either way, for error messages.
	Stderr io.Writer
	// Logger receives the host's own diagnostics. Nil means a text logger
	// on stderr.
	Logger *slog.Logger
	// ServerTimeouts bound each tool call of a server of Servers, by
	// name; the CLI ignores values under a second. Without one the CLI's
	// MCP_TOOL_TIMEOUT applies, which is unbounded by default.
	ServerTimeouts map[string]time.Duration
	// MCPServersDelivery says how MCPServers reach the CLI: on its command
	// line (DeliverOnCommandLine, the default) or in the initialize
	// request (DeliverInInitialize), which keeps their env and headers
	// off the process list, where other users of the machine can read
	// them. The Agent SDKs deprecate the command line for them.
	MCPServersDelivery Delivery
	// PluginDelivery says how Plugins reach the CLI: as --plugin-dir
	// flags, or in the initialize request.
	PluginDelivery Delivery

	// Title is the title of a new session, instead of one the CLI makes
	// up from the first prompt. A resumed session keeps its own.
	Title string
	// Skills, if non-nil, are the only skills the model may use (by
	// name, or plugin:skill): they are allowed, and the others hidden.
	// AllSkills allows every skill instead.
	Skills    []string
	AllSkills bool
	// SystemPromptBlocks is a system prompt in blocks, instead of
	// SystemPrompt: put SystemPromptDynamicBoundary between the blocks
	// that are the same for every session (which the API can cache
	// across sessions) and those that are not.
	SystemPromptBlocks []string
	// ExcludeDynamicSections, with ClaudeCodePrompt, moves the parts of
	// Claude Code's prompt that differ per user (working directory,
	// memory, git status) to the first user message, so that the system
	// prompt is the same for every user.
	ExcludeDynamicSections bool
	// PlanModeInstructions replace the workflow Claude Code's plan mode
	// asks for.
	PlanModeInstructions string
	// ToolAliases redirect the model's calls of a tool name to another
	// tool, such as {"Bash": "mcp__sandbox__bash"}.
	ToolAliases map[string]string
	// PromptSuggestions makes the CLI suggest the user's next prompt
	// after each turn (a "prompt_suggestion" message, after the result).
	PromptSuggestions bool
	// AgentProgressSummaries makes the CLI summarize what running
	// subagents do, about every 30 s (task_progress messages).
	AgentProgressSummaries bool
	// ForwardSubagentText delivers the subagents' text and thinking as
	// messages too, not only their tool calls.
	ForwardSubagentText bool
	// VerbatimPrompts sends every user turn as written: no @file
	// expansion, no slash commands (for prompts the user did not type).
	VerbatimPrompts bool
	// PermissionPrompts says who answers the CLI's permission prompts:
	// "host" (the default: CanUseTool or PermissionPromptTool) or
	// "none" (nobody: what the rules do not allow is denied).
	PermissionPrompts string
	// TaskBudget, if set, tells the model how many tokens its task may
	// take, so that it paces itself (the API's task budget).
	TaskBudget int
	// ProjectConfigRoot is the checkout whose project settings, .mcp.json
	// and .claude folders apply, when Dir is a worktree of it.
	ProjectConfigRoot string
	// ResumeDropsTurn, with ResumeSessionAt, is the id of the prompt
	// whose turn the resume drops: the CLI refuses the resume if it
	// would drop anything else.
	ResumeDropsTurn string
	// ManagedSettings are policy settings, as JSON text, that apply
	// unless the machine's own managed settings say otherwise.
	ManagedSettings string
	// Debug writes the CLI's debug log to its stderr, or to DebugFile.
	Debug     bool
	DebugFile string
	// ToolConfig configures built-in tools.
	ToolConfig ToolConfig
	// OnUserDialog, if set, answers the dialogs the CLI asks the host to
	// show (request_user_dialog), of the kinds in SupportedDialogKinds;
	// the CLI sends no other kind.
	OnUserDialog         func(ctx context.Context, req UserDialogRequest) (UserDialogResult, error)
	SupportedDialogKinds []string
	// PerTaskStopAffordance tells the CLI that the host can stop each
	// background task (Session.StopTask), so that an interrupt stops the
	// turn and spares them.
	PerTaskStopAffordance bool

	// SessionStore, if set, receives a copy of the session's transcript
	// as the CLI writes it, and Resume and Continue resume from it rather
	// than from the CLI's files (the session is written to a folder of
	// its own for the CLI to resume it). NoSessionPersistence cannot be
	// set with it: the copy is made from the CLI's files.
	SessionStore SessionStore
	// SessionStoreLoadTimeout bounds each call to SessionStore that
	// resuming makes; zero means DefaultStoreLoadTimeout.
	SessionStoreLoadTimeout time.Duration

	// InitializeTimeout bounds how long Start waits for the CLI's answer
	// to the initialize request; zero means DefaultInitializeTimeout. A
	// CLI that has not answered by then is stopped, and Start returns a
	// *CLIError that wraps context.DeadlineExceeded. The deadline of
	// Start's ctx, if sooner, applies as well.
	InitializeTimeout time.Duration
}

// SystemPromptDynamicBoundary, as one of Options.SystemPromptBlocks,
// separates the blocks that are the same for every session from those
// that are not.
const SystemPromptDynamicBoundary = "__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__"

// A Delivery says how an option reaches the CLI.
type Delivery string

// The deliveries.
const (
	// DeliverOnCommandLine passes the option as flags (the default).
	DeliverOnCommandLine Delivery = "argv"
	// DeliverInInitialize sends it in the initialize request, on the
	// CLI's stdin; the CLI is started with --await-initialize to read it
	// at launch.
	DeliverInInitialize Delivery = "initialize"
)

// ToolConfig configures built-in tools.
type ToolConfig struct {
	// AskUserQuestionPreviewFormat is the format of the previews of the
	// AskUserQuestion tool's options: "markdown" (the default) or "html".
	AskUserQuestionPreviewFormat string
}

// DefaultInitializeTimeout is how long Start waits for the CLI to answer
// initialize when Options.InitializeTimeout is zero: 60 s, as the
// TypeScript Agent SDK waits. The CLI answers once it has loaded its
// settings and plugins, usually within a second.
const DefaultInitializeTimeout = 60 * time.Second

// initializeTimeout is opts.InitializeTimeout, or its default.
func (opts *Options) initializeTimeout() time.Duration {
	if opts.InitializeTimeout > 0 {
		return opts.InitializeTimeout
	}
	return DefaultInitializeTimeout
}

// A PermissionMode says how the CLI asks before it runs a tool.
type PermissionMode string

// The permission modes of the pinned CLI.
const (
	// PermissionDefault asks (CanUseTool) for what the rules do not allow.
	PermissionDefault PermissionMode = "default"
	// PermissionAcceptEdits allows file edits in the working directories
	// without asking.
	PermissionAcceptEdits PermissionMode = "acceptEdits"
	// PermissionPlan lets the model plan: it asks before every tool that
	// could change anything.
	PermissionPlan PermissionMode = "plan"
	// PermissionBypass runs every tool without asking. The CLI refuses it
	// when run as root, outside a sandbox.
	PermissionBypass PermissionMode = "bypassPermissions"
	// PermissionDontAsk denies what the rules do not allow, without
	// asking.
	PermissionDontAsk PermissionMode = "dontAsk"
	// PermissionAuto lets a classifier of the CLI decide; where it is not
	// available the CLI falls back to PermissionDefault.
	PermissionAuto PermissionMode = "auto"
)

// A SettingSource is a settings file of the CLI.
type SettingSource string

// The settings files.
const (
	SettingsUser    SettingSource = "user"    // ~/.claude/settings.json
	SettingsProject SettingSource = "project" // .claude/settings.json
	SettingsLocal   SettingSource = "local"   // .claude/settings.local.json
)

// MCPServerConfig is an MCP server the CLI connects to itself: a command
// it starts and speaks to on stdin and stdout (Type "stdio" or empty), or
// a URL (Type "http" for Streamable HTTP, "sse" for the older SSE
// transport).
type MCPServerConfig struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// AlwaysLoad offers the server's tools to the model from the first
	// turn, never deferred behind the CLI's tool search.
	AlwaysLoad bool `json:"alwaysLoad,omitempty"`
	// Timeout bounds each tool call; the CLI ignores values under a
	// second. Zero leaves the CLI's MCP_TOOL_TIMEOUT.
	Timeout time.Duration `json:"-"`
}

// MarshalJSON writes c as the CLI reads it. A stdio server always
// carries its type and "args": the CLI 2.1.330 failed an mcp_set_servers
// entry without args ("Spread syntax requires ...iterable not be null or
// undefined"), though --mcp-config accepts one.
func (c MCPServerConfig) MarshalJSON() ([]byte, error) {
	type plain MCPServerConfig
	p := plain(c)
	timeout := c.Timeout.Milliseconds() // the CLI counts milliseconds
	if p.Type == "" || p.Type == "stdio" {
		p.Type = "stdio"
		return json.Marshal(struct {
			plain
			Args    []string `json:"args"`
			Timeout int64    `json:"timeout,omitempty"`
		}{p, append([]string{}, c.Args...), timeout})
	}
	return json.Marshal(struct {
		plain
		Timeout int64 `json:"timeout,omitempty"`
	}{p, timeout})
}

// UnmarshalJSON reads c as the CLI reports it (MCPStatus), its timeout
// in milliseconds.
func (c *MCPServerConfig) UnmarshalJSON(data []byte) error {
	type plain MCPServerConfig
	var aux struct {
		plain
		Timeout int64 `json:"timeout"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*c = MCPServerConfig(aux.plain)
	c.Timeout = time.Duration(aux.Timeout) * time.Millisecond
	return nil
}

// check reports what is missing from c.
func (c MCPServerConfig) check() error {
	switch c.Type {
	case "", "stdio":
		if c.Command == "" {
			return errors.New("a stdio server needs a Command")
		}
	case "http", "sse":
		if c.URL == "" {
			return fmt.Errorf("an %s server needs a URL", c.Type)
		}
	default:
		return fmt.Errorf("unknown type %q (want stdio, http or sse)", c.Type)
	}
	return nil
}

// Thinking sets the model's extended thinking.
type Thinking struct {
	// Mode is "adaptive" (the model decides), "enabled" (up to
	// BudgetTokens) or "disabled"; empty leaves the CLI's default.
	Mode string
	// BudgetTokens bounds the thinking tokens of each request, with Mode
	// "enabled" (or empty).
	BudgetTokens int
	// Display is "summarized" or "omitted": what the CLI shows of the
	// thinking.
	Display string
}

// A Plugin is a Claude Code plugin on disk.
type Plugin struct {
	// Path is the plugin's folder.
	Path string
	// SkipMCPDiscovery loads the plugin's skills, hooks, agents and
	// commands, but not its MCP servers.
	SkipMCPDiscovery bool
}

// SandboxSettings are the "sandbox" settings of the CLI, which confine
// what the Bash tool may reach.
type SandboxSettings struct {
	Enabled                  bool               `json:"enabled,omitempty"`
	FailIfUnavailable        *bool              `json:"failIfUnavailable,omitempty"`
	AutoAllowBashIfSandboxed bool               `json:"autoAllowBashIfSandboxed,omitempty"`
	AllowUnsandboxedCommands *bool              `json:"allowUnsandboxedCommands,omitempty"`
	ExcludedCommands         []string           `json:"excludedCommands,omitempty"`
	Network                  *SandboxNetwork    `json:"network,omitempty"`
	Filesystem               *SandboxFilesystem `json:"filesystem,omitempty"`
	// Extra holds settings this type does not name, merged in as given.
	Extra map[string]any `json:"-"`
}

// SandboxNetwork is what sandboxed commands may reach on the network.
type SandboxNetwork struct {
	AllowedDomains    []string `json:"allowedDomains,omitempty"`
	DeniedDomains     []string `json:"deniedDomains,omitempty"`
	AllowUnixSockets  []string `json:"allowUnixSockets,omitempty"`
	AllowLocalBinding bool     `json:"allowLocalBinding,omitempty"`
	HTTPProxyPort     int      `json:"httpProxyPort,omitempty"`
	SOCKSProxyPort    int      `json:"socksProxyPort,omitempty"`
}

// SandboxFilesystem is what sandboxed commands may read and write.
type SandboxFilesystem struct {
	AllowWrite []string `json:"allowWrite,omitempty"`
	DenyWrite  []string `json:"denyWrite,omitempty"`
	AllowRead  []string `json:"allowRead,omitempty"`
	DenyRead   []string `json:"denyRead,omitempty"`
}

// logger is opts.Logger, or a text logger on stderr.
func (opts *Options) logger() *slog.Logger {
	if opts.Logger != nil {
		return opts.Logger
	}
	return slog.New(slog.NewTextHandler(os.Stderr, nil))
}

// validServerName reports whether name can name an MCP server: the CLI
// shows its tools as mcp__<name>__<tool>, and Claude Code requires MCP
// names to match ^[a-zA-Z0-9_-]{1,64}$.
func validServerName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0
}
