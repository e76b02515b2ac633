package claude

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// A CLIError reports that the CLI ended or failed during an operation,
// or that the host stopped it.
type CLIError struct {
	Op string // what the host was doing: "initialize", "receive", …
	// Cause, if set, is why the host stopped the CLI: the error of the
	// context given to Start (or its cause), or, for "initialize", that
	// the CLI did not answer within Options.InitializeTimeout (which
	// wraps context.DeadlineExceeded).
	Cause  error
	Err    error  // the process's exit status, or why it is gone
	Stderr string // the end of the CLI's standard error
}

func (e *CLIError) Error() string {
	msg := "claude: " + e.Op + ": "
	if e.Cause != nil {
		msg += e.Cause.Error() + "; the CLI was stopped"
	} else {
		msg += "the CLI exited"
	}
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += "; its stderr ends with:\n" + s
	}
	return msg
}

// Unwrap returns Cause and Err, those that are set: errors.Is(err,
// context.DeadlineExceeded) holds for a CLI stopped at a deadline.
func (e *CLIError) Unwrap() []error {
	var errs []error
	for _, err := range []error{e.Cause, e.Err} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// initializeTimeoutError is the cause of a Start that waited
// Options.InitializeTimeout for the CLI's answer to initialize.
type initializeTimeoutError struct{ timeout time.Duration }

func (e *initializeTimeoutError) Error() string {
	return fmt.Sprintf("the CLI did not answer initialize within %v (Options.InitializeTimeout)", e.timeout)
}

func (e *initializeTimeoutError) Unwrap() error { return context.DeadlineExceeded }

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
