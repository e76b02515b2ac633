package runtime

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
)

// reject answers a request that cannot be served with an HTTP error status
// and, as the body, a JSON-RPC error response with a null id.
func (h *httpHandler) reject(w http.ResponseWriter, r *http.Request, status, code int, msg string) {
	h.srv.logger().Debug("request refused", "transport", "http", "method", r.Method, "status", status, "reason", msg)
	writeJSON(w, status, jsonrpc.ErrorResponse(jsonrpc.NullID, code, msg))
}

// writeJSON writes a whole JSON body. An error means the client left,
// which the caller may log.
func writeJSON(w http.ResponseWriter, status int, body []byte) error {
	hdr := w.Header()
	// The keys are canonical already: Set would check them again.
	hdr["Content-Type"] = []string{"application/json"}
	hdr["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// An httpResponder writes the answer to one POSTed request: one JSON body,
// or an SSE stream once the call sends a notification before its
// response. Notifications may come from any goroutine of the handler.
type httpResponder struct {
	w            http.ResponseWriter
	r            *http.Request
	log          *slog.Logger
	writeTimeout time.Duration
	// call, if set, is the call whose answer this is: a failed write
	// cancels it, as its client can no longer be told anything (a
	// subscriptions/listen whose client stopped reading ends so).
	call *call

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
	rw.beginLocked()
	rw.event(msg)
}

// begin starts the stream: its headers go out at once.
func (rw *httpResponder) begin() {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.beginLocked()
	rw.flush()
}

func (rw *httpResponder) beginLocked() {
	if rw.stream {
		return
	}
	hdr := rw.w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no") // ask proxies not to hold events back
	rw.w.WriteHeader(http.StatusOK)
	rw.stream = true
}

// eventWithID writes msg as an event with an id, for a stream a client
// can resume; it reports whether the stream is still good.
func (rw *httpResponder) eventWithID(id uint64, msg []byte) bool {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.write(strconv.AppendUint([]byte("id: "), id, 10), msg)
	return rw.err == nil
}

// comment writes an SSE comment line, which clients ignore.
func (rw *httpResponder) comment(text string) bool {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.deadline()
	if _, err := rw.w.Write([]byte(": " + text + "\n\n")); err != nil {
		rw.fail(err)
		return false
	}
	rw.flush()
	return rw.err == nil
}

// finish writes the response: the last event of the stream if one has
// begun (with 200), else the whole body with status.
func (rw *httpResponder) finish(resp []byte, status int) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.done = true
	if rw.stream {
		if rw.err == nil {
			rw.event(resp)
		}
		return
	}
	rw.deadline()
	if err := writeJSON(rw.w, status, resp); err != nil {
		rw.fail(err)
	}
}

// deadline bounds the next write: a client that does not read cannot
// hold a goroutine and its response for ever. Each write gets its own
// deadline, so that a stream lasts as long as its call; on a connection
// whose deadline is known (see writeDeadlines), a write that the last
// deadline leaves at least half of writeTimeout keeps it.
func (rw *httpResponder) deadline() {
	now := time.Now()
	conn := writeDeadlineOf(rw.r)
	if conn.covers(now, rw.writeTimeout) {
		return
	}
	d := now.Add(rw.writeTimeout)
	if http.NewResponseController(rw.w).SetWriteDeadline(d) == nil {
		conn.set(d)
	}
}

// A writeDeadline is the write deadline last set on one HTTP/1
// connection. Moving a connection's deadline moves a timer of the Go
// runtime, which often wakes an idle thread of the scheduler: a
// kept-alive connection that answers request after request moves it
// only once every half WriteTimeout. Its zero value, or a nil one, knows
// no deadline.
type writeDeadline struct {
	unixNano atomic.Int64
}

// writeDeadlines attaches a writeDeadline to the connection of every
// request of an http.Server whose ConnContext it is: ListenAndServeHTTP's.
func writeDeadlines(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, writeDeadlineKey{}, new(writeDeadline))
}

type writeDeadlineKey struct{}

// writeDeadlineOf returns the writeDeadline of r's connection, or nil
// when its server attached none or the connection multiplexes requests
// (HTTP/2), whose deadlines are each stream's own.
func writeDeadlineOf(r *http.Request) *writeDeadline {
	if r.ProtoMajor != 1 {
		return nil
	}
	wd, _ := r.Context().Value(writeDeadlineKey{}).(*writeDeadline)
	return wd
}

// covers reports whether the deadline last set leaves a write starting at
// now at least half of timeout.
func (wd *writeDeadline) covers(now time.Time, timeout time.Duration) bool {
	return wd != nil && wd.unixNano.Load()-now.UnixNano() >= int64(timeout/2)
}

// set records the deadline just set on the connection.
func (wd *writeDeadline) set(d time.Time) {
	if wd != nil {
		wd.unixNano.Store(d.UnixNano())
	}
}

// event writes msg as one SSE event and flushes it.
func (rw *httpResponder) event(msg []byte) {
	rw.write(nil, msg)
}

// write writes msg as one SSE event, after the line head (an id, or
// nothing), and flushes it.
func (rw *httpResponder) write(head, msg []byte) {
	b := make([]byte, 0, len(msg)+len(head)+32)
	if head != nil {
		b = append(append(b, head...), '\n')
	}
	b = append(b, "event: message\n"...)
	for line := range bytes.Lines(msg) { // JSON from this package has no newlines; be safe anyway
		b = append(b, "data: "...)
		b = append(b, bytes.TrimRight(line, "\r\n")...)
		b = append(b, '\n')
	}
	b = append(b, '\n')
	rw.deadline()
	if _, err := rw.w.Write(b); err != nil {
		rw.fail(err)
		return
	}
	rw.flush()
}

// flush sends what was written.
func (rw *httpResponder) flush() {
	if err := http.NewResponseController(rw.w).Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		rw.fail(err)
	}
}

func (rw *httpResponder) fail(err error) {
	rw.err = err
	if rw.call != nil {
		rw.call.cancel()
	}
	level := slog.LevelWarn
	if rw.r.Context().Err() != nil {
		level = slog.LevelDebug // the client went away
	}
	rw.log.Log(rw.r.Context(), level, "writing the response failed", "transport", "http", "remote", rw.r.RemoteAddr, "err", err)
}
