package taskrecord

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

var now = time.UnixMilli(1_800_000_000_000)

func working() *Record {
	return &Record{Tool: "t", Status: Working, Created: now.UnixMilli(), Updated: now.UnixMilli(), TTL: 60_000, Poll: 1000, Lease: now.Add(time.Minute).UnixMilli()}
}

func asking(keys ...string) *Record {
	r := working()
	var qs []Question
	for _, k := range keys {
		qs = append(qs, Question{Key: k, Method: "elicitation/create", Params: json.RawMessage(`{}`)})
	}
	if err := r.Ask(qs, now); err != nil {
		panic(err)
	}
	return r
}

func answers(kv ...string) func(func(string, []byte) bool) {
	return func(yield func(string, []byte) bool) {
		for i := 0; i+1 < len(kv); i += 2 {
			if !yield(kv[i], []byte(kv[i+1])) {
				return
			}
		}
	}
}

// ended returns a record of each terminal status.
func ended() []*Record {
	completed := working()
	completed.End(&Record{Status: Completed, Result: json.RawMessage(`{"content":[]}`), Updated: now.UnixMilli()})
	failed := asking("a")
	failed.Fail(-32603, "broken", nil, now)
	cancelled := working()
	cancelled.End(&Record{Status: Cancelled, Message: "cancelled at the client's request"})
	return []*Record{completed, failed, cancelled}
}

// TestTerminalIsFinal: no transition changes a task that has ended.
func TestTerminalIsFinal(t *testing.T) {
	for _, r := range ended() {
		before, _ := json.Marshal(r)
		transitions := map[string]error{
			"End":           r.End(&Record{Status: Completed}),
			"Renew":         r.Renew(now.Add(time.Hour).UnixMilli()),
			"RequestCancel": r.RequestCancel(now),
			"Answer":        r.Answer(answers("a", `{}`), now),
			"Withdraw":      r.Withdraw([]string{"a"}, now),
			"Settle":        r.Settle("T", now.Add(time.Hour)),
		}
		for name, err := range transitions {
			if !errors.Is(err, ErrUnchanged) {
				t.Errorf("%s of a %s task: %v, want ErrUnchanged", name, r.Status, err)
			}
		}
		if err := r.Ask([]Question{{Key: "b"}}, now); err == nil || !strings.Contains(err.Error(), "ended") {
			t.Errorf("Ask of a %s task: %v", r.Status, err)
		}
		if after, _ := json.Marshal(r); string(after) != string(before) {
			t.Errorf("a %s task changed:\n%s\n%s", r.Status, before, after)
		}
		if !r.Terminal() || r.Questions != nil || r.Answers != nil || r.Lease != 0 {
			t.Errorf("an ended task holds questions, answers or a lease: %+v", r)
		}
	}
}

// TestInputRequiredWhileAsking: a task is input_required exactly while it
// asks; an answer is kept only for a question asked, which it then no
// longer is; taken answers leave the record.
func TestInputRequiredWhileAsking(t *testing.T) {
	r := asking("a", "b")
	if r.Status != InputRequired {
		t.Fatalf("asking: %s", r.Status)
	}
	if err := r.Answer(answers("zz", `1`), now); !errors.Is(err, ErrUnchanged) || len(r.Answers) != 0 {
		t.Errorf("an answer to no question: %v, %v", err, r.Answers)
	}
	if err := r.Answer(answers("a", `{"action":"accept"}`, "zz", `1`), now); err != nil {
		t.Fatal(err)
	}
	if r.Status != InputRequired || len(r.Questions) != 1 || r.Questions[0].Key != "b" || !slices.Equal(slices.Sorted(maps.Keys(r.Answers)), []string{"a"}) {
		t.Errorf("one of two answered: %+v", r)
	}
	if _, err := r.TakeAnswers([]string{"a", "b"}, now); !errors.Is(err, ErrUnchanged) || len(r.Answers) != 1 {
		t.Errorf("taking answers not all there: %v, %v", err, r.Answers)
	}
	if err := r.Answer(answers("b", `2`), now); err != nil || r.Status != Working || len(r.Questions) != 0 {
		t.Errorf("both answered: %v, %+v", err, r)
	}
	got, err := r.TakeAnswers([]string{"b", "a"}, now)
	if err != nil || string(got[0]) != "2" || string(got[1]) != `{"action":"accept"}` || len(r.Answers) != 0 {
		t.Errorf("TakeAnswers: %q, %v, left %v", got, err, r.Answers)
	}
	w := asking("c")
	if err := w.Withdraw([]string{"c"}, now); err != nil || w.Status != Working || len(w.Questions) != 0 {
		t.Errorf("withdrawn: %v, %+v", err, w)
	}
}

// TestFailAndSettle: a failure holds its error and no result; a task is
// settled as lost only once its runner's lease has lapsed.
func TestFailAndSettle(t *testing.T) {
	r := asking("a")
	if err := r.Settle("T", now); !errors.Is(err, ErrUnchanged) {
		t.Errorf("settled within its lease: %v", err)
	}
	if err := r.Settle("T", now.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if r.Status != Failed || r.Result != nil || !strings.Contains(string(r.Error), `"code":-32603`) || !strings.Contains(r.Message, "task T was lost") {
		t.Errorf("settled: %+v", r)
	}
	f := working()
	f.Fail(-32021, "missing", []byte(`{"required":{}}`), now)
	if string(f.Error) != `{"code":-32021,"message":"missing","data":{"required":{}}}` {
		t.Errorf("error object %s", f.Error)
	}
	if err := working().RequestCancel(now); err != nil {
		t.Error(err)
	}
}

// TestExpires: a record lasts its TTL after its creation, and as long
// again, Grace at most.
func TestExpires(t *testing.T) {
	r := &Record{Created: 1000, TTL: 10_000}
	if got := r.Expires().UnixMilli(); got != 21_000 {
		t.Errorf("short TTL: %d", got)
	}
	r.TTL = int64(time.Hour / time.Millisecond)
	if got := r.Expires().UnixMilli(); got != 1000+r.TTL+Grace.Milliseconds() {
		t.Errorf("long TTL: %d", got)
	}
}

// TestSealing: a sealed record opens under its own key only, and what
// does not open or is not a record says so.
func TestSealing(t *testing.T) {
	box := wire.NewBox([]byte("the replicas' key"), BoxPurpose)
	key := Key(box, "T1")
	if strings.Contains(key, "T1") || key == Key(box, "T2") || LedgerKey(box, "T1") == key {
		t.Errorf("keys %q", key)
	}
	sealed, size, err := Seal(box, key, asking("a"))
	if err != nil || size == 0 || strings.Contains(string(sealed), "elicitation") {
		t.Fatalf("Seal: %v, %d bytes", err, size)
	}
	var r Record
	if err := Open(box, key, sealed, &r); err != nil || r.Status != InputRequired || r.Questions[0].Key != "a" {
		t.Errorf("Open: %v, %+v", err, r)
	}
	if err := Open(box, Key(box, "T2"), sealed, &r); !errors.Is(err, wire.ErrBadRecord) {
		t.Errorf("opened under another key: %v", err)
	}
	if err := Open(wire.NewBox([]byte("another key"), BoxPurpose), key, sealed, &r); !errors.Is(err, wire.ErrBadRecord) {
		t.Errorf("opened with another key: %v", err)
	}
	if err := Open(box, key, box.Seal([]byte("[]"), []byte(key)), &r); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("not a record: %v", err)
	}
}

// TestLedgerBuckets: a ledger counts any number of tasks in at most
// MaxBuckets buckets, merging the closest into the later, so that
// no task is counted as expiring before its record; and gives back what
// it was charged for a task never written.
func TestLedgerBuckets(t *testing.T) {
	l := &Ledger{}
	start := time.Now().Truncate(time.Second)
	const n = 1000
	for i := range n {
		l.Add(start.Add(time.Duration(i)*3*time.Second), 1, 100)
	}
	tasks, bytes, first := l.Totals()
	if len(l.Buckets) > MaxBuckets || tasks != n || bytes != 100*n || !first.After(start) {
		t.Fatalf("%d buckets, %d tasks, %d bytes, first %v; want at most %d, %d, %d, after %v", len(l.Buckets), tasks, bytes, first, MaxBuckets, n, 100*n, start)
	}
	if last := time.UnixMilli(l.Buckets[len(l.Buckets)-1].Expires); last.Before(start.Add((n - 1) * 3 * time.Second)) {
		t.Errorf("the last bucket expires at %v, before the last task's record", last)
	}
	for i := 1; i < len(l.Buckets); i++ {
		if l.Buckets[i].Expires <= l.Buckets[i-1].Expires {
			t.Fatalf("buckets out of order: %v", l.Buckets)
		}
	}
	l.Add(start.Add(10*time.Second), -1, -100)
	if tasks, bytes, _ := l.Totals(); tasks != n-1 || bytes != 100*(n-1) {
		t.Errorf("after giving one back: %d tasks, %d bytes", tasks, bytes)
	}
	l.Add(start.Add(time.Hour*24), -1, -100) // past every bucket: counted nowhere
	if tasks, _, _ := l.Totals(); tasks != n-1 {
		t.Errorf("giving back what was never counted: %d tasks", tasks)
	}
}
