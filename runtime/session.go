package runtime

import (
	"context"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/callctx"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A session is the protocol state of one client connection; every
// transport keeps one per connection (or one per request when stateless).
type session struct {
	srv *Server
	// notify sends a server-initiated message (progress, log) to the
	// client, unless a call has a sink of its own. Nil drops them.
	notify func(msg []byte)
	// sharedIDs allows several requests in flight with the same JSON-RPC
	// id, as a Conn does: the Claude CLI reuses ids across its MCP
	// connections to one in-process server.
	sharedIDs bool

	mu       sync.Mutex
	inflight map[string]*call // by id; with sharedIDs, further calls chain on sameID
	version  string           // the protocol version initialize negotiated
	caps     clientCaps       // what the client declared in initialize
	subs     map[string]bool  // resources the client subscribed to
	// canAsk says that the client's answers to the server's requests come
	// back to this session: not so for stateless HTTP.
	canAsk   bool
	asks     asker
	minLevel atomic.Int32 // index into logLevels of the least severe level sent
}

// protocolVersion is the version initialize negotiated, or "" before.
func (ss *session) protocolVersion() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.version
}

func (ss *session) setProtocolVersion(v string) {
	ss.mu.Lock()
	ss.version = v
	ss.mu.Unlock()
}

// A call is a request that has been accepted and not yet answered. It
// holds, in one allocation, everything the request needs: its context,
// its message, what the handler receives.
type call struct {
	ctx callContext
	msg jsonrpc.Message
	// modern is what a request of the modern era declares; nil for the
	// legacy era (see modern.go).
	modern *modernRequest
	// notify, if set, receives the call's notifications instead of the
	// session's sink: Streamable HTTP sends them on the stream of the
	// request that started the call.
	notify func(msg []byte)
	// keepAlive, if set, tells a long stream's client that it is still
	// there (an SSE comment), and reports whether the client still is.
	keepAlive func() bool
	cancelled atomic.Bool  // by notifications/cancelled: send no response
	key       string       // inflight key, "" if not registered
	sameID    *call        // the next call in flight with the same id
	req       ToolRequest  // what a tool handler receives
	state     callctx.Call // what a tool handler's context carries

	// What the transport gives back once the call is answered.
	held ticket          // the call's message, in Server.admission
	tree *jsonvalue.Tree // the tree msg points into
	// holder, if set, holds the call's share of the server's admission
	// (its message's bytes, its call slot) until the call is answered. A
	// subscriptions/listen request, which lasts as long as its client
	// wants, gives it back once acknowledged (see detach): it must not hold
	// what other requests, its own cancellation among them, need.
	holder admissionHolder
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

// async reports whether a request runs a handler of the program's, and so
// may take long: it then runs off the reader goroutine, can be cancelled,
// and counts as a call for MaxInFlight. Everything else is answered in
// order, inline, which also keeps initialize ahead of the calls that
// follow it.
func async(method string) bool {
	switch method {
	case "tools/call", "resources/read", "prompts/get", "completion/complete", "subscriptions/listen":
		return true
	}
	return false
}

// start accepts a request: it registers it for cancellation under its id
// and derives its context from ctx (see callContext.init for watch). The
// caller must then call run exactly once. A non-nil error response refuses
// the request instead.
//
// A request of the modern era (see modern.go) whose _meta is malformed or
// names a version this package does not serve is refused.
func (ss *session) start(ctx context.Context, m *jsonrpc.Message, watch bool) (*call, []byte) {
	var mr *modernRequest
	if isModern(m.Params) {
		var errResp []byte
		if mr, errResp = readModern(m.ID.Raw(), m.Params); errResp == nil {
			errResp = mr.checkVersion(m.ID.Raw())
		}
		if errResp != nil {
			return nil, errResp
		}
	}
	c := &call{msg: *m, modern: mr}
	c.ctx.init(ctx, &c.state, watch)
	if async(m.Method) {
		// The key shares the request's bytes, which live as long as the
		// call; finish removes it before they can go.
		id := m.ID.Raw()
		key := unsafe.String(&id[0], len(id))
		ss.mu.Lock()
		first := ss.inflight[key]
		if first != nil && !ss.sharedIDs {
			ss.mu.Unlock()
			c.cancel()
			return nil, jsonrpc.Error(m.ID.Raw(), jsonrpc.InvalidRequest, "invalid request: a request with id "+key+" is already in flight")
		}
		if ss.inflight == nil {
			ss.inflight = make(map[string]*call)
		}
		c.sameID = first
		ss.inflight[key] = c
		c.key = key
		ss.mu.Unlock()
	}
	return c, nil
}

// handlerState returns what the context of a handler run for c carries:
// name is the tool, prompt or URI it serves.
func (ss *session) handlerState(c *call, name string) callctx.Call {
	st := callctx.Call{Done: &c.ctx, Notify: ss.callNotify(c), Tool: name, MinLevel: ss.levelOf(c), Logger: ss.srv.logger(), Session: ss}
	if c.modern != nil {
		st.Modern = c.modern
	}
	return st
}

// run answers the call. It returns the response to write, or nil when the
// client cancelled the request (it then expects no response).
func (ss *session) run(c *call) []byte {
	defer ss.finish(c)
	resp := ss.dispatch(c)
	if c.cancelled.Load() {
		return nil
	}
	return resp
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

// cancelAll cancels every call in flight, for shutdown.
func (ss *session) cancelAll() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, c := range ss.inflight {
		for ; c != nil; c = c.sameID {
			c.cancel()
		}
	}
}

// notification handles a message without id: notifications/cancelled
// cancels the calls it names, and notifications/roots/list_changed runs
// Server.OnRootsChanged; the others need no action.
func (ss *session) notification(m *jsonrpc.Message) {
	if m.Method == "notifications/roots/list_changed" {
		ss.rootsChanged()
		return
	}
	if m.Method != "notifications/cancelled" || !m.Params.Exists() {
		return
	}
	rid := m.Params.Get("requestId")
	if !rid.Exists() {
		return
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for c := ss.inflight[string(rid.Raw())]; c != nil; c = c.sameID {
		c.cancelled.Store(true)
		c.cancel()
	}
}
