package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// HTTPOptions configure the Streamable HTTP transport. A nil *HTTPOptions
// means the zero value: stateless, protected against DNS rebinding, no
// authentication.
type HTTPOptions struct {
	// Sessions, if true, gives every client a session: the response to
	// initialize carries an Mcp-Session-Id header, which the client sends
	// back on every later request. A session keeps the log level set with
	// logging/setLevel, and notifications/cancelled can cancel a call
	// that another request started. Sessions live in this process, so
	// replicas behind a load balancer then need sticky routing.
	//
	// Without sessions every request is served on its own: any replica can
	// answer any request, and logging/setLevel succeeds but affects only
	// its own request.
	Sessions bool
	// SessionIdleTimeout ends a session that has had no request in progress
	// for this long; later requests for it get 404, which tells the client
	// to initialize again. Zero means 30 minutes.
	SessionIdleTimeout time.Duration
	// MaxSessions bounds the sessions kept at once. When it is reached, a
	// new session ends the one idle for longest; when every session has a
	// request in progress, initialize is refused with 503. Zero means
	// 10000.
	MaxSessions int

	// AllowedHosts lists the Host header values accepted, as host names
	// (any port) or host:port. When it is empty, a request that reached
	// the server on a loopback address must name a loopback host
	// (localhost, 127.0.0.1 or [::1], any port), which defeats DNS
	// rebinding, and a request that reached another address may name any
	// host. Set it when a proxy forwards a public name to a server bound
	// to loopback. Other hosts are answered 403.
	AllowedHosts []string
	// AllowedOrigins lists origins ("https://app.example.com") accepted in
	// an Origin header besides the request's own host, and besides any
	// loopback origin when the request reached a loopback address. A
	// request with another Origin is answered 403. Requests without an
	// Origin header (clients that are not browsers) are not affected.
	AllowedOrigins []string

	// BodyTimeout bounds how long reading a request's body may take; a
	// client that sends it slower gets 408 and its connection is closed.
	// Zero means 30 seconds.
	BodyTimeout time.Duration
	// WriteTimeout bounds each write to a client: a whole JSON response,
	// or one event of a stream, however long the stream lasts. A client
	// that does not read in time loses its connection. Zero means 30
	// seconds. On ListenAndServeHTTP's server, the deadline a write set on
	// a kept-alive HTTP/1 connection stands for the writes after it while
	// it leaves them at least half of WriteTimeout, so that answering
	// does not move it on every request.
	WriteTimeout time.Duration

	// Authorization, if set, makes the endpoint an OAuth 2.0 protected
	// resource (MCP authorization): every request needs a bearer token
	// that Authorization.Verifier accepts, issued for
	// Authorization.Resource, with the scopes of Authorization.Scopes
	// and of the operation. Handlers find the token with
	// TokenInfoFromContext, and a session stays with the token's holder.
	// See Authorization.
	Authorization *Authorization
}

// Defaults of HTTPOptions.
const (
	defaultSessionIdleTimeout = 30 * time.Minute
	defaultMaxSessions        = 10000
	defaultBodyTimeout        = 30 * time.Second
	defaultWriteTimeout       = 30 * time.Second
)

// HTTPHandler returns an http.Handler that serves s over the Streamable
// HTTP transport of MCP, at whatever path it is mounted, to clients of
// every revision at once: one that begins with initialize speaks the
// revision it negotiated (2024-11-05 … 2025-11-25), one whose requests
// carry their revision in params._meta (or whose MCP-Protocol-Version
// header names one newer than those) speaks 2026-07-28. opts may be nil.
//
// A POST carries one JSON-RPC message. A request is answered with
// application/json, or with a text/event-stream when its handler sends
// progress or log notifications before its result: they go on that stream,
// followed by the response, and the stream ends. Notifications and
// responses from the client are answered 202. Every request is answered
// exactly once: a call cancelled with notifications/cancelled is answered
// with a JSON-RPC error (-32800), as the HTTP request still needs an
// answer, and a request whose client disconnects is cancelled.
//
// Under revision 2026-07-28 each request is served on its own (no
// session), and its headers must repeat its body: MCP-Protocol-Version
// the _meta version, Mcp-Method the method, Mcp-Name the tool or prompt
// name or the URI, and Mcp-Param-{name} each argument the tool's input
// schema marks x-mcp-header. Under every revision, a header that is
// present must agree with the body. A JSON-RPC error under 2026-07-28 is
// sent with the HTTP status the specification gives its code: 404 for an
// unknown method, 400 for a malformed request, a header that disagrees
// (-32020), a missing client capability (-32021) or an unsupported
// version (-32022); other answers are 200.
//
// With sessions (HTTPOptions.Sessions), the response to initialize
// carries an Mcp-Session-Id header, and a GET opens the session's own
// stream, for what belongs to no request (list changes, resource
// updates): its events are numbered, and a client that reconnects with
// Last-Event-ID gets the ones it missed (the last 256 are kept); a new GET
// ends the session's previous stream. DELETE ends a session. Without
// sessions, GET and DELETE are answered 405.
//
// A request that cannot be served is refused with an HTTP error status
// and, as the body, a JSON-RPC error response with a null id: 400 for a
// body that is not one valid JSON-RPC message (JSON-RPC batches are not
// supported), an unsupported MCP-Protocol-Version header on a GET or
// DELETE, or a missing Mcp-Session-Id; 401 for a missing or rejected
// bearer token; 403 for a Host or Origin that is not allowed (see
// HTTPOptions); 404 for an unknown or expired session; 406 for a POST
// whose Accept header lacks application/json or text/event-stream; 408
// for a body that takes longer than BodyTimeout to arrive; 413 for a body
// larger than MaxMessageSize; 415 for a body that is not
// application/json; 503, with Retry-After, when the server holds as many
// messages or calls as it may (MaxPendingBytes, MaxInFlight) or no
// session can be started. A body's bytes count against MaxPendingBytes
// as they arrive, so that a client that announces a large body and sends
// little holds little.
//
// The handler sets its own deadlines on each connection, through
// http.ResponseController: one to read the body (BodyTimeout), and one
// per write (WriteTimeout), so that a stream lasts as long as its call.
// An http.Server that serves it should therefore set ReadHeaderTimeout
// and IdleTimeout, and leave ReadTimeout and WriteTimeout unset: they
// bound a whole request and its response, and would cut long streams off.
//
// It panics when s cannot serve (see Check), or opts.Authorization could
// authorize no request.
func (s *Server) HTTPHandler(opts *HTTPOptions) http.Handler {
	s.mustCheck()
	h := &httpHandler{srv: s, now: time.Now}
	if opts != nil {
		h.opts = *opts
		h.opts.AllowedHosts = slices.Clone(opts.AllowedHosts)
		h.opts.AllowedOrigins = slices.Clone(opts.AllowedOrigins)
	}
	if h.opts.SessionIdleTimeout <= 0 {
		h.opts.SessionIdleTimeout = defaultSessionIdleTimeout
	}
	if h.opts.MaxSessions <= 0 {
		h.opts.MaxSessions = defaultMaxSessions
	}
	if h.opts.BodyTimeout <= 0 {
		h.opts.BodyTimeout = defaultBodyTimeout
	}
	if h.opts.WriteTimeout <= 0 {
		h.opts.WriteTimeout = defaultWriteTimeout
	}
	if a := h.opts.Authorization; a != nil {
		a.check()
	}
	return h
}

// ListenAndServeHTTP serves s over Streamable HTTP (see HTTPHandler) at
// the path /mcp of addr, until ctx is cancelled. An addr without a host,
// such as ":8080", binds 127.0.0.1 only; pass "0.0.0.0:8080" to accept
// remote clients, and then consider HTTPOptions.Authorization. Port 0
// picks a free port. Once listening, it logs the endpoint's URL to
// s.Logger at level Info.
//
// With HTTPOptions.Authorization, it also serves the Protected Resource
// Metadata (see ProtectedResourceMetadataHandler) at the path-suffixed
// well-known URL, /.well-known/oauth-protected-resource/mcp, and at the
// root one, /.well-known/oauth-protected-resource; an empty
// Authorization.Resource is then http://ADDR/mcp, ADDR being the address
// it listens on.
//
// Its http.Server reads request headers within 10 seconds, allows 64 KiB
// of them, and closes idle connections after 2 minutes; the handler
// bounds bodies and writes itself (see HTTPHandler).
//
// When ctx is cancelled, ListenAndServeHTTP stops accepting requests and
// lets the requests in progress finish for up to ShutdownTimeout; then it
// cancels the calls still running, closes their connections, and returns
// ctx's error. It returns another error only if s cannot serve (see
// Check), or it cannot listen or serve.
func (s *Server) ListenAndServeHTTP(ctx context.Context, addr string, opts *HTTPOptions) error {
	if err := s.Check(); err != nil {
		return err
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("runtime: listening on %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fmt.Errorf("runtime: %w", err)
	}
	logger := s.logger()
	mux := http.NewServeMux()
	if opts != nil && opts.Authorization != nil {
		o := *opts
		a := *opts.Authorization
		if a.Resource == "" {
			a.Resource = "http://" + ln.Addr().String() + "/mcp"
		}
		o.Authorization = &a
		opts = &o
		prm := s.ProtectedResourceMetadataHandler(&a)
		mux.Handle("/.well-known/oauth-protected-resource/mcp", prm)
		mux.Handle("/.well-known/oauth-protected-resource", prm)
	}
	mux.Handle("/mcp", s.HTTPHandler(opts))
	// Requests live in a context that the caller's cancellation does not
	// reach, so that calls in progress can finish; stop cancels them once
	// the shutdown timeout expires.
	base, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return base },
		ConnContext:       writeDeadlines,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	logger.Info("serving MCP over Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")

	select {
	case err := <-served:
		return fmt.Errorf("runtime: serving over HTTP: %w", err)
	case <-ctx.Done():
	}
	timeout := s.shutdownTimeout()
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		logger.Warn("requests still in progress after the shutdown timeout were cancelled", "transport", "http", "timeout", timeout)
		stop()
		hs.Close()
	}
	<-served // http.ErrServerClosed
	// Tasks outlive requests: stop them now, so that their records say
	// why they ended.
	s.stopTasks(timeout)
	return ctx.Err()
}

// httpHandler is the http.Handler that HTTPHandler returns.
type httpHandler struct {
	srv  *Server
	opts HTTPOptions
	now  func() time.Time // replaced in tests

	buffers bufferPool // for encoding responses

	mu        sync.Mutex
	sessions  map[string]*httpSession
	lastSweep time.Time
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if msg := h.checkHostAndOrigin(r); msg != "" {
		h.reject(w, r, http.StatusForbidden, jsonrpc.InvalidRequest, msg)
		return
	}
	ctx := r.Context()
	if h.opts.Authorization != nil {
		var ok bool
		if ctx, ok = h.authorize(ctx, w, r); !ok {
			return
		}
	}
	switch {
	case r.Method == http.MethodPost:
		h.post(ctx, w, r)
		return
	case (r.Method == http.MethodDelete || r.Method == http.MethodGet) && h.opts.Sessions:
	default:
		allow := "POST"
		if h.opts.Sessions {
			allow = "GET, POST, DELETE"
		}
		w.Header().Set("Allow", allow)
		h.reject(w, r, http.StatusMethodNotAllowed, jsonrpc.InvalidRequest,
			fmt.Sprintf("method %s not allowed: this endpoint accepts %s", r.Method, allow))
		return
	}
	if v := r.Header.Get(wire.HeaderProtocolVersion); v != "" && !wire.IsSessionRevision(v) {
		h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest,
			fmt.Sprintf("unsupported %s %q for %s; sessions speak %s", wire.HeaderProtocolVersion, v, r.Method, strings.Join(wire.SessionRevisions, ", ")))
		return
	}
	if r.Method == http.MethodDelete {
		h.deleteSession(ctx, w, r)
		return
	}
	h.getStream(ctx, w, r)
}

// post answers a POST, which carries one JSON-RPC message.
func (h *httpHandler) post(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); ct != "application/json" && !isJSON(ct) {
		h.reject(w, r, http.StatusUnsupportedMediaType, jsonrpc.InvalidRequest, "the body must be a JSON-RPC message with Content-Type: application/json")
		return
	}
	if jsonOK, sseOK := accepts(r.Header.Values("Accept")); !jsonOK || !sseOK {
		h.reject(w, r, http.StatusNotAcceptable, jsonrpc.InvalidRequest, "the Accept header must list both application/json and text/event-stream")
		return
	}
	limit := h.srv.maxMessageSize()
	if r.ContentLength > int64(limit) {
		h.tooLarge(w, r, limit)
		return
	}
	adm := h.srv.admission()
	hold := &heldRequest{adm: adm, msg: messageTicket(0)}
	if !adm.tryAdmit(hold.msg) {
		h.busy(w, r, "the server holds as many messages as it may")
		return
	}
	defer hold.release(nil)
	body, err := h.readBody(w, r, limit, hold)
	if err != nil {
		switch {
		case errors.Is(err, errServerFull):
			h.busy(w, r, "the server holds as many messages as it may")
		case errors.As(err, new(*http.MaxBytesError)):
			h.tooLarge(w, r, limit)
		case errors.Is(err, os.ErrDeadlineExceeded):
			w.Header().Set("Connection", "close")
			h.reject(w, r, http.StatusRequestTimeout, jsonrpc.InvalidRequest,
				fmt.Sprintf("the request body did not arrive within %v", h.opts.BodyTimeout))
		default:
			h.reject(w, r, http.StatusBadRequest, jsonrpc.ParseError, "reading the request body: "+err.Error())
		}
		return
	}
	tree := h.srv.trees.Get()
	defer h.srv.trees.Put(tree)
	m, errResp := jsonrpc.Decode(tree, body)
	if errResp != nil {
		writeJSON(w, http.StatusBadRequest, errResp)
		return
	}
	res := h.srv.resolve(&m)
	hv := r.Header.Get(wire.HeaderProtocolVersion)
	perRequest := wire.HasRequestMeta(m.Params) || hv != "" && !wire.IsSessionRevision(hv)
	if perRequest {
		switch {
		case m.IsResponse():
			h.refuse(w, &m, true, jsonrpc.InvalidRequest, "invalid request: a client of revision "+wire.RequestRevision+" answers no request of the server's: send the answers with the request again, in inputResponses")
			return
		case !m.IsRequest():
			w.WriteHeader(http.StatusAccepted) // nothing to do: cancelling is closing the stream
			return
		case res.method != nil && res.method.connectionState:
			resp := statelessRefusal(m.Method)
			writeJSON(w, resp.status(true), resp.append(nil, m.IDBytes(), true))
			return
		case !h.checkRequestRevision(w, r, &m):
			return
		}
	}
	if msg := h.checkRouting(r, &m, res, perRequest); msg != "" {
		h.refuse(w, &m, perRequest, wire.HeaderMismatch, "header mismatch: "+msg)
		return
	}
	switch {
	case m.IsResponse():
		// An answer to the server's request (or a malformed notification,
		// which comes here as the zero message): nothing to answer.
		if hs := h.sessionOf(ctx, r); hs != nil {
			hs.ss.handleMessage(&m)
			h.endUse(hs)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if m.IsRequest() && res.method.runsHandler() {
		if !adm.tryAdmit(callTicket) {
			h.busy(w, r, "the server runs and queues as many calls as it may")
			return
		}
		hold.call = true
	}
	if perRequest {
		h.respond(ctx, w, r, hold.session(h, callerOf(ctx, r.RemoteAddr)), &m, res, hold, nil)
		return
	}
	ss, hs, isNew, ok := h.sessionFor(ctx, w, r, &m, hold)
	if !ok {
		return
	}
	if hs != nil {
		defer h.endUse(hs)
	}
	if !m.IsRequest() {
		ss.handleMessage(&m)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	var created *httpSession
	if isNew {
		created = hs
	}
	h.respond(ctx, w, r, ss, &m, res, nil, created)
}

// respond answers the request m, which names res, on ss and writes the
// answer. hold, if set,
// lets go of the request's share of the server's admission when the call
// detaches (a subscriptions/listen request). created, if set, is the
// session this request (an initialize) opened: it stands if the request
// succeeds, and its id then goes out in the response's header.
func (h *httpHandler) respond(ctx context.Context, w http.ResponseWriter, r *http.Request, ss *session, m *jsonrpc.Message, res resolved, hold *heldRequest, created *httpSession) {
	c, resp := ss.start(h.srv.withHTTPConn(ctx, r), m, res, true)
	if c == nil {
		if created != nil {
			h.forget(created)
		}
		perRequest := wire.HasRequestMeta(m.Params)
		writeJSON(w, resp.status(perRequest), resp.append(nil, m.IDBytes(), perRequest))
		return
	}
	rw := &httpResponder{w: w, r: r, log: h.srv.logger(), writeTimeout: h.opts.WriteTimeout, call: c}
	c.notify = rw.notify
	if c.perRequest() {
		c.keepAlive = func() bool { return rw.comment("keep-alive") }
		if hold != nil {
			c.holder = hold
		}
	}
	resp = ss.answer(c)
	if c.cancelled.Load() {
		resp = errorResponse(wire.RequestCancelled, "request cancelled")
	}
	switch {
	case created == nil:
	case resp.err == nil:
		w.Header().Set(wire.HeaderSessionID, created.id)
	default:
		h.forget(created) // a failed initialize starts no session
	}
	if resp.err != nil && resp.err.scopes != nil {
		w.Header().Set("WWW-Authenticate", h.challengeValue("insufficient_scope", resp.err.challenge, h.neededScopes(TokenInfoFromContext(ctx), resp.err.scopes)))
	}
	buf := h.buffers.get(resp.size() + len(c.id()))
	*buf = c.encode(*buf, &resp)
	rw.finish(*buf, resp.status(c.perRequest()))
	h.buffers.put(buf)
}

// checkRequestRevision checks, in the order the specification gives,
// what a request of the per-request revision declares in its headers and
// its _meta: a version header, a well-formed _meta that names the same
// version, a version this server serves. When it reports false it has
// answered the request.
func (h *httpHandler) checkRequestRevision(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) bool {
	hv := r.Header.Get(wire.HeaderProtocolVersion)
	if hv == "" {
		h.refuse(w, m, true, wire.HeaderMismatch, "header mismatch: missing "+wire.HeaderProtocolVersion+" header; a request of revision "+wire.RequestRevision+" names its version there and in _meta")
		return false
	}
	rm, err := wire.ReadRequestMeta(m.Params)
	switch {
	case err != nil:
		h.refuse(w, m, true, jsonrpc.InvalidParams, "invalid params: "+err.Error())
	case hv != rm.Version:
		h.refuse(w, m, true, wire.HeaderMismatch, fmt.Sprintf("header mismatch: %s header %q does not match the _meta protocol version %q", wire.HeaderProtocolVersion, hv, rm.Version))
	case !rm.Supported():
		e := &wire.UnsupportedVersionError{Requested: rm.Version}
		resp := errorWithData(wire.UnsupportedVersion, e.Error(), e.Data())
		writeJSON(w, resp.status(true), resp.append(nil, m.IDBytes(), true))
	default:
		return true
	}
	return false
}

// refuse answers m, without running it, with the error code; under the
// per-request revision with the HTTP status of the code.
func (h *httpHandler) refuse(w http.ResponseWriter, m *jsonrpc.Message, perRequest bool, code int, msg string) {
	resp := errorResponse(code, "%s", msg)
	status := resp.status(perRequest)
	if !perRequest {
		status = http.StatusBadRequest
	}
	h.srv.logger().Debug("request refused", "transport", "http", "method", m.Method, "status", status, "reason", msg)
	writeJSON(w, status, resp.append(nil, m.IDBytes(), perRequest))
}

// isJSON reports whether a Content-Type is application/json, with
// parameters or in another case (the exact value needs no parsing).
func isJSON(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "application/json"
}

// errServerFull is why a body stops being read: the server holds as many
// bytes as it may.
var errServerFull = errors.New("the server holds as many messages as it may")

// readBody reads the request's body, at most limit bytes, within
// BodyTimeout: a client that trickles its body cannot hold a connection
// and its memory for ever. Its bytes count in the server's admission as
// they arrive (hold grows with them), not as the request announces them:
// what is announced and not sent costs nothing.
//
// The deadline is lifted once the body is read, and kept when it is not:
// the connection then fails at once instead of waiting for the rest.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request, limit int, hold *heldRequest) ([]byte, error) {
	rc := http.NewResponseController(w)
	deadline := rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout)) == nil
	body := &hold.body
	*body = admittedReader{r: http.MaxBytesReader(w, r.Body, int64(limit)), hold: hold}
	size := 512
	if r.ContentLength > 0 {
		size = int(min(r.ContentLength, 64<<10)) // announced, not yet sent: no more up front
	}
	data, err := readAll(body, size)
	if err == nil && deadline {
		rc.SetReadDeadline(time.Time{})
	}
	return data, err
}

// readAll is io.ReadAll with a first buffer of size bytes.
func readAll(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// An admittedReader counts the bytes it reads in the server's admission,
// and fails once they do not fit.
type admittedReader struct {
	r    io.Reader
	hold *heldRequest
}

func (a *admittedReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 && !a.hold.adm.tryGrow(&a.hold.msg, int64(n)) {
		return n, errServerFull
	}
	return n, err
}

func (h *httpHandler) tooLarge(w http.ResponseWriter, r *http.Request, limit int) {
	h.reject(w, r, http.StatusRequestEntityTooLarge, jsonrpc.InvalidRequest,
		fmt.Sprintf("invalid request: the message exceeds the limit of %d bytes", limit))
}

// busy refuses a request the server has no room for now.
func (h *httpHandler) busy(w http.ResponseWriter, r *http.Request, why string) {
	h.srv.logger().Warn("request refused: "+why, "transport", "http", "remote", r.RemoteAddr)
	w.Header().Set("Retry-After", "1")
	h.reject(w, r, http.StatusServiceUnavailable, jsonrpc.InternalError, "server busy: "+why+"; retry later")
}

// A heldRequest is what a POST holds in the server's admission: its
// message's bytes and, for a call, a call slot. The handler gives it back
// when it returns, or a long request earlier (see call.detach).
type heldRequest struct {
	adm  *admission // nil once given back
	msg  ticket
	call bool
	body admittedReader // the reader of the body, which counts it in msg
	ss   session        // the request's own session, if it has no other (see session)
}

// session returns the session of a request served on its own, which
// lives in its hold: one allocation less for each such request.
func (r *heldRequest) session(h *httpHandler, who caller) *session {
	h.initSession(&r.ss, who, "")
	return &r.ss
}

// release gives back what r holds, once; c is unused.
func (r *heldRequest) release(*call) {
	if r.adm == nil {
		return
	}
	r.adm.release(r.msg)
	if r.call {
		r.adm.release(callTicket)
	}
	r.adm = nil
}
