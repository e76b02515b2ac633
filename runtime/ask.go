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
// the folders it may use (roots). The same handler code works in both
// eras of the protocol (see modern.go):
//
//   - legacy: each question is a request from the server to the client,
//     sent on the connection of the request the handler serves; Ask waits
//     for the answers, which the transport routes back (deliver);
//   - modern: the call ends with an input_required result that lists the
//     questions, and the client makes the call again with the answers;
//     the handler runs again from the start, and this time Ask finds them
//     (see mrtr.go).

// ErrNotSupported reports a question that the client cannot answer: it
// did not declare the capability, or its transport cannot carry a request
// from the server (legacy stateless HTTP). It comes at once, never after
// a wait. A tool handler that returns it (wrapped or not) to a client of
// revision 2026-07-28 makes the call fail with the protocol's missing
// capability error (-32021), which names the capability.
var ErrNotSupported = errors.New("not supported by this client")

// ErrInputRequired is what Ask returns, under revision 2026-07-28, when
// the client has not answered yet: the handler should return it (or any
// error), and the runtime then sends the questions to the client, which
// calls again with the answers. The handler runs again from the start,
// so whatever it did before asking happens once per round; keep side
// effects after the questions.
var ErrInputRequired = errors.New("the client must answer first; the call is made again with the answers")

// defaultAskTimeout bounds the wait for an answer when Server.AskTimeout
// is zero: a person may take a while to fill a form, not for ever.
const defaultAskTimeout = 10 * time.Minute

// A Question is something a handler asks the client: an *ElicitQuestion,
// a *ElicitURLQuestion, a *SampleQuestion or a *RootsQuestion. Ask fills in its
// answer.
type Question interface {
	// what names the kind of question, for errors and generated keys.
	what() string
	// key is the question's own key, or "" for one Ask chooses.
	key() string
	method() string
	// params writes the request's params; modern is the era.
	params(modern bool) ([]byte, error)
	// needs returns, when the client's capabilities do not cover the
	// question, the capabilities it needs as a JSON object; nil if they do.
	needs(c clientCaps) []byte
	// answer decodes and checks the client's answer (the result of the
	// request) into the question.
	answer(result []byte) error
}

// Ask asks the client every question in qs at once, and fills in their
// answers. Use it when a handler needs several answers: under revision
// 2026-07-28 they then reach the client in one round. Elicit, ElicitURL,
// Sample and Roots ask one question each.
//
// A question's Key names it under revision 2026-07-28; a question without
// one is named by its kind and its position among the questions of the
// call ("elicitation-1", "sampling-2"), which stays the same from one
// round to the next as long as the handler asks the same questions in the
// same order.
//
// Ask fails at once with an error wrapping ErrNotSupported when the client
// did not declare what a question needs; it then asks nothing. Under
// 2025-11-25 and older, it waits for every answer, for ctx's end, or for
// Server.AskTimeout. Under 2026-07-28 it returns ErrInputRequired when an
// answer is not there yet (see ErrInputRequired).
func Ask(ctx context.Context, qs ...Question) error {
	ci := callctx.From(ctx)
	var ss *session
	if ci != nil {
		ss, _ = ci.Session.(*session)
	}
	if ss == nil {
		return fmt.Errorf("ask: %w: ctx is not the context of a request from a client", ErrNotSupported)
	}
	if mr, ok := ci.Modern.(*modernRequest); ok {
		return mr.ask(qs)
	}
	if !ss.canAsk || ci.Notify == nil {
		return fmt.Errorf("ask: %w: the transport carries no request from the server (use HTTP sessions, stdio or a Conn)", ErrNotSupported)
	}
	caps := ss.clientCaps()
	for _, q := range qs {
		if need := q.needs(caps); need != nil {
			return &capabilityError{what: q.what(), need: need}
		}
	}
	if len(qs) == 1 {
		return ss.askOne(ctx, ci.Notify, qs[0])
	}
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
		wg.Go(func() { errs[i] = ss.askOne(ctx, ci.Notify, q) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// askOne asks q as a request of the server's and takes its answer.
func (ss *session) askOne(ctx context.Context, send func([]byte), q Question) error {
	params, err := q.params(false)
	if err != nil {
		return fmt.Errorf("%s: %w", q.what(), err)
	}
	res, err := ss.ask(ctx, send, q.method(), params)
	if err != nil {
		return fmt.Errorf("%s: %w", q.what(), err)
	}
	if err := q.answer(res); err != nil {
		return fmt.Errorf("%s: %w", q.what(), err)
	}
	return nil
}

// A capabilityError is a question the client did not declare it can
// answer.
type capabilityError struct {
	what string
	need []byte // the capabilities needed, a ClientCapabilities object
}

func (e *capabilityError) Error() string {
	return fmt.Sprintf("%s: %v: the client did not declare the capability %s", e.what, ErrNotSupported, e.need)
}

func (e *capabilityError) Unwrap() error { return ErrNotSupported }

// clientCaps are the capabilities a client declared.
type clientCaps struct {
	elicitForm, elicitURL   bool
	sampling, samplingTools bool
	roots                   bool
}

// parseClientCaps reads a ClientCapabilities object.
func parseClientCaps(caps jsonvalue.Value) clientCaps {
	var c clientCaps
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
		return nil, context.Cause(ctx)
	case <-timer.C:
		send(cancelledNotification(id, "the server stopped waiting for the answer"))
		return nil, fmt.Errorf("the client did not answer within %v", timeout)
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
