package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/callctx"
	"go.uber.org/goleak"
)

type ctxKey struct{}

// TestCallContext: the call's own context behaves as the context package
// requires of a context made outside it.
func TestCallContext(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	deadline := time.Now().Add(time.Hour)
	parent, cancelParent := context.WithDeadline(context.WithValue(context.Background(), ctxKey{}, "v"), deadline)
	defer cancelParent()
	owner := &call{}
	c := &owner.ctx
	c.init(parent, owner, false)
	state := &owner.args

	if d, ok := c.Deadline(); !ok || !d.Equal(deadline) {
		t.Errorf("Deadline %v %v", d, ok)
	}
	if c.Value(ctxKey{}) != "v" || callctx.From(c) != state || callOf(c) != owner {
		t.Error("Value does not answer the parent's keys and the call's state")
	}
	if c.Err() != nil {
		t.Fatal("Err before cancel")
	}
	done := c.Done()
	child, cancelChild := context.WithTimeout(c, time.Hour) // registers through AfterFunc
	defer cancelChild()
	if callctx.From(child) != state || callOf(child) != owner {
		t.Error("a child context lost the call's state")
	}
	stopped := false
	stop := c.AfterFunc(func() { stopped = true })
	if !stop() {
		t.Error("stop before cancel reported false")
	}
	ran := make(chan struct{})
	context.AfterFunc(c, func() { close(ran) })

	c.cancel(context.Canceled)
	c.cancel(errors.New("again")) // the first cancellation wins
	select {
	case <-done:
	default:
		t.Fatal("Done is not closed after cancel")
	}
	if c.Done() != done || !errors.Is(c.Err(), context.Canceled) {
		t.Errorf("after cancel: Err %v", c.Err())
	}
	select {
	case <-child.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("a child context was not cancelled")
	}
	select {
	case <-ran:
	case <-time.After(20 * time.Second):
		t.Fatal("context.AfterFunc did not run")
	}
	if stopped {
		t.Error("a stopped AfterFunc ran")
	}
	if c.AfterFunc(func() {})() {
		t.Error("stop after cancel reported true")
	}
}

// TestCallContextWatch: with watch set, the parent's cancellation reaches
// the call, and context.Cause finds the parent's cause; without, it does not (the transport
// cancels its calls itself).
func TestCallContextWatch(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	cause := errors.New("client gone")
	for _, watch := range []bool{true, false} {
		parent, cancel := context.WithCancelCause(context.Background())
		var c callContext
		c.init(parent, new(call), watch)
		cancel(cause)
		if watch {
			select {
			case <-c.Done():
			case <-time.After(20 * time.Second):
				t.Fatal("the parent's cancellation did not reach the call")
			}
			if !errors.Is(c.Err(), context.Canceled) || context.Cause(&c) != cause {
				t.Errorf("Err %v, cause %v; want Canceled and the parent's cause", c.Err(), context.Cause(&c))
			}
		} else if c.Err() != nil {
			t.Errorf("without watch, the call was cancelled: %v", c.Err())
		}
		c.cancel(context.Canceled)
	}
	// A parent already cancelled cancels the call at once.
	parent, cancel := context.WithCancel(context.Background())
	cancel()
	var c callContext
	c.init(parent, new(call), true)
	if !errors.Is(c.Err(), context.Canceled) {
		t.Errorf("a call under a cancelled parent: Err %v", c.Err())
	}
}

// TestCallContextWatchLazy: the watch on the parent is set up only when
// someone can observe the call's cancellation, so that a call nobody
// asks about (most calls over HTTP) costs no allocation for it; and
// whichever way the call is observed (Err, Done, a child context), the
// parent's cancellation reaches it.
func TestCallContextWatchLazy(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	var c callContext
	allocs := func(watch bool) float64 {
		return testing.AllocsPerRun(100, func() {
			c = callContext{}
			c.init(parent, nil, watch)
			c.cancel(context.Canceled)
		})
	}
	if with, without := allocs(true), allocs(false); with != without {
		t.Errorf("a call under a cancellable parent, never looked at, allocates %v times with the watch, %v without", with, without)
	}

	for _, look := range []struct {
		name    string
		observe func(*callContext) <-chan struct{} // before the parent ends
	}{
		{"Err", func(c *callContext) <-chan struct{} { return nil }},
		{"Done", func(c *callContext) <-chan struct{} { return c.Done() }},
		{"child", func(c *callContext) <-chan struct{} {
			child, cancelChild := context.WithCancel(c)
			t.Cleanup(cancelChild)
			return child.Done()
		}},
	} {
		parent, cancel := context.WithCancel(context.Background())
		var c callContext
		c.init(parent, new(call), true)
		done := look.observe(&c)
		if c.Err() != nil {
			t.Fatalf("%s: the call ended before its parent", look.name)
		}
		cancel()
		if done != nil {
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("%s: the parent's cancellation did not reach the call", look.name)
			}
		}
		if !errors.Is(c.Err(), context.Canceled) {
			t.Errorf("%s: after the parent ended, Err %v", look.name, c.Err())
		}
		c.cancel(context.Canceled)
	}
}

// TestSameIDKeyOutlivesItsCall: two calls in flight under one id (a
// Conn shares ids), the later one ends first, and its caller then reuses
// the bytes of its message: the entry of the earlier call must not be
// keyed by them, or its cancellation and its end no longer find it and
// the entry stays for the Conn's life.
func TestSameIDKeyOutlivesItsCall(t *testing.T) {
	s := &Server{Name: "t", Version: "1"}
	startedA, startedB, releaseB := make(chan struct{}), make(chan struct{}), make(chan struct{})
	s.AddTool(&Tool{
		Name:        "w",
		InputSchema: `{"type":"object","properties":{"n":{"type":"integer"}}}`,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			var in struct{ N int }
			req.Bind(&in)
			if in.N == 1 {
				close(startedA)
				<-ctx.Done()
				return nil, ctx.Err()
			}
			close(startedB)
			<-releaseB
			return &ToolResult{}, nil
		},
	})
	c := s.NewConn(nil)
	ctx := context.Background()
	doneA := make(chan struct{})
	go func() {
		defer close(doneA)
		c.Handle(ctx, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"w","arguments":{"n":1}}}`))
	}()
	<-startedA
	msgB := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"w","arguments":{"n":2}}}`)
	doneB := make(chan struct{})
	go func() { defer close(doneB); c.Handle(ctx, msgB) }()
	<-startedB
	close(releaseB)
	<-doneB
	for i := range msgB {
		msgB[i] = '9'
	}
	c.Close() // cancels A through the map's values
	<-doneA
	c.ss.mu.Lock()
	n := len(c.ss.inflight)
	c.ss.mu.Unlock()
	if n != 0 {
		t.Errorf("after both calls ended, %d entries remain in flight", n)
	}
}
