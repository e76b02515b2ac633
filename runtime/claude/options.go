package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// Options configure a session with the Claude Code CLI.
type Options struct {
	// Path is the CLI executable. Empty means "claude", looked up in PATH.
	Path string
	// Servers are the MCP servers hosted in this process, by name; the
	// model sees their tools as mcp__<name>__<tool>.
	Servers map[string]*runtime.Server
	// CanUseTool, if set, decides whether the CLI may run a tool that
	// AllowedTools does not already allow (the CLI is started with
	// --permission-prompt-tool stdio). Without it, such tools are denied.
	CanUseTool func(ctx context.Context, req PermissionRequest) (PermissionResult, error)

	// Model is the model to use; empty means the CLI's default.
	Model string
	// MaxTurns bounds the agentic turns of each prompt; 0 means no bound.
	MaxTurns int
	// SystemPrompt replaces the system prompt. Empty means an empty system
	// prompt, as in the Agent SDKs, unless ClaudeCodePrompt is set.
	SystemPrompt string
	// ClaudeCodePrompt keeps Claude Code's own system prompt (and ignores
	// SystemPrompt).
	ClaudeCodePrompt bool
	// AppendSystemPrompt is appended to the system prompt.
	AppendSystemPrompt string
	// AllowedTools run without asking, such as "mcp__tickets__create_ticket"
	// or "mcp__tickets__*".
	AllowedTools []string
	// DisallowedTools are removed from the model's tools.
	DisallowedTools []string
	// PermissionMode is "default", "acceptEdits", "plan" or
	// "bypassPermissions"; empty means the CLI's default.
	PermissionMode string

	// Dir is the CLI's working directory; empty means the current one.
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
	if opts.Model != "" {
		args = append(args, "--model", opts.Model)
	}
	if opts.MaxTurns > 0 {
		args = append(args, "--max-turns", strconv.Itoa(opts.MaxTurns))
	}
	if len(opts.AllowedTools) > 0 {
		args = append(args, "--allowedTools", strings.Join(opts.AllowedTools, ","))
	}
	if len(opts.DisallowedTools) > 0 {
		args = append(args, "--disallowedTools", strings.Join(opts.DisallowedTools, ","))
	}
	if opts.PermissionMode != "" {
		args = append(args, "--permission-mode", opts.PermissionMode)
	}
	if opts.CanUseTool != nil {
		args = append(args, "--permission-prompt-tool", "stdio")
	}
	if len(opts.Servers) > 0 {
		// Each entry needs "name": without it the CLI silently ignores the
		// server.
		type sdkServer struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		servers := map[string]sdkServer{}
		for name, srv := range opts.Servers {
			if srv == nil {
				return nil, fmt.Errorf("claude: server %q is nil", name)
			}
			if !validServerName(name) {
				return nil, fmt.Errorf("claude: server name %q must match ^[a-zA-Z0-9_-]{1,64}$", name)
			}
			servers[name] = sdkServer{Type: "sdk", Name: name}
		}
		cfg, err := json.Marshal(map[string]any{"mcpServers": servers})
		if err != nil {
			return nil, err
		}
		args = append(args, "--mcp-config", string(cfg))
	}
	return append(args, opts.ExtraArgs...), nil
}

// environ is this process's environment, without CLAUDECODE (which would
// make the CLI think it runs inside itself), plus opts.Env.
func (opts *Options) environ() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "CLAUDECODE=") })
	if !slices.ContainsFunc(opts.Env, func(kv string) bool { return strings.HasPrefix(kv, "CLAUDE_CODE_ENTRYPOINT=") }) {
		env = append(env, "CLAUDE_CODE_ENTRYPOINT=sdk-go")
	}
	return append(env, opts.Env...)
}

// logger is opts.Logger, or a text logger on stderr.
func (opts *Options) logger() *slog.Logger {
	if opts.Logger != nil {
		return opts.Logger
	}
	return slog.New(slog.NewTextHandler(os.Stderr, nil))
}

// validServerName reports whether name can name an in-process server:
// the CLI shows its tools as mcp__<name>__<tool>, and Claude Code requires
// MCP names to match ^[a-zA-Z0-9_-]{1,64}$.
func validServerName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0
}
