package runtime

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// Asking the client: a handler may ask the client for input from its
// user (elicitation), for a completion by its model (sampling), or for
// the folders it may use (roots). The same handler code works under every
// revision:
//
//   - under a session revision, each question is a request from the
//     server to the client, sent on the connection of the request the
//     handler serves; Ask waits for the answers, which the transport
//     routes back (clientRequests.deliver);
//   - under the per-request revision, the call ends with an
//     input_required result that lists the questions, and the client makes
//     the call again with the answers; the handler runs again from the
//     start, and this time Ask finds them (see beginRound).

// ErrNotSupported reports a question that the client cannot answer: it
// did not declare the capability, or its transport cannot carry a request
// from the server (a POST served on its own). It comes at once, never
// after a wait. A tool handler that returns it (wrapped or not) to a
// client of revision 2026-07-28 makes the call fail with the protocol's
// missing capability error (-32021), which names the capability.
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
// an *ElicitURLQuestion, a *SampleQuestion or a *RootsQuestion. Ask fills
// in its answer.
type Question interface {
	// what names the kind of question, for errors and generated keys.
	what() string
	// key is the question's own key, or "" for one Ask chooses.
	key() string
	method() string
	// params writes the request's params; perRequest is the revision.
	params(perRequest bool) ([]byte, error)
	// needs returns, when the client's capabilities do not cover the
	// question, the capabilities it needs as a JSON object; nil if they do.
	needs(c *wire.ClientCaps) []byte
	// answer checks the client's answer (the result of the request, parsed
	// by jsonvalue, whose members it reads by their exact names) and
	// stores it in the question.
	answer(result jsonvalue.Value) error
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
	c := callOf(ctx)
	if c == nil {
		return fmt.Errorf("runtime: %w: ctx is not the context of a request from a client", ErrNotSupported)
	}
	if c.meta != nil && c.meta.task != nil && c.meta.task.isBegun() {
		return c.meta.task.ask(ctx, c, qs)
	}
	if c.meta != nil {
		if c.meta.round == nil {
			return fmt.Errorf("runtime: %w: only tools/call, prompts/get and resources/read can ask the client under revision %s", ErrNotSupported, wire.RequestRevision)
		}
		return c.meta.round.take(&c.meta.Caps, qs)
	}
	ss := c.ss
	send := c.sink()
	if !ss.canAsk || send == nil {
		return fmt.Errorf("runtime: %w: the transport carries no request from the server (use HTTP sessions, stdio or a Conn)", ErrNotSupported)
	}
	caps := ss.clientCaps()
	if err := unsupported(&caps, qs); err != nil {
		return err
	}
	if len(qs) == 1 {
		return ss.askOne(ctx, send, qs[0])
	}
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
		wg.Go(func() { errs[i] = ss.askOne(ctx, send, q) })
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
	res, err := ss.requests.send(ctx, send, q.method(), params, ss.srv.askTimeout())
	if err != nil {
		return fmt.Errorf("%s: %w", q.what(), err)
	}
	if err := answerBytes(q, res); err != nil {
		return fmt.Errorf("%s: %w", q.what(), err)
	}
	return nil
}

// answerBytes parses an answer kept as bytes and hands it to q. A
// repeated member name is refused, as in every message.
func answerBytes(q Question, raw []byte) error {
	v, err := jsonvalue.Parse(raw)
	if err != nil {
		return fmt.Errorf("the client's answer is malformed: %w", err)
	}
	return q.answer(v)
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

// clientRequests are the requests a session sent to its client and whose
// answers it waits for (session revisions).
type clientRequests struct {
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

// send sends the request method with params (a JSON object) to the
// client, on send (where the call's notifications go), and waits for the
// answer, ctx's end, or timeout. A question given up on is withdrawn
// with notifications/cancelled.
func (cr *clientRequests) send(ctx context.Context, send func([]byte), method string, params []byte, timeout time.Duration) ([]byte, error) {
	cr.mu.Lock()
	cr.nextID++
	id := strconv.AppendInt(nil, cr.nextID, 10)
	ch := make(chan answer, 1)
	if cr.pending == nil {
		cr.pending = map[string]chan answer{}
	}
	cr.pending[string(id)] = ch
	cr.mu.Unlock()
	defer func() {
		cr.mu.Lock()
		delete(cr.pending, string(id))
		cr.mu.Unlock()
	}()

	msg := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	msg = append(msg, `,"method":"`...)
	msg = append(msg, method...)
	msg = append(msg, `","params":`...)
	send(append(append(msg, params...), '}'))

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

func cancelledNotification(id []byte, reason string) []byte {
	b := append([]byte(`{"jsonrpc":"2.0","method":"`+wire.NotifyCancelled+`","params":{"requestId":`), id...)
	b = append(b, `,"reason":`...)
	b = jsonvalue.AppendString(b, reason)
	return append(b, "}}"...)
}

// deliver routes a response of the client to the request that waits for
// it. A response to no request (unknown, or already given up) is logged
// and dropped: there is no one to tell.
func (cr *clientRequests) deliver(srv *Server, m *jsonrpc.Message) {
	id := string(m.ID.Raw())
	cr.mu.Lock()
	ch := cr.pending[id]
	delete(cr.pending, id)
	cr.mu.Unlock()
	if ch == nil {
		srv.logger().Debug("a response of the client answers no request of the server's", "id", id)
		return
	}
	if m.Error.Exists() {
		code, msg := m.Error.Get("code"), m.Error.Get("message")
		n, err := strconv.Atoi(string(code.Raw()))
		if code.Kind() != jsonvalue.Number || err != nil || msg.Kind() != jsonvalue.String {
			ch <- answer{err: fmt.Errorf("the client answered with a malformed error: %.200s", m.Error.Raw())}
			return
		}
		ch <- answer{err: &ClientError{Code: n, Message: msg.Str()}}
		return
	}
	ch <- answer{result: append([]byte(nil), m.Result.Raw()...)} // the message's buffer is not ours to keep
}

// unsupported returns the error of the first of qs that a client with
// caps cannot answer, or nil when it can answer them all.
func unsupported(caps *wire.ClientCaps, qs []Question) error {
	for _, q := range qs {
		if need := q.needs(caps); need != nil {
			return &capabilityError{what: q.what(), need: need}
		}
	}
	return nil
}
