package runtime

import (
	"context"
	"sync/atomic"
	"testing"

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
