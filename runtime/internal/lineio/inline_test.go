package lineio

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestRunInlineQuickWork: work that ends within the budget keeps the
// goroutine as the reader, and no other reader starts.
func TestRunInlineQuickWork(t *testing.T) {
	var tookOver atomic.Bool
	still := RunInline(func() {}, func() { tookOver.Store(true) })
	time.Sleep(2 * inlineBudget)
	if !still || tookOver.Load() {
		t.Errorf("quick work: stillReader=%v, takeOver called=%v; want true, false", still, tookOver.Load())
	}
}

// TestRunInlineSlowWork: while slow work runs, another goroutine takes
// over the reading, so that the requests behind it are not held up; the
// goroutine that ran the work then stops reading. The work here cannot
// finish until the takeover has happened: a RunInline that waited for it
// would hang this test.
func TestRunInlineSlowWork(t *testing.T) {
	tookOver := make(chan struct{})
	finished := make(chan bool, 1)
	go func() {
		finished <- RunInline(func() {
			select {
			case <-tookOver:
			case <-time.After(20 * time.Second):
			}
		}, func() { close(tookOver) })
	}()
	select {
	case still := <-finished:
		if still {
			t.Error("the goroutine that ran slow work is still the reader after another took over")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("RunInline never returned")
	}
	select {
	case <-tookOver:
	default:
		t.Error("no other goroutine took over the reading while slow work ran")
	}
}
