package runtime

import (
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
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
	// caller is who makes the session's requests (see callerOf): the zero
	// caller on stdio and a Conn.
	caller caller
	// tokens says that the transport verifies a bearer token on each
	// request (Streamable HTTP with Authorization): only then do calls
	// check the scopes of what they serve (see call.allow).
	tokens bool
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
	life     *SessionInfo   // what a middleware sees of the session (see middlewareSession)
	handler  RequestHandler // the middleware around dispatch (see chain)
	// connOwner names the connection as the owner of the tasks it
	// creates, once one does (see owner).
	connOwner string
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
	ss.srv.endTasksOf(ss.ownedAlone())
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
