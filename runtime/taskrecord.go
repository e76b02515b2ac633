package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"

	"github.com/mcpgen/mcpgen/runtime/store"
)

// A task's state lives in a record in the server's Store, so that any
// replica can answer tasks/get, tasks/update and tasks/cancel for it,
// while its handler runs on the replica that created it. The record is
// the truth: a replica changes it with Store.Put on the version it read
// (modifyTask), and publishes on the bus only to wake whoever waits for
// the change. It is sealed (wire.Box, keyed from Server.StateKey), so that
// a shared store holds nothing of it in clear: neither the result nor
// whom it belongs to.

// The statuses of a task.
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// A taskRecord is a task's state, as stored.
type taskRecord struct {
	// Owner binds the task to its caller (see session.owner); "" for
	// a caller no request can be told from another by (Streamable HTTP
	// without sessions or tokens), where the task's id alone admits.
	Owner   string `json:"o,omitempty"`
	Tool    string `json:"tool"`
	Status  string `json:"s"`
	Message string `json:"m,omitempty"`
	// Created, Updated, Lease: Unix milliseconds. TTL, Poll:
	// milliseconds.
	Created int64 `json:"c"`
	Updated int64 `json:"u"`
	TTL     int64 `json:"ttl"`
	Poll    int64 `json:"p"`
	// Result is the CallToolResult of a completed task; Error the
	// JSON-RPC error object of a failed one.
	Result json.RawMessage `json:"r,omitempty"`
	Error  json.RawMessage `json:"e,omitempty"`
	// Questions are the questions the handler waits for answers to, in
	// the order asked; Answers are the answers tasks/update brought that
	// the handler has not taken yet, by key.
	Questions []taskQuestion             `json:"q,omitempty"`
	Answers   map[string]json.RawMessage `json:"a,omitempty"`
	// Cancel says that tasks/cancel asked for the task to end.
	Cancel bool `json:"x,omitempty"`
	// Lease is when the replica that runs the handler stops holding the
	// task unless it renews it, which it does while the handler runs.
	Lease int64 `json:"l,omitempty"`
	// Client is who created the task (see caller.share), whose share
	// of the store the record counts in; Charged is what it was charged
	// for the record so far (see chargeTask).
	Client  string `json:"cl,omitempty"`
	Charged int64  `json:"ch,omitempty"`
}

// A taskQuestion is a question a task's handler waits for an answer to:
// an entry of inputRequests.
type taskQuestion struct {
	Key    string          `json:"k"`
	Method string          `json:"m"`
	Params json.RawMessage `json:"p"`
}

// terminal reports whether the task has ended.
func (r *taskRecord) terminal() bool {
	return r.Status == taskCompleted || r.Status == taskFailed || r.Status == taskCancelled
}

// expires is when the task's record goes: TTL after its creation, and a
// grace period more, so that a task that ended at its TTL (its handler's
// deadline) can still be read, and says how it ended.
func (r *taskRecord) expires() time.Time {
	return time.UnixMilli(r.Created + r.TTL + min(r.TTL, taskGrace.Milliseconds()))
}

// taskGrace is the most a task's record is kept past its TTL.
const taskGrace = time.Minute

// fail ends the task as failed with the JSON-RPC error code and message,
// at now.
func (r *taskRecord) fail(code int, message string, now time.Time) {
	r.failWith(&rpcError{code: code, message: message}, now)
}

// failWith ends r, at now, with the JSON-RPC error e, data included.
func (r *taskRecord) failWith(e *rpcError, now time.Time) {
	r.Status, r.Message, r.Error, r.Result = taskFailed, e.message, e.appendObject(nil), nil
	r.Questions, r.Answers = nil, nil
	r.Updated = now.UnixMilli()
}

// settle ends, at now, a task whose runner stopped renewing its lease:
// the replica that ran it is gone, and nobody will finish it. It reports
// whether it changed r.
func (r *taskRecord) settle(id string, now time.Time) bool {
	if r.terminal() || r.Lease == 0 || now.UnixMilli() <= r.Lease {
		return false
	}
	r.fail(jsonrpc.InternalError, fmt.Sprintf("task %s was lost: the server process that ran it stopped (it last reported at %s), so its outcome is unknown; call the tool again", id, time.UnixMilli(r.Lease).UTC().Format(time.RFC3339)), now)
	return true
}

// appendDetailed writes the members of a DetailedTask: the task's
// metadata, then what its status adds (inputRequests, result, error).
func (r *taskRecord) appendDetailed(b []byte, id string) []byte {
	b = r.appendTask(b, id)
	switch r.Status {
	case taskInputRequired:
		b = append(b, `,"inputRequests":{`...)
		for i, q := range r.Questions {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, q.Key)
			b = append(b, `:{"method":`...)
			b = jsonvalue.AppendString(b, q.Method)
			b = append(b, `,"params":`...)
			b = append(append(b, q.Params...), '}')
		}
		b = append(b, '}')
	case taskCompleted:
		b = append(append(b, `,"result":`...), r.Result...)
	case taskFailed:
		b = append(append(b, `,"error":`...), r.Error...)
	}
	return b
}

// appendTask writes the members of a Task: what CreateTaskResult holds.
func (r *taskRecord) appendTask(b []byte, id string) []byte {
	b = append(b, `"taskId":`...)
	b = jsonvalue.AppendString(b, id)
	b = append(b, `,"status":"`...)
	b = append(b, r.Status...)
	b = append(b, '"')
	if r.Message != "" {
		b = append(b, `,"statusMessage":`...)
		b = jsonvalue.AppendString(b, r.Message)
	}
	b = append(b, `,"createdAt":"`...)
	b = time.UnixMilli(r.Created).UTC().AppendFormat(b, isoMillis)
	b = append(b, `","lastUpdatedAt":"`...)
	b = time.UnixMilli(r.Updated).UTC().AppendFormat(b, isoMillis)
	b = append(b, `","ttlMs":`...)
	b = strconv.AppendInt(b, r.TTL, 10)
	b = append(b, `,"pollIntervalMs":`...)
	return strconv.AppendInt(b, r.Poll, 10)
}

// isoMillis is ISO 8601 with milliseconds, as the specification's
// examples write timestamps.
const isoMillis = "2006-01-02T15:04:05.000Z07:00"

// taskKey is the store key of the task id: a name derived from the id
// with the replicas' key (wire.Box.Name), not the id itself, which is
// the capability to the task of a client without a session or a token:
// whoever lists the store's keys learns no task's id.
func (sh *sharedState) taskKey(id string) string { return "task:" + sh.box.Name(id) }

// errTaskNotFound is a task the store does not hold (unknown, expired,
// or another caller's).
var errTaskNotFound = errors.New("task not found")

// getSealed reads and opens the record under key, and its version.
func (sh *sharedState) getSealed(ctx context.Context, key string) ([]byte, uint64, error) {
	sealed, version, err := sh.store.Get(ctx, key)
	if err != nil {
		return nil, 0, err
	}
	plain, err := sh.box.Open(sealed, []byte(key))
	if err != nil {
		return nil, 0, err
	}
	return plain, version, nil
}

// putSealed seals plain and stores it under key, as Store.Put does.
func (sh *sharedState) putSealed(ctx context.Context, key string, version uint64, plain []byte, ttl time.Duration) (uint64, error) {
	return sh.store.Put(ctx, key, version, sh.box.Seal(plain, []byte(key)), ttl)
}

// loadTask reads the task id and its version. A task that expired is not
// found, whether or not the store has dropped it yet.
func (s *Server) loadTask(ctx context.Context, id string) (*taskRecord, uint64, error) {
	plain, version, err := s.shared().getSealed(ctx, s.shared().taskKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, errTaskNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	var r taskRecord
	if err := json.Unmarshal(plain, &r); err != nil {
		return nil, 0, fmt.Errorf("task %s: the stored record is malformed: %w", id, err)
	}
	if !time.Now().Before(r.expires()) {
		return nil, 0, errTaskNotFound
	}
	return &r, version, nil
}

// putTask stores r as task id if its version is still version (0: a new
// task), until the task expires. A record that grew past what its client
// was charged for is charged first (see chargeTask), and not stored if
// that passes the client's share.
func (s *Server) putTask(ctx context.Context, id string, version uint64, r *taskRecord) (uint64, error) {
	plain, err := json.Marshal(r)
	if err != nil {
		return 0, err
	}
	ttl := time.Until(r.expires())
	if ttl <= 0 {
		return 0, errTaskNotFound
	}
	if cost := recordCost(len(plain)); cost > r.Charged {
		charge := cost + taskFailureReserve
		if err := s.chargeTask(ctx, r.Client, r.Charged == 0, charge-r.Charged, r.expires()); err != nil {
			return 0, err
		}
		r.Charged = charge
		if plain, err = json.Marshal(r); err != nil {
			return 0, err
		}
	}
	return s.shared().putSealed(ctx, s.shared().taskKey(id), version, plain, ttl)
}

// errTaskUnchanged, returned by the change function of modifyTask, leaves
// the record as it is.
var errTaskUnchanged = errors.New("unchanged")

// maxUpdateTries bounds the rereads of a record (modifyTask, chargeTask)
// when other replicas keep changing it first.
const maxUpdateTries = 16

// retryConflicts runs try, which reads a record and writes it back on the
// version it read, again while its write finds that another replica wrote
// first (store.ErrConflict), maxUpdateTries times at most, after a random pause
// of up to a millisecond per try so far, so that writers that keep
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

// modifyTask applies change to the task id, atomically: it reads the
// record, changes it, and writes it back if nobody wrote it meanwhile,
// else starts over. change may return errTaskUnchanged to write nothing
// (modifyTask then returns the record as read, and no error), or another
// error to stop. It returns the record as written.
func (s *Server) modifyTask(ctx context.Context, id string, change func(r *taskRecord) error) (*taskRecord, error) {
	var out *taskRecord
	err := retryConflicts("task "+id, func() error {
		r, version, err := s.loadTask(ctx, id)
		if err != nil {
			return err
		}
		switch err := change(r); {
		case errors.Is(err, errTaskUnchanged):
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
