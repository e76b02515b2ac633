package runtime

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/lineio"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

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
// its response, and returns nil; subscriptions/listen requests end then,
// with their final result. When ctx is cancelled, Serve cancels the
// calls in flight, waits up to ShutdownTimeout for them, and returns the
// context's error; a goroutine blocked reading r is then left to return on
// its own, since an io.Reader cannot be interrupted.
//
// It returns Check's error, before reading anything, when s cannot serve.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	if err := s.Check(); err != nil {
		return err
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := lineio.NewWriter(w, cancel)
	c := &stdioConn{ss: &session{srv: s, notify: out.Send, canAsk: true, transport: "stdio"}, out: out}
	c.workers = lineio.NewWorkers(c.respond)
	defer c.workers.Stop()
	s.fanout.join(c.ss)
	defer s.fanout.leave(c.ss)

	readDone := make(chan error, 1)
	go c.startReader(ctx, lineio.NewReader(r, s.maxMessageSize()), readDone)

	var readErr error
	select {
	case readErr = <-readDone:
		if readErr == nil {
			c.ss.endListens()
			c.wait(ctx.Done(), 0) // EOF: every call received gets its answer
		}
	case <-ctx.Done():
	}
	if ctx.Err() != nil { // cancelled by the caller, or the writer failed
		c.ss.close()
	}
	defer c.ss.close()
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

// stdioConn is one stdio connection.
type stdioConn struct {
	ss      *session
	out     *lineio.Writer
	buffers bufferPool // for encoding answers

	mu      sync.Mutex
	closing bool
	calls   sync.WaitGroup
	workers *lineio.Workers[*call]
	// inline is the pace of the tool of the call that runs on the reading
	// goroutine, if it was quick: the handoff marks it slow.
	inline atomic.Pointer[lineio.Pace]
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

// startReader makes the calling goroutine the reader: it reads and
// dispatches lines until EOF (nil on done), a read error, or cancellation.
// A tool call runs on the reading goroutine when no other line waits, or
// when its tool's recent calls were quick (see lineio.Pace), and the
// reading passes to another goroutine if the call takes long (see
// lineio.Handoff), which also marks its tool as not quick; any other call
// with a line waiting starts on a worker at once (see lineio.Workers).
func (c *stdioConn) startReader(ctx context.Context, lr *lineio.Reader, done chan<- error) {
	h := lineio.NewHandoff(func() {
		if p := c.inline.Load(); p != nil {
			p.MarkSlow() // it was not: run its next calls on workers
		}
		c.startReader(ctx, lr, done)
	})
	for {
		line, size, err := lr.NextFor(c.out)
		if ctx.Err() != nil {
			c.out.Release()
			done <- nil
			return
		}
		var cl *call
		if size > lr.Limit {
			c.out.Send(jsonrpc.ErrorResponse(jsonrpc.NullID, jsonrpc.InvalidRequest,
				fmt.Sprintf("invalid request: message of %d bytes exceeds the limit of %d bytes", size, lr.Limit)))
		} else if len(line) > 0 {
			cl = c.handleLine(ctx, line)
		}
		if err != nil { // the last line, if any: answer it, and stop reading
			if err == io.EOF {
				done <- nil
			} else {
				done <- fmt.Errorf("runtime: reading: %w", err)
			}
			if cl != nil {
				c.respond(cl)
			}
			return
		}
		if cl == nil {
			continue
		}
		quick := quickPace(cl.tool)
		switch {
		case quick == nil && lr.Buffered():
			c.workers.Run(cl)
		default:
			c.inline.Store(quick)
			h.Arm()
			c.respond(cl)
			if !h.Disarm() {
				return // another goroutine reads now, and owns c.inline
			}
			c.inline.Store(nil)
		}
	}
}

// admit waits until the server can hold one more message of the kind t
// describes. The answers held back for a burst go out first: the calls
// that would make room may have finished already.
func (c *stdioConn) admit(ctx context.Context, t ticket) bool {
	adm := c.ss.srv.admission()
	if adm.tryAdmit(t) {
		return true
	}
	c.out.Release()
	return adm.admit(ctx, t) == nil
}

// handleLine answers a line, except a call of a handler of the program's:
// it returns the call, for respond to run, on the reading goroutine or
// off it. While the server holds as many messages
// as it may (Server.MaxPendingBytes, MaxInFlight), it waits, and so stops
// reading: the client then finds the pipe full.
func (c *stdioConn) handleLine(ctx context.Context, line []byte) *call {
	srv := c.ss.srv
	held := messageTicket(len(line))
	if !c.admit(ctx, held) {
		return nil // shutting down
	}
	if line[0] == '[' {
		c.batch(ctx, line, held)
		return nil
	}
	tree := srv.trees.Get()
	m, errResp := jsonrpc.Decode(tree, line)
	var cl *call
	var res resolved
	if errResp == nil && m.IsRequest() {
		res = srv.resolve(&m)
	}
	switch {
	case errResp != nil:
		c.out.Send(errResp)
	case !m.IsRequest():
		c.ss.handleMessage(&m)
	case !res.method.runsHandler():
		c.out.Send(c.respondInline(ctx, &m, res))
	case !c.admit(ctx, callTicket):
	default:
		cl = c.startCall(ctx, &m, res, held, tree)
		if cl == nil {
			srv.admission().release(callTicket)
		}
	}
	if cl == nil {
		srv.admission().release(held)
		srv.trees.Put(tree)
	}
	return cl
}

// respondInline answers a request that runs no handler of the program's,
// in order, on the reading goroutine.
func (c *stdioConn) respondInline(ctx context.Context, m *jsonrpc.Message, res resolved) []byte {
	cl, resp := c.ss.start(ctx, m, res, false)
	if cl == nil {
		return resp.append(nil, m.ID.Raw(), wire.HasRequestMeta(m.Params))
	}
	resp = c.ss.answer(cl)
	return cl.encode(make([]byte, 0, resp.size()), &resp)
}

// startCall accepts the call m, which holds held and tree until respond
// gives them back. It returns nil when the call is refused (its
// answer sent) or the connection is shutting down.
func (c *stdioConn) startCall(ctx context.Context, m *jsonrpc.Message, res resolved, held ticket, tree *jsonvalue.Tree) *call {
	cl, resp := c.ss.start(ctx, m, res, false) // Serve cancels its calls at shutdown
	if cl == nil {
		c.out.Send(resp.append(nil, m.ID.Raw(), wire.HasRequestMeta(m.Params)))
		return nil
	}
	if !c.begin() {
		c.ss.finish(cl)
		return nil
	}
	cl.held, cl.tree = held, tree
	cl.holder = c
	return cl
}

// respond answers a call that startCall accepted, sends the response,
// and gives back what the call held.
func (c *stdioConn) respond(cl *call) {
	defer c.calls.Done()
	resp := c.ss.answer(cl)
	if !cl.cancelled.Load() {
		buf := c.buffers.get(resp.size() + len(cl.id()))
		*buf = cl.encode(*buf, &resp)
		c.out.Send(*buf)
		c.buffers.put(buf)
	}
	cl.detach()
	c.ss.srv.trees.Put(cl.tree)
}

// release gives back what a call holds in the server's admission: its
// message and its call slot.
func (c *stdioConn) release(cl *call) {
	adm := c.ss.srv.admission()
	adm.release(callTicket)
	adm.release(cl.held)
}

// batch answers a JSON-RPC batch with one array holding a response per
// request. Batches exist in the protocol revisions before 2025-06-18
// only, so a session must have negotiated one of those; a batch is then
// bounded to maxBatch elements, and its answer to about MaxMessageSize.
func (c *stdioConn) batch(ctx context.Context, line []byte, held ticket) {
	release := func() { c.ss.srv.admission().release(held) }
	done := false
	defer func() {
		if !done {
			release()
		}
	}()
	v, err := jsonvalue.Parse(line)
	switch {
	case err != nil:
		c.out.Send(jsonrpc.ParseErrorResponse(err))
		return
	case !wire.BatchesAllowed(c.ss.sessionRevision()):
		c.out.Send(jsonrpc.ErrorResponse(jsonrpc.NullID, jsonrpc.InvalidRequest, batchRefusal(c.ss.sessionRevision())))
		return
	case v.Len() == 0:
		c.out.Send(jsonrpc.ErrorResponse(jsonrpc.NullID, jsonrpc.InvalidRequest, "invalid request: empty batch"))
		return
	case v.Len() > maxBatch:
		c.out.Send(jsonrpc.ErrorResponse(jsonrpc.NullID, jsonrpc.InvalidRequest,
			fmt.Sprintf("invalid request: a batch of %d messages; at most %d are allowed", v.Len(), maxBatch)))
		return
	}
	if !c.begin() {
		return
	}
	done = true // the answering goroutine releases the batch
	responses := make([][]byte, v.Len())
	ids := make([][]byte, v.Len())
	var wg sync.WaitGroup
	for i, e := range v.Elems() {
		m, errResp := jsonrpc.FromValue(e)
		switch {
		case errResp != nil:
			responses[i] = errResp
		case !m.IsRequest():
			c.ss.handleMessage(&m)
		default:
			ids[i] = m.ID.Raw()
			call, resp := c.ss.start(ctx, &m, c.ss.srv.resolve(&m), false)
			if call == nil {
				responses[i] = resp.append(nil, m.ID.Raw(), false)
				continue
			}
			wg.Go(func() {
				resp := c.ss.answer(call)
				if !call.cancelled.Load() {
					responses[i] = call.encode(nil, &resp)
				}
			})
		}
	}
	go func() {
		defer c.calls.Done()
		defer release()
		wg.Wait()
		var b []byte
		for i, r := range responses {
			if r == nil {
				continue
			}
			if len(b)+len(r) > c.ss.srv.maxMessageSize() {
				// An answer too large to add: the client can ask again,
				// alone, for what is left.
				r = jsonrpc.ErrorResponse(ids[i], jsonrpc.InternalError, "the answer to this request would make the batch's answer too large; send it on its own")
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

// batchRefusal explains why a batch is refused in a session of the
// revision rev.
func batchRefusal(rev string) string {
	if rev == "" {
		return "invalid request: a JSON-RPC batch before initialize; batches exist only in MCP revisions 2024-11-05 and 2025-03-26, once negotiated"
	}
	return "invalid request: JSON-RPC batches were removed from MCP in revision 2025-06-18, and this session negotiated " + rev
}
