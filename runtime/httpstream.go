package runtime

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
)

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

// keepAliveEvery is how often an idle stream gets a comment line, so that
// proxies do not close it.
const keepAliveEvery = 15 * time.Second

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
func (h *httpHandler) getStream(w http.ResponseWriter, r *http.Request) {
	if _, sseOK := accepts(r.Header.Values("Accept")); !sseOK {
		h.reject(w, r, http.StatusNotAcceptable, jsonrpc.InvalidRequest, "the Accept header must list text/event-stream")
		return
	}
	id := r.Header.Get(headerSessionID)
	if id == "" {
		h.reject(w, r, http.StatusBadRequest, jsonrpc.InvalidRequest, "missing "+headerSessionID+" header: a stream belongs to a session")
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
	hs := h.useSession(id)
	if hs == nil {
		h.reject(w, r, http.StatusNotFound, jsonrpc.SessionNotFound, "session not found: it ended or expired")
		return
	}
	// A stream keeps its session from expiring while it is open.
	defer h.release(hs)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	hs.events.attach(cancel)

	rw := &httpResponder{w: w, r: r, log: h.srv.logger(), writeTimeout: h.opts.WriteTimeout}
	rw.begin()
	tick := time.NewTicker(keepAliveEvery)
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
