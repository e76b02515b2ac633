package taskrecord

import (
	"cmp"
	"slices"
	"time"
)

// A Ledger is what one client keeps in the store: its tasks, counted by
// when their records expire, to the second, in at most MaxBuckets
// buckets, so that it stays small however many tasks it counts.
type Ledger struct {
	Buckets []Bucket `json:"b"` // by Expires, ascending
}

// A Bucket counts the tasks whose records expire by Expires.
type Bucket struct {
	Expires int64 `json:"x"` // Unix milliseconds, a whole second
	Tasks   int   `json:"n"`
	Bytes   int64 `json:"s"`
}

// MaxBuckets bounds the buckets of a ledger: past it, the two closest are
// merged, and their tasks counted until the later expires.
const MaxBuckets = 64

// Prune drops the buckets that expired by now, and puts the rest in order
// (a ledger read from the store may hold anything).
func (l *Ledger) Prune(now time.Time) {
	ms := now.UnixMilli()
	l.Buckets = slices.DeleteFunc(l.Buckets, func(b Bucket) bool { return b.Expires <= ms })
	slices.SortFunc(l.Buckets, func(a, b Bucket) int { return cmp.Compare(a.Expires, b.Expires) })
}

// Add counts tasks more, of bytes more, in the bucket of expires: the
// first that expires at its second or later, which a merge may have made
// later than its own. Negative counts give back what was charged.
func (l *Ledger) Add(expires time.Time, tasks int, bytes int64) {
	at := expires.Truncate(time.Second).Add(time.Second).UnixMilli()
	i, found := slices.BinarySearchFunc(l.Buckets, at, func(b Bucket, t int64) int { return cmp.Compare(b.Expires, t) })
	switch {
	case found:
	case bytes < 0 && i == len(l.Buckets):
		return // given back, but counted nowhere
	case bytes >= 0:
		l.Buckets = slices.Insert(l.Buckets, i, Bucket{Expires: at})
	}
	b := &l.Buckets[i]
	b.Tasks, b.Bytes = max(b.Tasks+tasks, 0), max(b.Bytes+bytes, 0)
	if len(l.Buckets) > MaxBuckets {
		l.mergeClosest()
	}
}

// mergeClosest merges the two buckets that expire closest together into
// the later.
func (l *Ledger) mergeClosest() {
	best := 0
	for i := 1; i+1 < len(l.Buckets); i++ {
		if l.Buckets[i+1].Expires-l.Buckets[i].Expires < l.Buckets[best+1].Expires-l.Buckets[best].Expires {
			best = i
		}
	}
	next := &l.Buckets[best+1]
	next.Tasks += l.Buckets[best].Tasks
	next.Bytes += l.Buckets[best].Bytes
	l.Buckets = slices.Delete(l.Buckets, best, best+1)
}

// Totals returns the tasks of l, their bytes, and when the first expire.
func (l *Ledger) Totals() (tasks int, bytes int64, first time.Time) {
	for _, b := range l.Buckets {
		tasks += b.Tasks
		bytes += b.Bytes
	}
	if len(l.Buckets) > 0 {
		first = time.UnixMilli(l.Buckets[0].Expires)
	}
	return tasks, bytes, first
}

// Expires is when the ledger's last bucket expires, and with it the
// ledger; the zero time for an empty one.
func (l *Ledger) Expires() time.Time {
	if len(l.Buckets) == 0 {
		return time.Time{}
	}
	return time.UnixMilli(l.Buckets[len(l.Buckets)-1].Expires)
}
