package runtime

import (
	"context"
	"crypto/rand"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// The replicas' bus: the replicas of a server that share a Store hear
// each other on one channel of it: a list change or a resource update made on one
// replica reaches the sessions and subscriptions/listen requests of every
// other (the fanout delivers it where it was made, and the bus everywhere
// else, once), and a task's cancellation and answers reach the replica
// that runs its handler. A Server that keeps its own memory store has no
// other replica, and no bus.

// busChannel is the Store channel of the bus.
const busChannel = "mcpgen:bus"

// A replicaBus is what a Server keeps about the bus.
type replicaBus struct {
	nameOnce sync.Once
	name     string // this replica's name on the bus

	// publishing counts the publishLater goroutines under way, at most
	// maxPublishing.
	publishing atomic.Int32

	boxOnce sync.Once
	box     *wire.Box // seals the bus's messages; see busBox

	mu      sync.Mutex
	stop    func()        // ends the subscription; nil before it
	joining chan struct{} // closed when the subscription under way ends; nil when none is
	failed  time.Time     // when the last subscription failed

	// dropped counts the messages dropped since the last warning about
	// them, which warned at lastDropWarning (Unix nanoseconds).
	dropped         atomic.Int64
	lastDropWarning atomic.Int64
}

// replicaName is this replica's name on the bus.
func (s *Server) replicaName() string {
	s.bus.nameOnce.Do(func() { s.bus.name = rand.Text()[:16] })
	return s.bus.name
}

// The subscription to the bus is made on a goroutine of its own, within
// storeTimeout, so that no request waits for a store that does not
// answer unless it needs the bus (a subscriptions/listen, which must hear
// the other replicas), and none waits under a lock that other requests
// take. A failed subscription is tried again by the next session or task
// that starts busRetryGap after it, or by the next listen at once.

// busRetryGap is the least time between two tries to subscribe to the
// bus that no request waits for.
const busRetryGap = storeTimeout

// joinBusLater starts subscribing the server to the bus, unless it is
// subscribed, subscribing, or failed less than busRetryGap ago, and
// returns at once. It does nothing for a server that keeps its own store.
func (s *Server) joinBusLater() {
	s.subscribeBus(false)
}

// joinBus subscribes the server to the bus, or waits for the
// subscription under way, until ctx ends or, at most, storeTimeout; a
// failure is logged by the subscribing goroutine. It is for the requests
// that need the bus.
func (s *Server) joinBus(ctx context.Context) {
	done := s.subscribeBus(true)
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// subscribeBus starts subscribing to the bus, unless the server keeps its
// own store, is subscribed, or (unless now) failed to subscribe less than
// busRetryGap ago. It returns a channel closed once the subscription under
// way, if there is one, has ended.
func (s *Server) subscribeBus(now bool) <-chan struct{} {
	sh := s.shared()
	if sh.own {
		return nil
	}
	bus := &s.bus
	bus.mu.Lock()
	defer bus.mu.Unlock()
	switch {
	case bus.stop != nil:
		return nil
	case bus.joining != nil:
		return bus.joining
	case !now && time.Since(bus.failed) < busRetryGap:
		return nil
	}
	done := make(chan struct{})
	bus.joining = done
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		stop, err := sh.store.Subscribe(ctx, busChannel, s.onBus)
		bus.mu.Lock()
		bus.joining = nil
		if err != nil {
			bus.failed = time.Now()
		} else {
			bus.stop = stop
		}
		bus.mu.Unlock()
		if err != nil {
			s.logger().Warn("cannot subscribe to the store's bus: changes made on other replicas do not reach this one until it can; retrying with the next session, task or subscriptions/listen", "err", err)
		}
	}()
	return done
}

// publish sends m on the bus, for the other replicas; it does nothing for
// a server without a Store of its own. A failure is logged: the bus only
// saves waiting, and the records stay true. It reads Server.Store
// itself, as it may run while the server is being set up (AddTool tells
// of a list change).
func (s *Server) publish(ctx context.Context, m busMessage) {
	store := s.Store
	if store == nil || len(s.StateKey) == 0 {
		return // not serving yet (see Check)
	}
	m.Origin = s.replicaName()
	data, err := s.sealBus(&m)
	if err != nil {
		s.logger().Error("encoding a bus message", "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if err := store.Publish(ctx, busChannel, data); err != nil {
		s.logger().Warn("cannot publish on the store's bus: other replicas learn of this change late or not at all", "kind", m.Kind, "err", err)
	}
}

// maxPublishing bounds the publishLater goroutines under way at once,
// each of which may wait storeTimeout for a slow store.
const maxPublishing = 64

// publishLater publishes m from a goroutine of its own, for a caller that
// must not wait for the store (a handler's ResourceUpdated). While
// maxPublishing are under way (the store is slow or away), m is dropped
// with a warning instead: the bus is at most once anyway, and a change
// made in a loop must not pile up goroutines.
func (s *Server) publishLater(m busMessage) {
	if s.Store == nil || len(s.StateKey) == 0 {
		return
	}
	bus := &s.bus // the server may still be being set up
	if bus.publishing.Add(1) > maxPublishing {
		bus.publishing.Add(-1)
		s.logger().Warn("the store's bus is slow: a change was not published, and other replicas do not learn of it", "kind", m.Kind)
		return
	}
	go func() {
		defer bus.publishing.Add(-1)
		s.publish(context.Background(), m)
	}()
}

// onBus delivers a message of another replica where it belongs here, and
// drops what is not one (see openBus). It never waits: what it delivers
// is queued. It runs on the store client's goroutine, which a panic
// would end with the process: none may escape it.
func (s *Server) onBus(data []byte) {
	defer func() {
		if p := recover(); p != nil {
			s.logger().Error("delivering a message of the store's bus panicked; it was dropped", "panic", p, "stack", string(debug.Stack()))
		}
	}()
	m, err := s.openBus(data)
	if err != nil {
		s.droppedBus(err)
		return
	}
	if m.Origin == s.replicaName() {
		return // ours: delivered here when it was made
	}
	switch m.Kind {
	case "list":
		if f, ok := featureNamed(m.Feature); ok {
			s.fanout.listChanged(f)
		}
	case "uri":
		s.fanout.updated(m.URI, s.resourceScopes(m.URI))
	case "task":
		s.taskEvent(m)
	}
}

// dropBusWarningGap is the least time between two warnings about dropped
// bus messages, so that whoever floods the channel cannot flood the log.
const dropBusWarningGap = time.Minute

// droppedBus counts a message of the bus dropped for err, and warns about
// it unless it warned less than dropBusWarningGap ago.
func (s *Server) droppedBus(err error) {
	bus := &s.bus
	n := bus.dropped.Add(1)
	now, last := time.Now().UnixNano(), bus.lastDropWarning.Load()
	if now-last < int64(dropBusWarningGap) || !bus.lastDropWarning.CompareAndSwap(last, now) {
		return
	}
	bus.dropped.Add(-n)
	s.logger().Warn("messages on the store's bus that are not the replicas' were dropped: another program publishes on its channel, or a replica has another StateKey", "dropped", n, "last_err", err)
}

// featureNamed is the feature whose String is name, for the bus.
func featureNamed(name string) (feature, bool) {
	for _, f := range []feature{tools, resources, prompts} {
		if f.String() == name {
			return f, true
		}
	}
	return 0, false
}
