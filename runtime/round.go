package runtime

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// Multi round-trip requests (per-request revision): a tools/call,
// prompts/get or resources/read whose handler asks the client something
// is answered with an input_required result that lists the questions, and
// the client makes the request again with the answers (inputResponses).
// The handler runs again from the start, and Ask finds the answers.
// Nothing waits in the server between the rounds: what a later round
// needs from the earlier ones travels, sealed, in requestState (see
// wire.SealState).

// A round is the asking state of one request of the per-request revision.
type round struct {
	mu sync.Mutex
	// have are the answers available to this round, by key: those sealed
	// in requestState, then those of inputResponses.
	have map[string][]byte
	// kept are the answers the handler read, which the next round's state
	// carries.
	kept map[string][]byte
	// open are the questions the handler asked and the client has not
	// answered, in order.
	open []openQuestion
	// invalid, if set, is an answer that does not fit its question.
	invalid error
	seq     int // questions asked, for generated keys
	digest  []byte
}

// An openQuestion is a question to send in an input_required result.
type openQuestion struct {
	key, method string
	params      []byte
}

// take answers qs from the round's answers, or records them as open; see
// Ask.
func (r *round) take(caps *wire.ClientCaps, qs []Question) error {
	if err := unsupported(caps, qs); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	missing := false
	for _, q := range qs {
		r.seq++
		key := q.key()
		if key == "" {
			key = fmt.Sprintf("%s-%d", strings.ReplaceAll(q.what(), " ", "-"), r.seq)
		}
		raw, ok := r.have[key]
		if !ok {
			params, err := q.params(true)
			if err != nil {
				return fmt.Errorf("%s: %w", q.what(), err)
			}
			r.open = append(r.open, openQuestion{key, q.method(), params})
			missing = true
			continue
		}
		if err := answerBytes(q, raw); err != nil {
			r.invalid = fmt.Errorf("inputResponses[%q]: %w", key, err)
			return r.invalid
		}
		if r.kept == nil {
			r.kept = map[string][]byte{}
		}
		r.kept[key] = raw
	}
	if missing {
		return ErrInputRequired
	}
	return nil
}

// beginRound readies a request of the per-request revision whose handler
// may ask: it opens the request's requestState, checking that it belongs
// to this request, and reads its inputResponses. A malformed or refused
// state or inputResponses answers the request instead (stop).
func (ss *session) beginRound(c *call, h handlerRun) (resp response, stop bool) {
	params := c.msg.Params
	r := &round{have: map[string][]byte{}, digest: wire.ArgsDigest(h.args)}
	c.meta.round = r
	if sv := params.Get("requestState"); sv.Exists() {
		if sv.Kind() != jsonvalue.String {
			return invalidParams("requestState must be the string the server sent"), true
		}
		st, err := wire.OpenState(ss.srv.stateBox(), sv.Str(), c.msg.Method, h.target, r.digest, time.Now())
		if err != nil {
			return invalidParams("%v", err), true
		}
		for k, v := range st.Answers {
			r.have[k] = v
		}
	}
	if rv := params.Get("inputResponses"); rv.Exists() {
		if rv.Kind() != jsonvalue.Object {
			return invalidParams("inputResponses must be an object of answers by the keys of inputRequests"), true
		}
		for k, v := range rv.Members() {
			if _, sealed := r.have[k]; !sealed {
				r.have[strings.Clone(k)] = slices.Clone(v.Raw())
			}
		}
	}
	return response{}, false
}

// endRound turns what the handler left into the response, when it asked:
// an answer that does not fit its question is invalid params; open
// questions make an input_required result whose state carries the answers
// read so far. It reports false when the handler left nothing open.
func (ss *session) endRound(c *call, h handlerRun) (resp response, stop bool) {
	r := c.meta.round
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.invalid != nil:
		return invalidParams("%v", r.invalid), true
	case len(r.open) == 0:
		return response{}, false
	}
	st := &wire.RoundState{Method: c.msg.Method, Target: h.target, Digest: r.digest, Expires: time.Now().Add(ss.srv.askTimeout()).Unix()}
	if len(r.kept) > 0 {
		st.Answers = make(map[string]json.RawMessage, len(r.kept))
		for k, v := range r.kept {
			st.Answers[k] = v
		}
	}
	token, err := wire.SealState(ss.srv.stateBox(), st)
	if err != nil {
		return errorResponse(jsonrpc.InternalError, "sealing the request state: %v", err), true
	}
	b := []byte(`"inputRequests":{`)
	for i, q := range r.open {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonvalue.AppendString(b, q.key)
		b = append(b, `:{"method":"`...)
		b = append(b, q.method...)
		b = append(b, `","params":`...)
		b = append(append(b, q.params...), '}')
	}
	b = append(b, `},"requestState":`...)
	b = jsonvalue.AppendString(b, token)
	return response{members: b, kind: resultInputRequired}, true
}

// askQuestions records qs as open questions of c, for a handler error
// that stands for them (URLElicitationRequiredError). It answers the
// request instead when the client cannot answer them.
func (ss *session) askQuestions(c *call, qs []Question) (resp response, stop bool) {
	for _, q := range qs {
		if need := q.needs(&c.meta.Caps); need != nil {
			return missingCapability(&capabilityError{what: q.what(), need: need}), true
		}
	}
	r := c.meta.round
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range qs {
		params, err := q.params(true)
		if err != nil {
			return errorResponse(jsonrpc.InternalError, "%v", err), true
		}
		r.open = append(r.open, openQuestion{q.key(), q.method(), params})
	}
	return response{}, false
}

// missingCapability is the per-request answer to a request that needs a
// capability the client did not declare (-32021).
func missingCapability(e *capabilityError) response {
	data := append(append([]byte(`{"requiredCapabilities":`), e.need...), '}')
	return errorWithData(wire.MissingCapability, e.Error(), data)
}

// stateBox returns what seals request states: a box keyed from
// Server.StateKey, or from a random key per Server when it is empty.
func (s *Server) stateBox() *wire.Box {
	s.stateBoxOnce.Do(func() { s.stateBoxed = wire.NewBox(s.StateKey, wire.StatePurpose) })
	return s.stateBoxed
}

// askTimeout is Server.AskTimeout or its default.
func (s *Server) askTimeout() time.Duration {
	if s.AskTimeout > 0 {
		return s.AskTimeout
	}
	return defaultAskTimeout
}
