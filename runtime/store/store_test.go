package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/store"
	"github.com/mcpgen/mcpgen/runtime/store/storetest"
)

func TestMemory(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return store.NewMemory() })
}

// TestMemoryBound: a Memory store holds up to MaxBytes, counting 64
// bytes per key besides its own; past it, Put fails with ErrFull and
// changes nothing, until what expired makes room.
func TestMemoryBound(t *testing.T) {
	ctx := context.Background()
	s := &store.Memory{MaxBytes: 2 * (64 + 1 + 100)}
	value := make([]byte, 100)
	if _, err := s.Put(ctx, "a", 0, value, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "b", 0, value, 30*time.Millisecond); err != nil {
		t.Fatalf("at the bound: %v", err)
	}
	if _, err := s.Put(ctx, "c", 0, []byte{1}, time.Minute); !errors.Is(err, store.ErrFull) {
		t.Fatalf("past the bound: %v", err)
	}
	if _, _, err := s.Get(ctx, "c"); !errors.Is(err, store.ErrNotFound) {
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

// TestMemoryReplicas: two servers sharing a Memory store behave as
// replicas sharing Redis would.
func TestMemoryReplicas(t *testing.T) {
	storetest.RunReplicas(t, store.NewMemory())
}
