package runtime

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// An httpSession is a session kept between requests (HTTPOptions.Sessions).
type httpSession struct {
	id     string
	holder string // who holds the token that opened it (caller.holder), or ""
	ss     *session
	events *eventLog // what the session sends outside requests, for GET
	// Guarded by httpHandler.mu:
	active   int       // requests in progress
	lastUsed time.Time // when the last request ended (or began)
}

// sessionFor returns the session that serves m, a message of a session
// revision: a session of its own for each request without sessions, in
// its hold (hs is then nil); with sessions, the one the request names, counted as in
// use until endUse. An initialize without a session id opens a new
// session (isNew), which respond forgets again if initialize fails. When
// sessionFor returns !ok it has answered the request.
func (h *httpHandler) sessionFor(ctx context.Context, w http.ResponseWriter, r *http.Request, m *jsonrpc.Message, hold *heldRequest) (ss *session, hs *httpSession, isNew, ok bool) {
	if !h.opts.Sessions {
		return hold.session(h, callerOf(ctx, r.RemoteAddr)), nil, false, true
	}
	id := r.Header.Get(wire.HeaderSessionID)
	switch {
	case id == "" && (m.Method != wire.MethodInitialize || !m.IsRequest()):
		// Only an initialize request starts a session, and only once it
		// succeeds (see respond): a notification must not take a session's
		// room.
		h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest,
			"missing "+wire.HeaderSessionID+" header: send initialize first, then the session id it returned")
	case id == "":
		if hs = h.newSession(callerOf(ctx, r.RemoteAddr)); hs != nil {
			return hs.ss, hs, true, true
		}
		h.srv.logger().Warn("new session refused: every session has a request in progress", "transport", "http", "max_sessions", h.opts.MaxSessions)
		w.Header().Set("Retry-After", "1")
		h.reject(w, r, http.StatusServiceUnavailable, jsonrpc.InternalError, "too many sessions in use; retry later")
	default:
		if hs = h.useSession(ctx, id); hs != nil {
			return hs.ss, hs, false, true
		}
		h.reject(w, r, http.StatusNotFound, wire.SessionNotFound,
			"session not found: it ended or expired; send initialize without "+wire.HeaderSessionID+" to start a new one")
	}
	return nil, nil, false, false
}

// sessionOf returns the live session r names, in use, or nil (no
// sessions, no header, or an unknown session).
func (h *httpHandler) sessionOf(ctx context.Context, r *http.Request) *httpSession {
	id := r.Header.Get(wire.HeaderSessionID)
	if !h.opts.Sessions || id == "" {
		return nil
	}
	return h.useSession(ctx, id)
}

// initSession makes *ss a new session of this handler for the caller who:
// the Streamable HTTP session id, or, when id is "", the one-request
// session of a request served on its own (see heldRequest.session).
func (h *httpHandler) initSession(ss *session, who caller, id string) {
	*ss = session{srv: h.srv, caller: who, tokens: h.opts.Authorization != nil, transport: "http", id: id, single: id == ""}
}

// newSession starts a session, in use, or returns nil when there is no
// room for one.
func (h *httpHandler) newSession(who caller) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	if !h.makeRoomLocked(now) {
		return nil
	}
	events := newEventLog()
	id := rand.Text()
	ss := new(session)
	h.initSession(ss, who, id)
	ss.notify, ss.canAsk = events.add, true
	hs := &httpSession{id: id, holder: who.holder, ss: ss, events: events, active: 1, lastUsed: now}
	h.srv.fanout.join(hs.ss)
	if h.sessions == nil {
		h.sessions = make(map[string]*httpSession)
	}
	h.sessions[hs.id] = hs
	return hs
}

// useSession returns the live session id names, now in use until endUse,
// or nil. A session opened with a token is only for the holder of that
// token: to anyone else it is unknown, as the specification's guidance
// against session hijacking asks.
func (h *httpHandler) useSession(ctx context.Context, id string) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	hs := h.sessions[id]
	if hs == nil || hs.holder != callerOf(ctx, "").holder {
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

// endUse ends a request's use of its session, on every path: a session
// in use is never ended for idleness.
func (h *httpHandler) endUse(hs *httpSession) {
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
	h.srv.fanout.leave(hs.ss)
	hs.ss.close()
	hs.events.close()
}

// deleteSession ends the session a DELETE names.
func (h *httpHandler) deleteSession(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(wire.HeaderSessionID)
	if id == "" {
		h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest, "missing "+wire.HeaderSessionID+" header: name the session to end")
		return
	}
	h.mu.Lock()
	hs := h.sessions[id]
	if hs != nil && hs.holder != callerOf(ctx, "").holder {
		hs = nil
	}
	if hs != nil {
		h.endLocked(hs)
	}
	h.mu.Unlock()
	if hs == nil {
		h.reject(w, r, http.StatusNotFound, wire.SessionNotFound, "session not found: it ended or expired")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// The standalone stream: with sessions, a client may GET the endpoint to
// open a text/event-stream on which the server sends what belongs to no
// request (list changes, resource updates). Every such message is
// numbered and kept, the last maxKeptEvents of them, so that a client
// that reconnects with Last-Event-ID gets what it missed.

// Bounds of a session's kept messages.
const (
	maxKeptEvents = 256
	maxKeptBytes  = 1 << 20
)

// An eventLog holds the messages a session sends outside requests.
type eventLog struct {
	mu     sync.Mutex
	next   uint64  // the id of the next event; ids start at 1
	kept   []event // the last events, oldest first
	bytes  int     // the size of kept's messages
	wake   chan struct{}
	closed bool
	reader context.CancelFunc // ends the stream that reads the log now
}

type event struct {
	id  uint64
	msg []byte
}

func newEventLog() *eventLog {
	return &eventLog{next: 1, wake: make(chan struct{})}
}

// add keeps msg as the next event and wakes the stream.
func (l *eventLog) add(msg []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.kept = append(l.kept, event{l.next, msg})
	l.next++
	l.bytes += len(msg)
	for len(l.kept) > maxKeptEvents || l.bytes > maxKeptBytes && len(l.kept) > 1 {
		l.bytes -= len(l.kept[0].msg)
		l.kept[0] = event{}
		l.kept = l.kept[1:]
	}
	close(l.wake)
	l.wake = make(chan struct{})
}

// close ends the log, and the stream that reads it.
func (l *eventLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		close(l.wake)
		if l.reader != nil {
			l.reader()
		}
	}
}

// after returns the events after id, and a channel closed when there are
// more; done says the log is closed.
func (l *eventLog) after(id uint64) (events []event, wake <-chan struct{}, done bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.kept {
		if e.id > id {
			events = append(events, e)
		}
	}
	return events, l.wake, l.closed
}

// attach makes the stream whose context cancel ends the one reader of the
// log; the stream that read it before ends, so that no message goes out
// twice.
func (l *eventLog) attach(cancel context.CancelFunc) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.reader != nil {
		l.reader()
	}
	l.reader = cancel
}

// getStream answers a GET: the session's standalone stream, from just
// after Last-Event-ID if the client sends one.
func (h *httpHandler) getStream(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	if _, sseOK := accepts(r.Header.Values("Accept")); !sseOK {
		h.reject(w, r, http.StatusNotAcceptable, jsonrpc.InvalidRequest, "the Accept header must list text/event-stream")
		return
	}
	id := r.Header.Get(wire.HeaderSessionID)
	if id == "" {
		h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest, "missing "+wire.HeaderSessionID+" header: a stream belongs to a session")
		return
	}
	var last uint64
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest, fmt.Sprintf("Last-Event-ID %q is not an event id of this server", v))
			return
		}
		last = n
	}
	hs := h.useSession(ctx, id)
	if hs == nil {
		h.reject(w, r, http.StatusNotFound, wire.SessionNotFound, "session not found: it ended or expired")
		return
	}
	// A stream keeps its session from expiring while it is open.
	defer h.endUse(hs)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hs.events.attach(cancel)

	rw := &httpResponder{w: w, r: r, log: h.srv.logger(), writeTimeout: h.opts.WriteTimeout}
	rw.begin()
	tick := time.NewTicker(keepAliveInterval)
	defer tick.Stop()
	for {
		events, wake, done := hs.events.after(last)
		for _, e := range events {
			if !rw.eventWithID(e.id, e.msg) {
				return
			}
			last = e.id
		}
		if done {
			return
		}
		select {
		case <-wake:
		case <-tick.C:
			if !rw.comment("keep-alive") {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}
