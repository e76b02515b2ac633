package runtime

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// A task's state lives in a record in the server's Store, so that any
// replica can answer tasks/get, tasks/update and tasks/cancel for it,
// while its handler runs on the replica that created it. The record is
// the truth: a replica changes it with Store.Put on the version it read
// (modifyTask), and publishes on the replicas' bus only to wake whoever
// waits for the change. It is sealed (see package taskrecord), so that a
// shared store holds nothing of it in clear.

// storeTimeout bounds one operation on the store: a store that does not
// answer makes the request that waits on it fail with an error that says
// so, instead of hanging.
const storeTimeout = 5 * time.Second

// A sharedStore is what a Server keeps about its Store, which its tasks
// and the replicas' bus use.
type sharedStore struct {
	once  sync.Once
	store store.Store
	// own says that the store is the Server's own memory store: no other
	// replica reads it.
	own bool
	box *wire.Box // seals task records and ledgers (see taskrecord.BoxPurpose)
}

// shared returns what the Server keeps about its Store, set up on first
// use from Store and StateKey, which are set before serving: it is first
// used by a request (a task, a session, a subscriptions/listen), never by
// what registers tools and the like.
func (s *Server) shared() *sharedStore {
	sh := &s.sharedStore
	sh.once.Do(func() {
		sh.store = s.Store
		if sh.store == nil {
			sh.store, sh.own = store.NewMemory(), true
		}
		sh.box = wire.NewBox(s.StateKey, taskrecord.BoxPurpose)
	})
	return sh
}

// errTaskNotFound is a task the store does not hold (unknown, expired,
// or another caller's).
var errTaskNotFound = errors.New("task not found")

// loadTask reads the task id and its version. A task that expired is not
// found, whether or not the store has dropped it yet.
func (s *Server) loadTask(ctx context.Context, id string) (*taskrecord.Record, uint64, error) {
	sh := s.shared()
	key := taskrecord.Key(sh.box, id)
	sealed, version, err := sh.store.Get(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, errTaskNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	var r taskrecord.Record
	switch err := taskrecord.Open(sh.box, key, sealed, &r); {
	case errors.Is(err, wire.ErrBadRecord):
		return nil, 0, err
	case err != nil:
		return nil, 0, fmt.Errorf("task %s: %w", id, err)
	}
	if !time.Now().Before(r.Expires()) {
		return nil, 0, errTaskNotFound
	}
	return &r, version, nil
}

// putTask stores r as task id if its version is still version (0: a new
// task), until the task expires. A record that grew past what its client
// was charged for is charged first (see chargeTask), and not stored if
// that passes the client's share.
func (s *Server) putTask(ctx context.Context, id string, version uint64, r *taskrecord.Record) (uint64, error) {
	sh := s.shared()
	key := taskrecord.Key(sh.box, id)
	sealed, size, err := taskrecord.Seal(sh.box, key, r)
	if err != nil {
		return 0, err
	}
	ttl := time.Until(r.Expires())
	if ttl <= 0 {
		return 0, errTaskNotFound
	}
	if cost := recordCost(size); cost > r.Charged {
		charge := cost + taskFailureReserve
		if err := s.chargeTask(ctx, r.Client, r.Charged == 0, charge-r.Charged, r.Expires()); err != nil {
			return 0, err
		}
		r.Charged = charge
		if sealed, _, err = taskrecord.Seal(sh.box, key, r); err != nil {
			return 0, err
		}
	}
	return sh.store.Put(ctx, key, version, sealed, ttl)
}

// maxUpdateTries bounds the rereads of a record (modifyTask, chargeTask)
// when other replicas keep changing it first.
const maxUpdateTries = 16

// retryConflicts runs try, which reads a record and writes it back on the
// version it read, again while its write finds that another replica wrote
// first (store.ErrConflict), maxUpdateTries times at most, after a random
// pause of up to a millisecond per try so far, so that writers that keep
// meeting (on a client's ledger, say) fall out of step; what is the
// record, for the error that says it kept changing.
func retryConflicts(what string, try func() error) error {
	for n := range maxUpdateTries {
		if n > 0 {
			time.Sleep(rand.N(time.Duration(n) * time.Millisecond))
		}
		if err := try(); !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("%s: the record kept changing under %d tries; retry", what, maxUpdateTries)
}

// modifyTask applies change, a transition of the record (see package
// taskrecord), to the task id, atomically: it reads the record, changes
// it, and writes it back if nobody wrote it meanwhile, else starts over.
// change may return taskrecord.ErrUnchanged to write nothing (modifyTask
// then returns the record as read, and no error), or another error to
// stop. It returns the record as written.
func (s *Server) modifyTask(ctx context.Context, id string, change func(r *taskrecord.Record) error) (*taskrecord.Record, error) {
	var out *taskrecord.Record
	err := retryConflicts("task "+id, func() error {
		r, version, err := s.loadTask(ctx, id)
		if err != nil {
			return err
		}
		switch err := change(r); {
		case errors.Is(err, taskrecord.ErrUnchanged):
			out = r
			return nil
		case err != nil:
			return err
		}
		if _, err := s.putTask(ctx, id, version, r); err != nil {
			return err
		}
		out = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
