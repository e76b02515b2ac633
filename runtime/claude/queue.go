package claude

import (
	"context"
	"sync"
)

// messageQueue holds conversation messages until the host reads them; it
// never blocks the reader, which must keep answering control requests.
type messageQueue struct {
	mu     sync.Mutex
	items  []Message
	ready  chan struct{} // closed and replaced when items or closed change
	closed error
}

func newMessageQueue() *messageQueue {
	return &messageQueue{ready: make(chan struct{})}
}

func (q *messageQueue) push(m Message) {
	q.mu.Lock()
	q.items = append(q.items, m)
	close(q.ready)
	q.ready = make(chan struct{})
	q.mu.Unlock()
}

func (q *messageQueue) close(err error) {
	q.mu.Lock()
	q.closed = err
	close(q.ready)
	q.ready = make(chan struct{})
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
