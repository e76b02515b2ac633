package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// stalledStore is a store.Memory whose Publish waits until release closes.
type stalledStore struct {
	*store.Memory
	release   chan struct{}
	published atomic.Int32
}

// Publish counts the message, then waits for release or ctx.
func (s *stalledStore) Publish(ctx context.Context, channel string, msg []byte) error {
	s.published.Add(1)
	select {
	case <-s.release:
	case <-ctx.Done():
	}
	return nil
}

// TestPublishLaterBounded: while the store's bus is stalled, at most
// maxPublishing changes wait to be published, each on its goroutine; the
// next is dropped, not queued behind them, and once the store answers the
// goroutines end.
func TestPublishLaterBounded(t *testing.T) {
	linepeer.CheckLeaks(t)
	shared := &stalledStore{Memory: store.NewMemory(), release: make(chan struct{})}
	s := &Server{Name: "bus", Store: shared, StateKey: []byte("bus key"), Logger: linepeer.DiscardLogger()}
	for range maxPublishing {
		s.publishLater(busMessage{Kind: "list", Feature: "tools"})
	}
	waitFor(t, "every publication to reach the store", func() bool { return shared.published.Load() == maxPublishing })
	s.publishLater(busMessage{Kind: "list", Feature: "tools"}) // one past the bound
	if n := s.bus.publishing.Load(); n != maxPublishing {
		t.Errorf("%d publications under way, want %d", n, maxPublishing)
	}
	close(shared.release)
	waitFor(t, "the publications to end", func() bool { return s.bus.publishing.Load() == 0 })
	if n := shared.published.Load(); n != maxPublishing {
		t.Errorf("%d messages reached the store, want %d (the one past the bound dropped)", n, maxPublishing)
	}
}

// slowSubscribeStore is a store.Memory whose Subscribe counts its calls,
// says it began, then waits until release closes, as a store that does
// not answer does for storeTimeout.
type slowSubscribeStore struct {
	*store.Memory
	calls       atomic.Int32
	subscribing chan struct{}
	release     chan struct{}
}

func (s *slowSubscribeStore) Subscribe(ctx context.Context, channel string, deliver func([]byte)) (func(), error) {
	s.calls.Add(1)
	s.subscribing <- struct{}{}
	<-s.release
	return s.Memory.Subscribe(ctx, channel, deliver)
}

// TestJoinBusOffRequests: while a store does not answer the bus's
// subscription, sessions open and calls that need no store are answered:
// the subscription waits on a goroutine of its own, under no lock that
// requests take, and one at a time. Before, an initialize subscribed
// while holding the lock of the HTTP sessions, and every request of every
// session waited for it (3 calls in 15 s with a store that never answers).
func TestJoinBusOffRequests(t *testing.T) {
	linepeer.CheckLeaks(t)
	shared := &slowSubscribeStore{Memory: store.NewMemory(), subscribing: make(chan struct{}, 1), release: make(chan struct{})}
	s, _ := newHTTPTestServer()
	s.Store, s.StateKey = shared, []byte("bus key")
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true})
	release := sync.OnceFunc(func() { close(shared.release) })
	t.Cleanup(release) // before the server closes, should the test fail
	served := make(chan error, 1)
	go func() {
		for i := range 3 {
			r, err := mcptest.Send(context.Background(), http.DefaultClient, "POST", url, mcptest.Initialize(0, "2025-11-25"), mcptest.Headers())
			if err != nil || r.Status != http.StatusOK {
				served <- fmt.Errorf("initialize %d: %v %d", i, err, r.Status)
				return
			}
			r, err = mcptest.Send(context.Background(), http.DefaultClient, "POST", url, mcptest.Call(1, "echo", mcptest.Object("text", "x")), mcptest.Headers(wire.HeaderSessionID, r.Header.Get(wire.HeaderSessionID)))
			if err != nil || !strings.Contains(string(r.Body), `"text":"x"`) {
				served <- fmt.Errorf("call %d: %v %s", i, err, r.Body)
				return
			}
		}
		served <- nil
	}()
	<-shared.subscribing
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a measure
		t.Fatal("sessions and calls wait for the store's bus")
	}
	if n := shared.calls.Load(); n != 1 {
		t.Errorf("%d subscriptions under way at once, want 1", n)
	}
	release()
	waitFor(t, "the subscription", func() bool {
		s.bus.mu.Lock()
		defer s.bus.mu.Unlock()
		return s.bus.stop != nil
	})
	s.bus.stop()
}

// failingSubscribeStore is a store.Memory whose Subscribe fails at once,
// counting its calls.
type failingSubscribeStore struct {
	*store.Memory
	calls atomic.Int32
}

func (s *failingSubscribeStore) Subscribe(context.Context, string, func([]byte)) (func(), error) {
	s.calls.Add(1)
	return nil, errors.New("connection refused")
}

// TestJoinBusRetries: a failed subscription is tried again by the next
// session that starts busRetryGap after it, not by every one (each of
// which could wait storeTimeout before), and at once by a request that
// needs the bus.
func TestJoinBusRetries(t *testing.T) {
	linepeer.CheckLeaks(t)
	shared := &failingSubscribeStore{Memory: store.NewMemory()}
	s := &Server{Name: "bus", Store: shared, StateKey: []byte("bus key"), Logger: linepeer.DiscardLogger()}
	for range 10 {
		s.NewConn(nil).Close()
		waitFor(t, "the subscription to end", func() bool {
			s.bus.mu.Lock()
			defer s.bus.mu.Unlock()
			return s.bus.joining == nil
		})
	}
	if n := shared.calls.Load(); n != 1 {
		t.Errorf("%d tries for 10 sessions within busRetryGap, want 1", n)
	}
	s.joinBus(context.Background()) // as subscriptions/listen does
	if n := shared.calls.Load(); n != 2 {
		t.Errorf("%d tries after a request that needs the bus, want 2", n)
	}
	s.bus.mu.Lock()
	s.bus.failed = time.Now().Add(-busRetryGap)
	s.bus.mu.Unlock()
	s.NewConn(nil).Close()
	waitFor(t, "a third try", func() bool { return shared.calls.Load() == 3 })
}

// busReplica is a server on store, with the key, whose tool "hold" runs as
// a task until release closes, and then fails if its context ended.
func busReplica(t *testing.T, shared store.Store, key string, release chan struct{}) *Server {
	s := &Server{Name: "bus", Store: shared, StateKey: []byte(key), Logger: linepeer.DiscardLogger()}
	s.AddTool(&Tool{Name: "hold", Task: TaskOptional, Handler: func(ctx context.Context, _ *ToolRequest) (*ToolResult, error) {
		<-release
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return TextResult("held"), nil
	}})
	return s
}

// TestBusForgedMessages: what another program publishes on the bus's
// channel is dropped: a cancel in clear of another client's task (which
// cancelled it before), a status without its detail (which panicked the
// replica, on the store client's goroutine), and messages sealed with the
// key that are not well formed; a status sealed by a replica with the
// same key still reaches the task's listener.
func TestBusForgedMessages(t *testing.T) {
	linepeer.CheckLeaks(t)
	shared := store.NewMemory()
	release := make(chan struct{})
	s := busReplica(t, shared, "the replicas' key", release)
	other := busReplica(t, shared, "the replicas' key", release)
	conn := s.NewConn(nil)
	defer conn.Close()
	waitFor(t, "the replica to join the bus", func() bool {
		s.bus.mu.Lock()
		defer s.bus.mu.Unlock()
		return s.bus.stop != nil
	})
	defer s.bus.stop()
	caps := `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
	var created struct{ TaskID string }
	mcptest.Result(t, string(conn.Handle(context.Background(), []byte(mcptest.PerRequest(1, "tools/call", `"name":"hold","arguments":{}`, caps)))), &created)
	id := created.TaskID
	task := s.running.get(id)
	l := &listener{owner: task.owner, tasks: []string{id}, client: "watcher", wake: make(chan struct{}, 1)}
	if err := s.addListener(l); err != nil {
		t.Fatal(err)
	}
	defer s.removeListener(l)

	clear := func(m string) []byte { return []byte(m) }
	sealed := func(m string) []byte { return s.busBox().Seal([]byte(m), busAD) }
	for name, msg := range map[string][]byte{
		"cancel in clear":            clear(`{"o":"forger","k":"task","t":"` + id + `","e":"cancel"}`),
		"status without detail":      clear(`{"o":"forger","k":"task","t":"` + id + `","w":` + quote(task.owner) + `,"e":"status"}`),
		"sealed under another key":   wire.NewBox([]byte("another key"), busPurpose).Seal([]byte(`{"o":"forger","k":"task","t":"`+id+`","e":"cancel"}`), busAD),
		"sealed for another channel": s.busBox().Seal([]byte(`{"o":"forger","k":"task","t":"`+id+`","e":"cancel"}`), []byte("other")),
		"sealed, no detail":          sealed(`{"o":"forger","k":"task","t":"` + id + `","w":` + quote(task.owner) + `,"e":"status"}`),
		"sealed, detail a string":    sealed(`{"o":"forger","k":"task","t":"` + id + `","w":` + quote(task.owner) + `,"e":"status","d":"x"}`),
		"sealed, duplicate event":    sealed(`{"o":"forger","k":"task","t":"` + id + `","e":"input","e":"cancel"}`),
		"sealed, not an object":      sealed(`["cancel"]`),
		"sealed, not JSON":           sealed(`{"o":`),
		"empty":                      nil,
	} {
		if err := shared.Publish(context.Background(), busChannel, msg); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if q, _ := l.take(); len(q) > 0 {
		t.Errorf("forged statuses reached the listener: %s", q)
	}
	// One warning, and the nine drops after it counted for the next.
	if warned, n := s.bus.lastDropWarning.Load() != 0, s.bus.dropped.Load(); !warned || n != 9 {
		t.Errorf("warned %v, then counted %d drops; want a warning, then 9", warned, n)
	}

	// A replica with the key is heard.
	other.taskChanged(context.Background(), id, &taskrecord.Record{Owner: task.owner, Status: taskrecord.Working, Message: "from the other replica"})
	if q, _ := l.take(); len(q) != 1 || !strings.Contains(string(q[0]), "from the other replica") {
		t.Errorf("the other replica's status: %q", q)
	}
	close(release)
	var got struct{ Status string }
	for range 1000 {
		mcptest.Result(t, string(conn.Handle(context.Background(), []byte(mcptest.PerRequest(2, "tasks/get", `"taskId":`+quote(id), caps)))), &got)
		if got.Status != taskrecord.Working {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got.Status != taskrecord.Completed {
		t.Errorf("the task ended %s, want completed: a forged message reached it", got.Status)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
