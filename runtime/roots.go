package runtime

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
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
func (q *RootsQuestion) method() string { return wire.MethodRootsList }

func (q *RootsQuestion) needs(c *wire.ClientCaps) []byte {
	if c.Roots {
		return nil
	}
	return []byte(`{"roots":{}}`)
}

func (q *RootsQuestion) params(bool) ([]byte, error) { return []byte("{}"), nil }

func (q *RootsQuestion) answer(result jsonvalue.Value) error {
	list := result.Get("roots")
	if list.Kind() != jsonvalue.Array {
		return fmt.Errorf("the client's answer has no list of roots: %.200s", result.Raw())
	}
	roots := make([]Root, 0, list.Len())
	for i, r := range list.Elems() {
		uri, name := r.Get("uri"), r.Get("name")
		if uri.Kind() != jsonvalue.String || name.Exists() && name.Kind() != jsonvalue.String {
			return fmt.Errorf("the client's root %d is not an object with a uri and an optional name: %.200s", i, r.Raw())
		}
		roots = append(roots, Root{URI: uri.Str(), Name: name.Str()})
	}
	q.Roots = roots
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

// rootsChanged acts on notifications/roots/list_changed: it runs
// Server.OnRootsChanged with a context in which Roots asks that client
// (see rootsRefresh).
func (ss *session) rootsChanged(jsonvalue.Value) {
	on := ss.srv.OnRootsChanged
	if on == nil || ss.notify == nil {
		return
	}
	ss.roots.changed(func(ctx context.Context) {
		c := &call{ss: ss}
		c.ctx.init(ctx, c, true)
		defer c.cancel()
		// A panic is logged, with an incident id no client reads.
		ss.invoke(&c.ctx, handlerRun{kind: "roots", target: "OnRootsChanged"}, func(ctx context.Context) error {
			on(ctx)
			return nil
		})
	})
}

// A rootsRefresh runs a session's refreshes of its roots: at most one at
// a time, however many changes the client announces. A change announced
// while one runs makes it run once more when it ends, and the others are
// folded into that one, so that a client that floods the notification
// holds one goroutine, not one per notification. The session's end
// cancels the refresh in flight and starts no other.
type rootsRefresh struct {
	mu      sync.Mutex
	running bool
	again   bool
	stopped bool
	cancel  context.CancelFunc
}

// changed runs refresh, now or after the one in flight.
func (r *rootsRefresh) changed(refresh func(ctx context.Context)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.stopped:
		return
	case r.running:
		r.again = true
		return
	}
	r.running = true
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() {
		defer cancel()
		for {
			refresh(ctx)
			r.mu.Lock()
			if !r.again || r.stopped {
				r.running, r.again, r.cancel = false, false, nil
				r.mu.Unlock()
				return
			}
			r.again = false
			r.mu.Unlock()
		}
	}()
}

// stop cancels the refresh in flight, and starts no other.
func (r *rootsRefresh) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	if r.cancel != nil {
		r.cancel()
	}
}
