package runtime

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxMessageSize is the largest message a transport accepts when
// Server.MaxMessageSize is zero.
const DefaultMaxMessageSize = 16 << 20

// ServeStdio serves s over the process's stdin and stdout; see Serve.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.Serve(ctx, os.Stdin, os.Stdout)
}

// Serve serves s over newline-delimited JSON-RPC: one message per line read
// from r, one response per line written to w. Nothing else is written to w.
//
// Every request gets exactly one response, except a tool call the client
// cancelled with notifications/cancelled. A malformed line is answered
// with a parse error and serving goes on; so is a line longer than
// MaxMessageSize. Tool calls run concurrently, off the reading goroutine.
//
// When r reaches EOF, Serve waits for every call already received, writes
// its response, and returns nil. When ctx is cancelled, Serve cancels the
// calls in flight, waits up to ShutdownTimeout for them, and returns the
// context's error; a goroutine blocked reading r is then left to return on
// its own, since an io.Reader cannot be interrupted.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := newLineWriter(w, cancel)
	c := &stdioConn{ss: &session{srv: s, notify: out.send}, out: out}

	readDone := make(chan error, 1)
	lr := &lineReader{r: bufio.NewReaderSize(r, 64<<10), limit: s.maxMessageSize()}
	go c.read(ctx, lr, readDone)

	var readErr error
	select {
	case readErr = <-readDone:
		if readErr == nil {
			c.wait(ctx.Done(), 0) // EOF: every call received gets its answer
		}
	case <-ctx.Done():
	}
	if ctx.Err() != nil { // cancelled by the caller, or the writer failed
		c.ss.cancelAll()
	}
	c.wait(nil, s.shutdownTimeout())
	writeErr := out.close()
	switch {
	case writeErr != nil:
		return writeErr
	case readErr != nil:
		return readErr
	default:
		return parent.Err()
	}
}

func (s *Server) maxMessageSize() int {
	if s.MaxMessageSize > 0 {
		return s.MaxMessageSize
	}
	return DefaultMaxMessageSize
}

// stdioConn is one stdio connection.
type stdioConn struct {
	ss  *session
	out *lineWriter

	mu      sync.Mutex
	closing bool
	calls   sync.WaitGroup
}

// begin counts a request that will be answered asynchronously; it fails
// once shutdown has started.
func (c *stdioConn) begin() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	c.calls.Add(1)
	return true
}

// wait stops accepting requests and waits for those in flight, until stop
// is closed or, if timeout is positive, the timeout expires.
func (c *stdioConn) wait(stop <-chan struct{}, timeout time.Duration) {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	waitGroup(&c.calls, stop, timeout)
}

// read plays the reader: it reads and dispatches lines until EOF (nil on
// done), a read error, or cancellation. A tool call runs on the reading
// goroutine, and the reading passes to another goroutine if the call takes
// long (see runInline).
func (c *stdioConn) read(ctx context.Context, lr *lineReader, done chan<- error) {
	for {
		line, size, err := lr.nextFor(c.out)
		if ctx.Err() != nil {
			c.out.release()
			done <- nil
			return
		}
		var call func()
		if size > lr.limit {
			c.out.send(errorResponse(nullID, CodeInvalidRequest,
				fmt.Sprintf("invalid request: message of %d bytes exceeds the limit of %d bytes", size, lr.limit)))
		} else if len(line) > 0 {
			call = c.handleLine(ctx, line)
		}
		switch {
		case err == io.EOF:
			done <- nil
		case err != nil:
			done <- fmt.Errorf("reading: %w", err)
		case call != nil:
			if runInline(call, func() { c.read(ctx, lr, done) }) {
				continue
			}
			return
		default:
			continue
		}
		if call != nil {
			call()
		}
		return
	}
}

// handleLine answers a line, except a tool call: it returns the call, to
// be run off the reading.
func (c *stdioConn) handleLine(ctx context.Context, line []byte) (call func()) {
	if line[0] == '[' {
		c.batch(ctx, line)
		return nil
	}
	m, errResp := decodeMessage(line)
	if errResp != nil {
		c.out.send(errResp)
		return nil
	}
	if m == nil { // a response from the client
		return nil
	}
	if !m.isRequest() {
		c.ss.notification(m)
		return nil
	}
	cl, errResp := c.ss.start(ctx, m)
	if errResp != nil {
		c.out.send(errResp)
		return nil
	}
	if !async(m.method) {
		c.out.send(c.ss.run(cl))
		return nil
	}
	if !c.begin() {
		c.ss.finish(cl)
		return nil
	}
	return func() {
		defer c.calls.Done()
		if resp := c.ss.run(cl); resp != nil {
			c.out.send(resp)
		}
	}
}

// batch answers a JSON-RPC batch (protocol revisions before 2025-06-18
// allow them) with one array holding a response per request.
func (c *stdioConn) batch(ctx context.Context, line []byte) {
	v, err := parseValue(line)
	if err != nil {
		c.out.send(errorResponse(nullID, CodeParseError, "parse error: "+err.Error()))
		return
	}
	if len(v.elems) == 0 {
		c.out.send(errorResponse(nullID, CodeInvalidRequest, "invalid request: empty batch"))
		return
	}
	if !c.begin() {
		return
	}
	responses := make([][]byte, len(v.elems))
	var wg sync.WaitGroup
	for i := range v.elems {
		m, errResp := messageFromValue(&v.elems[i])
		switch {
		case errResp != nil:
			responses[i] = errResp
		case m == nil:
		case !m.isRequest():
			c.ss.notification(m)
		default:
			call, errResp := c.ss.start(ctx, m)
			if errResp != nil {
				responses[i] = errResp
				continue
			}
			wg.Go(func() { responses[i] = c.ss.run(call) })
		}
	}
	go func() {
		defer c.calls.Done()
		wg.Wait()
		var b []byte
		for _, r := range responses {
			if r == nil {
				continue
			}
			if b == nil {
				b = append(b, '[')
			} else {
				b = append(b, ',')
			}
			b = append(b, r...)
		}
		if b != nil {
			c.out.send(append(b, ']'))
		}
	}()
}

// lineReader splits input into lines without ever holding more than limit
// bytes of one line.
type lineReader struct {
	r     *bufio.Reader
	limit int
}

// next returns the next line with surrounding whitespace trimmed, and its
// full size. A line longer than the limit is consumed and returned empty,
// with its size.
func (lr *lineReader) next() (line []byte, size int, err error) {
	for {
		frag, err := lr.r.ReadSlice('\n')
		size += len(frag)
		if size <= lr.limit {
			line = append(line, frag...)
		} else {
			line = nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.Trim(line, " \t\r\n"), size, err // JSON's whitespace only
	}
}

// nextFor is next for a reader whose answers go to out: what out held
// back is written before the reader waits for input, and out holds the
// answer to the line returned while another line is already buffered, so
// that a burst of requests is answered in one write.
func (lr *lineReader) nextFor(out *lineWriter) (line []byte, size int, err error) {
	if !lr.lineBuffered() {
		out.release()
	}
	line, size, err = lr.next()
	if lr.lineBuffered() {
		out.hold()
	}
	return line, size, err
}

// lineBuffered reports whether a whole line is already buffered, so that
// next will return without reading.
func (lr *lineReader) lineBuffered() bool {
	b, _ := lr.r.Peek(lr.r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// lineWriter writes whole lines for many goroutines. Each sender writes
// its own line under a lock, and the last of those waiting flushes: one
// write system call for a burst of responses, and no handoff to a writer
// goroutine (a thread wake-up per response) when calls come one at a time.
// The reader can also hold the flush while it answers requests it has
// already read (see lineReader.nextFor).
type lineWriter struct {
	onFail  func()
	waiting atomic.Int32 // senders that have not written their line yet
	held    atomic.Bool  // the reader has more requests buffered

	mu      sync.Mutex
	bw      *bufio.Writer
	closed  bool
	failErr error
}

func newLineWriter(w io.Writer, onFail func()) *lineWriter {
	return &lineWriter{bw: bufio.NewWriterSize(w, 64<<10), onFail: onFail}
}

// send writes one line; it drops the line after close or a write error.
func (lw *lineWriter) send(msg []byte) {
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

// hold keeps lines written from now on in the buffer: the reader calls it
// when it has read a request and another is already buffered, so that
// their answers go out together.
func (lw *lineWriter) hold() { lw.held.Store(true) }

// release writes what hold kept back; the reader calls it before it waits
// for input. A line is thus held only while the reader works through
// requests it already has.
func (lw *lineWriter) release() {
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
func (lw *lineWriter) flushLocked() bool {
	if err := lw.bw.Flush(); err != nil {
		lw.failErr = fmt.Errorf("writing: %w", err)
		return false
	}
	return true
}

func (lw *lineWriter) err() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.failErr
}

// close flushes what is buffered, stops writing, and reports the first
// write error.
func (lw *lineWriter) close() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if !lw.closed && lw.failErr == nil {
		lw.flushLocked()
	}
	lw.closed = true
	return lw.failErr
}
