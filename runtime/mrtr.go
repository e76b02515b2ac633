package runtime

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// Multi round-trip requests (revision 2026-07-28): a tools/call,
// prompts/get or resources/read whose handler asks the client something
// is answered with an input_required result that lists the questions, and
// the client makes the request again with the answers (inputResponses).
// The handler runs again from the start, and Ask finds the answers.
//
// Nothing waits in the server between the rounds, so that any replica can
// serve the next round: what a later round needs from the earlier ones
// (their answers) travels in requestState, which the client echoes. The
// server seals it (AES-GCM, with Server.StateKey) and binds it to the
// request (method, target and a digest of the arguments) and to an
// expiry, so that a client can neither read nor change it, nor replay it
// for another request.

// An mrtr is the asking state of one modern request whose handler may ask.
type mrtr struct {
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
}

// An openQuestion is a question to send in an input_required result.
type openQuestion struct {
	key, method string
	params      []byte
}

// ask answers qs from the request's answers, or records them as open; see
// Ask.
func (mr *modernRequest) ask(qs []Question) error {
	a := mr.asks
	if a == nil {
		return fmt.Errorf("ask: %w: only tools/call, prompts/get and resources/read can ask the client under revision %s", ErrNotSupported, modernVersion)
	}
	for _, q := range qs {
		if need := q.needs(mr.caps); need != nil {
			return &capabilityError{what: q.what(), need: need}
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	missing := false
	for _, q := range qs {
		a.seq++
		key := q.key()
		if key == "" {
			key = fmt.Sprintf("%s-%d", strings.ReplaceAll(q.what(), " ", "-"), a.seq)
		}
		raw, ok := a.have[key]
		if !ok {
			params, err := q.params(true)
			if err != nil {
				return fmt.Errorf("%s: %w", q.what(), err)
			}
			a.open = append(a.open, openQuestion{key, q.method(), params})
			missing = true
			continue
		}
		if err := q.answer(raw); err != nil {
			a.invalid = fmt.Errorf("inputResponses[%q]: %w", key, err)
			return a.invalid
		}
		if a.kept == nil {
			a.kept = map[string][]byte{}
		}
		a.kept[key] = raw
	}
	if missing {
		return ErrInputRequired
	}
	return nil
}

// The state a round hands to the next, sealed.
type roundState struct {
	Method  string                     `json:"m"`
	Target  string                     `json:"t"`
	Digest  []byte                     `json:"d"`
	Expires int64                      `json:"x"` // Unix seconds
	Answers map[string]json.RawMessage `json:"a,omitempty"`
}

// stateAD is the additional data of every sealed state, so that nothing
// else sealed with the same key passes for one.
var stateAD = []byte("mcpgen request state v1")

// stateCipher returns the AEAD that seals request states: AES-256-GCM
// under a key derived from Server.StateKey, or from random bytes drawn
// once per Server when StateKey is empty.
func (s *Server) stateCipher() cipher.AEAD {
	s.stateOnce.Do(func() {
		key := s.StateKey
		if len(key) == 0 {
			key = make([]byte, 32)
			rand.Read(key)
		}
		sum := sha256.Sum256(key)
		block, err := aes.NewCipher(sum[:])
		if err != nil {
			panic(err) // a 32-byte key is always valid
		}
		s.stateAEAD, err = cipher.NewGCM(block)
		if err != nil {
			panic(err)
		}
	})
	return s.stateAEAD
}

// seal encrypts and authenticates st.
func (s *Server) seal(st *roundState) (string, error) {
	plain, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	aead := s.stateCipher()
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(aead.Seal(nonce, nonce, plain, stateAD)), nil
}

// errBadState is why a requestState is refused.
var errBadState = errors.New("requestState failed verification: it was changed, comes from another request or server, or has expired; make the request again without it")

// open decrypts a sealed state and checks that it belongs to the request
// method on target with arguments of digest, and has not expired.
func (s *Server) open(token, method, target string, digest []byte, now time.Time) (*roundState, error) {
	data, err := base64.RawURLEncoding.DecodeString(token)
	aead := s.stateCipher()
	if err != nil || len(data) < aead.NonceSize() {
		return nil, errBadState
	}
	plain, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], stateAD)
	if err != nil {
		return nil, errBadState
	}
	var st roundState
	if err := json.Unmarshal(plain, &st); err != nil ||
		st.Method != method || st.Target != target || !slices.Equal(st.Digest, digest) || now.Unix() > st.Expires {
		return nil, errBadState
	}
	return &st, nil
}

// beginRound readies a modern request whose handler may ask: it checks
// and opens the request's requestState and reads its inputResponses. The
// request is method on target (a tool or prompt name, or a URI), with
// arguments args (absent for none). A malformed or refused state or
// inputResponses yields the error response to send instead.
func (ss *session) beginRound(c *call, method, target string, args jsonvalue.Value) []byte {
	mr := c.modern
	id, params := c.msg.ID.Raw(), c.msg.Params
	a := &mrtr{have: map[string][]byte{}}
	mr.asks = a
	digest := argsDigest(args)
	if sv := params.Get("requestState"); sv.Exists() {
		if sv.Kind() != jsonvalue.String {
			return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: requestState must be the string the server sent")
		}
		st, err := ss.srv.open(sv.Str(), method, target, digest, time.Now())
		if err != nil {
			return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: "+err.Error())
		}
		for k, v := range st.Answers {
			a.have[k] = v
		}
	}
	if rv := params.Get("inputResponses"); rv.Exists() {
		if rv.Kind() != jsonvalue.Object {
			return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: inputResponses must be an object of answers by the keys of inputRequests")
		}
		for k, v := range rv.Members() {
			if _, sealed := a.have[k]; !sealed {
				a.have[strings.Clone(k)] = slices.Clone(v.Raw())
			}
		}
	}
	return nil
}

// endRound turns what the handler of a modern request left into the
// response, when it asked: an answer that does not fit its question is
// invalid params; open questions make an input_required result whose
// state carries the answers read so far. It returns nil when the handler
// asked nothing open, and resp stands.
func (ss *session) endRound(c *call, method, target string, args jsonvalue.Value) []byte {
	a := c.modern.asks
	id := c.msg.ID.Raw()
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.invalid != nil:
		return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: "+a.invalid.Error())
	case len(a.open) == 0:
		return nil
	}
	st := &roundState{Method: method, Target: target, Digest: argsDigest(args), Expires: time.Now().Add(ss.srv.askTimeout()).Unix()}
	if len(a.kept) > 0 {
		st.Answers = make(map[string]json.RawMessage, len(a.kept))
		for k, v := range a.kept {
			st.Answers[k] = v
		}
	}
	token, err := ss.srv.seal(st)
	if err != nil {
		return jsonrpc.Error(id, jsonrpc.InternalError, "sealing the request state: "+err.Error())
	}
	b := []byte(`{"resultType":"input_required","inputRequests":{`)
	for i, q := range a.open {
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
	return jsonrpc.AppendResult(nil, id, append(b, '}'))
}

// askQuestions records qs as open questions of c, for a handler error
// that stands for them (URLElicitationRequiredError). It returns the
// error response when the client cannot answer them.
func (ss *session) askQuestions(c *call, qs []Question) []byte {
	for _, q := range qs {
		if need := q.needs(c.modern.caps); need != nil {
			return missingCapability(c.msg.ID.Raw(), &capabilityError{what: q.what(), need: need})
		}
	}
	a := c.modern.asks
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, q := range qs {
		params, err := q.params(true)
		if err != nil {
			return jsonrpc.Error(c.msg.ID.Raw(), jsonrpc.InternalError, err.Error())
		}
		a.open = append(a.open, openQuestion{q.key(), q.method(), params})
	}
	return nil
}

// missingCapability is the modern answer to a request that needs a
// capability the client did not declare (-32021).
func missingCapability(id []byte, e *capabilityError) []byte {
	data := append(append([]byte(`{"requiredCapabilities":`), e.need...), '}')
	return jsonrpc.ErrorWithData(id, codeMissingCapability, e.Error(), data)
}

// askTimeout is Server.AskTimeout or its default.
func (s *Server) askTimeout() time.Duration {
	if s.AskTimeout > 0 {
		return s.AskTimeout
	}
	return defaultAskTimeout
}

// argsDigest is the SHA-256 of the canonical form of args: the same for
// the same JSON value, however its members are ordered or its strings
// escaped.
func argsDigest(args jsonvalue.Value) []byte {
	sum := sha256.Sum256(appendCanonical(nil, args))
	return sum[:]
}

// appendCanonical writes v with object members sorted by name, strings
// re-encoded and no space; numbers are kept as written.
func appendCanonical(b []byte, v jsonvalue.Value) []byte {
	if !v.Exists() {
		return append(b, "null"...)
	}
	switch v.Kind() {
	case jsonvalue.String:
		return jsonvalue.AppendString(b, v.Str())
	case jsonvalue.Array:
		b = append(b, '[')
		for i, e := range v.Elems() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, e)
		}
		return append(b, ']')
	case jsonvalue.Object:
		type member struct {
			name string
			v    jsonvalue.Value
		}
		var ms []member
		for name, mv := range v.Members() {
			ms = append(ms, member{name, mv})
		}
		slices.SortFunc(ms, func(x, y member) int { return strings.Compare(x.name, y.name) })
		b = append(b, '{')
		for i, m := range ms {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, m.name)
			b = append(b, ':')
			b = appendCanonical(b, m.v)
		}
		return append(b, '}')
	}
	return append(b, v.Raw()...)
}
