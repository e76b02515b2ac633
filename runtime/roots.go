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

// Roots asks the client for its roots (roots/list). It fails at once with
// ErrNotSupported when the client did not declare roots.
func Roots(ctx context.Context) ([]Root, error) {
	ss, ci, err := asked(ctx, "roots", func(c clientCaps) bool { return c.roots })
	if err != nil {
		return nil, err
	}
	res, err := ss.ask(ctx, ci.Notify, "roots/list", []byte("{}"))
	if err != nil {
		return nil, err
	}
	var out struct {
		Roots []Root `json:"roots"`
	}
	if err := json.Unmarshal(res, &out); err != nil {
		return nil, fmt.Errorf("roots: the client's answer is malformed: %w", err)
	}
	return out.Roots, nil
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
