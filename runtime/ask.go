package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/callctx"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// Asking the client: a handler may ask the client for input from its
// user (elicitation), for a completion by its model (sampling), or for
// the folders it may use (roots). Each is a request from the server to
// the client, sent on the connection of the request the handler serves;
// the handler waits for the answer, which the transport routes back.

// ErrNotSupported reports a question that the client cannot answer: it
// did not declare the capability in initialize, or its transport cannot
// carry a request from the server (stateless HTTP). It comes at once,
// never after a wait.
var ErrNotSupported = errors.New("not supported by this client")

// defaultAskTimeout bounds the wait for an answer when Server.AskTimeout
// is zero: a person may take a while to fill a form, not for ever.
const defaultAskTimeout = 10 * time.Minute

// clientCaps are the capabilities a client declared in initialize.
type clientCaps struct {
	elicitForm, elicitURL   bool
	sampling, samplingTools bool
	roots                   bool
}

// readClientCaps reads the capabilities of initialize's params.
func readClientCaps(params jsonvalue.Value) clientCaps {
	var c clientCaps
	if !params.Exists() {
		return c
	}
	caps := params.Get("capabilities")
	if !caps.Exists() || caps.Kind() != jsonvalue.Object {
		return c
	}
	if e := caps.Get("elicitation"); e.Exists() && e.Kind() == jsonvalue.Object {
		// 2025-06-18 declared {} for forms; 2025-11-25 names the modes.
		form, url := e.Get("form").Exists(), e.Get("url").Exists()
		c.elicitForm = form || !url
		c.elicitURL = url
	}
	if s := caps.Get("sampling"); s.Exists() && s.Kind() == jsonvalue.Object {
		c.sampling = true
		c.samplingTools = s.Get("tools").Exists()
	}
	if r := caps.Get("roots"); r.Exists() && r.Kind() == jsonvalue.Object {
		c.roots = true
	}
	return c
}

// asker sends requests to the client of one session and matches the
// answers to them.
type asker struct {
	mu      sync.Mutex
	nextID  int64
	pending map[string]chan answer // by the request's id, as JSON
}

// An answer is the client's response to one request of the server's.
type answer struct {
	result []byte // the result, as JSON
	err    error  // a JSON-RPC error of the client's, or why there is none
}

// A ClientError is an error response of the client to a question.
type ClientError struct {
	Code    int
	Message string
}

func (e *ClientError) Error() string {
	return fmt.Sprintf("the client answered with error %d: %s", e.Code, e.Message)
}

// asked returns the session and the call that ctx is the context of, to
// ask the client a question; what names the question, for errors.
func asked(ctx context.Context, what string, can func(clientCaps) bool) (*session, *callctx.Call, error) {
	ci := callctx.From(ctx)
	ss, _ := ci.Session.(*session)
	switch {
	case ci == nil || ss == nil:
		return nil, nil, fmt.Errorf("%s: %w: ctx is not the context of a request from a client", what, ErrNotSupported)
	case !ss.canAsk || ci.Notify == nil:
		return nil, nil, fmt.Errorf("%s: %w: the transport carries no request from the server (use HTTP sessions, stdio or a Conn)", what, ErrNotSupported)
	case !can(ss.clientCaps()):
		return nil, nil, fmt.Errorf("%s: %w: the client did not declare the capability", what, ErrNotSupported)
	}
	return ss, ci, nil
}

// ask sends the request method with params (a JSON object) to the client,
// on send (where the call's notifications go), and waits for the answer,
// ctx's end, or the server's AskTimeout. A question given up on is
// withdrawn with notifications/cancelled.
func (ss *session) ask(ctx context.Context, send func([]byte), method string, params []byte) ([]byte, error) {
	a := &ss.asks
	a.mu.Lock()
	a.nextID++
	id := strconv.AppendInt(nil, a.nextID, 10)
	ch := make(chan answer, 1)
	if a.pending == nil {
		a.pending = map[string]chan answer{}
	}
	a.pending[string(id)] = ch
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.pending, string(id))
		a.mu.Unlock()
	}()

	msg := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	msg = append(msg, `,"method":"`...)
	msg = append(msg, method...)
	msg = append(msg, `","params":`...)
	send(append(append(msg, params...), '}'))

	timeout := ss.srv.AskTimeout
	if timeout <= 0 {
		timeout = defaultAskTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case ans := <-ch:
		return ans.result, ans.err
	case <-ctx.Done():
		send(cancelledNotification(id, "the server no longer needs the answer"))
		return nil, fmt.Errorf("%s: %w", method, context.Cause(ctx))
	case <-timer.C:
		send(cancelledNotification(id, "the server stopped waiting for the answer"))
		return nil, fmt.Errorf("%s: the client did not answer within %v", method, timeout)
	}
}

// clientCaps returns what the client declared in initialize.
func (ss *session) clientCaps() clientCaps {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.caps
}

func cancelledNotification(id []byte, reason string) []byte {
	b := append([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`), id...)
	b = append(b, `,"reason":`...)
	b = jsonvalue.AppendString(b, reason)
	return append(b, "}}"...)
}

// deliver routes a response of the client to the question that waits for
// it. A response to no question (unknown, or already given up) is logged
// and dropped: there is no one to tell.
func (ss *session) deliver(m *jsonrpc.Message) {
	id := string(m.ID.Raw())
	ss.asks.mu.Lock()
	ch := ss.asks.pending[id]
	delete(ss.asks.pending, id)
	ss.asks.mu.Unlock()
	if ch == nil {
		ss.srv.logger().Debug("a response of the client answers no request of the server's", "id", id)
		return
	}
	if m.Error.Exists() {
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(m.Error.Raw(), &e); err != nil {
			ch <- answer{err: fmt.Errorf("the client answered with a malformed error: %s", m.Error.Raw())}
			return
		}
		ch <- answer{err: &ClientError{Code: e.Code, Message: e.Message}}
		return
	}
	ch <- answer{result: append([]byte(nil), m.Result.Raw()...)} // the message's buffer is not ours to keep
}
