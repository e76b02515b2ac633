package claude

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// A Session is a running Claude Code CLI with this process's MCP servers
// in it. Send prompts, read the conversation with Receive or Messages,
// and Close it when done.
type Session struct {
	ctx   context.Context // Start's: when it ends, the CLI is killed
	conn  *controlConn
	stdin io.Closer
	init  *initializeRequest

	initResult *InitializeResult // the CLI's answer to the first initialize
	verbatim   bool              // Options.VerbatimPrompts

	sdkServers     map[string]*runtime.Server
	serverTimeouts map[string]time.Duration

	cmd       *exec.Cmd
	resumeDir string // a folder that materialize made, removed after the CLI exits
	stderr    *tailBuffer
	exited    chan struct{} // closed when the process has been waited for
	waitErr   error
	closeMu   sync.Mutex
	closed    bool
	closeErr  error
}

// Start starts the CLI, sends it the control protocol's initialize
// request and waits for its answer, for Options.InitializeTimeout at
// most. The servers in opts are served from then on, until Close;
// cancelling ctx kills the CLI, and the session's errors from then on
// wrap ctx's error (context.Canceled, context.DeadlineExceeded, or its
// cause).
func Start(ctx context.Context, opts Options) (*Session, error) {
	path := cmp.Or(opts.Path, "claude")
	exe, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("claude: cannot find the Claude Code CLI %q (install it with npm install -g @anthropic-ai/claude-code, or set Options.Path): %w", path, err)
	}
	var resumeDir string
	if opts.SessionStore != nil && (opts.Resume != "" || opts.Continue) {
		if resumeDir, err = materialize(ctx, &opts); err != nil {
			return nil, err
		}
		opts.Continue = false // materialize chose the session to resume
	}
	started := false
	defer func() {
		if !started {
			os.RemoveAll(resumeDir) // the CLI will not use it
		}
	}()
	args, err := opts.args()
	if err != nil {
		return nil, err
	}
	hooks, err := newHookRegistry(opts.Hooks)
	if err != nil {
		return nil, err
	}
	init, err := opts.initializeRequest(hooks)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.environ()
	if resumeDir != "" {
		cmd.Env = append(cmd.Env, "CLAUDE_CONFIG_DIR="+resumeDir)
	}
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
	started = true
	c := &Session{ctx: ctx, cmd: cmd, stdin: stdin, stderr: tail, exited: make(chan struct{}), init: init, sdkServers: opts.Servers, serverTimeouts: opts.ServerTimeouts, verbatim: opts.VerbatimPrompts}
	c.resumeDir = resumeDir
	var m *mirror
	if opts.SessionStore != nil {
		m = newMirror(opts.SessionStore, cliConfigDir(cmd.Env), opts.logger())
	}
	c.conn = newControlConn(context.WithoutCancel(ctx), stdout, stdin, hostConfig{
		mirror:        m,
		servers:       opts.Servers,
		canUseTool:    opts.CanUseTool,
		hooks:         hooks,
		onElicitation: opts.OnElicitation,
		onUserDialog:  opts.OnUserDialog,
		logger:        opts.logger(),
	})
	// The id is known before the CLI reports it, unless the CLI picks it.
	switch {
	case opts.SessionID != "":
		c.conn.sessionID.Store(&opts.SessionID)
	case opts.Resume != "" && !opts.ForkSession:
		c.conn.sessionID.Store(&opts.Resume)
	}
	go func() {
		<-c.conn.done // stdout is drained
		stdout.Close()
		c.waitErr = cmd.Wait()
		stdin.Close() // if Close has not
		if c.resumeDir != "" {
			os.RemoveAll(c.resumeDir)
		}
		close(c.exited)
	}()
	if err := c.initialize(ctx, opts.initializeTimeout()); err != nil {
		c.Close()
		var cliErr *CLIError
		if !errors.As(err, &cliErr) {
			// Unanswered in time: say so, with what the CLI said.
			err = &CLIError{Op: "initialize", Cause: err, Err: c.waitErr, Stderr: c.stderr.String()}
		}
		// The CLI writes why it refused to start before it exits, so the
		// reading of its output has seen that result by now.
		return nil, startupError(c.conn.startupFailure.Load(), err)
	}
	return c, nil
}

// initialize sends the initialize request and waits for the answer, for
// timeout at most.
func (s *Session) initialize(ctx context.Context, timeout time.Duration) error {
	ictx, cancel := context.WithTimeoutCause(ctx, timeout, &initializeTimeoutError{timeout})
	defer cancel()
	raw, err := s.conn.request(ictx, "initialize", s.init)
	var timedOut *initializeTimeoutError
	switch {
	case err == nil:
		s.initResult, err = parseInitializeResult(raw)
		return err
	case errors.As(err, &timedOut) && ctx.Err() == nil:
		return err // Start stops the CLI and says so
	}
	return s.failure("initialize", err)
}

// failure explains an error of the operation op. When Start's context
// has ended, the CLI has been killed: the error is a *CLIError that
// wraps the context's error. When the CLI's output has ended, the CLI
// is exiting: a *CLIError with its exit status. Else, such as when the
// operation's own context ended, err is returned, wrapped.
func (s *Session) failure(op string, err error) error {
	var refused *ControlError
	if errors.As(err, &refused) {
		return fmt.Errorf("claude: %s: %w", op, err)
	}
	if cause := context.Cause(s.ctx); cause != nil {
		return s.exitError(op, cause)
	}
	select {
	case <-s.conn.done:
		return s.exitError(op, nil)
	default:
	}
	return fmt.Errorf("claude: %s: %w", op, err)
}

// exitError waits for the CLI to exit, for exitGrace at most, and
// describes how it ended, with the end of its stderr. cause, if set, is
// why the host stopped it.
func (s *Session) exitError(op string, cause error) *CLIError {
	e := &CLIError{Op: op, Cause: cause}
	select {
	case <-s.exited:
		e.Err = s.waitErr
	case <-time.After(exitGrace):
		e.Err = fmt.Errorf("the CLI closed its output but had not exited %v later", exitGrace)
	}
	e.Stderr = s.stderr.String()
	return e
}

// exitGrace bounds how long an error report waits for the CLI to exit
// once its output has ended (or it has been killed).
const exitGrace = 5 * time.Second

// Receive returns the next message of the conversation.
//
// Messages wait for Receive in a bounded queue: 1024 messages, or 64 MiB
// of them. While it is full the host stops reading the CLI's output, so
// the CLI waits, and with it the answers to the session's control
// requests (SetModel, MCPStatus, …) and the CLI's requests to the host
// (tool calls, hooks): keep receiving while a turn runs. Nothing is
// dropped until Close.
//
// After the CLI exits it returns io.EOF, or a *CLIError if the CLI
// failed or was killed (Start's ctx ended). When ctx ends first, it
// returns ctx.Err().
func (s *Session) Receive(ctx context.Context) (Message, error) {
	m, err := s.conn.msgs.pop(ctx)
	if err == nil || ctx.Err() != nil {
		return m, err
	}
	<-s.exited
	cause := context.Cause(s.ctx)
	if s.closedByHost() || s.waitErr == nil && cause == nil {
		return nil, io.EOF
	}
	return nil, &CLIError{Op: "receive", Cause: cause, Err: s.waitErr, Stderr: s.stderr.String()}
}

// Messages returns an iterator over the conversation: every message until
// the CLI exits, then an error if it failed. Stop ranging (break) after a
// *ResultMessage to handle one prompt at a time.
func (s *Session) Messages(ctx context.Context) iter.Seq2[Message, error] {
	return func(yield func(Message, error) bool) {
		for {
			m, err := s.Receive(ctx)
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(m, err) || err != nil {
				return
			}
		}
	}
}

// SessionID returns the id of the session, as the CLI last reported it
// (in a system/init or a result message). Before the first report it is
// Options.SessionID or Options.Resume, or "" when the CLI is to choose
// (a new session, or a fork).
func (s *Session) SessionID() string {
	if p := s.conn.sessionID.Load(); p != nil {
		return *p
	}
	return ""
}

// Interrupt asks the CLI to stop the current turn.
func (s *Session) Interrupt(ctx context.Context) error {
	if _, err := s.conn.request(ctx, "interrupt", nil); err != nil {
		return s.failure("interrupt", err)
	}
	return nil
}

func (s *Session) closedByHost() bool {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	return s.closed
}

// Close ends the session: it drops the messages not received yet, closes
// the CLI's input, which makes it exit, waits for it (killing it after a
// grace period), and waits for the tool calls still running. It returns
// an error only if the CLI could not be stopped cleanly. Receive then
// returns io.EOF.
func (s *Session) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		<-s.exited
		return s.closeErr
	}
	s.closed = true
	s.closeMu.Unlock()
	// Nobody reads the conversation now: the reading of the CLI's output
	// must not wait for room in the queue, or the CLI could not exit.
	s.conn.msgs.abandon()
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
		s.closeErr = fmt.Errorf("claude: the CLI did not exit within 5s of its input closing; killed it")
	}
	return s.closeErr
}

// Query runs one prompt through the CLI with opts and returns the run's
// result. onMessage, if non-nil, sees every message as it arrives.
//
// A run that failed still has a result (IsError set): check
// ResultMessage.Err. When ctx ends first, the CLI is killed and the
// error, a *CLIError, wraps ctx's error.
func Query(ctx context.Context, prompt string, opts Options, onMessage func(Message)) (*ResultMessage, error) {
	c, err := Start(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Send(ctx, prompt); err != nil {
		return nil, err
	}
	for m, err := range c.Messages(ctx) {
		if err != nil {
			if ctx.Err() != nil {
				err = c.failure("query", err)
			}
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
