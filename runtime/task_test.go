package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

// tasksCaps are the capabilities of a client of the tasks extension that
// can fill forms.
const tasksCaps = `{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// A taskFixture is a server whose tools run as tasks, and what their
// handlers saw.
type taskFixture struct {
	srv *runtime.Server
	// release lets the handlers of "slow" return, and ended receives how
	// each ended.
	release chan struct{}
	ended   chan error
	started chan struct{}
}

const nameForm = `{"type":"object","properties":{"name":{"type":"string"},"confirm":{"type":"boolean"}}}`

func newTaskFixture(t *testing.T, srv *runtime.Server) *taskFixture {
	t.Helper()
	if srv == nil {
		srv = &runtime.Server{Name: "tasks"}
	}
	f := &taskFixture{srv: srv, release: make(chan struct{}), ended: make(chan error, 16), started: make(chan struct{}, 16)}
	text := runtime.TextResult
	srv.AddTool(&runtime.Tool{Name: "greet", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return text("Hello!"), nil
	}})
	srv.AddTool(&runtime.Tool{Name: "slow", Task: runtime.TaskOptional, InputSchema: `{"type":"object","properties":{"n":{"type":"integer"}}}`, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		f.started <- struct{}{}
		select {
		case <-f.release:
			f.ended <- nil
			return text("done " + string(req.Arguments)), nil
		case <-ctx.Done():
			f.ended <- ctx.Err()
			return nil, ctx.Err()
		}
	}})
	srv.AddTool(&runtime.Tool{Name: "required", Task: runtime.TaskRequired, TaskTTL: time.Minute, TaskPollInterval: 250 * time.Millisecond,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return text("required done"), nil
		}})
	srv.AddTool(&runtime.Tool{Name: "failing", Task: runtime.TaskOptional, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return nil, errors.New("the job failed")
	}})
	srv.AddTool(&runtime.Tool{Name: "protocol", Task: runtime.TaskOptional, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return nil, &runtime.ProtocolError{Code: -32603, Message: "the backend is gone", Data: []byte(`{"retry":true}`)}
	}})
	srv.AddTool(&runtime.Tool{Name: "confirm", Task: runtime.TaskOptional, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		action, content, err := runtime.Elicit(ctx, "Really?", nameForm)
		if err != nil {
			return nil, err
		}
		return text(fmt.Sprintf("%s %s", action, content)), nil
	}})
	srv.AddTool(&runtime.Tool{Name: "multi", Task: runtime.TaskOptional, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		a := &runtime.ElicitQuestion{Message: "first", Schema: nameForm}
		b := &runtime.ElicitQuestion{Message: "second", Schema: nameForm}
		if err := runtime.Ask(ctx, a, b); err != nil {
			return nil, err
		}
		return text(string(a.Content) + " " + string(b.Content)), nil
	}})
	srv.AddTool(&runtime.Tool{Name: "deferred", Task: runtime.TaskRequired, DeferTask: true, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		q := &runtime.ElicitQuestion{Key: "user_name", Message: "Who?", Schema: nameForm}
		if err := runtime.Ask(ctx, q); err != nil {
			return nil, err
		}
		if err := runtime.BeginTask(ctx); err != nil {
			return nil, err
		}
		return text("Hello, " + string(q.Content)), nil
	}})
	return f
}

// taskClient is a client of revision 2026-07-28 on a Conn.
type taskClient struct {
	t    *testing.T
	conn *runtime.Conn
	caps string
	id   int
}

func (f *taskFixture) client(t *testing.T, caps string) *taskClient {
	conn := f.srv.NewConn(nil)
	t.Cleanup(conn.Close)
	return &taskClient{t: t, conn: conn, caps: caps}
}

// request sends method with params (members without braces) and returns
// the raw response.
func (c *taskClient) request(method, params string) string {
	c.id++
	return string(c.conn.Handle(context.Background(), []byte(mcptest.PerRequest(c.id, method, params, c.caps))))
}

// result sends a request and decodes its result into a map.
func (c *taskClient) result(method, params string) map[string]any {
	c.t.Helper()
	var m map[string]any
	mcptest.Result(c.t, c.request(method, params), &m)
	return m
}

func (c *taskClient) call(tool, args string) map[string]any {
	c.t.Helper()
	return c.result("tools/call", fmt.Sprintf(`"name":%q,"arguments":%s`, tool, args))
}

func (c *taskClient) get(id string) map[string]any {
	c.t.Helper()
	return c.result("tasks/get", fmt.Sprintf(`"taskId":%q`, id))
}

// await polls the task until its status is one of want.
func (c *taskClient) await(id string, want ...string) map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m := c.get(id)
		if slices.Contains(want, m["status"].(string)) {
			return m
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("task %s is %v, want %v", id, m["status"], want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func firstText(t *testing.T, result any) string {
	t.Helper()
	m, _ := result.(map[string]any)
	content, _ := m["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("no content in %v", result)
	}
	return content[0].(map[string]any)["text"].(string)
}

// TestTaskLifecycle: a task tool answers a client of the extension with a
// flat CreateTaskResult; tasks/get reports it working, then completed with
// the result inlined; nothing of a request's state leaks into either.
func TestTaskLifecycle(t *testing.T) {
	f := newTaskFixture(t, nil)
	c := f.client(t, tasksCaps)
	created := c.call("slow", `{"n":1}`)
	id, _ := created["taskId"].(string)
	for _, key := range []string{"task", "result", "error", "inputRequests", "requestState", "ttl", "pollInterval"} {
		if _, ok := created[key]; ok {
			t.Errorf("CreateTaskResult has %q: %v", key, created)
		}
	}
	if created["resultType"] != "task" || len(id) < 26 || created["status"] != "working" || created["ttlMs"] != float64(3600000) ||
		created["pollIntervalMs"] != float64(1000) || !strings.HasSuffix(created["createdAt"].(string), "Z") || created["lastUpdatedAt"] == nil {
		t.Fatalf("created %v", created)
	}
	<-f.started
	if got := c.get(id); got["status"] != "working" || got["resultType"] != "complete" || got["taskId"] != id {
		t.Errorf("while working: %v", got)
	}
	close(f.release)
	done := c.await(id, "completed")
	if firstText(t, done["result"]) != `done {"n":1}` {
		t.Errorf("completed: %v", done)
	}
	if _, ok := done["requestState"]; ok {
		t.Error("tasks/get carries requestState")
	}
	if err := <-f.ended; err != nil {
		t.Errorf("the handler ended with %v", err)
	}
	// The same tool without the extension: a plain call.
	plain := f.client(t, "{}").call("slow", `{"n":2}`)
	if plain["resultType"] != "complete" || firstText(t, plain) != `done {"n":2}` {
		t.Errorf("without the extension: %v", plain)
	}
	if sync := c.call("greet", "{}"); sync["resultType"] != "complete" || sync["taskId"] != nil {
		t.Errorf("a tool that is no task tool: %v", sync)
	}
}

// TestTaskErrors: a handler's error completes the task with isError; a
// ProtocolError fails it with that JSON-RPC error, as a plain call would
// answer with it.
func TestTaskErrors(t *testing.T) {
	f := newTaskFixture(t, nil)
	c := f.client(t, tasksCaps)
	failing := c.await(c.call("failing", "{}")["taskId"].(string), "completed", "failed", "cancelled")
	if failing["status"] != "completed" || failing["result"].(map[string]any)["isError"] != true || firstText(t, failing["result"]) != "the job failed" {
		t.Errorf("a tool error: %v", failing)
	}
	proto := c.await(c.call("protocol", "{}")["taskId"].(string), "completed", "failed", "cancelled")
	e, _ := proto["error"].(map[string]any)
	if proto["status"] != "failed" || proto["result"] != nil || e["code"] != float64(-32603) || e["message"] != "the backend is gone" ||
		e["data"].(map[string]any)["retry"] != true || proto["statusMessage"] != "the backend is gone" {
		t.Errorf("a protocol error: %v", proto)
	}
	resp := f.client(t, "{}").request("tools/call", `"name":"protocol"`)
	if code, data := mcptest.Error(t, resp); code != -32603 || data != `{"retry":true}` {
		t.Errorf("a plain call's protocol error: %s", resp)
	}
}

// TestTaskCapability: the task methods need the extension, declared in
// the request (-32021 first, whatever else is wrong); a required task
// tool refuses a client of 2026-07-28 without it; tasks/result and
// tasks/list do not exist; an unknown task is -32602.
func TestTaskCapability(t *testing.T) {
	f := newTaskFixture(t, nil)
	without := f.client(t, "{}")
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		resp := without.request(m, `"taskId":"gate-test","inputResponses":{}`)
		if code, data := mcptest.Error(t, resp); code != -32021 || data != `{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}` {
			t.Errorf("%s without the extension: %s", m, resp)
		}
	}
	resp := without.request("tools/call", `"name":"required"`)
	if code, data := mcptest.Error(t, resp); code != -32021 || !strings.Contains(data, "io.modelcontextprotocol/tasks") {
		t.Errorf("a required task tool without the extension: %s", resp)
	}
	with := f.client(t, tasksCaps)
	for _, m := range []string{"tasks/result", "tasks/list"} {
		if code, _ := mcptest.Error(t, with.request(m, `"taskId":"x"`)); code != -32601 {
			t.Errorf("%s: %d", m, code)
		}
	}
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		resp := with.request(m, `"taskId":"tasks-conformance-nonexistent-12345","inputResponses":{}`)
		if code, _ := mcptest.Error(t, resp); code != -32602 || !strings.Contains(resp, "unknown task") {
			t.Errorf("%s of an unknown task: %s", m, resp)
		}
	}
	if code, _ := mcptest.Error(t, with.request("tasks/get", `"taskId":7`)); code != -32602 {
		t.Errorf("a taskId that is not a string: %d", code)
	}
	required := with.call("required", "{}")
	if required["ttlMs"] != float64(60000) || required["pollIntervalMs"] != float64(250) {
		t.Errorf("the tool's own TTL and poll interval: %v", required)
	}
	discover := with.result("server/discover", "")
	caps, _ := discover["capabilities"].(map[string]any)
	if ext, _ := caps["extensions"].(map[string]any); ext["io.modelcontextprotocol/tasks"] == nil || caps["tasks"] != nil {
		t.Errorf("server/discover: %v", caps)
	}
	// A session revision's client sees no extension, and gets the result
	// of a required task tool as a plain call.
	conn := f.srv.NewConn(nil)
	defer conn.Close()
	init := string(conn.Handle(context.Background(), []byte(mcptest.Initialize(1, "2025-11-25"))))
	if strings.Contains(init, "extensions") {
		t.Errorf("initialize advertises the extension: %s", init)
	}
	if got := string(conn.Handle(context.Background(), []byte(mcptest.Call(2, "required", "")))); !strings.Contains(got, "required done") {
		t.Errorf("a session revision's call of a required task tool: %s", got)
	}
}

// TestTaskInput: Elicit inside a task makes it input_required with the
// question in inputRequests; tasks/update answers it, and the handler,
// unchanged, goes on. Two questions may be answered one at a time: the
// answered one leaves inputRequests at once.
func TestTaskInput(t *testing.T) {
	f := newTaskFixture(t, nil)
	c := f.client(t, tasksCaps)
	id := c.call("confirm", "{}")["taskId"].(string)
	waiting := c.await(id, "input_required")
	reqs := waiting["inputRequests"].(map[string]any)
	if len(reqs) != 1 || reqs["elicitation-1"].(map[string]any)["method"] != "elicitation/create" {
		t.Fatalf("input_required: %v", waiting)
	}
	ack := c.result("tasks/update", fmt.Sprintf(`"taskId":%q,"inputResponses":{"nope":{},"elicitation-1":{"action":"accept","content":{"confirm":true}}}`, id))
	if len(ack) != 1 || ack["resultType"] != "complete" {
		t.Errorf("tasks/update ack: %v", ack)
	}
	if done := c.await(id, "completed"); firstText(t, done["result"]) != `accept {"confirm":true}` {
		t.Errorf("completed: %v", done)
	}

	id = c.call("multi", "{}")["taskId"].(string)
	reqs = c.await(id, "input_required")["inputRequests"].(map[string]any)
	if len(reqs) != 2 {
		t.Fatalf("two questions: %v", reqs)
	}
	c.result("tasks/update", fmt.Sprintf(`"taskId":%q,"inputResponses":{"elicitation-1":{"action":"accept","content":{"name":"a"}}}`, id))
	after := c.get(id)
	if reqs := after["inputRequests"].(map[string]any); after["status"] != "input_required" || len(reqs) != 1 || reqs["elicitation-2"] == nil {
		t.Fatalf("after a partial answer: %v", after)
	}
	c.result("tasks/update", fmt.Sprintf(`"taskId":%q,"inputResponses":{"elicitation-2":{"action":"accept","content":{"name":"b"}}}`, id))
	if done := c.await(id, "completed"); firstText(t, done["result"]) != `{"name":"a"} {"name":"b"}` {
		t.Errorf("completed: %v", done)
	}
	// An update of a task that waits for nothing, and of one that ended,
	// is acknowledged and changes nothing.
	if ack := c.result("tasks/update", fmt.Sprintf(`"taskId":%q,"inputResponses":{"elicitation-2":{"action":"decline"}}`, id)); ack["resultType"] != "complete" {
		t.Errorf("an update of an ended task: %v", ack)
	}
	if code, _ := mcptest.Error(t, c.request("tasks/update", fmt.Sprintf(`"taskId":%q,"inputResponses":[]`, id))); code != -32602 {
		t.Errorf("inputResponses that are no object: %d", code)
	}
}

// TestTaskCancel: tasks/cancel ends the handler's context, and the task
// settles cancelled; cancelling it again, or a task that completed, is
// acknowledged all the same.
func TestTaskCancel(t *testing.T) {
	f := newTaskFixture(t, nil)
	c := f.client(t, tasksCaps)
	id := c.call("slow", "{}")["taskId"].(string)
	<-f.started
	ack := c.result("tasks/cancel", fmt.Sprintf(`"taskId":%q`, id))
	if len(ack) != 1 || ack["resultType"] != "complete" {
		t.Errorf("cancel ack: %v", ack)
	}
	if err := <-f.ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the handler's ctx: %v", err)
	}
	if got := c.await(id, "cancelled", "completed", "failed"); got["status"] != "cancelled" || got["result"] != nil {
		t.Errorf("after cancel: %v", got)
	}
	if ack := c.result("tasks/cancel", fmt.Sprintf(`"taskId":%q`, id)); ack["resultType"] != "complete" {
		t.Errorf("cancel of a cancelled task: %v", ack)
	}
	// A task waiting for input is cancelled too.
	id = c.call("confirm", "{}")["taskId"].(string)
	c.await(id, "input_required")
	c.result("tasks/cancel", fmt.Sprintf(`"taskId":%q`, id))
	if got := c.await(id, "cancelled", "completed", "failed"); got["status"] != "cancelled" || got["inputRequests"] != nil {
		t.Errorf("a cancelled question: %v", got)
	}
}

// TestTaskDeferred: a tool with DeferTask asks its first question as an
// input_required result of the tools/call itself, and becomes a task when
// its handler calls BeginTask; the task's result has the first answer.
func TestTaskDeferred(t *testing.T) {
	f := newTaskFixture(t, nil)
	c := f.client(t, tasksCaps)
	r1 := c.call("deferred", "{}")
	reqs, _ := r1["inputRequests"].(map[string]any)
	if r1["resultType"] != "input_required" || reqs["user_name"] == nil || r1["taskId"] != nil || r1["requestState"] == nil {
		t.Fatalf("round 1: %v", r1)
	}
	r2 := c.result("tools/call", fmt.Sprintf(`"name":"deferred","arguments":{},"requestState":%q,"inputResponses":{"user_name":{"action":"accept","content":{"name":"Alice"}}}`, r1["requestState"]))
	if r2["resultType"] != "task" || r2["requestState"] != nil || r2["inputRequests"] != nil {
		t.Fatalf("round 2: %v", r2)
	}
	if done := c.await(r2["taskId"].(string), "completed"); firstText(t, done["result"]) != `Hello, {"name":"Alice"}` {
		t.Errorf("completed: %v", done)
	}
}

// TestTaskOwner: a task belongs to the connection that created it: to
// another, its id is unknown, even to cancel.
func TestTaskOwner(t *testing.T) {
	f := newTaskFixture(t, nil)
	mine, other := f.client(t, tasksCaps), f.client(t, tasksCaps)
	id := mine.call("slow", "{}")["taskId"].(string)
	<-f.started
	for _, m := range []string{"tasks/get", "tasks/cancel", "tasks/update"} {
		if code, _ := mcptest.Error(t, other.request(m, fmt.Sprintf(`"taskId":%q,"inputResponses":{}`, id))); code != -32602 {
			t.Errorf("%s of another client's task: %d", m, code)
		}
	}
	if got := mine.get(id); got["status"] != "working" {
		t.Errorf("after the other client tried: %v", got)
	}
	close(f.release)
	mine.await(id, "completed")
}

// TestTaskBounds: the tasks one client runs at once are bounded: at the
// bound a new task is refused with an error that says so, and once one
// ends there is room again. A result larger than a task may keep fails
// it, saying so.
func TestTaskBounds(t *testing.T) {
	srv := &runtime.Server{Name: "bounded", Tasks: runtime.TaskOptions{MaxRunningPerClient: 2, MaxResultSize: 64}}
	f := newTaskFixture(t, srv)
	srv.AddTool(&runtime.Tool{Name: "big", Task: runtime.TaskOptional, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return runtime.TextResult(strings.Repeat("x", 64)), nil
	}})
	c := f.client(t, tasksCaps)
	a := c.call("slow", "{}")["taskId"].(string)
	b := c.call("slow", "{}")["taskId"].(string)
	<-f.started
	<-f.started
	resp := c.request("tools/call", `"name":"slow","arguments":{}`)
	if code, _ := mcptest.Error(t, resp); code != -32603 || !strings.Contains(resp, "this client has 2 tasks running, the most one client may") {
		t.Errorf("past the bound: %s", resp)
	}
	f.release <- struct{}{} // one of the two ends
	<-f.ended
	big := c.call("big", "{}")
	if big["resultType"] != "task" {
		t.Fatalf("once a task ended there is room for one more: %v", big)
	}
	got := c.await(big["taskId"].(string), "failed", "completed")
	if got["status"] != "failed" || !strings.Contains(got["statusMessage"].(string), "more than the 64 a task may keep") {
		t.Errorf("a result too large: %v", got)
	}
	close(f.release)
	c.await(a, "completed")
	c.await(b, "completed")

	// The bound of the whole server, whatever the client.
	one := &runtime.Server{Name: "one", Tasks: runtime.TaskOptions{MaxRunning: 1}}
	g := newTaskFixture(t, one)
	first := g.client(t, tasksCaps)
	id := first.call("slow", "{}")["taskId"].(string)
	resp = g.client(t, tasksCaps).request("tools/call", `"name":"slow","arguments":{}`)
	if code, _ := mcptest.Error(t, resp); code != -32603 || !strings.Contains(resp, "the server runs 1 tasks, the most it may at once") {
		t.Errorf("past the server's bound: %s", resp)
	}
	close(g.release)
	first.await(id, "completed")
}
