package lineio

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// writes records each Write call.
type writes struct {
	mu    sync.Mutex
	calls []string
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls = append(w.calls, string(p))
	return len(p), nil
}

func (w *writes) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.calls...)
}

// TestNextForHoldsOnlyWhileInputIsBuffered: the answers to lines that
// arrived together go out in one write, and an answer is written before
// the reader waits for more input, never held while its client waits.
func TestNextForHoldsOnlyWhileInputIsBuffered(t *testing.T) {
	inR, inW := io.Pipe()
	out := &writes{}
	w := NewWriter(out, func() { t.Error("write failed") })
	r := NewReader(inR, 1<<10)
	go io.WriteString(inW, "a\nb\nc\n")
	for range 3 {
		line, _, err := r.NextFor(w)
		if err != nil {
			t.Fatal(err)
		}
		w.Send(bytes.ToUpper(line))
	}
	if got := out.list(); len(got) != 0 {
		t.Fatalf("the answer to the last buffered line went out before the reader waited: %q", got)
	}
	// The reader now waits for input: what was held must go out first.
	next := make(chan string)
	go func() {
		line, _, _ := r.NextFor(w)
		next <- string(line)
	}()
	for deadline := time.Now().Add(20 * time.Second); len(out.list()) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the held answers were never written while the reader waited for input")
		}
	}
	if got := out.list(); strings.Join(got, "|") != "A\nB\nC\n" {
		t.Errorf("writes %q, want the three answers in one write", got)
	}
	io.WriteString(inW, "d\n")
	if got := <-next; got != "d" {
		t.Errorf("next line %q", got)
	}
	inW.Close()
}

// TestNextLimit: a message of exactly Limit bytes is read whatever its
// line terminator; one byte more is consumed and reported by its size,
// and the next line is read whole.
func TestNextLimit(t *testing.T) {
	msg := strings.Repeat("x", 10)
	line, size, err := NewReader(strings.NewReader(msg), 10).Next()
	if err != io.EOF || string(line) != msg || size != 10 {
		t.Errorf("a message at the limit at EOF: %q, %d, %v", line, size, err)
	}
	for _, in := range []string{msg + "\n", msg + "\r\n"} {
		r := NewReader(strings.NewReader(in+"x"+msg+"\r\n{}\n"), 10)
		line, size, err := r.Next()
		if err != nil || string(line) != msg || size != 10 {
			t.Errorf("%q: a message at the limit: %q, %d, %v", in, line, size, err)
		}
		line, size, err = r.Next()
		if err != nil || line != nil || size != 11 {
			t.Errorf("%q: one byte over: %q, %d, %v", in, line, size, err)
		}
		line, size, err = r.Next()
		if err != nil || string(line) != "{}" || size != 2 {
			t.Errorf("%q: next line: %q, %d, %v", in, line, size, err)
		}
	}
}

// TestHandoffQuickWork: work that ends within the budget keeps the
// goroutine as the reader, and no other reader starts.
func TestHandoffQuickWork(t *testing.T) {
	// The budget is an hour, so that a busy machine cannot make the work
	// here look slow: what is tested is that Disarm keeps the reader.
	var tookOver atomic.Bool
	h := newHandoff(func() { tookOver.Store(true) }, time.Hour)
	for range 3 {
		h.Arm()
		if !h.Disarm() {
			t.Fatal("quick work lost the reading")
		}
	}
	if tookOver.Load() {
		t.Error("the takeover ran after quick work")
	}
}

// TestHandoffTick drives the tick by hand (its timer's budget is an
// hour): a request is handed off only when two ticks in a row find it
// running, never while requests come and go between ticks; the tick
// stops after a whole tick with no request, and the next Arm starts it.
func TestHandoffTick(t *testing.T) {
	var tookOver atomic.Int32
	h := newHandoff(func() { tookOver.Add(1) }, time.Hour)
	ticking := func() bool { return h.state.Load()&handoffTicking != 0 }

	h.Arm()
	if !ticking() {
		t.Fatal("Arm did not start the tick")
	}
	h.check() // finds the first request running
	h.Disarm()
	h.Arm()
	h.check() // another request: progress, no handoff
	h.Disarm()
	h.check() // a request came and went since the last tick: keep ticking
	if tookOver.Load() != 0 || !ticking() {
		t.Fatalf("after requests that each ended before the next tick: %d takeovers, ticking %v", tookOver.Load(), ticking())
	}
	h.check() // a whole tick with no request: the tick stops
	if ticking() {
		t.Fatal("the tick goes on while no request runs")
	}
	h.Arm()
	if !ticking() {
		t.Fatal("Arm after the tick stopped did not start it again")
	}
	h.check()
	h.check() // the same request at two ticks: it has run a budget
	if tookOver.Load() != 1 {
		t.Fatalf("a request found running at two ticks: %d takeovers, want 1", tookOver.Load())
	}
	if h.Disarm() {
		t.Error("the reader whose request was handed off is still the reader")
	}
	h.check() // ticks after the takeover do nothing more
	h.check()
	if tookOver.Load() != 1 {
		t.Errorf("%d takeovers after ticks following the takeover, want 1", tookOver.Load())
	}
}

// BenchmarkHandoff is the cost of answering one request inline: an Arm
// and a Disarm, with the tick running as it does under load.
func BenchmarkHandoff(b *testing.B) {
	h := NewHandoff(func() {})
	for b.Loop() {
		h.Arm()
		h.Disarm()
	}
}

// TestHandoffSlowWork: while slow work runs, another goroutine takes over
// the reading, so that the requests behind it are not held up; the
// goroutine that ran the work then stops reading. The work here cannot
// finish until the takeover has happened: a Handoff that waited for it
// would hang this test. The new reader's own Handoff is unaffected by the
// old one's Disarm.
func TestHandoffSlowWork(t *testing.T) {
	tookOver := make(chan struct{})
	h := NewHandoff(func() { close(tookOver) })
	h.Arm()
	select {
	case <-tookOver:
	case <-time.After(20 * time.Second):
		t.Fatal("no other goroutine took over the reading while slow work ran")
	}
	if h.Disarm() {
		t.Error("the goroutine that ran slow work is still the reader after another took over")
	}
	var second atomic.Bool
	h2 := newHandoff(func() { second.Store(true) }, time.Hour)
	h2.Arm()
	h.Disarm()
	if !h2.Disarm() || second.Load() {
		t.Error("the old reader's Disarm affected the new reader's Handoff")
	}
}

// TestPaceQuick: a pace is quick once its calls took less than QuickCall
// on average, never before its first call, stops being quick when its
// calls grow slow, and at once when marked slow.
func TestPaceQuick(t *testing.T) {
	var p Pace
	if p.Quick() {
		t.Error("a pace of no call is quick")
	}
	p.Observe(3 * time.Microsecond)
	if !p.Quick() {
		t.Error("a pace whose call took 3µs is not quick")
	}
	for range 30 {
		p.Observe(time.Millisecond)
	}
	if p.Quick() {
		t.Errorf("a pace whose recent calls took 1ms is quick (average %v)", p.Recent())
	}
	var q Pace
	q.Observe(time.Microsecond)
	q.MarkSlow()
	if q.Quick() {
		t.Error("a pace marked slow is quick")
	}
}
