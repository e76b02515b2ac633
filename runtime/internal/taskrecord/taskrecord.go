// Package taskrecord is a task's record, as the runtime keeps it in a
// store that every replica reads (the tasks extension of MCP revision
// 2026-07-28): its statuses, the transitions between them, its encoding
// as a Task and a DetailedTask, and its sealing; and the ledger of what
// one client keeps in the store. It knows nothing of stores, requests or
// handlers: each transition is a method that changes a record it is given
// and says whether it did, so that the runtime can apply it atomically
// (read, change, write back if nobody wrote meanwhile), and its
// invariants are tested here alone:
//
//   - a terminal status (completed, failed, cancelled) is final: no
//     transition changes a record that has one;
//   - a record is input_required exactly while it has open questions;
//   - an answer is kept only for a question the record asks, which it
//     then no longer does;
//   - an ended record holds no questions, answers or lease; a failed one
//     its error and no result, a completed one its result.
package taskrecord

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// The statuses of a task.
const (
	Working       = "working"
	InputRequired = "input_required"
	Completed     = "completed"
	Failed        = "failed"
	Cancelled     = "cancelled"
)

// A Record is a task's state, as stored.
type Record struct {
	// Owner binds the task to its caller; "" for a caller no request can
	// be told from another by (Streamable HTTP without sessions or
	// tokens), where the task's id alone admits.
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
	Questions []Question                 `json:"q,omitempty"`
	Answers   map[string]json.RawMessage `json:"a,omitempty"`
	// Cancel says that tasks/cancel asked for the task to end.
	Cancel bool `json:"x,omitempty"`
	// Lease is when the replica that runs the handler stops holding the
	// task unless it renews it, which it does while the handler runs.
	Lease int64 `json:"l,omitempty"`
	// Client is who created the task, whose share of the store the
	// record counts in; Charged is what it was charged for the record so
	// far (see Ledger).
	Client  string `json:"cl,omitempty"`
	Charged int64  `json:"ch,omitempty"`
}

// A Question is a question a task's handler waits for an answer to: an
// entry of inputRequests.
type Question struct {
	Key    string          `json:"k"`
	Method string          `json:"m"`
	Params json.RawMessage `json:"p"`
}

// ErrUnchanged is what a transition returns when it leaves the record as
// it was: nothing need be written.
var ErrUnchanged = errors.New("unchanged")

// Terminal reports whether the task has ended.
func (r *Record) Terminal() bool {
	return r.Status == Completed || r.Status == Failed || r.Status == Cancelled
}

// Grace is the most a task's record is kept past its TTL.
const Grace = time.Minute

// Expires is when the task's record goes: TTL after its creation, and a
// grace period more (as long again, Grace at most), so that a task that
// ended at its TTL (its handler's deadline) can still be read, and says
// how it ended.
func (r *Record) Expires() time.Time {
	return time.UnixMilli(r.Created + r.TTL + min(r.TTL, Grace.Milliseconds()))
}

// Fail ends the task, at now, as failed with the JSON-RPC error code,
// message and data (JSON, or nil).
func (r *Record) Fail(code int, message string, data []byte, now time.Time) {
	r.Status, r.Message = Failed, message
	r.Error, r.Result = jsonrpc.AppendErrorObject(nil, code, message, data), nil
	r.Questions, r.Answers, r.Lease = nil, nil, 0
	r.Updated = now.UnixMilli()
}

// Settle ends, at now, the task id whose runner stopped renewing its
// lease: the replica that ran it is gone, and nobody will finish it.
func (r *Record) Settle(id string, now time.Time) error {
	if r.Terminal() || r.Lease == 0 || now.UnixMilli() <= r.Lease {
		return ErrUnchanged
	}
	r.Fail(jsonrpc.InternalError, fmt.Sprintf("task %s was lost: the server process that ran it stopped (it last reported at %s), so its outcome is unknown; call the tool again", id, time.UnixMilli(r.Lease).UTC().Format(time.RFC3339)), nil, now)
	return nil
}

// End records o, how the handler ended (its status, message, result or
// error, and when), unless the task has ended already (another replica
// took it for lost): the first end stands.
func (r *Record) End(o *Record) error {
	if r.Terminal() {
		return ErrUnchanged
	}
	r.Status, r.Message, r.Result, r.Error = o.Status, o.Message, o.Result, o.Error
	r.Updated, r.Questions, r.Answers, r.Lease = o.Updated, nil, nil, 0
	return nil
}

// Renew extends the runner's lease on a task that has not ended to
// until (Unix milliseconds).
func (r *Record) Renew(until int64) error {
	if r.Terminal() {
		return ErrUnchanged
	}
	r.Lease = until
	return nil
}

// RequestCancel records, at now, that the client asked for the task to
// end; the runner sees it and stops the handler.
func (r *Record) RequestCancel(now time.Time) error {
	if r.Terminal() || r.Cancel {
		return ErrUnchanged
	}
	r.Cancel, r.Updated = true, now.UnixMilli()
	return nil
}

// Ask adds qs to the questions of a task that has not ended, which is
// then input_required.
func (r *Record) Ask(qs []Question, now time.Time) error {
	if r.Terminal() {
		return fmt.Errorf("the task has ended (%s)", r.Status)
	}
	r.Questions = append(r.Questions, qs...)
	r.Status, r.Updated = InputRequired, now.UnixMilli()
	return nil
}

// Answer keeps, at now, the answers (by question key) to the questions
// the task asks, which it then no longer asks, and ignores the rest, as
// the extension says; with no question left the task is working again.
func (r *Record) Answer(answers iter.Seq2[string, []byte], now time.Time) error {
	if r.Terminal() {
		return ErrUnchanged
	}
	n := len(r.Questions)
	for key, answer := range answers {
		i := slices.IndexFunc(r.Questions, func(q Question) bool { return q.Key == key })
		if i < 0 {
			continue
		}
		if r.Answers == nil {
			r.Answers = map[string]json.RawMessage{}
		}
		r.Answers[key] = slices.Clone(answer)
		r.Questions = slices.Delete(r.Questions, i, i+1)
	}
	if len(r.Questions) == n {
		return ErrUnchanged
	}
	r.settleQuestions(now)
	return nil
}

// TakeAnswers takes out of the record the answers to the questions of
// keys, in their order, if it holds all of them; ErrUnchanged if not yet.
func (r *Record) TakeAnswers(keys []string, now time.Time) ([][]byte, error) {
	answers := make([][]byte, len(keys))
	for i, key := range keys {
		a, ok := r.Answers[key]
		if !ok {
			return nil, ErrUnchanged
		}
		answers[i] = a
	}
	for _, key := range keys {
		delete(r.Answers, key)
	}
	r.Updated = now.UnixMilli()
	return answers, nil
}

// Withdraw takes the questions of keys, no longer waited for, and their
// answers, out of a task that has not ended.
func (r *Record) Withdraw(keys []string, now time.Time) error {
	if r.Terminal() {
		return ErrUnchanged
	}
	n := len(r.Questions)
	r.Questions = slices.DeleteFunc(r.Questions, func(q Question) bool { return slices.Contains(keys, q.Key) })
	for _, key := range keys {
		delete(r.Answers, key)
	}
	if len(r.Questions) == n {
		return ErrUnchanged
	}
	r.settleQuestions(now)
	return nil
}

// settleQuestions makes an input_required task working once it asks no
// more, at now.
func (r *Record) settleQuestions(now time.Time) {
	if len(r.Questions) == 0 && r.Status == InputRequired {
		r.Status = Working
	}
	r.Updated = now.UnixMilli()
}

// AppendDetailed writes the members of a DetailedTask: the task's
// metadata, then what its status adds (inputRequests, result, error).
func (r *Record) AppendDetailed(b []byte, id string) []byte {
	b = r.AppendTask(b, id)
	switch r.Status {
	case InputRequired:
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
	case Completed:
		b = append(append(b, `,"result":`...), r.Result...)
	case Failed:
		b = append(append(b, `,"error":`...), r.Error...)
	}
	return b
}

// AppendTask writes the members of a Task: what CreateTaskResult holds.
func (r *Record) AppendTask(b []byte, id string) []byte {
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

// What the runtime keeps in a store that others read is sealed with a
// box keyed from the replicas' key (wire.Box), bound to its key in the
// store, and stored under a name the box derives from what it is about,
// so that the store holds nothing of it in clear: neither a task's
// result nor whom it belongs to, nor its id, which is the capability to
// the task of a client without a session or a token.

// BoxPurpose is the purpose of the box that seals task records and
// ledgers (see wire.NewBox).
const BoxPurpose = "mcpgen task record v1"

// Key is the store key of the task id.
func Key(box *wire.Box, id string) string { return "task:" + box.Name(id) }

// LedgerKey is the store key of the ledger of client.
func LedgerKey(box *wire.Box, client string) string { return "client:" + box.Name(client) }

// Seal encodes v (a *Record or a *Ledger) for the store key, sealed,
// and returns the size of its encoding too, which the store is charged
// for.
func Seal(box *wire.Box, key string, v any) (sealed []byte, size int, err error) {
	plain, err := json.Marshal(v)
	if err != nil {
		return nil, 0, err
	}
	return box.Seal(plain, []byte(key)), len(plain), nil
}

// Open decodes into v (a *Record or a *Ledger) what Seal sealed for the
// same key: wire.ErrBadRecord when it does not open (it was changed,
// sealed for another key or with another key), or an error that says it
// is malformed.
func Open(box *wire.Box, key string, sealed []byte, v any) error {
	plain, err := box.Open(sealed, []byte(key))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(plain, v); err != nil {
		return fmt.Errorf("the stored record is malformed: %w", err)
	}
	return nil
}
