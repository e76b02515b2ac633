package claude

import (
	"os"
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
