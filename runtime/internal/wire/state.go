package wire

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
)

// A multi round-trip request (per-request revision) is made again with
// the client's answers, and nothing waits in the server between the
// rounds, so that any replica can serve the next round: what a later
// round needs from the earlier ones (their answers) travels in
// requestState, which the client echoes. The server seals it (a Box, as
// it seals what it keeps in a shared store) and binds it to the request (method, target, a digest of the arguments) and
// to an expiry, so that a client can neither read nor change it, nor
// replay it for another request.

// A RoundState is what one round of a request hands to the next.
type RoundState struct {
	Method  string                     `json:"m"`
	Target  string                     `json:"t"`
	Digest  []byte                     `json:"d"`
	Expires int64                      `json:"x"` // Unix seconds
	Answers map[string]json.RawMessage `json:"a,omitempty"`
}

// StatePurpose is the purpose of the Box that seals request states (see
// NewBox): the replicas' key, a purpose of its own.
const StatePurpose = "mcpgen request state v1"

// stateAD is the additional data of every sealed state, so that nothing
// else sealed with the same box passes for one.
var stateAD = []byte("mcpgen request state v1")

// SealState encrypts and authenticates st with box, as URL-safe base64.
func SealState(box *Box, st *RoundState) (string, error) {
	plain, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(box.Seal(plain, stateAD)), nil
}

// ErrBadState is why a requestState is refused.
var ErrBadState = errors.New("requestState failed verification: it was changed, comes from another request or server, or has expired; make the request again without it")

// OpenState decrypts a state that SealState sealed with a box of the
// same key, and checks that it belongs to the request method on target
// with arguments of digest, and has not expired by now.
func OpenState(box *Box, token, method, target string, digest []byte, now time.Time) (*RoundState, error) {
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return nil, ErrBadState
	}
	plain, err := box.Open(data, stateAD)
	if err != nil {
		return nil, ErrBadState
	}
	var st RoundState
	if err := json.Unmarshal(plain, &st); err != nil ||
		st.Method != method || st.Target != target || !slices.Equal(st.Digest, digest) || now.Unix() > st.Expires {
		return nil, ErrBadState
	}
	return &st, nil
}

// ArgsDigest is the SHA-256 of the canonical form of args (see
// schema.AppendCanonical): the same for the same JSON value, however its
// members are ordered, its strings escaped or its numbers written.
func ArgsDigest(args jsonvalue.Value) []byte {
	sum := sha256.Sum256(schema.AppendCanonical(nil, args))
	return sum[:]
}
