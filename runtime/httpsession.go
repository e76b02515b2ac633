package runtime

import (
	"crypto/rand"
	"net/http"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
)

// An httpSession is a session kept between requests (HTTPOptions.Sessions).
type httpSession struct {
	id     string
	ss     *session
	events *eventLog // what the session sends outside requests, for GET
	// Guarded by httpHandler.mu:
	active   int       // requests in progress
	lastUsed time.Time // when the last request ended (or began)
}

// openSession returns the session that serves m, counted as in use until
// release. An initialize without a session id opens a new session
// (created); the caller forgets it again if initialize fails. When
// openSession returns !ok it has answered the request.
func (h *httpHandler) openSession(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) (hs *httpSession, created, ok bool) {
	if !h.opts.Sessions {
		return &httpSession{ss: &session{srv: h.srv}}, false, true
	}
	id := r.Header.Get(headerSessionID)
	switch {
	case id == "" && (m.Method != "initialize" || !m.IsRequest()):
		// Only an initialize request starts a session, and only once it
		// succeeds (see post): a notification must not take a session's
		// room.
		h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest,
			"missing "+headerSessionID+" header: send initialize first, then the session id it returned")
	case id == "":
		if hs = h.newSession(); hs != nil {
			return hs, true, true
		}
		h.srv.logger().Warn("mcp over http: new session refused: every session has a request in progress", "max_sessions", h.opts.MaxSessions)
		w.Header().Set("Retry-After", "1")
		h.reject(w, r, http.StatusServiceUnavailable, jsonrpc.InternalError, "too many sessions in use; retry later")
	default:
		if hs = h.useSession(id); hs != nil {
			return hs, false, true
		}
		h.reject(w, r, http.StatusNotFound, jsonrpc.SessionNotFound,
			"session not found: it ended or expired; send initialize without "+headerSessionID+" to start a new one")
	}
	return nil, false, false
}

// sessionOf returns the live session r names, in use, or nil (no
// sessions, no header, or an unknown session).
func (h *httpHandler) sessionOf(r *http.Request) *httpSession {
	id := r.Header.Get(headerSessionID)
	if !h.opts.Sessions || id == "" {
		return nil
	}
	return h.useSession(id)
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
	events := newEventLog()
	hs := &httpSession{id: rand.Text(), ss: &session{srv: h.srv, notify: events.add, canAsk: true}, events: events, active: 1, lastUsed: now}
	h.srv.join(hs.ss)
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
	h.srv.leave(hs.ss)
	hs.ss.cancelAll()
	hs.events.close()
}

// deleteSession ends the session a DELETE names.
func (h *httpHandler) deleteSession(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(headerSessionID)
	if id == "" {
		h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest, "missing "+headerSessionID+" header: name the session to end")
		return
	}
	h.mu.Lock()
	hs := h.sessions[id]
	if hs != nil {
		h.endLocked(hs)
	}
	h.mu.Unlock()
	if hs == nil {
		h.reject(w, r, http.StatusNotFound, jsonrpc.SessionNotFound, "session not found: it ended or expired")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
