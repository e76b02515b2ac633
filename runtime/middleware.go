package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A Middleware wraps the handling of every request a server answers, on
// every transport (stdio, Streamable HTTP, a Conn, the Claude Code host):
// it sees what the request is (RequestInfo), may refuse it (by returning an
// Outcome of its own instead of calling next, see Refuse), and sees how
// it ended. The ctx it passes to next is the context the request's
// handler gets, so that a value it adds there (a trace span, say)
// reaches the program's code. Notifications and the client's responses
// are not requests, and pass by no middleware; nor does what Streamable
// HTTP refuses before reading a request (a bad token, a full server).
//
// Server.Middleware lists them, outermost first. Each is called once per
// session (a stdio connection, a Conn, a Streamable HTTP session, or a
// request served on its own), and the handler it returns serves every
// request of that session, concurrently. A server without middleware
// pays nothing for the feature; with it, a request of a session costs
// one allocation more (see BenchmarkCall in the otel module). A panic in
// a middleware, or in the handler it returns, is answered as a
// handler's is: with an internal error that names an incident, whose
// panic and stack go to Server.Logger.
type Middleware func(next RequestHandler) RequestHandler

// A RequestHandler answers a request: the runtime's, which runs the
// method, or a Middleware's, which wraps it.
type RequestHandler func(ctx context.Context, req *RequestInfo) Outcome

// A RequestInfo is what a Middleware knows of a request. It is valid only
// until the request's handler returns: keep copies of what outlives it.
type RequestInfo struct {
	// Method is the MCP method, such as "tools/call".
	Method string
	// Target is what the method acts on: the tool or prompt name, the
	// resource URI, the argument completed; "" when there is none or the
	// request does not name it well (the method then refuses it).
	Target string
	// KnownMethod says that Method is one of the MCP methods the runtime
	// serves, and KnownTarget, for tools/call and prompts/get, that Target
	// names a tool or prompt the server has. A client can send any other
	// method and name any other tool, of any length: a middleware that
	// keeps what it sees beyond the request (a metric's attributes, a
	// cache) keeps what is known, and a placeholder for the rest, so that
	// no client chooses what the server holds.
	KnownMethod, KnownTarget bool
	// ID is the request's JSON-RPC id, as JSON: 7, or "abc" with its
	// quotes.
	ID json.RawMessage
	// Revision is the protocol revision the request is served under:
	// the one initialize negotiated, or the one its _meta names; "" for
	// a request of a session that has not initialized.
	Revision string
	// SessionID is the request's Streamable HTTP session, if it has one.
	SessionID string
	// Transport is "stdio", "http" or "conn" (a Conn, which the Claude
	// Code host uses).
	Transport string
	// Token is the request's verified bearer token, over Streamable HTTP
	// with a TokenVerifier; nil otherwise.
	Token *TokenInfo
	// RemoteAddr is the network address, host:port, that the request
	// came from over Streamable HTTP (http.Request.RemoteAddr: behind a
	// proxy, the proxy's); "" on the other transports.
	RemoteAddr string
	// Proto is the HTTP version of the request over Streamable HTTP, as
	// http.Request.Proto has it ("HTTP/1.1", "HTTP/2.0"); "" otherwise.
	Proto string
	// Session is the connection-scoped session the request belongs to:
	// a stdio connection, a Conn, a Streamable HTTP session with an
	// Mcp-Session-Id. Nil for a Streamable HTTP request served on its
	// own.
	Session *SessionInfo
	// Params is the request's params object as the client sent it; nil
	// when it sent none.
	Params json.RawMessage

	params jsonvalue.Value
	call   *call
}

// Meta returns the string member key of the request's params._meta, such
// as "traceparent"; "" when there is none, or it is not a string.
func (r *RequestInfo) Meta(key string) string {
	return r.params.Get("_meta").Get(key).Str()
}

// A SessionInfo is the life of a connection-scoped session, as a Middleware
// sees it: for a metric of how long sessions last, or state kept per
// session. It is the same *SessionInfo for every request of the session.
type SessionInfo struct {
	started time.Time

	mu    sync.Mutex
	ended bool
	onEnd []func()
}

// Started is when the session's first request reached the middleware:
// its initialize, for a client that follows the protocol.
func (s *SessionInfo) Started() time.Time { return s.started }

// OnEnd arranges for f to run once the session ends: the client closed
// its input (stdio), the Conn was closed, the Streamable HTTP session was
// deleted or expired, or the server shut down. Each f runs once, in the
// order given, before the transport's serving method returns (so that
// what it records can be flushed after it); f must not block. If the
// session has ended already, f runs at once.
func (s *SessionInfo) OnEnd(f func()) {
	s.mu.Lock()
	if !s.ended {
		s.onEnd = append(s.onEnd, f)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	f()
}

// end runs the functions OnEnd registered, once.
func (s *SessionInfo) end() {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended = true
	fs := s.onEnd
	s.onEnd = nil
	s.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// An Outcome is how a request ended, as a Middleware sees it.
type Outcome struct {
	// Code is the JSON-RPC error code the request was answered with, 0
	// for a result.
	Code int
	// Message is the error's message, for an error.
	Message string
	// ToolError says that a tools/call's result has isError set: the
	// tool failed, and the model was told why.
	ToolError bool
	// InputRequired says that a request of revision 2026-07-28 was
	// answered with questions for the client (input_required).
	InputRequired bool

	resp     response
	answered bool // resp holds the runtime's answer
}

// Refuse returns the Outcome of a request that a Middleware answers
// itself with the JSON-RPC error code and message, without calling the
// next handler: -32602 (invalid params) or -32603 (internal error), say,
// or an error code of the server's own, from -32000 to -32099.
func Refuse(code int, message string) Outcome {
	return Outcome{Code: code, Message: message}
}

// outcomeOf describes resp to a middleware, keeping it for the transport.
func outcomeOf(resp response) Outcome {
	o := Outcome{resp: resp, answered: true, InputRequired: resp.kind == resultInputRequired}
	switch {
	case resp.err != nil:
		o.Code, o.Message = resp.err.code, resp.err.message
	default:
		if tr, ok := resp.result.(*ToolResult); ok {
			o.ToolError = tr.IsError
		}
	}
	return o
}

// response is what the transport encodes for o: the runtime's answer, or
// a middleware's refusal.
func (o *Outcome) response() response {
	if o.answered {
		return o.resp
	}
	code := o.Code
	if code == 0 {
		code = jsonrpc.InternalError
	}
	return errorResponse(code, "%s", o.Message)
}

// answerThroughMiddleware answers c through the server's middleware (see
// answer).
func (ss *session) answerThroughMiddleware(c *call) response {
	req := ss.request(c)
	o := ss.runChain(c, req)
	putRequest(req)
	return o.response()
}

// runChain runs the session's middleware for req. A middleware's panic
// becomes an internal error that names an incident, logged with the
// panic and its stack, as a handler's does (see recovered): it must not
// end a stdio server, or the goroutine of a Conn's caller.
func (ss *session) runChain(c *call, req *RequestInfo) (o Outcome) {
	defer func() {
		if p := recover(); p != nil {
			err := ss.recovered(handlerRun{kind: "request", target: req.Method}, p)
			o = Refuse(jsonrpc.InternalError, err.Error())
		}
	}()
	return ss.chain()(&c.ctx, req)
}

// chain returns the session's handler of requests: the server's
// middleware around dispatch, built at the session's first request and
// then shared by all its requests, so that a request pays for no closure.
func (ss *session) chain() RequestHandler {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.handler == nil {
		mw := ss.srv.Middleware
		h := RequestHandler(dispatchRequest)
		for i := len(mw) - 1; i >= 0; i-- {
			h = mw[i](h)
		}
		ss.handler = h
	}
	return ss.handler
}

// dispatchRequest is the innermost handler of a chain: it runs the
// method of req's call in the context the middleware passed on.
func dispatchRequest(ctx context.Context, req *RequestInfo) Outcome {
	c := req.call
	c.handlerCtx = ctx
	return outcomeOf(c.ss.dispatch(c))
}

// requests holds the RequestInfos of calls answered, for the next ones:
// a RequestInfo is valid only until its handler returns (see
// RequestInfo), which lets a request through middleware allocate none.
var requests = sync.Pool{New: func() any { return new(RequestInfo) }}

// putRequest gives req back once its call is answered.
func putRequest(req *RequestInfo) {
	*req = RequestInfo{}
	requests.Put(req)
}

// request describes c to a middleware.
func (ss *session) request(c *call) *RequestInfo {
	r := requests.Get().(*RequestInfo)
	*r = RequestInfo{
		call:        c,
		Method:      c.msg.Method,
		KnownMethod: c.method != nil,
		ID:          c.id(),
		SessionID:   ss.id,
		Transport:   ss.transport,
		Token:       c.tokenInfo,
		Session:     ss.middlewareSession(),
		params:      c.msg.Params,
		Params:      c.msg.Params.Raw(),
	}
	if p, ok := c.ctx.Value(httpConnKey{}).(*httpConnContext); ok {
		r.RemoteAddr, r.Proto = p.remoteAddr, p.proto
	}
	if c.meta != nil {
		r.Revision = c.meta.Version
	} else {
		r.Revision = ss.sessionRevision()
	}
	switch c.msg.Method {
	case wire.MethodComplete:
		r.Target = c.msg.Params.Get("argument").Get("name").Str()
	default:
		if c.method != nil && c.method.nameParam != "" {
			r.Target = c.msg.Params.Get(c.method.nameParam).Str()
			r.KnownTarget = ss.srv.hasTarget(c, r.Target)
		}
	}
	return r
}

// hasTarget reports whether the server has the tool or prompt name that
// c (tools/call, prompts/get) names: a tool was looked up already.
func (s *Server) hasTarget(c *call, name string) bool {
	switch c.msg.Method {
	case wire.MethodToolsCall:
		return c.tool != nil
	case wire.MethodPromptsGet:
		_, ok := s.prompts.Get(name)
		return ok
	}
	return false
}

// middlewareSession returns the SessionInfo of ss, made when its first
// request reaches the middleware; nil for a Streamable HTTP request
// served on its own, which has no session to last.
func (ss *session) middlewareSession() *SessionInfo {
	if ss.stateless() {
		return nil
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.life == nil {
		ss.life = &SessionInfo{started: time.Now()}
	}
	return ss.life
}

// endMiddlewareSession ends the SessionInfo of ss, if a middleware saw one.
func (ss *session) endMiddlewareSession() {
	ss.mu.Lock()
	life := ss.life
	ss.mu.Unlock()
	if life != nil {
		life.end()
	}
}

// An httpConnContext carries to a middleware what Streamable HTTP knows
// of a request's connection (RequestInfo.RemoteAddr and Proto). It is a
// context of its own rather than context.WithValue of a struct, so that
// it costs one allocation; its Value answers httpConnKey and defers every
// other key to the context it wraps.
type httpConnContext struct {
	context.Context
	remoteAddr, proto string
}

type httpConnKey struct{}

func (c *httpConnContext) Value(key any) any {
	if key == (httpConnKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// withHTTPConn returns ctx carrying what a middleware is told of r's
// connection; ctx itself when the server has no middleware, which then
// pays nothing.
func (s *Server) withHTTPConn(ctx context.Context, r *http.Request) context.Context {
	if len(s.Middleware) == 0 {
		return ctx
	}
	return &httpConnContext{Context: ctx, remoteAddr: r.RemoteAddr, proto: r.Proto}
}
