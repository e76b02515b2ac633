package runtime

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A handlerRun describes one run of a handler of the program's: what it
// serves and how it may run.
type handlerRun struct {
	// kind and target name what is served, for logs and errors: "tool"
	// and its name, "prompt" and its name, "resource" and its URI,
	// "completion" and the argument.
	kind, target string
	// args are the request's arguments, which a round of the per-request
	// revision is bound to; absent for none.
	args jsonvalue.Value
	// timeout, if positive, bounds the handler.
	timeout time.Duration
}

// runHandler runs fn, a handler of the program's, for c. It is the one
// place that does for tools, prompts, resources and completions alike:
//
//   - under the per-request revision, the request's round begins: the
//     answers it brings (requestState, inputResponses) are read and
//     checked;
//   - the call waits for a running slot (Server.MaxInFlight);
//   - the handler's context gets its deadline (timeout), and knows its
//     call (see callContext), so that ReportProgress, Logger and Ask work;
//   - a panic becomes an error, logged with its stack (see recovered);
//   - the round ends: the questions the handler left open make an
//     input_required result, an answer that does not fit its question
//     makes invalid params;
//   - a question the client did not declare it can answer makes, per
//     request, the missing-capability error (-32021), and a
//     *URLElicitationRequiredError the URL-elicitation error (-32042)
//     under the session revisions, or URL questions per request.
//
// It returns fn's error for the primitive to report its own way, or, with
// stop set, the response that answers the request instead.
func (ss *session) runHandler(c *call, h handlerRun, fn func(ctx context.Context) error) (err error, stop bool, resp response) {
	if c.meta != nil {
		if resp, stop = ss.beginRound(c, h); stop {
			return nil, true, resp
		}
	}
	adm := ss.srv.admission()
	if err := adm.takeSlot(&c.ctx); err != nil {
		return fmt.Errorf("%s %s was cancelled before it started", h.kind, h.target), false, response{}
	}
	defer adm.releaseSlot()
	var ctx context.Context = &c.ctx
	if c.handlerCtx != nil {
		ctx = c.handlerCtx
	}
	if h.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.timeout)
		defer cancel()
	}
	c.target = h.target
	err = ss.invoke(ctx, h, fn)
	if err != nil && h.timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) && c.ctx.Err() == nil {
		err = fmt.Errorf("%s %s timed out after %v", h.kind, h.target, h.timeout)
	}
	if err != nil {
		// Declared here, and not above, because errors.As moves them to
		// the heap: a call that succeeds allocates nothing for them.
		var needURL *URLElicitationRequiredError
		if errors.As(err, &needURL) {
			if c.meta == nil {
				return err, true, errorWithData(wire.URLElicitationRequired, needURL.Error(), needURL.data())
			}
			if resp, stop = ss.askQuestions(c, needURL.questions()); stop {
				return nil, true, resp
			}
		}
	}
	if c.meta != nil {
		if resp, stop = ss.endRound(c, h); stop {
			return nil, true, resp
		}
		var capErr *capabilityError
		if err != nil && errors.As(err, &capErr) {
			return nil, true, missingCapability(capErr)
		}
	}
	return err, false, response{}
}

// invoke calls fn, turning a panic into an error.
func (ss *session) invoke(ctx context.Context, h handlerRun, fn func(ctx context.Context) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = ss.recovered(h, p)
		}
	}()
	return fn(ctx)
}

// recovered logs the panic p of a handler with its stack, and returns the
// error the client sees instead: it names an incident id that the log
// line carries, and nothing of the panic itself, whose text may hold
// what the client should not read.
func (ss *session) recovered(h handlerRun, p any) error {
	incident := rand.Text()[:12]
	ss.srv.logger().Error(h.kind+" handler panicked", h.kind, h.target, "incident", incident, "panic", p, "stack", string(debug.Stack()))
	return fmt.Errorf("%s %s failed: internal error (incident %s)", h.kind, h.target, incident)
}
