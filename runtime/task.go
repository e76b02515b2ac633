package runtime

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// Tasks (the extension io.modelcontextprotocol/tasks, SEP-2663): a tool
// whose calls take long (Tool.Task) answers a client that declares the
// extension in its request with a task instead of the result: the task
// is recorded in the server's Store, its handler runs on in a goroutine
// of the replica that created it, and the client polls it with tasks/get
// (from any replica), answers its questions with tasks/update, and may
// end it with tasks/cancel. The handler is the tool's ordinary handler:
// its ctx ends when the task is cancelled or its TTL passes, and the
// questions it asks (Ask, Elicit, …) wait in the task's record, as its
// inputRequests, for the client's answers.

// TaskSupport says whether a tool's calls run as tasks.
type TaskSupport uint8

const (
	// TaskForbidden: every call is answered with its result (the
	// default).
	TaskForbidden TaskSupport = iota
	// TaskOptional: a call from a client that declares the tasks
	// extension in its request becomes a task; any other is answered
	// with its result, as usual.
	TaskOptional
	// TaskRequired: as TaskOptional, but a client of revision 2026-07-28
	// that does not declare the extension is refused with the missing
	// capability error (-32021). Clients of earlier revisions, which
	// cannot declare it, get the result of a plain call.
	TaskRequired
)

func (t TaskSupport) String() string {
	switch t {
	case TaskOptional:
		return "optional"
	case TaskRequired:
		return "required"
	}
	return "forbidden"
}

// TaskOptions bound and time a Server's tasks (see Tool.Task). A zero
// field means its default.
type TaskOptions struct {
	// TTL is how long a task lives, from its creation, for a tool that
	// sets no Tool.TaskTTL: its handler must finish within it (its ctx
	// ends then, and the task fails, saying so), and its record, with the
	// result, is kept until it passes, and a grace period more (as long
	// again, a minute at most), so that a task that ended at the last
	// moment can still be read. Default 1 hour.
	TTL time.Duration
	// PollInterval is how often clients are told to poll a task, for a
	// tool that sets no Tool.TaskPollInterval. Default 1 second.
	PollInterval time.Duration
	// MaxRunning bounds the tasks whose handlers run at once on this
	// replica, and MaxRunningPerClient those of one client (an HTTP
	// client is its verified token's subject, or else its address).
	// Past either, a call that would start a task is refused with an
	// error that says so. Default 1024 and 64.
	MaxRunning          int
	MaxRunningPerClient int
	// MaxKeptPerClient bounds the tasks one client keeps in the Store,
	// running and ended, until their records expire (their TTL and grace
	// period after their creation), and MaxKeptBytesPerClient the bytes
	// of their records, results included; on every replica at once, so
	// that one client cannot fill a store that all share. Past either, a
	// call that would start a task is refused with an error that says
	// when room comes back, a result that would pass them fails its task
	// saying so, and answers or questions that would are refused. Default
	// 1024 tasks and 16 MiB.
	MaxKeptPerClient      int
	MaxKeptBytesPerClient int
	// MaxResultSize bounds the encoded result a task keeps; a larger one
	// fails the task, saying so. Default 4 MiB.
	MaxResultSize int
	// Lease is how long a replica holds a task whose handler it runs
	// without renewing its claim (it renews it every third of it): once a
	// claim lapses, the replica is taken for dead and the task fails, so
	// that a task whose replica stopped is never left working. Default
	// 15 seconds.
	Lease time.Duration
}

// Defaults of TaskOptions.
const (
	defaultTaskTTL             = time.Hour
	defaultTaskPollInterval    = time.Second
	defaultMaxTasks            = 1024
	defaultMaxTasksPerClient   = 64
	defaultMaxTaskResultSize   = 4 << 20
	defaultTaskLease           = 15 * time.Second
	minTaskLease               = 30 * time.Millisecond
	maxTaskAnswerPollInterval  = 2 * time.Second
	tasksCapabilityRequirement = `{"extensions":{"` + wire.ExtTasks + `":{}}}`
)

func (o *TaskOptions) ttl(t *Tool) time.Duration {
	switch {
	case t.TaskTTL > 0:
		return t.TaskTTL
	case o.TTL > 0:
		return o.TTL
	}
	return defaultTaskTTL
}

func (o *TaskOptions) pollInterval(t *Tool) time.Duration {
	switch {
	case t.TaskPollInterval > 0:
		return t.TaskPollInterval
	case o.PollInterval > 0:
		return o.PollInterval
	}
	return defaultTaskPollInterval
}

func (o *TaskOptions) limits() (all, perClient, resultSize int) {
	all, perClient, resultSize = defaultMaxTasks, defaultMaxTasksPerClient, defaultMaxTaskResultSize
	if o.MaxRunning > 0 {
		all = o.MaxRunning
	}
	if o.MaxRunningPerClient > 0 {
		perClient = o.MaxRunningPerClient
	}
	if o.MaxResultSize > 0 {
		resultSize = o.MaxResultSize
	}
	return all, min(all, perClient), resultSize
}

func (o *TaskOptions) lease() time.Duration {
	if o.Lease > 0 {
		return max(o.Lease, minTaskLease)
	}
	return defaultTaskLease
}

// hasTaskTools reports whether any tool of the server may run as a task,
// and the server so advertises the extension.
func (s *Server) hasTaskTools() bool {
	return slices.ContainsFunc(s.tools.All(), func(t *Tool) bool { return t.Task != TaskForbidden })
}

// Why a task's handler was stopped before it returned; see runningTask.stop.
var (
	errTaskCancelled  = errors.New("the client cancelled the task")
	errTaskShutdown   = errors.New("the server shut down before the task finished; call the tool again")
	errTaskOwnerGone  = errors.New("the client's session ended, and with it the tasks only it could reach")
	errTaskRecordGone = errors.New("the task's record is gone from the store (it expired, or the store lost it)")
)

// A runningTask is a task whose handler runs on this replica (or is about
// to): the call its handler serves, and what it waits for.
type runningTask struct {
	srv    *Server
	id     string
	tool   *Tool
	owner  string // see session.owner
	client string // for MaxRunningPerClient
	tc     *call  // the call the handler serves; its ctx is the task's
	// deferred says that the task begins when the handler calls
	// BeginTask (Tool.DeferTask), not before the handler starts.
	deferred bool
	created  time.Time
	ttl      time.Duration
	poll     time.Duration

	// first receives what answers the tools/call request: the created
	// task, or, when the handler returns before the task begins (only
	// with deferred), its outcome.
	first chan taskFirst

	mu      sync.Mutex
	begun   bool  // the task exists: the request was answered with it
	ended   bool  // the handler returned
	aborted bool  // the request ended before the task began
	cause   error // why the handler's ctx ended early, if it did
	changed chan struct{}
	keys    map[string]bool // the question keys used so far
	seq     int             // questions asked, for generated keys
	done    chan struct{}   // closed when the handler has returned and the outcome is recorded
}

// taskFirst is what answers the tools/call of a task: created set, or
// the handler's outcome.
type taskFirst struct {
	created bool
	resp    response // an error that answers the request instead
	res     *ToolResult
	err     error
}

// callTask answers a tools/call of t, whose arguments are valid, from a
// client that declared the tasks extension: it starts a task, or, for a
// tool with DeferTask, runs the handler until it begins one.
func (ss *session) callTask(c *call, t *Tool, args jsonvalue.Value) response {
	task, resp, ok := ss.newRunningTask(c, t, args)
	if !ok {
		return resp
	}
	if !t.DeferTask {
		if resp, ok := task.begin(&c.ctx); !ok {
			return resp
		}
		go task.execute()
		return task.createdResponse()
	}
	var first taskFirst
	err, stop, resp := ss.runHandler(c, handlerRun{kind: "tool", target: t.Name, args: args}, func(ctx context.Context) error {
		task.tc.meta.round = c.meta.round
		go task.execute()
		select {
		case first = <-task.first:
		case <-ctx.Done():
			if !task.abort() {
				first = <-task.first // the task began meanwhile
				break
			}
			return fmt.Errorf("tool %s: %w", t.Name, context.Cause(ctx))
		}
		if first.created || first.resp.err != nil {
			return nil
		}
		return first.err
	})
	switch {
	case stop:
		return resp
	case first.created:
		return task.createdResponse()
	case first.resp.err != nil:
		return first.resp
	}
	return ss.toolOutcome(c, t, first.res, err)
}

// newRunningTask readies a task of t for the request c, without starting it:
// the call its handler will serve holds its own copies of what it needs
// of the request, and a context that outlives it.
func (ss *session) newRunningTask(c *call, t *Tool, args jsonvalue.Value) (*runningTask, response, bool) {
	srv := ss.srv
	argsCopy, err := jsonvalue.Parse(slices.Clone(args.Raw()))
	if err != nil {
		return nil, errorResponse(jsonrpc.InternalError, "copying the arguments: %v", err), false
	}
	task := &runningTask{
		srv:      srv,
		id:       rand.Text(),
		tool:     t,
		owner:    ss.owner(),
		client:   ss.caller.share(),
		deferred: t.DeferTask,
		ttl:      srv.Tasks.ttl(t),
		poll:     srv.Tasks.pollInterval(t),
		first:    make(chan taskFirst, 1),
		changed:  make(chan struct{}),
		done:     make(chan struct{}),
	}
	meta := &requestMeta{RequestMeta: c.meta.RequestMeta, task: task}
	meta.CapsRaw = slices.Clone(meta.CapsRaw)
	meta.level.Store(c.meta.level.Load())
	tc := &call{
		ss:        &session{srv: srv, caller: ss.caller, tokens: ss.tokens, transport: ss.transport, id: ss.id},
		method:    c.method,
		tool:      t,
		tokenInfo: c.tokenInfo,
		meta:      meta,
		target:    t.Name,
	}
	tc.req = ToolRequest{Name: t.Name, Arguments: argsCopy.Raw()}
	if c.req.Meta != nil {
		tc.req.Meta = slices.Clone(c.req.Meta)
	} else if mv := c.msg.Params.Get("_meta"); mv.Kind() == jsonvalue.Object {
		tc.req.Meta = slices.Clone(mv.Raw())
	}
	tc.args.Args, tc.args.Input = argsCopy, t.input
	// The handler's context keeps the values of the request's (a verified
	// token, what a middleware added) and none of its cancellation: the
	// task outlives the request.
	var parent context.Context = &c.ctx
	if c.handlerCtx != nil {
		parent = c.handlerCtx
	}
	tc.ctx.init(context.WithoutCancel(parent), tc, false)
	task.tc = tc
	return task, response{}, true
}

// begin creates the task: it takes a running slot, and records the task
// in the store, so that tasks/get finds it on any replica before the
// client learns its id. On failure it returns the response that answers
// the request instead.
func (task *runningTask) begin(ctx context.Context) (response, bool) {
	srv := task.srv
	if err := srv.running.add(task, &srv.Tasks); err != nil {
		return errorResponse(jsonrpc.InternalError, "%v", err), false
	}
	now := time.Now()
	task.created = now
	r := &taskrecord.Record{
		Owner:   task.owner,
		Client:  task.client,
		Tool:    task.tool.Name,
		Status:  taskrecord.Working,
		Created: now.UnixMilli(),
		Updated: now.UnixMilli(),
		TTL:     task.ttl.Milliseconds(),
		Poll:    task.poll.Milliseconds(),
		Lease:   now.Add(srv.Tasks.lease()).UnixMilli(),
	}
	srv.joinBusLater() // the bus saves the task's handler polling its record
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if _, err := srv.putTask(sctx, task.id, 0, r); err != nil {
		srv.running.remove(task)
		var full *clientFullError
		if errors.As(err, &full) { // the client's doing: its answer says so
			return storeError("recording the task", err), false
		}
		if r.Charged > 0 {
			srv.unchargeTask(sctx, task.client, r.Charged, r.Expires())
		}
		srv.logger().Warn("a task could not be recorded", "tool", task.tool.Name, "err", err)
		return storeError("recording the task", err), false
	}
	task.mu.Lock()
	task.begun = true
	task.mu.Unlock()
	return response{}, true
}

// storeError is the answer to a request whose store operation failed.
func storeError(doing string, err error) response {
	var full *clientFullError
	if errors.As(err, &full) {
		return errorResponse(jsonrpc.InternalError, "%s: %v", doing, full)
	}
	if errors.Is(err, store.ErrFull) {
		return errorResponse(jsonrpc.InternalError, "%s: the server keeps as many tasks as it may; retry once some have ended", doing)
	}
	return errorResponse(jsonrpc.InternalError, "%s: the task store cannot be reached (%v); retry later", doing, err)
}

// createdResponse is the CreateTaskResult of the task, as begin recorded
// it.
func (task *runningTask) createdResponse() response {
	ms := task.created.UnixMilli()
	r := &taskrecord.Record{Status: taskrecord.Working, Created: ms, Updated: ms, TTL: task.ttl.Milliseconds(), Poll: task.poll.Milliseconds()}
	return response{members: r.AppendTask(nil, task.id), kind: resultTask}
}

// BeginTask turns the call that ctx serves into a task, for a tool with
// Tool.DeferTask set: the client gets the task at once, and the handler
// runs on, asking whatever it asks from now on through the task. Before
// it, the call is an ordinary one, and so are its questions: under
// revision 2026-07-28 they make input_required results of the tools/call
// itself, so that a tool can ask for a confirmation before the work that
// takes long. For any other call (a tool without DeferTask, a client
// that did not declare the tasks extension) it does nothing.
//
// It fails when the task cannot be created (the store cannot be reached,
// the server runs as many tasks as it may): the client then gets that
// error, and the handler should return.
func BeginTask(ctx context.Context) error {
	c := callOf(ctx)
	if c == nil || c.meta == nil || c.meta.task == nil || !c.meta.task.deferred {
		return nil
	}
	task := c.meta.task
	task.mu.Lock()
	begun, aborted := task.begun, task.aborted
	task.mu.Unlock()
	switch {
	case begun:
		return nil
	case aborted:
		return fmt.Errorf("runtime: beginning the task: %w", context.Canceled)
	}
	if r := c.meta.round; r != nil {
		r.mu.Lock()
		open := len(r.open)
		r.mu.Unlock()
		if open > 0 {
			return fmt.Errorf("runtime: beginning the task: %w", ErrInputRequired)
		}
	}
	resp, ok := task.begin(ctx)
	if !ok {
		task.sendFirst(taskFirst{resp: resp})
		return fmt.Errorf("runtime: beginning the task: %s", resp.err.message)
	}
	task.startLease()
	task.sendFirst(taskFirst{created: true})
	return nil
}

// sendFirst sends what answers the tools/call, once.
func (task *runningTask) sendFirst(f taskFirst) {
	select {
	case task.first <- f:
	default:
	}
}

// abort ends, before it begins, a deferred task whose request ended; it
// reports false when the task began first, and runs on.
func (task *runningTask) abort() bool {
	task.mu.Lock()
	defer task.mu.Unlock()
	if task.begun {
		return false
	}
	task.aborted = true
	task.tc.cancel()
	return true
}

// isBegun reports whether the task exists: its handler's questions then
// go through it.
func (task *runningTask) isBegun() bool {
	task.mu.Lock()
	defer task.mu.Unlock()
	return task.begun
}
