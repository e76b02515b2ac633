package runtime

import (
	"context"
	"sync"
)

// messageOverhead is what holding a message costs besides its bytes: the
// goroutine of a call, its parsed tree's header, its response. Charging
// it bounds the number of small messages held as the bytes bound large
// ones.
const messageOverhead = 4 << 10

// admission bounds what a server holds at once, over all its
// connections: the bytes of the messages being parsed, waiting or running
// (MaxPendingBytes), and, when MaxInFlight is set, the tool calls
// accepted, running or waiting for a slot (twice MaxInFlight). A message
// that would pass a bound waits (stdio stops reading, which pushes back on
// the client) or is refused (Streamable HTTP answers 503).
type admission struct {
	maxBytes int64
	maxCalls int // 0: no bound

	mu    sync.Mutex
	bytes int64
	calls int
	// changed, if not nil, is closed when something is released: admit
	// makes it when it must wait, so that a server nobody waits on
	// allocates nothing per message.
	changed chan struct{}
}

// A ticket is what one admitted message holds until it is done.
type ticket struct {
	bytes int64
	call  bool
}

func newAdmission(maxBytes int64, maxCalls int) *admission {
	return &admission{maxBytes: maxBytes, maxCalls: maxCalls}
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
	for {
		a.mu.Lock()
		if a.fits(t) {
			a.take(t)
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

// release gives back what t held.
func (a *admission) release(t ticket) {
	a.mu.Lock()
	a.bytes -= t.bytes
	if t.call {
		a.calls--
	}
	if a.changed != nil {
		close(a.changed)
		a.changed = nil
	}
	a.mu.Unlock()
}

// messageTicket is the ticket of a message of size bytes.
func messageTicket(size int) ticket {
	return ticket{bytes: int64(size) + messageOverhead}
}

// callTicket is the ticket of a tool call, on top of its message's.
var callTicket = ticket{call: true}

// callsHeld is the number of tool calls admitted and not yet released.
func (a *admission) callsHeld() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls
}
