// Package linepeer is the other end of a line-oriented connection in the
// runtime's tests: a scripted client of a stdio server, or a scripted
// Claude Code CLI facing the control-protocol host.
package linepeer

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

// A Peer is the other end of a line-oriented connection in a test: it
// writes lines to the code under test and collects every line that code
// writes, so that tests can wait for the one they expect whatever the
// order of the others.
type Peer struct {
	t     *testing.T
	out   io.Writer
	mu    sync.Mutex
	lines [][]byte // written by the code under test, not yet taken
	more  chan struct{}
	// ReadDone is closed when the code under test has closed its output.
	ReadDone chan struct{}
}

// New returns a Peer that reads lines from in (what the code under test
// writes) and writes to out (what it reads).
func New(t *testing.T, in io.Reader, out io.Writer) *Peer {
	p := &Peer{t: t, out: out, more: make(chan struct{}, 1), ReadDone: make(chan struct{})}
	go func() {
		defer close(p.ReadDone)
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

// Send writes line and a newline.
func (p *Peer) Send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.out, line+"\n"); err != nil {
		p.t.Fatalf("writing: %v", err)
	}
}

// HangGuard bounds every wait, so that a missing answer fails the test
// instead of hanging it. It is not a measure of speed.
const HangGuard = 20 * time.Second

// Take waits for a line that satisfies match, and removes it; what
// describes the line in the failure message.
func (p *Peer) Take(what string, match func(line []byte) bool) []byte {
	p.t.Helper()
	deadline := time.After(HangGuard)
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
		case <-p.ReadDone:
			// Nothing more will come; look once more at what did.
			p.mu.Lock()
			found := slices.ContainsFunc(p.lines, match)
			p.mu.Unlock()
			if !found {
				p.t.Fatalf("the connection ended without %s; it wrote %q", what, p.Pending())
			}
		case <-deadline:
			p.t.Fatalf("never received %s", what)
		}
	}
}

// Pending lists the lines not taken yet.
func (p *Peer) Pending() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, l := range p.lines {
		out = append(out, string(l))
	}
	return out
}

// CheckLeaks fails t if goroutines started during the test outlive it,
// its cleanups included.
func CheckLeaks(t *testing.T) {
	before := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, before) })
}

// DiscardLogger returns a logger that drops everything.
func DiscardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
