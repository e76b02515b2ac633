package lineio

import "time"

// inlineBudget is how long a call may run on the reading goroutine before
// another goroutine takes over the reading.
const inlineBudget = 100 * time.Microsecond

// RunInline runs work, a request just read, on the reading goroutine, and
// reports whether that goroutine is still the reader afterwards. Most
// calls are short, and handing each to another goroutine woke a thread per
// call: half the CPU of a client that sends one call at a time, and the
// wake-up's latency on every answer. If work takes longer than
// inlineBudget, takeOver starts reading in a new goroutine, so that the
// requests behind it (a cancellation, other calls) are not held up; the
// goroutine running work then stops reading when work returns.
func RunInline(work, takeOver func()) (stillReader bool) {
	t := time.AfterFunc(inlineBudget, takeOver)
	work()
	return t.Stop()
}
