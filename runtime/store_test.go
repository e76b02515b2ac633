package runtime_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) runtime.Store { return runtime.NewMemoryStore() })
}

// TestMemoryStoreBound: a MemoryStore holds up to MaxBytes, counting 64
// bytes per key besides its own; past it, Put fails with ErrStoreFull and
// changes nothing, until what expired makes room.
func TestMemoryStoreBound(t *testing.T) {
	ctx := context.Background()
	s := &runtime.MemoryStore{MaxBytes: 2 * (64 + 1 + 100)}
	value := make([]byte, 100)
	if _, err := s.Put(ctx, "a", 0, value, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "b", 0, value, 30*time.Millisecond); err != nil {
		t.Fatalf("at the bound: %v", err)
	}
	if _, err := s.Put(ctx, "c", 0, []byte{1}, time.Minute); !errors.Is(err, runtime.ErrStoreFull) {
		t.Fatalf("past the bound: %v", err)
	}
	if _, _, err := s.Get(ctx, "c"); !errors.Is(err, runtime.ErrNotFound) {
		t.Errorf("a refused Put stored something: %v", err)
	}
	_, v, _ := s.Get(ctx, "a")
	if _, err := s.Put(ctx, "a", v, make([]byte, 90), time.Minute); err != nil {
		t.Errorf("a smaller value in place: %v", err)
	}
	time.Sleep(100 * time.Millisecond) // b expires
	if _, err := s.Put(ctx, "c", 0, value, time.Minute); err != nil {
		t.Errorf("once b expired there is room: %v", err)
	}
}

// TestMemoryStoreReplicas: two servers sharing a MemoryStore behave as
// replicas sharing Redis would.
func TestMemoryStoreReplicas(t *testing.T) {
	storetest.RunReplicas(t, runtime.NewMemoryStore())
}
