package runtime

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/callctx"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A call is a request that has been accepted and not yet answered. It
// holds, in one allocation, everything the request needs: its context,
// its message, what its handler receives and what the handler's context
// knows (found there by callKey; see callContext).
type call struct {
	ctx    callContext
	ss     *session
	msg    jsonrpc.Message
	method *method // from the method table; nil for an unknown method
	// tool is the tool a tools/call names, if the server has it: looked
	// up once, when the transport read the request (see resolve).
	tool *Tool
	// tokenInfo is the request's verified bearer token, over a transport
	// that verifies one (session.tokens); nil elsewhere.
	tokenInfo *TokenInfo
	// meta is what a request of the per-request revision declares in its
	// _meta; nil for a request under a session revision.
	meta *requestMeta
	// notify, if set, receives the call's notifications instead of the
	// session's sink: Streamable HTTP sends them on the stream of the
	// request that started the call.
	notify func(msg []byte)
	// keepAlive, if set, tells a long stream's client that it is still
	// there (an SSE comment), and reports whether the client still is.
	keepAlive func() bool
	cancelled atomic.Bool // by notifications/cancelled: send no response
	key       string      // inflight key, "" if not registered
	sameID    *call       // the next call in flight with the same id

	// handlerCtx, if set, is the context a middleware passed on: the
	// handler runs in it (see runHandler).
	handlerCtx context.Context

	// What the handler's context knows (see runHandler).
	target string       // the tool, prompt or URI served, for logs
	token  []byte       // the request's progressToken as JSON, or nil
	args   callctx.Call // the parsed arguments, for generated decoders
	req    ToolRequest  // what a tool handler receives

	// What the transport gives back once the call is answered.
	held ticket          // the call's message, in Server.admission
	tree *jsonvalue.Tree // the tree msg points into
	// holder, if set, holds the call's share of the server's admission
	// (its message's bytes, its call slot) until the call is answered. A
	// subscriptions/listen request, which lasts as long as its client
	// wants, lets go of it once acknowledged (see detach): it must not
	// hold what other requests, its own cancellation among them, need.
	holder admissionHolder
}

// A requestMeta is what a request of the per-request revision declares in
// its _meta, and the round of questions its handler may ask.
type requestMeta struct {
	wire.RequestMeta
	// level is the index into wire.LogLevels of the least severe log
	// level the request asked for.
	level atomic.Int32
	// round holds the answers this request brings and the questions its
	// handler leaves open (see beginRound); nil until a handler may ask.
	round *round
	// task, if set, is the task whose handler the call serves (see
	// callTask).
	task *runningTask
}

// perRequest reports whether c is of the per-request revision.
func (c *call) perRequest() bool { return c.meta != nil }

// id is the request's id, as JSON.
func (c *call) id() []byte { return c.msg.ID.Raw() }

// encode appends the response r to c.
func (c *call) encode(b []byte, r *response) []byte {
	return r.append(b, c.id(), c.perRequest())
}

// sink is where the notifications of c go: its own sink, else the
// session's.
func (c *call) sink() func([]byte) {
	if c.notify != nil {
		return c.notify
	}
	return c.ss.notify
}

// levelVar is where the log level of c's handler is kept: the request's
// own under the per-request revision, the session's before it.
func (c *call) levelVar() *atomic.Int32 {
	if c.meta != nil {
		return &c.meta.level
	}
	return &c.ss.level
}

// An admissionHolder gives back what a call holds in the server's
// admission.
type admissionHolder interface {
	release(c *call)
}

// detach gives back what c holds in the server's admission now, rather
// than when it is answered.
func (c *call) detach() {
	if h := c.holder; h != nil {
		c.holder = nil
		h.release(c)
	}
}

// cancel cancels the call's context.
func (c *call) cancel() { c.ctx.cancel(context.Canceled) }

// start accepts the request m, whose method and tool the transport
// looked up (res): it reads what a request of the per-request revision
// declares, registers a request that runs a handler for cancellation
// under its id, and derives its context from ctx (see callContext.init
// for watch). The caller must then call answer exactly once. A request that cannot start gets, instead, the response
// that refuses it: a malformed _meta, an unsupported version, an id
// already in flight.
func (ss *session) start(ctx context.Context, m *jsonrpc.Message, res resolved, watch bool) (*call, response) {
	c := &call{ss: ss, msg: *m, method: res.method, tool: res.tool}
	if wire.HasRequestMeta(m.Params) {
		rm, err := wire.ReadRequestMeta(m.Params)
		if err != nil {
			return nil, invalidParams("%v", err)
		}
		if !rm.Supported() {
			e := &wire.UnsupportedVersionError{Requested: rm.Version}
			return nil, errorWithData(wire.UnsupportedVersion, e.Error(), e.Data())
		}
		c.meta = &requestMeta{RequestMeta: rm}
		level := int32(rm.LogLevel)
		if rm.LogLevel == len(wire.LogLevels) && ss.levelSet.Load() {
			level = ss.level.Load() // none in _meta: the connection's (see setLevel)
		}
		c.meta.level.Store(level)
	}
	c.ctx.init(ctx, c, watch)
	if ss.tokens {
		c.tokenInfo = TokenInfoFromContext(ctx)
	}
	if c.method.runsHandler() && !ss.single {
		// The key shares the request's bytes, which live as long as the
		// call; finish removes it before they can go.
		id := c.id()
		key := unsafe.String(&id[0], len(id))
		ss.mu.Lock()
		first := ss.inflight[key]
		if first != nil && !ss.sharedIDs {
			ss.mu.Unlock()
			c.cancel()
			return nil, errorResponse(jsonrpc.InvalidRequest, "invalid request: a request with id %s is already in flight", key)
		}
		if ss.inflight == nil {
			ss.inflight = make(map[string]*call)
		}
		c.sameID = first
		ss.inflight[key] = c
		c.key = key
		ss.mu.Unlock()
	}
	return c, response{}
}

// finish ends the call c: its context, and its registration under its
// id.
func (ss *session) finish(c *call) {
	c.cancel()
	if c.key == "" {
		return
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for p := ss.inflight[c.key]; p != nil; p = p.sameID {
		switch {
		case p == c && p == ss.inflight[c.key]:
			if c.sameID == nil {
				delete(ss.inflight, c.key)
			} else {
				// Under the next call's own key: assigning to a key
				// that is there stores the new key's bytes too, and
				// c's are gone once it returns.
				ss.inflight[c.sameID.key] = c.sameID
			}
			return
		case p.sameID == c:
			p.sameID = c.sameID
			return
		}
	}
}

// callContext is the context of one request, and is part of its call:
// context.WithCancel and context.WithValue would cost three allocations
// on every call, a seventh of the whole.
//
// It implements what the context package asks of a context made outside
// it: Done is closed, and Err set (to Canceled or DeadlineExceeded), once
// only, by cancel; Value answers the call itself (callKey) and the
// arguments generated code reads (callctx.Key), and asks the parent for
// the rest, so that context.Cause finds the parent's; and
// AfterFunc lets a child context (a handler's context.WithTimeout) learn
// of the cancellation without a goroutine of its own. TestCallContext
// checks it against these rules.
type callContext struct {
	parent context.Context
	call   *call       // the call whose context this is
	stop   func() bool // ends the watch on parent; nil when there is none
	// lazy says that parent's cancellation is to end c but no watch is
	// set yet: see watchLocked.
	lazy bool

	mu     sync.Mutex
	done   chan struct{} // made when first asked for
	err    error
	afters []*func()
}

// init makes c a child of parent. With watch set, parent's cancellation
// cancels c; without, the caller cancels c itself when parent ends (stdio
// cancels every call of its connection when it shuts down), which saves
// the cost of a watch on every call.
func (c *callContext) init(parent context.Context, owner *call, watch bool) {
	c.parent, c.call = parent, owner
	if !watch {
		return
	}
	if err := parent.Err(); err != nil {
		c.cancel(err)
		return
	}
	c.lazy = true
}

// watchLocked sets up the watch that init deferred: a context.AfterFunc
// on the parent (five allocations, and a registration in the parent that
// finishing the call undoes), made only once someone can observe the
// cancellation. Most calls end without anyone looking: Done and AfterFunc
// (a child context) set the watch up, and Err asks the parent itself (see
// Err). So c is cancelled, for anyone who looks, as soon as with the watch
// made at init. c.mu is held.
func (c *callContext) watchLocked() {
	if !c.lazy {
		return
	}
	c.lazy = false
	if c.parent.Done() == nil {
		return
	}
	// The AfterFunc may run, and cancel c, as soon as it is set: the
	// callback takes c.mu, which the caller holds until c.stop is set.
	c.stop = context.AfterFunc(c.parent, func() { c.cancel(c.parent.Err()) })
}

func (c *callContext) Deadline() (time.Time, bool) { return c.parent.Deadline() }

func (c *callContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.watchLocked()
	}
	if c.done == nil {
		c.done = make(chan struct{})
		if c.err != nil {
			close(c.done)
		}
	}
	return c.done
}

// Err returns why c ended; while its watch is not set up, it asks the
// parent, and a parent that ended ends c.
func (c *callContext) Err() error {
	c.mu.Lock()
	if c.err != nil || !c.lazy {
		defer c.mu.Unlock()
		return c.err
	}
	c.mu.Unlock()
	if err := c.parent.Err(); err != nil {
		c.cancel(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *callContext) Value(key any) any {
	switch key {
	case callKey:
		return c.call
	case callctx.Key:
		return &c.call.args
	}
	return c.parent.Value(key)
}

// callKey is the context key of the *call a handler serves: the runtime's
// own functions called from a handler (ReportProgress, Logger, Ask) find
// it there.
var callKey any = callKeyType{}

type callKeyType struct{}

// callOf returns the call whose handler ctx belongs to, or nil.
func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey).(*call)
	return c
}

// AfterFunc arranges for f to run in a goroutine of its own once c is
// done, as context.AfterFunc does; the context package uses it for the
// children of c.
func (c *callContext) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.watchLocked()
	}
	if c.err != nil {
		go f()
		return func() bool { return false }
	}
	p := &f
	c.afters = append(c.afters, p)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.afters, p)
		if i < 0 {
			return false
		}
		c.afters = slices.Delete(c.afters, i, i+1)
		return true
	}
}

// cancel ends c with err, once.
func (c *callContext) cancel(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	if c.done != nil {
		close(c.done)
	}
	afters, stop := c.afters, c.stop
	c.afters = nil
	c.mu.Unlock()
	for _, f := range afters {
		go (*f)()
	}
	if stop != nil {
		stop()
	}
}

func (c *callContext) String() string { return "mcpgen call context" }
