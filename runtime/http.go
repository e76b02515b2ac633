package runtime

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
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
)

// HTTP header names of the Streamable HTTP transport.
const (
	headerSessionID       = "Mcp-Session-Id"
	headerProtocolVersion = "Mcp-Protocol-Version"
)

// codeSessionNotFound is the JSON-RPC error code of a 404 for an unknown
// or expired session; Claude Code looks for it to start a new session.
const codeSessionNotFound = -32001

// HTTPHandler returns an http.Handler that serves s over the Streamable
// HTTP transport of MCP (revision 2025-11-25), at whatever path it is
// mounted. opts may be nil.
//
// A POST carries one JSON-RPC message. A request is answered with
// application/json, or with a text/event-stream when its tool call sends
// progress or log notifications before its result: they go on that stream,
// followed by the response, and the stream ends. Notifications and
// responses from the client are answered 202. GET is answered 405, as
// this transport offers no stream that the server opens on its own;
// DELETE ends a session (405 without sessions). Every request is answered
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
// application/json or text/event-stream; 413 for a body larger than
// MaxMessageSize; 415 for a body that is not application/json; 503 when
// no session can be started.
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
	return h
}

// ListenAndServeHTTP serves s over Streamable HTTP (see HTTPHandler) at
// the path /mcp of addr, until ctx is cancelled. An addr without a host,
// such as ":8080", binds 127.0.0.1 only; pass "0.0.0.0:8080" to accept
// remote clients, and then consider HTTPOptions.Authenticate. Port 0 picks
// a free port. Once listening, it logs the endpoint's URL to s.Logger at
// level Info.
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

// An httpSession is a session kept between requests (HTTPOptions.Sessions).
type httpSession struct {
	id string
	ss *session
	// Guarded by httpHandler.mu:
	active   int       // requests in progress
	lastUsed time.Time // when the last request ended (or began)
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if msg := h.checkHostAndOrigin(r); msg != "" {
		h.reject(w, r, http.StatusForbidden, CodeInvalidRequest, msg)
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
	case r.Method == http.MethodDelete && h.opts.Sessions:
	default:
		allow := "POST"
		if h.opts.Sessions {
			allow = "POST, DELETE"
		}
		w.Header().Set("Allow", allow)
		h.reject(w, r, http.StatusMethodNotAllowed, CodeInvalidRequest,
			fmt.Sprintf("method %s not allowed: this endpoint accepts %s", r.Method, allow))
		return
	}
	if v := r.Header.Get(headerProtocolVersion); v != "" && !slices.Contains(protocolVersions, v) {
		h.reject(w, r, http.StatusBadRequest, CodeInvalidRequest,
			fmt.Sprintf("unsupported %s %q; supported versions: %s", headerProtocolVersion, v, strings.Join(protocolVersions, ", ")))
		return
	}
	if r.Method == http.MethodDelete {
		h.deleteSession(w, r)
		return
	}
	h.post(ctx, w, r)
}

// post answers a POST, which carries one JSON-RPC message.
func (h *httpHandler) post(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		h.reject(w, r, http.StatusUnsupportedMediaType, CodeInvalidRequest, "the body must be a JSON-RPC message with Content-Type: application/json")
		return
	}
	if jsonOK, sseOK := accepts(r.Header.Values("Accept")); !jsonOK || !sseOK {
		h.reject(w, r, http.StatusNotAcceptable, CodeInvalidRequest, "the Accept header must list both application/json and text/event-stream")
		return
	}
	limit := h.srv.maxMessageSize()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
	if err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			h.reject(w, r, http.StatusRequestEntityTooLarge, CodeInvalidRequest,
				fmt.Sprintf("invalid request: the message exceeds the limit of %d bytes", limit))
			return
		}
		h.reject(w, r, http.StatusBadRequest, CodeParseError, "reading the request body: "+err.Error())
		return
	}
	m, errResp := decodeMessage(body)
	if errResp != nil {
		writeJSON(w, http.StatusBadRequest, errResp)
		return
	}
	if m == nil { // a response from the client: nothing to do
		w.WriteHeader(http.StatusAccepted)
		return
	}

	hs, created, ok := h.openSession(w, r, m)
	if !ok {
		return
	}
	defer h.release(hs)
	ss := hs.ss
	if !m.isRequest() {
		ss.notification(m)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	c, errResp := ss.start(ctx, m)
	if errResp != nil {
		writeJSON(w, http.StatusOK, errResp)
		return
	}
	rw := &httpResponder{w: w, r: r, log: h.srv.logger()}
	c.notify = rw.notify
	resp := ss.run(c)
	if resp == nil { // cancelled by notifications/cancelled
		resp = errorResponse(m.id.raw, CodeRequestCancelled, "request cancelled")
	}
	if created {
		if v, err := parseValue(resp); err == nil && v.get("result") != nil {
			w.Header().Set(headerSessionID, hs.id)
		} else {
			h.forget(hs)
		}
	}
	rw.finish(resp)
}

// openSession returns the session that serves m, counted as in use until
// release. An initialize without a session id opens a new session
// (created); the caller forgets it again if initialize fails. When
// openSession returns !ok it has answered the request.
func (h *httpHandler) openSession(w http.ResponseWriter, r *http.Request, m *message) (hs *httpSession, created, ok bool) {
	if !h.opts.Sessions {
		return &httpSession{ss: &session{srv: h.srv}}, false, true
	}
	id := r.Header.Get(headerSessionID)
	switch {
	case id == "" && m.method != "initialize":
		h.reject(w, r, http.StatusBadRequest, CodeInvalidRequest,
			"missing "+headerSessionID+" header: send initialize first, then the session id it returned")
	case id == "":
		if hs = h.newSession(); hs != nil {
			return hs, true, true
		}
		h.srv.logger().Warn("mcp over http: new session refused: every session has a request in progress", "max_sessions", h.opts.MaxSessions)
		w.Header().Set("Retry-After", "1")
		h.reject(w, r, http.StatusServiceUnavailable, CodeInternalError, "too many sessions in use; retry later")
	default:
		if hs = h.useSession(id); hs != nil {
			return hs, false, true
		}
		h.reject(w, r, http.StatusNotFound, codeSessionNotFound,
			"session not found: it ended or expired; send initialize without "+headerSessionID+" to start a new one")
	}
	return nil, false, false
}

// newSession starts a session, in use, or returns nil when there is no
// room for one.
func (h *httpHandler) newSession() *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	if !h.makeRoomLocked(now) {
		return nil
	}
	hs := &httpSession{id: rand.Text(), ss: &session{srv: h.srv}, active: 1, lastUsed: now}
	if h.sessions == nil {
		h.sessions = make(map[string]*httpSession)
	}
	h.sessions[hs.id] = hs
	return hs
}

// useSession returns the live session id names, now in use, or nil.
func (h *httpHandler) useSession(id string) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	hs := h.sessions[id]
	if hs == nil {
		return nil
	}
	if h.expired(hs, now) {
		h.endLocked(hs)
		return nil
	}
	hs.active++
	hs.lastUsed = now
	return hs
}

// makeRoomLocked makes room for one more session, ending expired sessions
// and, if there are still too many, the one idle for longest. It reports
// false when every session has a request in progress. h.mu is held.
func (h *httpHandler) makeRoomLocked(now time.Time) bool {
	if len(h.sessions) >= h.opts.MaxSessions || now.Sub(h.lastSweep) >= h.opts.SessionIdleTimeout {
		h.lastSweep = now
		for _, old := range h.sessions {
			if h.expired(old, now) {
				h.endLocked(old)
			}
		}
	}
	if len(h.sessions) < h.opts.MaxSessions {
		return true
	}
	var lru *httpSession
	for _, old := range h.sessions {
		if old.active == 0 && (lru == nil || old.lastUsed.Before(lru.lastUsed)) {
			lru = old
		}
	}
	if lru == nil {
		return false
	}
	h.endLocked(lru)
	return true
}

// forget ends a session whose initialize failed.
func (h *httpHandler) forget(hs *httpSession) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.endLocked(hs)
}

// release ends a request's use of its session.
func (h *httpHandler) release(hs *httpSession) {
	if hs.id == "" {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if hs.active > 0 {
		hs.active--
	}
	hs.lastUsed = h.now()
}

func (h *httpHandler) expired(hs *httpSession, now time.Time) bool {
	return hs.active == 0 && now.Sub(hs.lastUsed) >= h.opts.SessionIdleTimeout
}

// endLocked forgets a session and cancels its calls; h.mu is held.
func (h *httpHandler) endLocked(hs *httpSession) {
	delete(h.sessions, hs.id)
	hs.ss.cancelAll()
}

// deleteSession ends the session a DELETE names.
func (h *httpHandler) deleteSession(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(headerSessionID)
	if id == "" {
		h.reject(w, r, http.StatusBadRequest, CodeInvalidRequest, "missing "+headerSessionID+" header: name the session to end")
		return
	}
	h.mu.Lock()
	hs := h.sessions[id]
	if hs != nil {
		h.endLocked(hs)
	}
	h.mu.Unlock()
	if hs == nil {
		h.reject(w, r, http.StatusNotFound, codeSessionNotFound, "session not found: it ended or expired")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// checkHostAndOrigin returns why the request's Host or Origin header is
// not allowed, or "" if both are.
func (h *httpHandler) checkHostAndOrigin(r *http.Request) string {
	local := false
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr); ok {
		local = a.IP.IsLoopback()
	}
	switch {
	case len(h.opts.AllowedHosts) > 0:
		if !slices.ContainsFunc(h.opts.AllowedHosts, func(allowed string) bool { return hostMatches(r.Host, allowed) }) {
			return fmt.Sprintf("host %q is not allowed", r.Host)
		}
	case local:
		if !isLoopbackHost(r.Host) {
			return fmt.Sprintf("host %q is not allowed: this server only answers requests for localhost", r.Host)
		}
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	u, err := url.Parse(origin)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https"):
		// not an origin ("null", a path): refused below
	case strings.EqualFold(u.Host, r.Host):
		return "" // same origin
	case slices.ContainsFunc(h.opts.AllowedOrigins, func(allowed string) bool {
		return strings.EqualFold(strings.TrimSuffix(allowed, "/"), u.Scheme+"://"+u.Host)
	}):
		return ""
	case local && isLoopbackHost(u.Host):
		return ""
	}
	return fmt.Sprintf("origin %q is not allowed", origin)
}

// hostMatches reports whether the Host header host matches allowed, a host
// name (any port) or host:port.
func hostMatches(host, allowed string) bool {
	if strings.EqualFold(host, allowed) {
		return true
	}
	name, _, err := net.SplitHostPort(host)
	return err == nil && strings.EqualFold(name, strings.Trim(allowed, "[]"))
}

// isLoopbackHost reports whether host (a Host header or the host of a URL,
// with or without a port) names the local machine.
func isLoopbackHost(host string) bool {
	if name, _, err := net.SplitHostPort(host); err == nil {
		host = name
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// authenticate runs HTTPOptions.Authenticate on the request's bearer
// token. When it returns !ok it has answered the request.
func (h *httpHandler) authenticate(ctx context.Context, w http.ResponseWriter, r *http.Request) (context.Context, bool) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		w.Header().Set("WWW-Authenticate", "Bearer")
		h.reject(w, r, http.StatusUnauthorized, CodeInvalidRequest, "unauthorized: send Authorization: Bearer <token>")
		return nil, false
	}
	actx, err := h.opts.Authenticate(ctx, token)
	if err != nil {
		h.srv.logger().Info("mcp over http: bearer token rejected", "remote", r.RemoteAddr, "err", err)
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		h.reject(w, r, http.StatusUnauthorized, CodeInvalidRequest, "unauthorized: invalid token")
		return nil, false
	}
	if actx == nil {
		actx = ctx
	}
	return actx, true
}

// accepts reports whether the Accept header values admit JSON and SSE.
func accepts(values []string) (jsonOK, sseOK bool) {
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(mt)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				sseOK = true
			case "*/*":
				jsonOK, sseOK = true, true
			}
		}
	}
	return jsonOK, sseOK
}

// reject answers a request that cannot be served with an HTTP error status
// and, as the body, a JSON-RPC error response with a null id.
func (h *httpHandler) reject(w http.ResponseWriter, r *http.Request, status, code int, msg string) {
	h.srv.logger().Debug("mcp over http: request refused", "method", r.Method, "status", status, "reason", msg)
	writeJSON(w, status, errorResponse(nullID, code, msg))
}

// writeJSON writes a whole JSON body. An error means the client left,
// which the caller may log.
func writeJSON(w http.ResponseWriter, status int, body []byte) error {
	hdr := w.Header()
	hdr.Set("Content-Type", "application/json")
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// An httpResponder writes the answer to one POSTed request: one JSON body,
// or an SSE stream once the call sends a notification before its
// response. Notifications may come from any goroutine of the handler.
type httpResponder struct {
	w   http.ResponseWriter
	r   *http.Request
	log *slog.Logger

	mu     sync.Mutex
	stream bool  // the SSE stream has begun
	done   bool  // the response is written: drop late notifications
	err    error // the first write error
}

// notify sends a notification on the stream, beginning it if need be.
func (rw *httpResponder) notify(msg []byte) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.done || rw.err != nil {
		return
	}
	if !rw.stream {
		hdr := rw.w.Header()
		hdr.Set("Content-Type", "text/event-stream")
		hdr.Set("Cache-Control", "no-cache")
		hdr.Set("X-Accel-Buffering", "no") // ask proxies not to hold events back
		rw.w.WriteHeader(http.StatusOK)
		rw.stream = true
	}
	rw.event(msg)
}

// finish writes the response: the last event of the stream if one has
// begun, else the whole body.
func (rw *httpResponder) finish(resp []byte) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.done = true
	if rw.stream {
		if rw.err == nil {
			rw.event(resp)
		}
		return
	}
	if err := writeJSON(rw.w, http.StatusOK, resp); err != nil {
		rw.fail(err)
	}
}

// event writes msg as one SSE event and flushes it.
func (rw *httpResponder) event(msg []byte) {
	b := make([]byte, 0, len(msg)+32)
	b = append(b, "event: message\n"...)
	for line := range bytes.Lines(msg) { // JSON from this package has no newlines; be safe anyway
		b = append(b, "data: "...)
		b = append(b, bytes.TrimRight(line, "\r\n")...)
		b = append(b, '\n')
	}
	b = append(b, '\n')
	if _, err := rw.w.Write(b); err != nil {
		rw.fail(err)
		return
	}
	if err := http.NewResponseController(rw.w).Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		rw.fail(err)
	}
}

func (rw *httpResponder) fail(err error) {
	rw.err = err
	level := slog.LevelWarn
	if rw.r.Context().Err() != nil {
		level = slog.LevelDebug // the client went away
	}
	rw.log.Log(rw.r.Context(), level, "mcp over http: writing the response failed", "remote", rw.r.RemoteAddr, "err", err)
}
