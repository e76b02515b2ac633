package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"

	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// A task's handler runs on the replica that created the task, in a
// goroutine of its own (execute), which records the outcome in the task's
// record; meanwhile the replica renews its claim on the task (startLease),
// and the task stops early when the client cancels it, its session ends,
// or the server shuts down (stop).

// execute runs the handler, and records its outcome once the task has
// begun (before, the request gets it).
func (task *runningTask) execute() {
	srv, t, tc := task.srv, task.tool, task.tc
	ss := tc.ss
	defer close(task.done)
	if !task.deferred {
		task.startLease()
	}
	ctx, cancel := context.WithDeadline(&tc.ctx, task.deadline())
	defer cancel()
	if t.Timeout > 0 {
		var cancelTimeout context.CancelFunc
		ctx, cancelTimeout = context.WithTimeout(ctx, t.Timeout)
		defer cancelTimeout()
	}
	var res *ToolResult
	err := ss.invoke(ctx, handlerRun{kind: "tool", target: t.Name}, func(ctx context.Context) error {
		var err error
		res, err = t.run(ctx, &tc.req)
		if err == nil && res == nil {
			err = errNoResult
		}
		return err
	})
	task.mu.Lock()
	task.ended = true
	begun, cause := task.begun, task.cause
	task.mu.Unlock()
	if !begun {
		task.sendFirst(taskFirst{res: res, err: err})
		tc.cancel()
		return
	}
	deadline := errors.Is(ctx.Err(), context.DeadlineExceeded) && tc.ctx.Err() == nil
	r := srv.taskOutcome(task, ss, res, err, cause, deadline)
	tc.cancel()
	srv.running.remove(task) // the handler is done: its slot is free
	task.record(r)
}

// deadline is when the task's handler must have returned: its TTL after
// the task began, or, before it begins (DeferTask), after the handler
// began.
func (task *runningTask) deadline() time.Time {
	task.mu.Lock()
	defer task.mu.Unlock()
	if task.begun {
		return task.created.Add(task.ttl)
	}
	return time.Now().Add(task.ttl)
}

// taskOutcome is the record of how the task ended, from what its handler
// returned: cancelled when the client cancelled it and the handler did
// not finish all the same; failed, with a JSON-RPC error, for what a
// plain call would have answered with one (a protocol error, a question
// the client cannot answer), a handler stopped for the server's reasons
// or past its TTL, or a result too large to keep; else completed, with
// the result a plain call would have sent (a handler's error then is a
// result with isError set).
func (s *Server) taskOutcome(task *runningTask, ss *session, res *ToolResult, err error, cause error, deadline bool) *taskrecord.Record {
	now := time.Now()
	r := &taskrecord.Record{Updated: now.UnixMilli()}
	if err != nil {
		var ce *capabilityError
		var ue *URLElicitationRequiredError
		switch {
		case cause == errTaskCancelled:
			r.Status, r.Message = taskrecord.Cancelled, "cancelled at the client's request"
			return r
		case cause != nil:
			r.Fail(jsonrpc.InternalError, fmt.Sprintf("task %s stopped: %v", task.id, cause), nil, now)
			return r
		case deadline && errors.Is(err, context.DeadlineExceeded):
			r.Fail(jsonrpc.InternalError, fmt.Sprintf("task %s did not finish within %v", task.id, min(task.ttl, nonZero(task.tool.Timeout, task.ttl))), nil, now)
			return r
		case errors.As(err, &ce):
			e := missingCapability(ce).err
			r.Fail(e.code, e.message, e.data, now)
			return r
		case errors.As(err, &ue):
			r.Fail(wire.URLElicitationRequired, ue.Error(), ue.data(), now)
			return r
		}
	}
	resp := ss.toolOutcome(task.tc, task.tool, res, err)
	if e := resp.err; e != nil {
		r.Fail(e.code, e.message, e.data, now)
		return r
	}
	b := []byte{'{'}
	b, encErr := resp.result.appendResult(b)
	_, _, limit := s.Tasks.limits()
	switch {
	case encErr != nil:
		r.Fail(jsonrpc.InternalError, fmt.Sprintf("tool %s returned a result that cannot be encoded: %v", task.tool.Name, encErr), nil, now)
	case len(b)+1 > limit:
		r.Fail(jsonrpc.InternalError, fmt.Sprintf("tool %s returned a result of %d bytes, more than the %d a task may keep", task.tool.Name, len(b)+1, limit), nil, now)
	default:
		r.Status, r.Result = taskrecord.Completed, append(b, '}')
	}
	return r
}

// nonZero returns d, or alt when d is zero.
func nonZero(d, alt time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return alt
}

// record writes the outcome o into the task's record, unless the record
// ended meanwhile (another replica took the task for lost), and tells
// who follows it. An outcome that the store, or the client's share of it,
// has no room for becomes a failure that says so (see unkept). A store
// that cannot be reached is tried again for a lease's time: after that,
// the other replicas take the task for lost.
func (task *runningTask) record(o *taskrecord.Record) {
	srv := task.srv
	lease := srv.Tasks.lease()
	deadline := time.Now().Add(lease)
	replaced := false // o is unkept's failure
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, lease/4) {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		r, err := srv.modifyTask(ctx, task.id, func(r *taskrecord.Record) error { return r.End(o) })
		cancel()
		switch {
		case err == nil:
			if r.Status != o.Status {
				srv.logger().Warn("a task ended after another replica had ended it", "task", task.id, "recorded", r.Status, "outcome", o.Status)
			}
			srv.taskChanged(context.Background(), task.id, r)
			return
		case errors.Is(err, errTaskNotFound):
			srv.logger().Warn("a task ended after its record expired", "task", task.id, "outcome", o.Status)
			return
		case isFull(err) && !replaced:
			o, replaced = task.unkept(o, err), true
			continue
		case time.Now().After(deadline):
			srv.logger().Error("the outcome of a task could not be recorded; other replicas will report it lost", "task", task.id, "outcome", o.Status, "err", err)
			return
		}
		time.Sleep(wait)
	}
}

// isFull reports whether err says that the store, or the client's share
// of it, has no room for a record.
func isFull(err error) bool {
	var full *clientFullError
	return errors.As(err, &full) || errors.Is(err, store.ErrFull)
}

// unkept is the failure that replaces the outcome o, which there is no
// room for (err says why): it fits in what the task's record was charged
// already (see taskFailureReserve).
func (task *runningTask) unkept(o *taskrecord.Record, err error) *taskrecord.Record {
	why := "the task store is full"
	var full *clientFullError
	if errors.As(err, &full) {
		why = fmt.Sprintf("this client keeps as much as it may (%d tasks of %d bytes; at most %d, %d bytes)", full.tasks, full.bytes, full.maxTasks, full.maxBytes)
	}
	f := &taskrecord.Record{}
	n := len(o.Result) + len(o.Error) + len(o.Message)
	f.Fail(jsonrpc.InternalError, fmt.Sprintf("task %s ended with an outcome of %d bytes, which could not be kept: %s; call the tool again once earlier tasks have expired", task.id, n, why), nil, time.Now())
	return f
}

// taskChanged tells who follows the task id that its record is now r:
// the subscriptions/listen requests that asked for it, here and, through
// the bus, on the other replicas.
func (s *Server) taskChanged(ctx context.Context, id string, r *taskrecord.Record) {
	detail := r.AppendDetailed([]byte{'{'}, id)
	detail = append(detail, '}')
	s.fanout.taskStatus(id, r.Owner, detail)
	s.publish(ctx, busMessage{Kind: "task", Event: "status", Task: id, Owner: r.Owner, Detail: detail})
}

// startLease renews the replica's claim on the task while its handler
// runs, every third of the lease, and watches the record meanwhile: a
// cancellation asked for on another replica whose message the bus lost
// stops the handler all the same, and answers wake the questions that
// wait for them.
func (task *runningTask) startLease() {
	srv := task.srv
	lease := srv.Tasks.lease()
	go func() {
		tick := time.NewTicker(lease / 3)
		defer tick.Stop()
		for {
			select {
			case <-task.done:
				return
			case <-tick.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
			r, err := srv.modifyTask(ctx, task.id, func(r *taskrecord.Record) error {
				return r.Renew(time.Now().Add(lease).UnixMilli())
			})
			cancel()
			switch {
			case errors.Is(err, errTaskNotFound):
				task.stop(errTaskRecordGone)
			case err != nil:
				srv.logger().Warn("a task's claim could not be renewed", "task", task.id, "err", err)
			case r.Cancel:
				task.stop(errTaskCancelled)
			default:
				task.poke(false)
			}
		}
	}()
}

// poke tells the run that its record changed: answers arrived, or, with
// cancel, the client cancelled it.
func (task *runningTask) poke(cancel bool) {
	if cancel {
		task.stop(errTaskCancelled)
		return
	}
	task.mu.Lock()
	defer task.mu.Unlock()
	close(task.changed)
	task.changed = make(chan struct{})
}

// wait returns a channel closed at the next poke.
func (task *runningTask) wait() <-chan struct{} {
	task.mu.Lock()
	defer task.mu.Unlock()
	return task.changed
}

// stop ends the handler's context, for cause, unless it ended already.
func (task *runningTask) stop(cause error) {
	task.mu.Lock()
	if task.ended || task.cause != nil {
		task.mu.Unlock()
		return
	}
	task.cause = cause
	task.mu.Unlock()
	task.tc.cancel()
}

// runningTasks are the tasks whose handlers run on this replica.
type runningTasks struct {
	mu        sync.Mutex
	byID      map[string]*runningTask
	perClient map[string]int // of byID, by client
}

// add counts t among the tasks running here, unless that passes a bound
// of o.
func (rt *runningTasks) add(t *runningTask, o *TaskOptions) error {
	all, perClient, _ := o.limits()
	rt.mu.Lock()
	defer rt.mu.Unlock()
	switch {
	case len(rt.byID) >= all:
		return fmt.Errorf("the server runs %d tasks, the most it may at once; retry once some have ended", len(rt.byID))
	case rt.perClient[t.client] >= perClient:
		return fmt.Errorf("this client has %d tasks running, the most one client may; retry once some have ended", rt.perClient[t.client])
	}
	if rt.byID == nil {
		rt.byID, rt.perClient = map[string]*runningTask{}, map[string]int{}
	}
	rt.byID[t.id] = t
	rt.perClient[t.client]++
	return nil
}

// remove stops counting t, whose handler is done.
func (rt *runningTasks) remove(t *runningTask) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.byID[t.id] != t {
		return
	}
	delete(rt.byID, t.id)
	if rt.perClient[t.client]--; rt.perClient[t.client] == 0 {
		delete(rt.perClient, t.client)
	}
}

// get returns the task id if its handler runs here.
func (rt *runningTasks) get(id string) *runningTask {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.byID[id]
}

// matching returns the tasks running here that match.
func (rt *runningTasks) matching(match func(*runningTask) bool) []*runningTask {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var out []*runningTask
	for _, t := range rt.byID {
		if match(t) {
			out = append(out, t)
		}
	}
	return out
}

// taskEvent delivers a task's event from another replica (see onBus): a
// cancellation or answers to the task's handler, if it runs here; a status
// to the subscriptions/listen requests that follow the task.
func (s *Server) taskEvent(m *busMessage) {
	switch m.Event {
	case "cancel", "input":
		if task := s.running.get(m.Task); task != nil {
			task.poke(m.Event == "cancel")
		}
	case "status":
		s.fanout.taskStatus(m.Task, m.Owner, m.Detail)
	}
}

// endTasksOf stops the tasks of owner that run here, when the session
// that alone could reach them ends.
func (s *Server) endTasksOf(owner string) {
	if owner == "" {
		return
	}
	for _, task := range s.running.matching(func(r *runningTask) bool { return r.owner == owner }) {
		task.stop(errTaskOwnerGone)
	}
}

// stopTasks stops every task running here, as a shutdown does, and waits
// until their outcomes are recorded, or timeout.
func (s *Server) stopTasks(timeout time.Duration) {
	runs := s.running.matching(func(*runningTask) bool { return true })
	for _, task := range runs {
		task.stop(errTaskShutdown)
	}
	expired := time.After(timeout)
	for _, task := range runs {
		select {
		case <-task.done:
		case <-expired:
			return
		}
	}
}
