package runtime

import (
	"context"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/callctx"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A session is the protocol state of one client: every transport keeps
// one per connection (stdio, a Conn), per Streamable HTTP session, or per
// request when it serves requests on their own.
type session struct {
	srv *Server
	// notify sends a message of the server's own (a notification, a
	// request to the client) that belongs to no call, or to a call without
	// a sink of its own. Nil drops them.
	notify func(msg []byte)
	// sharedIDs allows several requests in flight with the same JSON-RPC
	// id, as a Conn does: the Claude CLI reuses ids across its MCP
	// connections to one in-process server.
	sharedIDs bool
	// canAsk says that the client's answers to the server's requests come
	// back to this session: not so for a POST served on its own.
	canAsk bool
	// client names who the client is, for the bounds a server keeps per
	// client (see Server.MaxListensPerClient): the remote address over
	// HTTP, or the subject of its token; "" for the one client of stdio or
	// a Conn.
	client string
	// transport is "stdio", "http" or "conn"; id is the Streamable HTTP
	// session's id, if the session is one. Both are for middleware.
	transport, id string
	// single says that the session serves one request and is then
	// dropped (a POST without sessions): nothing can name its call, so
	// start registers none.
	single bool

	mu       sync.Mutex
	inflight map[string]*call // by id; with sharedIDs, further calls chain on sameID
	revision string           // the session revision initialize negotiated, "" before
	caps     wire.ClientCaps  // what the client declared in initialize
	subs     subscriptions    // resources/subscribe
	// requests are the server's requests to the client waiting for its
	// answers (session revisions only).
	requests clientRequests
	roots    rootsRefresh
	level    atomic.Int32   // index into wire.LogLevels of the least severe level sent
	levelSet atomic.Bool    // logging/setLevel set level
	life     *Session       // what a middleware sees of the session (see middlewareSession)
	handler  RequestHandler // the middleware around dispatch (see chain)
	// owner names the connection as the caller of the tasks it creates,
	// once one does (see taskOwner).
	owner string
}

// sessionRevision is the revision initialize negotiated, or "" before.
func (ss *session) sessionRevision() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.revision
}

// clientCaps returns what the client declared in initialize.
func (ss *session) clientCaps() wire.ClientCaps {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.caps
}

// A call is a request that has been accepted and not yet answered. It
// holds, in one allocation, everything the request needs: its context,
// its message, what its handler receives and what the handler's context
// knows (found there by callKey; see callContext).
type call struct {
	ctx    callContext
	ss     *session
	msg    jsonrpc.Message
	method *method // from the method table; nil for an unknown method
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
	task *taskRun
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
	free(c *call)
}

// detach gives back what c holds in the server's admission now, rather
// than when it is answered.
func (c *call) detach() {
	if h := c.holder; h != nil {
		c.holder = nil
		h.free(c)
	}
}

// cancel cancels the call's context.
func (c *call) cancel() { c.ctx.cancel(context.Canceled) }

// start accepts the request m: it looks its method up, reads what a
// request of the per-request revision declares, registers a request that
// runs a handler for cancellation under its id, and derives its context
// from ctx (see callContext.init for watch). The caller must then call run
// exactly once. A request that cannot start gets, instead, the response
// that refuses it: a malformed _meta, an unsupported version, an id
// already in flight.
func (ss *session) start(ctx context.Context, m *jsonrpc.Message, watch bool) (*call, response) {
	c := &call{ss: ss, msg: *m, method: lookupMethod(m.Method)}
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

// run answers the call; the transport then encodes the response, unless
// the client cancelled the request (c.cancelled), which then expects none.
func (ss *session) run(c *call) response {
	defer ss.finish(c)
	return ss.serve(c)
}

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
				ss.inflight[c.key] = c.sameID
			}
			return
		case p.sameID == c:
			p.sameID = c.sameID
			return
		}
	}
}

// calls returns the calls in flight that match, for cancelling them.
func (ss *session) calls(match func(*call) bool) []*call {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var out []*call
	for _, c := range ss.inflight {
		for ; c != nil; c = c.sameID {
			if match(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// close cancels every call in flight and whatever else runs for the
// session (a refresh of its roots), when the client is gone or the
// transport shuts down.
func (ss *session) close() {
	for _, c := range ss.calls(func(*call) bool { return true }) {
		c.cancel()
	}
	ss.roots.stop()
	ss.mu.Lock()
	owner := ss.owner
	ss.mu.Unlock()
	if owner == "" && ss.transport == "http" && ss.id != "" {
		owner = "session:" + ss.id
	}
	ss.srv.endTasksOf(owner)
	ss.endMiddlewareSession()
}

// cancelRequest cancels the calls with the JSON id rid, for
// notifications/cancelled: they then send no response.
func (ss *session) cancelRequest(rid []byte) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for c := ss.inflight[string(rid)]; c != nil; c = c.sameID {
		c.cancelled.Store(true)
		c.cancel()
	}
}

// handleMessage handles a message that is not a request: a response
// answers one of the server's requests, a notification runs its method's
// action, if any. Neither gets an answer. A malformed notification, which
// jsonrpc.Decode turns into the zero Message, is dropped here too.
func (ss *session) handleMessage(m *jsonrpc.Message) {
	switch {
	case m.IsResponse():
		if m.ID.Exists() {
			ss.requests.deliver(ss.srv, m)
		}
	case !m.IsRequest():
		if meth := lookupMethod(m.Method); meth != nil && meth.notified != nil {
			meth.notified(ss, m.Params)
		}
	}
}
