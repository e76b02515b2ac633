package claude

import (
	"context"
	"sync"
)

// The host holds at most this many conversation messages, and this many
// bytes of them, that the caller has not received yet (one message of any
// size is always taken).
const (
	maxQueuedMessages = 1024
	maxQueuedBytes    = 64 << 20
)

// messageQueue holds conversation messages until the host reads them.
//
// It is bounded: once it holds maxItems messages or maxBytes bytes, push
// waits until the reader makes room. push runs on the goroutine that
// reads the CLI's output, so a caller that stops reading the conversation
// stops the reading of the CLI's output too, and the CLI waits, as it
// would on a full pipe; nothing is dropped. abandon, when the session is
// closed and nobody will read again, ends that wait and drops what is
// queued and what comes after.
type messageQueue struct {
	maxItems, maxBytes int

	mu        sync.Mutex
	items     []Message
	bytes     int           // the sum of the items' sizes
	ready     chan struct{} // closed and replaced when items or closed change
	room      chan struct{} // closed and replaced when an item leaves, or on abandon
	waiting   int           // pushes waiting for room (for tests)
	closed    error
	abandoned bool
}

func newMessageQueue(maxItems, maxBytes int) *messageQueue {
	return &messageQueue{maxItems: maxItems, maxBytes: maxBytes, ready: make(chan struct{}), room: make(chan struct{})}
}

// full reports whether the queue has no room for a message of size
// bytes. An empty queue always has room: a message larger than maxBytes
// is still delivered, alone. q.mu must be held.
func (q *messageQueue) full(size int) bool {
	return len(q.items) > 0 && (len(q.items) >= q.maxItems || q.bytes+size > q.maxBytes)
}

// push appends m, waiting for room if the queue is full (see
// messageQueue). After abandon it drops m.
func (q *messageQueue) push(m Message) {
	size := len(m.Raw())
	q.mu.Lock()
	for !q.abandoned && q.full(size) {
		room := q.room
		q.waiting++
		q.mu.Unlock()
		<-room
		q.mu.Lock()
		q.waiting--
	}
	if !q.abandoned {
		q.items = append(q.items, m)
		q.bytes += size
		close(q.ready)
		q.ready = make(chan struct{})
	}
	q.mu.Unlock()
}

func (q *messageQueue) close(err error) {
	q.mu.Lock()
	q.closed = err
	close(q.ready)
	q.ready = make(chan struct{})
	q.mu.Unlock()
}

// abandon drops the queued messages and every later one, and releases a
// push waiting for room: nobody will read them.
func (q *messageQueue) abandon() {
	q.mu.Lock()
	if !q.abandoned {
		q.abandoned = true
		clear(q.items)
		q.items, q.bytes = nil, 0
		close(q.room)
	}
	q.mu.Unlock()
}

// pop returns the next message, or the error the queue was closed with
// once it is empty.
func (q *messageQueue) pop(ctx context.Context) (Message, error) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			m := q.items[0]
			q.items[0] = nil
			q.items = q.items[1:]
			q.bytes -= len(m.Raw())
			if q.waiting > 0 {
				close(q.room)
				q.room = make(chan struct{})
			}
			q.mu.Unlock()
			return m, nil
		}
		if q.closed != nil {
			err := q.closed
			q.mu.Unlock()
			return nil, err
		}
		ready := q.ready
		q.mu.Unlock()
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
