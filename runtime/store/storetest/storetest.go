// Package storetest checks that an implementation of store.Store does
// what the interface promises, as testing/fstest checks a file system: Run
// it from the tests of the implementation, with a function that returns a
// new, empty store (for instance, a client of a real server under a prefix
// of its own).
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/store"
)

// Run checks the store that newStore returns, in subtests: values and
// their versions, the atomicity of Put under contention, expiry, and the
// bus.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	t.Run("Values", func(t *testing.T) { testValues(t, newStore(t)) })
	t.Run("Contention", func(t *testing.T) { testContention(t, newStore(t)) })
	t.Run("Expiry", func(t *testing.T) { testExpiry(t, newStore(t)) })
	t.Run("Bus", func(t *testing.T) { testBus(t, newStore(t)) })
}

func testValues(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, _, err := s.Get(ctx, "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get of a missing key: %v, want ErrNotFound", err)
	}
	if _, err := s.Put(ctx, "a", 7, []byte("x"), time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Errorf("Put of a missing key at version 7: %v, want ErrConflict", err)
	}
	v1, err := s.Put(ctx, "a", 0, []byte("one\x00\xff"), time.Minute)
	if err != nil || v1 == 0 {
		t.Fatalf("Put of a new key: version %d, %v", v1, err)
	}
	if _, err := s.Put(ctx, "a", 0, []byte("again"), time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Errorf("Put at version 0 of a key that holds a value: %v, want ErrConflict", err)
	}
	got, v, err := s.Get(ctx, "a")
	if err != nil || v != v1 || !bytes.Equal(got, []byte("one\x00\xff")) {
		t.Fatalf("Get: %q version %d %v, want %q version %d", got, v, err, "one\x00\xff", v1)
	}
	v2, err := s.Put(ctx, "a", v1, []byte("two"), time.Minute)
	if err != nil || v2 == v1 || v2 == 0 {
		t.Fatalf("Put at the current version: %d %v (was %d)", v2, err, v1)
	}
	if _, err := s.Put(ctx, "a", v1, []byte("stale"), time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Errorf("Put at a stale version: %v, want ErrConflict", err)
	}
	if got, _, _ := s.Get(ctx, "a"); string(got) != "two" {
		t.Errorf("after a refused Put the value is %q", got)
	}
	if got, _, err := s.Get(ctx, "b"); !errors.Is(err, store.ErrNotFound) || got != nil {
		t.Errorf("another key: %q %v", got, err)
	}
}

// testContention: concurrent read-modify-write loops lose no update.
func testContention(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, err := s.Put(ctx, "n", 0, []byte("0"), time.Minute); err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Go(func() {
			for range each {
				for {
					b, v, err := s.Get(ctx, "n")
					if err != nil {
						errs <- err
						return
					}
					var n int
					fmt.Sscan(string(b), &n)
					_, err = s.Put(ctx, "n", v, []byte(fmt.Sprint(n+1)), time.Minute)
					if err == nil {
						break
					}
					if !errors.Is(err, store.ErrConflict) {
						errs <- err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if b, _, _ := s.Get(ctx, "n"); string(b) != fmt.Sprint(workers*each) {
		t.Errorf("after %d increments the value is %s", workers*each, b)
	}
}

// testExpiry: a value is gone once its TTL has passed, and the key can be
// created anew.
func testExpiry(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, err := s.Put(ctx, "e", 0, []byte("short"), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if _, _, err := s.Get(ctx, "e"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get after the TTL: %v, want ErrNotFound", err)
	}
	if _, err := s.Put(ctx, "e", 0, []byte("anew"), time.Minute); err != nil {
		t.Errorf("Put of an expired key at version 0: %v", err)
	}
}

// testBus: a subscriber gets what is published after Subscribe returns,
// on its channel only, in order, until it stops.
func testBus(t *testing.T, s store.Store) {
	ctx := context.Background()
	got := make(chan string, 16)
	stop, err := s.Subscribe(ctx, "c1", func(msg []byte) { got <- string(msg) })
	if err != nil {
		t.Fatal(err)
	}
	other := make(chan string, 16)
	stopOther, err := s.Subscribe(ctx, "c2", func(msg []byte) { other <- string(msg) })
	if err != nil {
		t.Fatal(err)
	}
	defer stopOther()
	for _, m := range []string{"one", "two\x00", "three"} {
		if err := s.Publish(ctx, "c1", []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"one", "two\x00", "three"} {
		select {
		case m := <-got:
			if m != want {
				t.Errorf("got %q, want %q", m, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q was not delivered", want)
		}
	}
	stop()
	if err := s.Publish(ctx, "c1", []byte("after")); err != nil {
		t.Fatal(err)
	}
	if err := s.Publish(ctx, "c2", []byte("marker")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-other:
	case <-time.After(10 * time.Second):
		t.Fatal("a message on another channel was not delivered")
	}
	select {
	case m := <-got:
		t.Errorf("delivered after stop: %q", m)
	default:
	}
}
