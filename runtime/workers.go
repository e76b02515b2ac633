package runtime

import "time"

// workers runs calls on goroutines that are kept between calls. A fresh
// goroutine starts with a small stack and grows it while decoding and
// validating, which profiles showed to be a large part of a call's cost;
// a kept goroutine has grown it already. Workers beyond those in use exit
// after idling for workerIdle, and all of them once the pool is closed.
type workers struct {
	work chan func()
	quit chan struct{}
}

// workerIdle is how long an idle worker waits for another call.
const workerIdle = 10 * time.Second

func newWorkers() *workers {
	return &workers{work: make(chan func()), quit: make(chan struct{})}
}

// run runs f on an idle worker, or on a new one if none is idle.
func (w *workers) run(f func()) {
	select {
	case w.work <- f:
	default:
		go w.loop(f)
	}
}

func (w *workers) loop(f func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		f()
		idle.Reset(workerIdle)
		select {
		case f = <-w.work:
		case <-idle.C:
			return
		case <-w.quit:
			return
		}
	}
}

// close makes idle workers exit, and busy ones once their call returns.
// run must not be called after close.
func (w *workers) close() { close(w.quit) }
