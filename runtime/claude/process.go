package claude

import (
	"strings"
	"sync"
)

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
