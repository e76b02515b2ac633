package runtime

import (
	"context"
	"sync"
)

// The limits of what a server holds at once, over every transport: the
// size of one message, the bytes of the messages held (admission), the
// calls accepted and the running slots. What one client may hold besides
// is bounded where it is kept: its subscriptions/listen requests in
// fanout.go, its tasks in task.go and taskledger.go, its HTTP sessions in
// httpsession.go.

// DefaultMaxMessageSize is the largest message a transport accepts when
// Server.MaxMessageSize is zero.
const DefaultMaxMessageSize = 16 << 20

// maxMessageSize is the largest message a transport accepts.
func (s *Server) maxMessageSize() int {
	if s.MaxMessageSize > 0 {
		return s.MaxMessageSize
	}
	return DefaultMaxMessageSize
}

// maxBatch bounds the requests and notifications of one JSON-RPC batch.
const maxBatch = 64

// admission returns what bounds the messages and calls the server holds
// at once, made from its fields on first use.
func (s *Server) admission() *admission {
	s.limitsOnce.Do(func() {
		maxBytes := int64(s.MaxPendingBytes)
		if maxBytes <= 0 {
			maxBytes = 4 * int64(s.maxMessageSize())
		}
		s.admitted = newAdmission(maxBytes, max(s.MaxInFlight, 0))
	})
	return s.admitted
}

// messageOverhead is what holding a message costs besides its bytes: the
// goroutine of a call, its parsed tree's header, its response. Charging
// it bounds the number of small messages held as the bytes bound large
// ones.
const messageOverhead = 4 << 10

// admission bounds what a server holds at once, over all its connections:
//
//   - the bytes of the messages being read, parsed, waiting or running
//     (Server.MaxPendingBytes);
//   - with Server.MaxInFlight set, the calls accepted (waiting for a
//     running slot, or running): twice MaxInFlight;
//   - and the calls running: MaxInFlight.
//
// A message that would pass a bound waits (stdio stops reading, which
// pushes back on the client) or is refused (Streamable HTTP answers 503);
// a call accepted waits for a running slot (takeSlot).
type admission struct {
	maxBytes   int64
	maxCalls   int // accepted calls; 0: no bound
	maxRunning int // running calls; 0: no bound

	mu      sync.Mutex
	bytes   int64
	calls   int
	running int
	// changed, if not nil, is closed when something is released: a waiter
	// makes it, so that a server nobody waits on allocates nothing per
	// message.
	changed chan struct{}
}

// A ticket is what one admitted message holds until it is done.
type ticket struct {
	bytes int64
	call  bool
}

// newAdmission returns the bounds of a server with the given
// MaxPendingBytes and MaxInFlight (0: calls unbounded).
func newAdmission(maxBytes int64, maxInFlight int) *admission {
	return &admission{maxBytes: maxBytes, maxCalls: 2 * maxInFlight, maxRunning: maxInFlight}
}

// fits reports whether t can be admitted now. A message is always
// admitted when nothing else is held, so that one message of any allowed
// size gets through.
func (a *admission) fits(t ticket) bool {
	if t.call && a.maxCalls > 0 && a.calls >= a.maxCalls {
		return false
	}
	return t.bytes == 0 || a.bytes == 0 || a.bytes+t.bytes <= a.maxBytes
}

func (a *admission) take(t ticket) {
	a.bytes += t.bytes
	if t.call {
		a.calls++
	}
}

// tryAdmit admits t if it fits now.
func (a *admission) tryAdmit(t ticket) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.fits(t) {
		return false
	}
	a.take(t)
	return true
}

// admit waits until t fits, or ctx is done.
func (a *admission) admit(ctx context.Context, t ticket) error {
	return a.wait(ctx, func() bool {
		if !a.fits(t) {
			return false
		}
		a.take(t)
		return true
	})
}

// tryGrow adds n bytes to what t holds, if they fit now: a body whose
// bytes are counted as they arrive, so that what is announced and not
// sent costs nothing. A message that is all the server holds always
// grows.
func (a *admission) tryGrow(t *ticket, n int64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.bytes != t.bytes && a.bytes+n > a.maxBytes {
		return false
	}
	a.bytes += n
	t.bytes += n
	return true
}

// release gives back what t holds.
func (a *admission) release(t ticket) {
	a.mu.Lock()
	a.bytes -= t.bytes
	if t.call {
		a.calls--
	}
	a.wakeLocked()
	a.mu.Unlock()
}

// takeSlot waits for a running slot, or for ctx's end; releaseSlot gives
// it back.
func (a *admission) takeSlot(ctx context.Context) error {
	if a.maxRunning == 0 {
		return nil
	}
	return a.wait(ctx, func() bool {
		if a.running >= a.maxRunning {
			return false
		}
		a.running++
		return true
	})
}

// releaseSlot gives back a running slot that takeSlot gave.
func (a *admission) releaseSlot() {
	if a.maxRunning == 0 {
		return
	}
	a.mu.Lock()
	a.running--
	a.wakeLocked()
	a.mu.Unlock()
}

// wait calls try, under a.mu, until it reports true or ctx is done.
func (a *admission) wait(ctx context.Context, try func() bool) error {
	for {
		a.mu.Lock()
		if try() {
			a.mu.Unlock()
			return nil
		}
		if a.changed == nil {
			a.changed = make(chan struct{})
		}
		changed := a.changed
		a.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// wakeLocked wakes the waiters; a.mu is held.
func (a *admission) wakeLocked() {
	if a.changed != nil {
		close(a.changed)
		a.changed = nil
	}
}

// messageTicket is the ticket of a message of size bytes.
func messageTicket(size int) ticket {
	return ticket{bytes: int64(size) + messageOverhead}
}

// callTicket is the ticket of a call, on top of its message's.
var callTicket = ticket{call: true}

// callsHeld is the number of calls admitted and not yet released.
func (a *admission) callsHeld() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls
}
