package runtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/callctx"
)

// A Root is a folder or file the client lets the server use.
type Root struct {
	URI  string `json:"uri"` // a file:// URI
	Name string `json:"name,omitempty"`
}

// A RootsQuestion asks the client for its roots (roots/list).
type RootsQuestion struct {
	// Key names the question under revision 2026-07-28 (see Ask).
	Key string

	// Roots are the client's roots.
	Roots []Root
}

func (q *RootsQuestion) what() string   { return "roots" }
func (q *RootsQuestion) key() string    { return q.Key }
func (q *RootsQuestion) method() string { return "roots/list" }

func (q *RootsQuestion) needs(c clientCaps) []byte {
	if c.roots {
		return nil
	}
	return []byte(`{"roots":{}}`)
}

func (q *RootsQuestion) params(bool) ([]byte, error) { return []byte("{}"), nil }

func (q *RootsQuestion) answer(result []byte) error {
	var out struct {
		Roots []Root `json:"roots"`
	}
	if err := json.Unmarshal(result, &out); err != nil || out.Roots == nil {
		return fmt.Errorf("the client's answer is malformed: %.200s", result)
	}
	q.Roots = out.Roots
	return nil
}

// Roots asks the client for its roots (roots/list). See Ask for how it
// waits, and for the errors it returns.
func Roots(ctx context.Context) ([]Root, error) {
	q := &RootsQuestion{}
	if err := Ask(ctx, q); err != nil {
		return nil, err
	}
	return q.Roots, nil
}

// rootsChanged runs Server.OnRootsChanged for a client whose roots
// changed, with a context in which Roots asks that client.
func (ss *session) rootsChanged() {
	on := ss.srv.OnRootsChanged
	if on == nil || ss.notify == nil {
		return
	}
	state := &callctx.Call{Done: context.Background(), Notify: ss.notify, MinLevel: &ss.minLevel, Logger: ss.srv.logger(), Session: ss}
	go on(callctx.With(context.Background(), state))
}
