package runtime

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/callctx"
)

// callContext is the context of one request, and is part of its call:
// context.WithCancel and context.WithValue would cost three allocations
// on every call, a seventh of the whole.
//
// It implements what the context package asks of a context made outside
// it: Done is closed, and Err set (to Canceled or DeadlineExceeded), once
// only, by cancel; Value answers the call itself (callKey) and the
// arguments generated code reads (callctx.Key), and asks the parent for
// the rest, so that context.Cause finds the parent's; and
// AfterFunc lets a child context (a handler's context.WithTimeout) learn
// of the cancellation without a goroutine of its own. TestCallContext
// checks it against these rules.
type callContext struct {
	parent context.Context
	call   *call       // the call whose context this is
	stop   func() bool // ends the watch on parent; nil when there is none
	// lazy says that parent's cancellation is to end c but no watch is
	// set yet: see watchLocked.
	lazy bool

	mu     sync.Mutex
	done   chan struct{} // made when first asked for
	err    error
	afters []*func()
}

// init makes c a child of parent. With watch set, parent's cancellation
// cancels c; without, the caller cancels c itself when parent ends (stdio
// cancels every call of its connection when it shuts down), which saves
// the cost of a watch on every call.
func (c *callContext) init(parent context.Context, owner *call, watch bool) {
	c.parent, c.call = parent, owner
	if !watch {
		return
	}
	if err := parent.Err(); err != nil {
		c.cancel(err)
		return
	}
	c.lazy = true
}

// watchLocked sets up the watch that init deferred: a context.AfterFunc
// on the parent (five allocations, and a registration in the parent that
// finishing the call undoes), made only once someone can observe the
// cancellation. Most calls end without anyone looking: Done and AfterFunc
// (a child context) set the watch up, and Err asks the parent itself (see
// Err). So c is cancelled, for anyone who looks, as soon as with the watch
// made at init. c.mu is held.
func (c *callContext) watchLocked() {
	if !c.lazy {
		return
	}
	c.lazy = false
	if c.parent.Done() == nil {
		return
	}
	// The AfterFunc may run, and cancel c, as soon as it is set: the
	// callback takes c.mu, which the caller holds until c.stop is set.
	c.stop = context.AfterFunc(c.parent, func() { c.cancel(c.parent.Err()) })
}

func (c *callContext) Deadline() (time.Time, bool) { return c.parent.Deadline() }

func (c *callContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.watchLocked()
	}
	if c.done == nil {
		c.done = make(chan struct{})
		if c.err != nil {
			close(c.done)
		}
	}
	return c.done
}

// Err returns why c ended; while its watch is not set up, it asks the
// parent, and a parent that ended ends c.
func (c *callContext) Err() error {
	c.mu.Lock()
	if c.err != nil || !c.lazy {
		defer c.mu.Unlock()
		return c.err
	}
	c.mu.Unlock()
	if err := c.parent.Err(); err != nil {
		c.cancel(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *callContext) Value(key any) any {
	switch key {
	case callKey:
		return c.call
	case callctx.Key:
		return &c.call.args
	}
	return c.parent.Value(key)
}

// callKey is the context key of the *call a handler serves: the runtime's
// own functions called from a handler (ReportProgress, Logger, Ask) find
// it there.
var callKey any = callKeyType{}

type callKeyType struct{}

// callOf returns the call whose handler ctx belongs to, or nil.
func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey).(*call)
	return c
}

// AfterFunc arranges for f to run in a goroutine of its own once c is
// done, as context.AfterFunc does; the context package uses it for the
// children of c.
func (c *callContext) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.watchLocked()
	}
	if c.err != nil {
		go f()
		return func() bool { return false }
	}
	p := &f
	c.afters = append(c.afters, p)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		i := slices.Index(c.afters, p)
		if i < 0 {
			return false
		}
		c.afters = slices.Delete(c.afters, i, i+1)
		return true
	}
}

// cancel ends c with err, once.
func (c *callContext) cancel(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	if c.done != nil {
		close(c.done)
	}
	afters, stop := c.afters, c.stop
	c.afters = nil
	c.mu.Unlock()
	for _, f := range afters {
		go (*f)()
	}
	if stop != nil {
		stop()
	}
}

func (c *callContext) String() string { return "mcpgen call context" }
