package lineio

import (
	"bufio"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// A Writer writes whole lines for many goroutines. Each sender writes its
// own line under a lock, and the last of those waiting flushes: one write
// system call for a burst of responses, and no handoff to a writer
// goroutine (a thread wake-up per response) when calls come one at a time.
// The reader can also hold the flush while it answers requests it has
// already read (see Reader.NextFor).
type Writer struct {
	onFail  func()
	waiting atomic.Int32 // senders that have not written their line yet
	held    atomic.Bool  // the reader has more requests buffered

	mu      sync.Mutex
	bw      *bufio.Writer
	closed  bool
	failErr error
}

// NewWriter returns a Writer to w. onFail is called once, by the sender
// whose write fails.
func NewWriter(w io.Writer, onFail func()) *Writer {
	return &Writer{bw: bufio.NewWriterSize(w, 64<<10), onFail: onFail}
}

// Send writes msg and a newline; it drops the line after Close or a write
// error.
func (lw *Writer) Send(msg []byte) {
	lw.waiting.Add(1)
	lw.mu.Lock()
	last := lw.waiting.Add(-1) == 0
	if lw.closed || lw.failErr != nil {
		lw.mu.Unlock()
		return
	}
	lw.bw.Write(msg)
	lw.bw.WriteByte('\n')
	failed := last && !lw.held.Load() && !lw.flushLocked()
	lw.mu.Unlock()
	if failed {
		lw.onFail()
	}
}

// Hold keeps lines written from now on in the buffer: the reader calls it
// when it has read a request and another is already buffered, so that
// their answers go out together.
func (lw *Writer) Hold() { lw.held.Store(true) }

// Release writes what Hold kept back; the reader calls it before it waits
// for input. A line is thus held only while the reader works through
// requests it already has.
func (lw *Writer) Release() {
	if !lw.held.Swap(false) {
		return // nothing was held: every sender flushed its own line
	}
	lw.mu.Lock()
	failed := !lw.closed && lw.failErr == nil && lw.bw.Buffered() > 0 && !lw.flushLocked()
	lw.mu.Unlock()
	if failed {
		lw.onFail()
	}
}

// flushLocked writes what is buffered and reports whether that worked; a
// failure is kept as the writer's error. lw.mu must be held.
func (lw *Writer) flushLocked() bool {
	if err := lw.bw.Flush(); err != nil {
		lw.failErr = fmt.Errorf("writing: %w", err)
		return false
	}
	return true
}

// Err returns the first write error, or nil.
func (lw *Writer) Err() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.failErr
}

// Close flushes what is buffered, stops writing, and reports the first
// write error.
func (lw *Writer) Close() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if !lw.closed && lw.failErr == nil {
		lw.flushLocked()
	}
	lw.closed = true
	return lw.failErr
}
