package runtime

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// What one client keeps in the Store is bounded, finished tasks included,
// in count and in bytes, on every replica at once: each client has a
// ledger in the store, sealed as task records are and named from the
// client with the replicas' key, that counts its tasks whose records have
// not expired and the bytes they are charged for. A record is charged
// before it is written (putTask): a new task, a result, answers or
// questions that would pass the client's share are refused, and so one
// client cannot fill a store that all share. Refused rather than making
// room by dropping the client's own oldest tasks: a task stays readable
// for its TTL, as the extension promises, and its result is not lost
// behind the client's back; the error says when room comes back.

// Defaults of TaskOptions.MaxKeptPerClient and MaxKeptBytesPerClient.
const (
	defaultMaxKeptPerClient      = 1024
	defaultMaxKeptBytesPerClient = 16 << 20
)

// taskRecordOverhead is what a record costs besides its encoding: its
// sealing, its name, and what the store keeps beside it.
const taskRecordOverhead = 256

// taskFailureReserve is charged with each record on top of its size, so
// that the record of a failure (a result refused, say) fits in what the
// task was charged already, and is never itself refused.
const taskFailureReserve = 1 << 10

// recordCost is what a record of n bytes, encoded, is charged.
func recordCost(n int) int64 { return int64(n) + taskRecordOverhead }

// A clientFullError is why a client's task, or what it would add to one,
// is refused: it keeps as much as one client may.
type clientFullError struct {
	tasks, maxTasks int
	bytes, maxBytes int64
	room            time.Time // when its first records expire
}

func (e *clientFullError) Error() string {
	return fmt.Sprintf("this client keeps %d tasks of %d bytes, and the most one client may keep is %d tasks, %d bytes; its oldest tasks' records expire at %s, and make room then",
		e.tasks, e.bytes, e.maxTasks, e.maxBytes, e.room.UTC().Format(time.RFC3339))
}

// keptLimits returns the bounds of what one client keeps.
func (o *TaskOptions) keptLimits() (tasks int, bytes int64) {
	tasks, bytes = defaultMaxKeptPerClient, defaultMaxKeptBytesPerClient
	if o.MaxKeptPerClient > 0 {
		tasks = o.MaxKeptPerClient
	}
	if o.MaxKeptBytesPerClient > 0 {
		bytes = int64(o.MaxKeptBytesPerClient)
	}
	return tasks, bytes
}

// ledgerStripes is how many locks a replica's changes of ledgers take
// turns on: each client's on one of them, chosen by a hash of its name.
const ledgerStripes = 64

// ledgerLocks are the locks a replica's changes of ledgers take turns
// on (see lockLedger).
type ledgerLocks struct {
	once  sync.Once
	seed  maphash.Seed
	locks [ledgerStripes]chan struct{}
}

// lockLedger waits until this replica changes no ledger of client's
// stripe, or ctx ends, and returns what ends its turn. The changes of one
// client's ledger then meet only those of other replicas, and not the
// many of its own that would make each other start over until they gave
// up (one client's task calls in parallel, or all the clients behind one
// proxy). Only the calls that change a ledger wait, each within its own
// deadline: a store that does not answer holds no one else.
func (l *ledgerLocks) lockLedger(ctx context.Context, client string) (unlock func(), err error) {
	l.once.Do(func() {
		l.seed = maphash.MakeSeed()
		for i := range l.locks {
			l.locks[i] = make(chan struct{}, 1)
		}
	})
	lock := l.locks[maphash.String(l.seed, client)%ledgerStripes]
	select {
	case lock <- struct{}{}:
		return func() { <-lock }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// chargeTask charges client bytes more for a task whose record expires
// then, and counts the task if it is new. It returns a *clientFullError,
// and charges nothing, when that would pass what the client may keep.
// Charges are never given back but by unchargeTask: a charge made for a
// write that then lost to another replica's counts until the record
// expires, which overcounts a little, and never undercounts.
func (s *Server) chargeTask(ctx context.Context, client string, isNew bool, bytes int64, expires time.Time) error {
	sh := s.shared()
	unlock, err := s.ledgers.lockLedger(ctx, client)
	if err != nil {
		return err
	}
	defer unlock()
	key := taskrecord.LedgerKey(sh.box, client)
	maxTasks, maxBytes := s.Tasks.keptLimits()
	return retryConflicts("the ledger of the client's tasks", func() error {
		l, version, err := s.loadLedger(ctx, key)
		if err != nil {
			return err
		}
		tasks, total, room := l.Totals()
		if isNew && tasks >= maxTasks || total+bytes > maxBytes {
			return &clientFullError{tasks: tasks, maxTasks: maxTasks, bytes: total, maxBytes: maxBytes, room: room}
		}
		n := 0
		if isNew {
			n = 1
		}
		l.Add(expires, n, bytes)
		return s.putLedger(ctx, key, version, l)
	})
}

// unchargeTask gives back to client what chargeTask charged for a new
// task whose record could not be written after all. A failure is logged:
// the charge then lasts until the record would have expired.
func (s *Server) unchargeTask(ctx context.Context, client string, bytes int64, expires time.Time) {
	sh := s.shared()
	unlock, err := s.ledgers.lockLedger(ctx, client)
	if err != nil {
		return
	}
	defer unlock()
	key := taskrecord.LedgerKey(sh.box, client)
	err = retryConflicts("the ledger of the client's tasks", func() error {
		l, version, err := s.loadLedger(ctx, key)
		if err != nil || version == 0 {
			return err
		}
		l.Add(expires, -1, -bytes)
		return s.putLedger(ctx, key, version, l)
	})
	if err != nil {
		s.logger().Warn("a task that was not recorded is still counted in its client's share until it would have expired", "err", err)
	}
}

// loadLedger reads the ledger under key, without its expired buckets; an
// empty one, of version 0, when there is none.
func (s *Server) loadLedger(ctx context.Context, key string) (*taskrecord.Ledger, uint64, error) {
	sh := s.shared()
	l := &taskrecord.Ledger{}
	sealed, version, err := sh.store.Get(ctx, key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return l, 0, nil
	case err != nil:
		return nil, 0, err
	}
	switch err := taskrecord.Open(sh.box, key, sealed, l); {
	case errors.Is(err, wire.ErrBadRecord):
		return nil, 0, err
	case err != nil:
		return nil, 0, fmt.Errorf("the ledger of the client's tasks: %w", err)
	}
	l.Prune(time.Now())
	return l, version, nil
}

// putLedger writes l under key, on version, to expire with its last
// bucket.
func (s *Server) putLedger(ctx context.Context, key string, version uint64, l *taskrecord.Ledger) error {
	sh := s.shared()
	sealed, _, err := taskrecord.Seal(sh.box, key, l)
	if err != nil {
		return err
	}
	ttl := max(time.Until(l.Expires()), time.Millisecond)
	_, err = sh.store.Put(ctx, key, version, sealed, ttl)
	return err
}
