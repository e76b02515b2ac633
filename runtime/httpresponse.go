package runtime

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
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
// deadline, so that a stream lasts as long as its call.
func (rw *httpResponder) deadline() {
	http.NewResponseController(rw.w).SetWriteDeadline(time.Now().Add(rw.writeTimeout))
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
