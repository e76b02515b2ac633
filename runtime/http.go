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
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
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
	// seconds.
	WriteTimeout time.Duration

	// Authenticate, if set, checks the bearer token of every request (from
	// "Authorization: Bearer <token>"). A request without a token, or
	// whose token Authenticate rejects, is answered 401 with a
	// WWW-Authenticate header. The returned context, derived from ctx,
	// becomes the context of the request's tool call, so that handlers can
	// read what Authenticate stored in it.
	Authenticate func(ctx context.Context, token string) (context.Context, error)
}

// Defaults of HTTPOptions.
const (
	defaultSessionIdleTimeout = 30 * time.Minute
	defaultMaxSessions        = 10000
	defaultBodyTimeout        = 30 * time.Second
	defaultWriteTimeout       = 30 * time.Second
)

// HTTP header names of the Streamable HTTP transport.
const (
	headerSessionID       = "Mcp-Session-Id"
	headerProtocolVersion = "Mcp-Protocol-Version"
)

// HTTPHandler returns an http.Handler that serves s over the Streamable
// HTTP transport of MCP (revision 2025-11-25), at whatever path it is
// mounted. opts may be nil.
//
// A POST carries one JSON-RPC message. A request is answered with
// application/json, or with a text/event-stream when its tool call sends
// progress or log notifications before its result: they go on that stream,
// followed by the response, and the stream ends. Notifications and
// responses from the client are answered 202. With sessions, a GET opens
// the session's own stream, for what belongs to no request (list changes,
// resource updates): its events are numbered, and a client that
// reconnects with Last-Event-ID gets the ones it missed (the last 256 are
// kept); a new GET ends the session's previous stream. DELETE ends a
// session. Without sessions, GET and DELETE are answered 405, as there is
// no session to stream for or end. Every request is answered
// exactly once: a call cancelled with notifications/cancelled is answered
// with a JSON-RPC error, as the HTTP request still needs an answer.
//
// A request whose client disconnects cancels its tool call: without
// resumable streams its response could not be delivered anyway.
//
// A request that cannot be served is refused with an HTTP error status
// and, as the body, a JSON-RPC error response with a null id: 400 for a
// body that is not one valid JSON-RPC message (JSON-RPC batches are not
// supported), an unsupported MCP-Protocol-Version header, or a missing
// Mcp-Session-Id; 401 for a missing or rejected bearer token; 403 for a
// Host or Origin that is not allowed (see HTTPOptions); 404 for an
// unknown or expired session; 406 for a POST whose Accept header lacks
// application/json or text/event-stream; 408 for a body that takes longer
// than BodyTimeout to arrive; 413 for a body larger than MaxMessageSize;
// 415 for a body that is not application/json; 503, with Retry-After, when
// the server holds as many messages or calls as it may (MaxPendingBytes,
// MaxInFlight) or no session can be started.
//
// The handler sets its own deadlines on each connection, through
// http.ResponseController: one to read the body (BodyTimeout), and one
// per write (WriteTimeout), so that a stream lasts as long as its call.
// An http.Server that serves it should therefore set ReadHeaderTimeout
// and IdleTimeout, and leave ReadTimeout and WriteTimeout unset: they
// bound a whole request and its response, and would cut long streams off.
func (s *Server) HTTPHandler(opts *HTTPOptions) http.Handler {
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
	return h
}

// ListenAndServeHTTP serves s over Streamable HTTP (see HTTPHandler) at
// the path /mcp of addr, until ctx is cancelled. An addr without a host,
// such as ":8080", binds 127.0.0.1 only; pass "0.0.0.0:8080" to accept
// remote clients, and then consider HTTPOptions.Authenticate. Port 0 picks
// a free port. Once listening, it logs the endpoint's URL to s.Logger at
// level Info.
//
// Its http.Server reads request headers within 10 seconds, allows 64 KiB
// of them, and closes idle connections after 2 minutes; the handler
// bounds bodies and writes itself (see HTTPHandler).
//
// When ctx is cancelled, ListenAndServeHTTP stops accepting requests and
// lets the requests in progress finish for up to ShutdownTimeout; then it
// cancels the calls still running, closes their connections, and returns
// ctx's error. It returns another error only if it cannot listen or
// serve.
func (s *Server) ListenAndServeHTTP(ctx context.Context, addr string, opts *HTTPOptions) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("mcp over http: address %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fmt.Errorf("mcp over http: %w", err)
	}
	logger := s.logger()
	mux := http.NewServeMux()
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
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	logger.Info("serving MCP over Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")

	select {
	case err := <-served:
		return fmt.Errorf("mcp over http: %w", err)
	case <-ctx.Done():
	}
	timeout := s.shutdownTimeout()
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		logger.Warn("mcp over http: requests still in progress after the shutdown timeout were cancelled", "timeout", timeout)
		stop()
		hs.Close()
	}
	<-served // http.ErrServerClosed
	return ctx.Err()
}

// httpHandler is the http.Handler that HTTPHandler returns.
type httpHandler struct {
	srv  *Server
	opts HTTPOptions
	now  func() time.Time // replaced in tests

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
	if h.opts.Authenticate != nil {
		var ok bool
		if ctx, ok = h.authenticate(ctx, w, r); !ok {
			return
		}
	}
	switch {
	case r.Method == http.MethodPost:
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
	if v := r.Header.Get(headerProtocolVersion); v != "" && !slices.Contains(legacyVersions, v) && r.Method != http.MethodPost {
		// A POST of another version is of the modern era: post answers it.
		h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest,
			fmt.Sprintf("unsupported %s %q for %s; sessions speak %s", headerProtocolVersion, v, r.Method, strings.Join(legacyVersions, ", ")))
		return
	}
	switch r.Method {
	case http.MethodDelete:
		h.deleteSession(w, r)
		return
	case http.MethodGet:
		h.getStream(w, r)
		return
	}
	h.post(ctx, w, r)
}

// post answers a POST, which carries one JSON-RPC message.
func (h *httpHandler) post(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
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
	held := messageTicket(limit)
	if r.ContentLength >= 0 {
		held = messageTicket(int(r.ContentLength))
	}
	if !adm.tryAdmit(held) {
		h.busy(w, r, "the server holds as many messages as it may")
		return
	}
	hold := &heldRequest{adm: adm, msg: held}
	defer hold.release(nil)
	body, err := h.readBody(w, r, limit)
	if err != nil {
		switch {
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
	tree := h.srv.tree()
	defer h.srv.freeTree(tree)
	m, errResp := jsonrpc.Decode(tree, body)
	if errResp != nil {
		writeJSON(w, http.StatusBadRequest, errResp)
		return
	}
	modern := isModern(m.Params)
	if v := r.Header.Get(headerProtocolVersion); v != "" && !slices.Contains(legacyVersions, v) {
		modern = true
	}
	if modern && m.IsRequest() && async(m.Method) {
		if !adm.tryAdmit(callTicket) {
			h.busy(w, r, "the server runs and queues as many calls as it may")
			return
		}
		hold.call = true
	}
	if modern {
		h.postModern(ctx, w, r, &m, hold)
		return
	}
	if m.IsResponse() { // an answer to the server, or nothing to answer
		if hs := h.sessionOf(r); hs != nil && m.ID.Exists() {
			hs.ss.deliver(&m)
			h.release(hs)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if m.IsRequest() && async(m.Method) {
		if !adm.tryAdmit(callTicket) {
			h.busy(w, r, "the server runs and queues as many calls as it may")
			return
		}
		defer adm.release(callTicket)
	}

	hs, created, ok := h.openSession(w, r, &m)
	if !ok {
		return
	}
	defer h.release(hs)
	ss := hs.ss
	if !m.IsRequest() {
		ss.notification(&m)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	c, errResp := ss.start(ctx, &m, true)
	if errResp != nil {
		writeJSON(w, http.StatusOK, errResp)
		return
	}
	rw := &httpResponder{w: w, r: r, log: h.srv.logger(), writeTimeout: h.opts.WriteTimeout}
	c.notify = rw.notify
	resp := ss.run(c)
	if resp == nil { // cancelled by notifications/cancelled
		resp = jsonrpc.Error(m.ID.Raw(), jsonrpc.RequestCancelled, "request cancelled")
	}
	if created {
		if v, err := jsonvalue.Parse(resp); err == nil && v.Get("result").Exists() {
			w.Header().Set(headerSessionID, hs.id)
		} else {
			h.forget(hs)
		}
	}
	rw.finish(resp)
}

// readBody reads the request's body, at most limit bytes, within
// BodyTimeout: a client that trickles its body cannot hold a connection
// and its memory for ever.
//
// The deadline is lifted once the body is read, and kept when it is not:
// the connection then fails at once instead of waiting for the rest.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request, limit int) ([]byte, error) {
	rc := http.NewResponseController(w)
	deadline := rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout)) == nil
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
	if err == nil && deadline {
		rc.SetReadDeadline(time.Time{})
	}
	return body, err
}

func (h *httpHandler) tooLarge(w http.ResponseWriter, r *http.Request, limit int) {
	h.reject(w, r, http.StatusRequestEntityTooLarge, jsonrpc.InvalidRequest,
		fmt.Sprintf("invalid request: the message exceeds the limit of %d bytes", limit))
}

// busy refuses a request the server has no room for now.
func (h *httpHandler) busy(w http.ResponseWriter, r *http.Request, why string) {
	h.srv.logger().Warn("mcp over http: request refused: "+why, "remote", r.RemoteAddr)
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
