package runtime

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

func mustParse(t *testing.T, s string) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRequestStateBinding: a sealed state opens only for the request it
// was made for, before it expires, and under the key that sealed it.
func TestRequestStateBinding(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	a := &Server{StateKey: []byte("replica key")}
	digest := argsDigest(mustParse(t, `{"b":[1,"\u0041"],"a":{"y":2,"x":1}}`))
	token, err := a.seal(&roundState{Method: "tools/call", Target: "t", Digest: digest, Expires: now.Unix() + 60,
		Answers: map[string]json.RawMessage{"k": json.RawMessage(`{"action":"decline"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	// The same arguments, written otherwise, and another replica with the
	// same key.
	same := argsDigest(mustParse(t, `{ "a":{"x":1,"y":2}, "b":[1,"A"] }`))
	b := &Server{StateKey: []byte("replica key")}
	st, err := b.open(token, "tools/call", "t", same, now)
	if err != nil || string(st.Answers["k"]) != `{"action":"decline"}` {
		t.Fatalf("open: %v %+v", err, st)
	}
	for name, try := range map[string]func() error{
		"other key": func() error {
			_, err := (&Server{StateKey: []byte("other")}).open(token, "tools/call", "t", same, now)
			return err
		},
		"other method": func() error { _, err := a.open(token, "prompts/get", "t", same, now); return err },
		"other target": func() error { _, err := a.open(token, "tools/call", "u", same, now); return err },
		"other arguments": func() error {
			_, err := a.open(token, "tools/call", "t", argsDigest(mustParse(t, `{"a":1}`)), now)
			return err
		},
		"expired":    func() error { _, err := a.open(token, "tools/call", "t", same, now.Add(61*time.Second)); return err },
		"not base64": func() error { _, err := a.open("!!", "tools/call", "t", same, now); return err },
		"truncated":  func() error { _, err := a.open(token[:10], "tools/call", "t", same, now); return err },
	} {
		if err := try(); err != errBadState {
			t.Errorf("%s: %v", name, err)
		}
	}
}
