package storetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// RunReplicas checks what replicas of one server sharing store do
// together, each behind Streamable HTTP without sessions, as behind a load
// balancer: a task created on one is polled, answered and cancelled on
// the other, whose requests reach the handler where it runs; a list
// change made on one reaches the subscriptions/listen streams of both,
// once each; a task's status reaches a listener on the other replica.
func RunReplicas(t *testing.T, shared store.Store) {
	key := []byte("storetest replicas share this key")
	a, b := newReplica(t, shared, key), newReplica(t, shared, key)
	t.Run("TaskCancelledElsewhere", func(t *testing.T) {
		id := a.call(t, "wait")
		<-a.started
		if got := b.get(t, id); got["status"] != "working" {
			t.Fatalf("the other replica sees %v", got)
		}
		b.post(t, wire.MethodTasksCancel, fmt.Sprintf(`"taskId":%q`, id))
		select {
		case err := <-a.ended:
			if err == nil {
				t.Error("the handler was not cancelled")
			}
		case <-time.After(30 * time.Second):
			t.Fatal("tasks/cancel on the other replica did not reach the handler")
		}
		if got := b.await(t, id); got["status"] != "cancelled" {
			t.Errorf("after cancel: %v", got)
		}
	})
	t.Run("TaskAnsweredElsewhere", func(t *testing.T) {
		id := a.call(t, "ask")
		got := b.awaitStatus(t, id, "input_required")
		var key string
		for k := range got["inputRequests"].(map[string]any) {
			key = k
		}
		b.post(t, wire.MethodTasksUpdate, fmt.Sprintf(`"taskId":%q,"inputResponses":{%q:{"action":"accept","content":{"name":"Ada"}}}`, id, key))
		done := b.await(t, id)
		if done["status"] != "completed" || !strings.Contains(fmt.Sprint(done["result"]), "Hello, Ada") {
			t.Errorf("after the answer: %v", done)
		}
	})
	t.Run("ListChangedEverywhere", func(t *testing.T) {
		la := a.listen(t, `"resourcesListChanged":true`)
		lb := b.listen(t, `"resourcesListChanged":true`)
		a.srv.ResourceListChanged()
		for _, l := range []*listenStream{la, lb} {
			if m := l.next(t); m != wire.NotifyResourcesChanged {
				t.Errorf("%s got %s", l.name, m)
			}
		}
		// Once each: the replica that made the change does not hear it
		// again from the bus. A later change is the next thing both get.
		b.srv.ResourceListChanged()
		for _, l := range []*listenStream{la, lb} {
			if m := l.next(t); m != wire.NotifyResourcesChanged {
				t.Errorf("%s got %s", l.name, m)
			}
			l.expectNothing(t)
		}
	})
	t.Run("TaskStatusElsewhere", func(t *testing.T) {
		id := a.call(t, "wait")
		<-a.started
		l := b.listen(t, fmt.Sprintf(`"taskIds":[%q,"unknown-task"]`, id))
		if !strings.Contains(l.ack, id) || strings.Contains(l.ack, "unknown-task") {
			t.Errorf("the acknowledgement: %s", l.ack)
		}
		a.release <- struct{}{}
		<-a.ended
		if m := l.next(t); m != wire.NotifyTasks || !strings.Contains(l.last, `"status":"completed"`) {
			t.Errorf("a listener on the other replica got %s %s", m, l.last)
		}
	})
}

// A replica is one server of RunReplicas behind an HTTP test server.
type replica struct {
	srv     *runtime.Server
	url     string
	started chan struct{}
	release chan struct{}
	ended   chan error
}

func newReplica(t *testing.T, shared store.Store, key []byte) *replica {
	r := &replica{started: make(chan struct{}, 8), release: make(chan struct{}), ended: make(chan error, 8)}
	r.srv = &runtime.Server{Name: "replica", ListResources: func(ctx context.Context, cursor string) ([]*runtime.Resource, string, error) {
		return nil, "", nil
	}}
	r.srv.AddTool(&runtime.Tool{Name: "wait", Task: runtime.TaskOptional, Handler: func(ctx context.Context, _ *runtime.ToolRequest) (*runtime.ToolResult, error) {
		r.started <- struct{}{}
		select {
		case <-r.release:
			r.ended <- nil
			return runtime.TextResult("released"), nil
		case <-ctx.Done():
			r.ended <- ctx.Err()
			return nil, ctx.Err()
		}
	}})
	r.srv.AddTool(&runtime.Tool{Name: "ask", Task: runtime.TaskOptional, Handler: func(ctx context.Context, _ *runtime.ToolRequest) (*runtime.ToolResult, error) {
		_, content, err := runtime.Elicit(ctx, "Name?", `{"type":"object","properties":{"name":{"type":"string"}}}`)
		if err != nil {
			return nil, err
		}
		var answer struct{ Name string }
		json.Unmarshal(content, &answer)
		return runtime.TextResult("Hello, " + answer.Name), nil
	}})
	// Set after the tools, as a program sets them on what the generated
	// NewServer returns. The lease is long, so that its renewal (every
	// third of it) never looks at the task within a test's wait: a
	// cancellation made on the other replica reaches the handler through
	// the bus or not at all.
	r.srv.Store, r.srv.StateKey = shared, key
	r.srv.Tasks.Lease = 10 * time.Minute
	hs := httptest.NewServer(r.srv.HTTPHandler(nil))
	t.Cleanup(hs.Close)
	r.url = hs.URL
	return r
}

// caps are the capabilities the replicas' client declares.
const caps = `{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// body is a request of revision 2026-07-28.
func body(method, params string) string {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	if params != "" {
		meta = params + "," + meta
	}
	return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + meta + `}}`
}

// send posts a request of revision 2026-07-28, with the headers that
// repeat its method and name.
func (r *replica) send(t *testing.T, ctx context.Context, method, name, params string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", r.url, strings.NewReader(body(method, params)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// post sends a request and returns its result, failing on an error.
func (r *replica) post(t *testing.T, method, params string) map[string]any {
	t.Helper()
	name := ""
	if i := strings.Index(params, `"taskId":"`); i >= 0 {
		name, _, _ = strings.Cut(params[i+len(`"taskId":"`):], `"`)
	}
	if i := strings.Index(params, `"name":"`); i >= 0 && method == wire.MethodToolsCall {
		name, _, _ = strings.Cut(params[i+len(`"name":"`):], `"`)
	}
	resp := r.send(t, context.Background(), method, name, params)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m struct {
		Result map[string]any
		Error  any
	}
	if err := json.Unmarshal(data, &m); err != nil || m.Result == nil {
		t.Fatalf("%s: status %d %s", method, resp.StatusCode, data)
	}
	return m.Result
}

func (r *replica) call(t *testing.T, tool string) string {
	t.Helper()
	res := r.post(t, wire.MethodToolsCall, fmt.Sprintf(`"name":%q,"arguments":{}`, tool))
	id, _ := res["taskId"].(string)
	if res["resultType"] != "task" || id == "" {
		t.Fatalf("tools/call %s: %v", tool, res)
	}
	return id
}

func (r *replica) get(t *testing.T, id string) map[string]any {
	t.Helper()
	return r.post(t, wire.MethodTasksGet, fmt.Sprintf(`"taskId":%q`, id))
}

// awaitStatus polls the task until its status is status, or it ended.
func (r *replica) awaitStatus(t *testing.T, id, status string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := r.get(t, id)
		switch got["status"] {
		case status, "completed", "failed", "cancelled":
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is still %v", id, got["status"])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// await polls the task until it ends.
func (r *replica) await(t *testing.T, id string) map[string]any {
	t.Helper()
	return r.awaitStatus(t, id, "completed")
}

// A listenStream is an open subscriptions/listen request.
type listenStream struct {
	name string
	ack  string // the acknowledgement's params
	last string // the last notification read
	msgs chan string
}

// listen opens subscriptions/listen with the notifications filter
// members, and reads its acknowledgement; the stream ends with the test.
func (r *replica) listen(t *testing.T, filter string) *listenStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	resp := r.send(t, ctx, wire.MethodListen, "", `"notifications":{`+filter+`}`)
	l := &listenStream{name: r.url, msgs: make(chan string, 64)}
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); resp.Body.Close(); wg.Wait() })
	wg.Go(func() {
		defer close(l.msgs)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok {
				l.msgs <- string(data)
			}
		}
	})
	if m := l.next(t); m != wire.NotifyAcknowledged {
		t.Fatalf("subscriptions/listen began with %s %s", m, l.last)
	}
	l.ack = l.last
	return l
}

// next returns the method of the next notification, which l.last holds
// whole.
func (l *listenStream) next(t *testing.T) string {
	t.Helper()
	select {
	case msg, ok := <-l.msgs:
		if !ok {
			t.Fatalf("the stream of %s ended", l.name)
		}
		l.last = msg
		var m struct{ Method string }
		json.Unmarshal([]byte(msg), &m)
		return m.Method
	case <-time.After(30 * time.Second):
		t.Fatalf("no notification on %s", l.name)
	}
	return ""
}

// expectNothing checks that nothing more arrives for a while.
func (l *listenStream) expectNothing(t *testing.T) {
	t.Helper()
	select {
	case msg := <-l.msgs:
		t.Errorf("%s got %s as well", l.name, msg)
	case <-time.After(200 * time.Millisecond):
	}
}
