package runtime_test

import (
	"bufio"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// A peer is the other end of a line-oriented connection in a test: it
// writes lines to the code under test and collects every line that code
// writes, so that tests can wait for the one they expect whatever the
// order of the others.
type peer struct {
	t        *testing.T
	out      io.Writer
	mu       sync.Mutex
	lines    [][]byte // written by the code under test, not yet taken
	more     chan struct{}
	readDone chan struct{}
}

// newPeer reads lines from in (what the code under test writes) and
// writes to out (what it reads).
func newPeer(t *testing.T, in io.Reader, out io.Writer) *peer {
	p := &peer{t: t, out: out, more: make(chan struct{}, 1), readDone: make(chan struct{})}
	go func() {
		defer close(p.readDone)
		sc := bufio.NewScanner(in)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, append([]byte(nil), sc.Bytes()...))
			p.mu.Unlock()
			select {
			case p.more <- struct{}{}:
			default:
			}
		}
	}()
	return p
}

func (p *peer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.out, line+"\n"); err != nil {
		p.t.Fatalf("writing: %v", err)
	}
}

// hangGuard bounds every wait, so that a missing answer fails the test
// instead of hanging it. It is not a measure of speed.
const hangGuard = 20 * time.Second

// take waits for a line that satisfies match, and removes it.
func (p *peer) take(what string, match func(line []byte) bool) []byte {
	p.t.Helper()
	deadline := time.After(hangGuard)
	for {
		p.mu.Lock()
		for i, l := range p.lines {
			if match(l) {
				p.lines = append(p.lines[:i], p.lines[i+1:]...)
				p.mu.Unlock()
				return l
			}
		}
		p.mu.Unlock()
		select {
		case <-p.more:
		case <-p.readDone:
			// Nothing more will come; look once more at what did.
			p.mu.Lock()
			found := slices.ContainsFunc(p.lines, match)
			p.mu.Unlock()
			if !found {
				p.t.Fatalf("the connection ended without %s; it wrote %q", what, p.pending())
			}
		case <-deadline:
			p.t.Fatalf("never received %s", what)
		}
	}
}

// pending lists the lines not taken yet.
func (p *peer) pending() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, l := range p.lines {
		out = append(out, string(l))
	}
	return out
}

// checkLeaks fails t if goroutines started during the test outlive it,
// its cleanups included.
func checkLeaks(t *testing.T) {
	before := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, before) })
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
