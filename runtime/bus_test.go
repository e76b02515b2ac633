package runtime

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
)

// stalledStore is a MemoryStore whose Publish waits until release closes.
type stalledStore struct {
	*MemoryStore
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
	store := &stalledStore{MemoryStore: NewMemoryStore(), release: make(chan struct{})}
	s := &Server{Name: "bus", Store: store, Logger: linepeer.DiscardLogger()}
	for range maxPublishing {
		s.publishLater(busMessage{Kind: "list", Feature: "tools"})
	}
	waitFor(t, "every publication to reach the store", func() bool { return store.published.Load() == maxPublishing })
	s.publishLater(busMessage{Kind: "list", Feature: "tools"}) // one past the bound
	if n := s.sharedState.publishing.Load(); n != maxPublishing {
		t.Errorf("%d publications under way, want %d", n, maxPublishing)
	}
	close(store.release)
	waitFor(t, "the publications to end", func() bool { return s.sharedState.publishing.Load() == 0 })
	if n := store.published.Load(); n != maxPublishing {
		t.Errorf("%d messages reached the store, want %d (the one past the bound dropped)", n, maxPublishing)
	}
}

// slowSubscribeStore is a MemoryStore whose Subscribe waits until release
// closes, as a store that does not answer does for storeTimeout.
type slowSubscribeStore struct {
	*MemoryStore
	subscribing chan struct{}
	release     chan struct{}
}

// Subscribe says it began, then waits for release before subscribing.
func (s *slowSubscribeStore) Subscribe(ctx context.Context, channel string, deliver func([]byte)) (func(), error) {
	s.subscribing <- struct{}{}
	<-s.release
	return s.MemoryStore.Subscribe(ctx, channel, deliver)
}

// TestJoinBusWaitsOnce: while one request subscribes to a slow store's
// bus, another goes on at once instead of queueing behind it (before, a
// k-th request in line waited k times the store's timeout).
func TestJoinBusWaitsOnce(t *testing.T) {
	linepeer.CheckLeaks(t)
	store := &slowSubscribeStore{MemoryStore: NewMemoryStore(), subscribing: make(chan struct{}), release: make(chan struct{})}
	s := &Server{Name: "bus", Store: store, StateKey: make([]byte, 32), Logger: linepeer.DiscardLogger()}
	first := make(chan struct{})
	go func() { defer close(first); s.joinBus(context.Background()) }()
	<-store.subscribing
	second := make(chan struct{})
	go func() { defer close(second); s.joinBus(context.Background()) }()
	select {
	case <-second:
	case <-first:
		t.Fatal("the first subscription ended before it was released")
	case <-time.After(time.Minute): // a hang guard, not a measure
		t.Fatal("a second request waits for the first one's subscription")
	}
	close(store.release)
	<-first
	if s.sharedState.stopBus == nil {
		t.Error("the first request did not subscribe")
	} else {
		s.sharedState.stopBus()
	}
}
