package claude

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
)

// message is a conversation message of n bytes.
func message(n int) Message {
	return &OtherMessage{raw{typ: "x", data: []byte(strings.Repeat("x", n))}}
}

// waitForPush waits until a push waits for room in q.
func waitForPush(t *testing.T, q *messageQueue) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second) // a hang guard, not a measure
	for {
		q.mu.Lock()
		w := q.waiting
		q.mu.Unlock()
		if w > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the push past the limit did not wait for room")
		}
		time.Sleep(time.Millisecond)
	}
}

// queued is what q holds: messages and bytes.
func queued(q *messageQueue) (int, int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items), q.bytes
}

// TestQueueBound: the conversation queue takes messages up to its limit
// without waiting; the next push waits until one is received, and then
// nothing was lost (hardening item 15: it was unbounded).
func TestQueueBound(t *testing.T) {
	linepeer.CheckLeaks(t)
	ctx := context.Background()
	t.Run("count", func(t *testing.T) {
		q := newMessageQueue(3, 1<<20)
		for range 3 {
			q.push(message(10)) // at the limit: returns at once
		}
		pushed := make(chan struct{})
		go func() { q.push(message(10)); close(pushed) }()
		waitForPush(t, q)
		if n, b := queued(q); n != 3 || b != 30 {
			t.Fatalf("past the limit the queue holds %d messages, %d bytes; want 3, 30", n, b)
		}
		if _, err := q.pop(ctx); err != nil {
			t.Fatal(err)
		}
		<-pushed
		if n, _ := queued(q); n != 3 {
			t.Fatalf("after one receive the queue holds %d messages, want 3", n)
		}
		for range 3 {
			q.pop(ctx)
		}
		if n, b := queued(q); n != 0 || b != 0 {
			t.Fatalf("emptied, the queue holds %d messages, %d bytes", n, b)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		q := newMessageQueue(100, 100)
		q.push(message(60))
		q.push(message(40)) // exactly 100 bytes: at the limit
		pushed := make(chan struct{})
		go func() { q.push(message(1)); close(pushed) }()
		waitForPush(t, q)
		q.pop(ctx)
		<-pushed
		if n, b := queued(q); n != 2 || b != 41 {
			t.Fatalf("the queue holds %d messages, %d bytes; want 2, 41", n, b)
		}
	})
	t.Run("oversized message", func(t *testing.T) {
		// One message larger than the bound still goes through, alone.
		q := newMessageQueue(100, 100)
		q.push(message(500))
		pushed := make(chan struct{})
		go func() { q.push(message(1)); close(pushed) }()
		waitForPush(t, q)
		if m, _ := q.pop(ctx); len(m.Raw()) != 500 {
			t.Fatalf("popped %d bytes", len(m.Raw()))
		}
		<-pushed
	})
	t.Run("abandon", func(t *testing.T) {
		// Closing the session releases a push waiting for room, drops what
		// is queued, and drops what comes after.
		q := newMessageQueue(1, 100)
		q.push(message(1))
		pushed := make(chan struct{})
		go func() { q.push(message(1)); close(pushed) }()
		waitForPush(t, q)
		q.abandon()
		<-pushed
		q.push(message(1))
		if n, b := queued(q); n != 0 || b != 0 {
			t.Fatalf("abandoned, the queue holds %d messages, %d bytes", n, b)
		}
	})
}

// TestQueueDocumented: the bounds are the ones Session.Receive states.
func TestQueueDocumented(t *testing.T) {
	if maxQueuedMessages != 1024 || maxQueuedBytes != 64<<20 {
		t.Errorf("the queue holds %d messages or %d bytes; Session.Receive's documentation says 1024 or 64 MiB", maxQueuedMessages, maxQueuedBytes)
	}
}
