package runtime

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ClaudeOptions configure a session with the Claude Code CLI.
type ClaudeOptions struct {
	// Path is the CLI executable. Empty means "claude", looked up in PATH.
	Path string
	// Servers are the MCP servers hosted in this process, by name; the
	// model sees their tools as mcp__<name>__<tool>.
	Servers map[string]*Server
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

// A Claude is a running Claude Code CLI with this process's MCP servers
// in it. Send prompts, read the conversation with Receive or Messages,
// and Close it when done.
type Claude struct {
	conn  *controlConn
	stdin io.Closer

	cmd      *exec.Cmd
	stderr   *tailBuffer
	exited   chan struct{} // closed when the process has been waited for
	waitErr  error
	closeMu  sync.Mutex
	closed   bool
	closeErr error
}

// StartClaude starts the CLI, sends it the control protocol's initialize
// request and waits for its answer. The servers in opts are served from
// then on, until Close; cancelling ctx kills the CLI.
func StartClaude(ctx context.Context, opts ClaudeOptions) (*Claude, error) {
	path := cmp.Or(opts.Path, "claude")
	exe, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("claude: cannot find the Claude Code CLI %q (install it with npm install -g @anthropic-ai/claude-code, or set ClaudeOptions.Path): %w", path, err)
	}
	args, err := opts.args()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.environ()
	cmd.WaitDelay = 5 * time.Second
	childIn, stdin, err := blockingPipe()
	if err != nil {
		return nil, fmt.Errorf("claude: %w", err)
	}
	stdout, childOut, err := blockingPipe()
	if err != nil {
		childIn.Close()
		stdin.Close()
		return nil, fmt.Errorf("claude: %w", err)
	}
	cmd.Stdin, cmd.Stdout = childIn, childOut
	tail := &tailBuffer{limit: 8 << 10}
	cmd.Stderr = tail
	if opts.Stderr != nil {
		cmd.Stderr = io.MultiWriter(tail, opts.Stderr)
	}
	err = cmd.Start()
	childIn.Close() // the CLI has its own copies now
	childOut.Close()
	if err != nil {
		stdin.Close()
		stdout.Close()
		return nil, fmt.Errorf("claude: starting %s: %w", exe, err)
	}
	c := &Claude{cmd: cmd, stdin: stdin, stderr: tail, exited: make(chan struct{})}
	c.conn = newControlConn(context.WithoutCancel(ctx), stdout, stdin, opts.Servers, opts.CanUseTool, cmp.Or(opts.Logger, defaultLogger))
	go func() {
		<-c.conn.done // stdout is drained
		stdout.Close()
		c.waitErr = cmd.Wait()
		stdin.Close() // if Close has not
		close(c.exited)
	}()
	if err := c.initialize(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// args builds the command line the way the Agent SDKs do.
func (opts *ClaudeOptions) args() ([]string, error) {
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
			if !validToolName(name) {
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
func (opts *ClaudeOptions) environ() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "CLAUDECODE=") })
	if !slices.ContainsFunc(opts.Env, func(kv string) bool { return strings.HasPrefix(kv, "CLAUDE_CODE_ENTRYPOINT=") }) {
		env = append(env, "CLAUDE_CODE_ENTRYPOINT=sdk-go")
	}
	return append(env, opts.Env...)
}

func (c *Claude) initialize(ctx context.Context) error {
	_, err := c.conn.request(ctx, "initialize", map[string]any{"hooks": nil})
	if err != nil {
		return c.failure("initialize", err)
	}
	return nil
}

// failure explains an error of the session: when the CLI has exited, the
// error says so, with its exit status and the end of its stderr.
func (c *Claude) failure(what string, err error) error {
	select {
	case <-c.exited:
		return &CLIError{Op: what, Err: c.waitErr, Stderr: c.stderr.String()}
	case <-time.After(100 * time.Millisecond):
		// The CLI may still be exiting; report what is known.
	}
	if errors.Is(err, io.EOF) {
		return &CLIError{Op: what, Err: errors.New("the CLI closed its output"), Stderr: c.stderr.String()}
	}
	return fmt.Errorf("claude: %s: %w", what, err)
}

// A CLIError reports that the CLI ended or failed during an operation.
type CLIError struct {
	Op     string // what the host was doing: "initialize", "receive", …
	Err    error  // the process's exit status, or why it is gone
	Stderr string // the end of the CLI's standard error
}

func (e *CLIError) Error() string {
	msg := "claude: " + e.Op + ": the CLI exited"
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += "; its stderr ends with:\n" + s
	}
	return msg
}

func (e *CLIError) Unwrap() error { return e.Err }

// Send sends one user turn. Read the conversation it starts with Receive
// or Messages.
func (c *Claude) Send(ctx context.Context, prompt string) error {
	line, err := json.Marshal(map[string]any{
		"type":               "user",
		"session_id":         "default",
		"message":            map[string]any{"role": "user", "content": prompt},
		"parent_tool_use_id": nil,
	})
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-c.conn.done:
		return c.failure("send", io.EOF)
	default:
	}
	if err := c.conn.writeLine(line); err != nil {
		return c.failure("send", err)
	}
	return nil
}

// Receive returns the next message of the conversation. After the CLI
// exits it returns io.EOF, or a *CLIError if the CLI failed.
func (c *Claude) Receive(ctx context.Context) (Message, error) {
	m, err := c.conn.msgs.pop(ctx)
	if err == nil || ctx.Err() != nil {
		return m, err
	}
	<-c.exited
	if c.waitErr == nil || c.closedByHost() {
		return nil, io.EOF
	}
	return nil, &CLIError{Op: "receive", Err: c.waitErr, Stderr: c.stderr.String()}
}

// Messages returns an iterator over the conversation: every message until
// the CLI exits, then an error if it failed. Stop ranging (break) after a
// *ResultMessage to handle one prompt at a time.
func (c *Claude) Messages(ctx context.Context) iter.Seq2[Message, error] {
	return func(yield func(Message, error) bool) {
		for {
			m, err := c.Receive(ctx)
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(m, err) || err != nil {
				return
			}
		}
	}
}

// Interrupt asks the CLI to stop the current turn.
func (c *Claude) Interrupt(ctx context.Context) error {
	if _, err := c.conn.request(ctx, "interrupt", nil); err != nil {
		return c.failure("interrupt", err)
	}
	return nil
}

// blockingPipe returns a pipe whose ends wait in the read and write system
// calls rather than in the runtime's network poller (File.Fd puts a file
// in blocking mode). The CLI and the host exchange small messages in turn,
// and on such a stream a wake-up through the poller costs more than the
// message: with blocking ends, a sequential round trip through a CLI
// stand-in took half the time and half the host's CPU (BENCHMARKS.md).
// Nothing here sets deadlines on the pipes, which blocking mode disables.
func blockingPipe() (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	r.Fd()
	w.Fd()
	return r, w, nil
}

func (c *Claude) closedByHost() bool {
	c.closeMu.Lock()
	defer c.closeMu.Unlock()
	return c.closed
}

// Close ends the session: it closes the CLI's input, which makes it exit,
// waits for it (killing it after a grace period), and waits for the tool
// calls still running. It returns an error only if the CLI could not be
// stopped cleanly.
func (c *Claude) Close() error {
	c.closeMu.Lock()
	if c.closed {
		c.closeMu.Unlock()
		<-c.exited
		return c.closeErr
	}
	c.closed = true
	c.closeMu.Unlock()
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-c.exited
		c.closeErr = fmt.Errorf("claude: the CLI did not exit within 5s of its input closing; killed it")
	}
	return c.closeErr
}

// Query runs one prompt through the CLI with opts and returns the run's
// result. onMessage, if non-nil, sees every message as it arrives.
func Query(ctx context.Context, prompt string, opts ClaudeOptions, onMessage func(Message)) (*ResultMessage, error) {
	c, err := StartClaude(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Send(ctx, prompt); err != nil {
		return nil, err
	}
	for m, err := range c.Messages(ctx) {
		if err != nil {
			return nil, err
		}
		if onMessage != nil {
			onMessage(m)
		}
		if r, ok := m.(*ResultMessage); ok {
			return r, nil
		}
	}
	return nil, &CLIError{Op: "query", Err: errors.New("the CLI exited before the result"), Stderr: c.stderr.String()}
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
