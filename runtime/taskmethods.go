package runtime

import (
	"context"
	"errors"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// The methods of the tasks extension: tasks/get, tasks/update and
// tasks/cancel. Each is served by any replica, from the task's record;
// a task whose record belongs to another caller (see session.owner) is
// unknown to this one. A request whose client did not declare the
// extension is refused with the missing capability error (-32021), before
// anything else is looked at.

// taskRequest reads the taskId of a request of the tasks extension, after
// checking that the client declared the extension. When it returns !ok,
// resp answers the request.
func taskRequest(c *call) (id string, resp response, ok bool) {
	if !c.meta.Caps.HasExtension(wire.ExtTasks) {
		return "", missingCapability(&capabilityError{what: c.msg.Method, need: []byte(tasksCapabilityRequirement)}), false
	}
	id, bad := stringParam(c.msg.Params, "taskId", true)
	if bad != nil {
		return "", *bad, false
	}
	return id, response{}, true
}

// unknownTask answers a request about a task this caller has no task of
// that id.
func unknownTask(id string) response {
	return invalidParams("unknown task %q: there is no task of this client with that id (it may have expired)", id)
}

// taskFailure answers a request about the task id whose store operation
// failed with err.
func taskFailure(id string, err error) response {
	if errors.Is(err, errTaskNotFound) {
		return unknownTask(id)
	}
	return storeError("task "+id, err)
}

// changeTask applies change to the task id for the caller of c, after
// settling a task whose replica is gone (see taskrecord.Record.Settle). change
// may return taskrecord.ErrUnchanged; the record returned is the one written, or
// as read when nothing was.
func (ss *session) changeTask(c *call, id string, change func(r *taskrecord.Record) error) (*taskrecord.Record, bool, error) {
	ctx, cancel := context.WithTimeout(&c.ctx, storeTimeout)
	defer cancel()
	owner := ss.owner()
	var changed, settled bool
	r, err := ss.srv.modifyTask(ctx, id, func(r *taskrecord.Record) error {
		changed, settled = false, false
		if r.Owner != owner {
			return errTaskNotFound
		}
		settled = r.Settle(id, time.Now()) == nil
		if change != nil {
			switch err := change(r); {
			case errors.Is(err, taskrecord.ErrUnchanged):
			case err != nil:
				return err
			default:
				changed = true
			}
		}
		if !changed && !settled {
			return taskrecord.ErrUnchanged
		}
		return nil
	})
	if err == nil && (changed || settled) {
		ss.srv.taskChanged(ctx, id, r)
	}
	return r, changed, err
}

// getTask answers tasks/get: the task as it is now, with its questions,
// its result or its error.
func (ss *session) getTask(c *call) response {
	id, resp, ok := taskRequest(c)
	if !ok {
		return resp
	}
	r, _, err := ss.changeTask(c, id, nil)
	if err != nil {
		return taskFailure(id, err)
	}
	return rawResult(r.AppendDetailed(nil, id))
}

// updateTask answers tasks/update: the answers to questions the task
// waits for are kept for its handler, and the questions leave its
// inputRequests at once; the rest is ignored, as the extension asks.
func (ss *session) updateTask(c *call) response {
	id, resp, ok := taskRequest(c)
	if !ok {
		return resp
	}
	responses := c.msg.Params.Get("inputResponses")
	if responses.Kind() != jsonvalue.Object {
		return invalidParams(`"inputResponses" must be an object of answers by the keys of the task's inputRequests`)
	}
	answers := func(yield func(string, []byte) bool) {
		for key, answer := range responses.Members() {
			if !yield(key, answer.Raw()) {
				return
			}
		}
	}
	_, changed, err := ss.changeTask(c, id, func(r *taskrecord.Record) error {
		return r.Answer(answers, time.Now())
	})
	if err != nil {
		return taskFailure(id, err)
	}
	if changed {
		ss.srv.pokeTask(&c.ctx, id, "input")
	}
	return emptyResult
}

// cancelTask answers tasks/cancel: the handler's context is cancelled,
// on whichever replica runs it, and the task ends cancelled unless the
// handler finishes all the same. A task that has ended is left as it is:
// cancelling it again is no error.
func (ss *session) cancelTask(c *call) response {
	id, resp, ok := taskRequest(c)
	if !ok {
		return resp
	}
	_, changed, err := ss.changeTask(c, id, func(r *taskrecord.Record) error {
		return r.RequestCancel(time.Now())
	})
	if err != nil {
		return taskFailure(id, err)
	}
	if changed {
		ss.srv.pokeTask(&c.ctx, id, "cancel")
	}
	return emptyResult
}

// pokeTask tells the handler of the task id that its record changed
// (event "input"), or that it must stop ("cancel"): directly when it runs
// here, else through the bus.
func (s *Server) pokeTask(ctx context.Context, id, event string) {
	if task := s.running.get(id); task != nil {
		task.poke(event == "cancel")
		return
	}
	s.publish(ctx, busMessage{Kind: "task", Event: event, Task: id})
}
