// Package lineio reads and writes newline-delimited messages for the
// transports that speak one JSON message per line: stdio, and the Claude
// Code control protocol on the CLI's stdin and stdout.
//
// Two tricks keep a sequential exchange (a client that sends one request
// and waits for its answer) cheap, and each has its invariant beside it:
// the Writer batches the answers to a burst of requests into one write
// (Reader.NextFor, Writer.Hold and Writer.Release), and a Handoff lets the
// reading goroutine answer a request itself instead of waking another one.
package lineio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// A Reader splits its input into lines without ever holding more than
// Limit bytes of one line.
type Reader struct {
	r *bufio.Reader
	// Limit is the longest line returned; longer lines are consumed and
	// reported by their size only.
	Limit int
}

// NewReader returns a Reader of r with the given line limit.
func NewReader(r io.Reader, limit int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), Limit: limit}
}

// Next returns the next line with surrounding JSON whitespace trimmed, and
// its size: its bytes without the line terminator ("\n" or "\r\n"). A
// line longer than Limit is consumed and returned empty, with its size.
//
// Every line is returned in a buffer of its own, never reused: a parsed
// message refers to its line (see package jsonvalue), and a request may
// still be running when the next line is read.
func (lr *Reader) Next() (line []byte, size int, err error) {
	var last byte // the last byte read before the current fragment
	for {
		frag, err := lr.r.ReadSlice('\n')
		size += len(frag)
		if size <= lr.Limit+len("\r\n") {
			line = append(line, frag...)
		} else {
			line = nil
		}
		if err == bufio.ErrBufferFull {
			last = frag[len(frag)-1]
			continue
		}
		if err == nil { // the line ends with "\n", which its size leaves out
			size--
			if len(frag) >= 2 {
				last = frag[len(frag)-2]
			}
			if last == '\r' {
				size--
			}
		}
		if size > lr.Limit {
			line = nil
		}
		return trimSpace(line), size, err
	}
}

// trimSpace trims JSON's whitespace, and only it, from both ends of b.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// NextFor is Next for a reader whose answers go to w. What w held back is
// written before the reader waits for input, and w holds the answer to the
// line returned while another line is already buffered, so that a burst of
// requests is answered in one write.
//
// Invariant: w holds lines only while the reader has buffered input to
// work through. Before this reader blocks on its input, it releases w, so
// an answer is never held back while its client waits for it.
func (lr *Reader) NextFor(w *Writer) (line []byte, size int, err error) {
	if !lr.Buffered() {
		w.Release()
	}
	line, size, err = lr.Next()
	if lr.Buffered() {
		w.Hold()
	}
	return line, size, err
}

// Buffered reports whether a whole line is already buffered, so that Next
// will return without reading.
func (lr *Reader) Buffered() bool {
	b, _ := lr.r.Peek(lr.r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

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

// inlineBudget is how long a request may run on the reading goroutine
// before another goroutine takes over the reading: a request is handed
// off after between one and two budgets (see Handoff).
const inlineBudget = 100 * time.Microsecond

// A Handoff lets a reading goroutine answer a request itself, inline,
// and passes the reading to a new goroutine when the request takes long.
// Most requests are short, and handing each to another goroutine woke a
// thread per request: half the CPU of a client that sends one call at a
// time, and the wake-up's latency on every answer. When a request runs
// longer than its budget, the Handoff starts a new reader, so that the
// requests behind it (a cancellation, other calls) are not held up; the
// goroutine that ran the request stops reading when it returns.
//
// Arm and Disarm touch no timer, only the state's one word: resetting
// and stopping a timer for every request cost 54 ns against 7 ns
// (BenchmarkHandoff), and kept waking the scheduler's idle thread to
// watch the timer moved (with 16 calls in flight over stdio, under
// strace, 34,000 system calls per 100,000 calls against 24,800, the
// floor's 24,400). A tick, once per budget while requests run, notes
// which request is running; a request that two ticks in a row find
// running has run at least a budget, and is handed off. The tick stops
// after a whole budget without a request, and the next Arm starts it.
//
// The invariant that makes this safe: only the goroutine that owns a
// Handoff arms or disarms it; the takeover and Disarm decide who reads
// with one compare-and-swap on the state, so exactly one of them wins;
// and a reader that was taken over never reads again, so two goroutines
// never read at once.
type Handoff struct {
	takeOver func()
	budget   time.Duration
	tick     *time.Timer
	// state is the number of requests armed so far, shifted left by two,
	// with handoffRunning while one runs and handoffTicking while the
	// tick is scheduled; or handoffTaken once the reading was taken over.
	state atomic.Uint64
	seen  atomic.Uint64 // the state the last tick found running; the tick's own
}

const (
	handoffRunning = 1 << iota
	handoffTicking
	handoffTaken = ^uint64(0)
)

// NewHandoff returns the Handoff of a reader; takeOver starts the next
// reader, in a goroutine of its own, when a request runs longer than
// inlineBudget.
func NewHandoff(takeOver func()) *Handoff { return newHandoff(takeOver, inlineBudget) }

// newHandoff is NewHandoff with a budget of the caller's: tests give one
// that no scheduling delay can exhaust, or a short one.
func newHandoff(takeOver func(), budget time.Duration) *Handoff {
	h := &Handoff{takeOver: takeOver, budget: budget}
	h.tick = time.AfterFunc(time.Hour, h.check)
	h.tick.Stop()
	return h
}

// Arm marks a request as running inline, and starts the tick if it had
// stopped.
func (h *Handoff) Arm() {
	for {
		s := h.state.Load()
		next := (s>>2+1)<<2 | handoffRunning | handoffTicking
		if h.state.CompareAndSwap(s, next) { // fails only when check stopped the tick
			if s&handoffTicking == 0 {
				h.tick.Reset(h.budget)
			}
			return
		}
	}
}

// Disarm ends the request that ran inline, and reports whether the
// calling goroutine is still the reader: false when the request ran too
// long and another goroutine took over the reading.
func (h *Handoff) Disarm() (stillReader bool) {
	for {
		s := h.state.Load()
		if s == handoffTaken {
			return false
		}
		if h.state.CompareAndSwap(s, s&^handoffRunning) {
			return true
		}
	}
}

// check is the tick: it hands the reading off when the request running
// now is the one the last tick found running, stops when no request runs,
// and otherwise comes again a budget later. Ticks never overlap: each
// schedules the next as its last step.
func (h *Handoff) check() {
	for {
		s := h.state.Load()
		switch {
		case s == handoffTaken:
			return // the reading was handed off: no more ticks
		case s&handoffRunning == 0 && s == h.seen.Load():
			if h.state.CompareAndSwap(s, s&^handoffTicking) {
				return // the next Arm starts the tick again
			}
		case s == h.seen.Load():
			if h.state.CompareAndSwap(s, handoffTaken) {
				h.takeOver()
				return
			}
		default:
			h.seen.Store(s)
			h.tick.Reset(h.budget)
			return
		}
	}
}

// QuickCall is the most the recent calls of a Pace may take, on average,
// for a reader to run the next one itself while more lines wait.
const QuickCall = 20 * time.Microsecond

// A Pace is how long the recent calls of one kind (a tool's) took, a
// moving average, so that a reader can tell the calls it runs itself even
// while more lines wait (Quick), which saves handing each to a worker and
// delays the reading little, from the calls it hands to a worker at once,
// so that a slow one holds up no line behind it. Its zero value has seen
// no call and is not quick: the first burst of calls of a slow tool never
// waits behind each other. Concurrent calls may lose an update to each
// other: the average is a hint.
type Pace struct {
	recent atomic.Int64  // nanoseconds; 0 until a call has ended
	calls  atomic.Uint32 // counted by Sample
}

// sampledCalls is how many calls Sample picks one of to be timed.
const sampledCalls = 8

// Sample counts a call and reports whether it is to be timed (and
// Observed): the first, and one in sampledCalls after it. Reading the
// clock costs as much as a quick handler's own work, and a moving average
// needs samples, not every call; a quick call that turns slow is caught
// at once anyway, by the reader's budget (see MarkSlow).
func (p *Pace) Sample() bool { return p.calls.Add(1)%sampledCalls == 1 }

// Observe adds the duration of a call to the average.
func (p *Pace) Observe(d time.Duration) {
	old := p.recent.Load()
	if old == 0 {
		p.recent.Store(max(int64(d), 1))
		return
	}
	p.recent.Store(max(old+(int64(d)-old)/8, 1))
}

// Quick reports whether the recent calls took less than QuickCall.
func (p *Pace) Quick() bool {
	d := p.recent.Load()
	return d > 0 && d < int64(QuickCall)
}

// MarkSlow makes p not quick until its calls are again: a reader calls it
// when a call it ran itself outlived its Handoff's budget, so that the
// calls that follow, while that one still runs, start on workers instead
// of each waiting out the budget in turn.
func (p *Pace) MarkSlow() { p.recent.Store(int64(QuickCall)) }

// Recent returns the average, for tests and diagnostics.
func (p *Pace) Recent() time.Duration { return time.Duration(p.recent.Load()) }

// workerIdle is how long an idle worker waits for more work before it
// exits.
const workerIdle = time.Second

// Workers run work on goroutines that outlive it. A goroutine started
// for each request begins with a small stack and grows it, copying it,
// through the deep frames of dispatch and validation: with 16 calls in
// flight over stdio that copying took a fifth of the server's CPU. A
// worker keeps its grown stack for the next request.
//
// Invariant: work handed to Run always starts at once: Run gives it to an
// idle worker only if one is waiting (the channel is unbuffered), and
// otherwise starts a new one. Idle workers exit after workerIdle, or at
// Stop.
type Workers[T any] struct {
	do   func(T)
	work chan T
	done chan struct{}
}

// NewWorkers returns workers that call do with the work given to Run.
func NewWorkers[T any](do func(T)) *Workers[T] {
	return &Workers[T]{do: do, work: make(chan T), done: make(chan struct{})}
}

// Stop makes the idle workers exit; busy ones exit when their work ends.
func (p *Workers[T]) Stop() { close(p.done) }

// Run calls do(w) on an idle worker, or on a new one.
func (p *Workers[T]) Run(w T) {
	select {
	case p.work <- w:
	default:
		go p.worker(w)
	}
}

func (p *Workers[T]) worker(w T) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		p.do(w)
		idle.Reset(workerIdle)
		select {
		case w = <-p.work:
		case <-idle.C:
			return
		case <-p.done:
			return
		}
	}
}
