package runtime

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/lineio"
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
	out := lineio.NewWriter(w, cancel)
	c := &stdioConn{ss: &session{srv: s, notify: out.Send}, out: out}

	readDone := make(chan error, 1)
	lr := lineio.NewReader(r, s.maxMessageSize())
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
	writeErr := out.Close()
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
	out *lineio.Writer

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
func (c *stdioConn) read(ctx context.Context, lr *lineio.Reader, done chan<- error) {
	for {
		line, size, err := lr.NextFor(c.out)
		if ctx.Err() != nil {
			c.out.Release()
			done <- nil
			return
		}
		var call func()
		if size > lr.Limit {
			c.out.Send(jsonrpc.Error(jsonrpc.NullID, jsonrpc.InvalidRequest,
				fmt.Sprintf("invalid request: message of %d bytes exceeds the limit of %d bytes", size, lr.Limit)))
		} else if len(line) > 0 {
			call = c.handleLine(ctx, line)
		}
		switch {
		case err == io.EOF:
			done <- nil
		case err != nil:
			done <- fmt.Errorf("reading: %w", err)
		case call != nil:
			if lineio.RunInline(call, func() { c.read(ctx, lr, done) }) {
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
	m, errResp := jsonrpc.Decode(line)
	if errResp != nil {
		c.out.Send(errResp)
		return nil
	}
	if m == nil || m.IsResponse() { // nothing to answer
		return nil
	}
	if !m.IsRequest() {
		c.ss.notification(m)
		return nil
	}
	cl, errResp := c.ss.start(ctx, m)
	if errResp != nil {
		c.out.Send(errResp)
		return nil
	}
	if !async(m.Method) {
		c.out.Send(c.ss.run(cl))
		return nil
	}
	if !c.begin() {
		c.ss.finish(cl)
		return nil
	}
	return func() {
		defer c.calls.Done()
		if resp := c.ss.run(cl); resp != nil {
			c.out.Send(resp)
		}
	}
}

// batch answers a JSON-RPC batch (protocol revisions before 2025-06-18
// allow them) with one array holding a response per request.
func (c *stdioConn) batch(ctx context.Context, line []byte) {
	v, err := jsonvalue.Parse(line)
	if err != nil {
		c.out.Send(jsonrpc.Error(jsonrpc.NullID, jsonrpc.ParseError, "parse error: "+err.Error()))
		return
	}
	if len(v.Elems) == 0 {
		c.out.Send(jsonrpc.Error(jsonrpc.NullID, jsonrpc.InvalidRequest, "invalid request: empty batch"))
		return
	}
	if !c.begin() {
		return
	}
	responses := make([][]byte, len(v.Elems))
	var wg sync.WaitGroup
	for i := range v.Elems {
		m, errResp := jsonrpc.FromValue(&v.Elems[i])
		switch {
		case errResp != nil:
			responses[i] = errResp
		case m == nil || m.IsResponse():
		case !m.IsRequest():
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
			c.out.Send(append(b, ']'))
		}
	}()
}
