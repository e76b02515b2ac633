package runtime

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime/internal/taskrecord"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// shareServer is a server on store (its own when nil) whose tool "result"
// runs as a task that returns a text of the size its argument n says,
// with tasks of ttl, bounded by opts, for the users of testTokens.
func shareServer(t *testing.T, shared store.Store, opts TaskOptions, ttl time.Duration) string {
	s := &Server{Name: "share", Store: shared, Tasks: opts, Logger: linepeer.DiscardLogger()}
	if shared != nil {
		s.StateKey = []byte("the replicas' key")
	}
	s.AddTool(&Tool{Name: "result", Task: TaskOptional, TaskTTL: ttl, InputSchema: `{"type":"object","properties":{"n":{"type":"integer"}}}`,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			var in struct{ N int }
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			return TextResult(strings.Repeat("x", in.N)), nil
		}})
	a := testAuthorization()
	a.Scopes = nil
	return serveHTTPTest(t, s, &HTTPOptions{Authorization: a})
}

// shareClient calls a shareServer as the holder of a token of testTokens.
type shareClient struct {
	t     *testing.T
	url   string
	token string
}

// post sends a request of the tasks extension, and returns its reply.
func (c shareClient) post(method, name, params string) string {
	c.t.Helper()
	body := mcptest.PerRequest(1, method, params, `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`)
	r := mcptest.Post(c.t, c.url, body, append(perRequestHeaders(method, "Mcp-Name", name), "Authorization", "Bearer "+c.token)...)
	return string(r.Body)
}

// start calls the tool for a result of n bytes, and returns the task's
// id, or "" and the error's message.
func (c shareClient) start(n int) (id, refused string) {
	c.t.Helper()
	resp := c.post("tools/call", "result", fmt.Sprintf(`"name":"result","arguments":{"n":%d}`, n))
	if strings.Contains(resp, `"error"`) {
		return "", resp
	}
	var m struct{ TaskID string }
	mcptest.Result(c.t, resp, &m)
	return m.TaskID, ""
}

// await polls the task until it ends, and returns its status and
// message.
func (c shareClient) await(id string) (status, message string) {
	c.t.Helper()
	for deadline := time.Now().Add(linepeer.HangGuard); ; time.Sleep(5 * time.Millisecond) {
		var m struct{ Status, StatusMessage string }
		mcptest.Result(c.t, c.post("tasks/get", id, fmt.Sprintf(`"taskId":%q`, id)), &m)
		if m.Status != taskrecord.Working || time.Now().After(deadline) {
			return m.Status, m.StatusMessage
		}
	}
}

// TestTaskClientShareCount: a client keeps at most MaxKeptPerClient
// tasks, ended ones included, until their records expire: at the bound
// its next task is refused, saying when room comes back, while another
// client's is not; once its tasks expire, it may start more. Before, a
// client could keep tasks until the store was full, for every client.
func TestTaskClientShareCount(t *testing.T) {
	linepeer.CheckLeaks(t)
	url := shareServer(t, nil, TaskOptions{MaxKeptPerClient: 3}, 300*time.Millisecond)
	ann, bob := shareClient{t, url, "reader"}, shareClient{t, url, "writer"}
	for i := range 3 {
		id, refused := ann.start(10)
		if refused != "" {
			t.Fatalf("task %d of 3: %s", i+1, refused)
		}
		if status, msg := ann.await(id); status != taskrecord.Completed {
			t.Fatalf("task %d: %s %s", i+1, status, msg)
		}
	}
	_, refused := ann.start(10)
	if !strings.Contains(refused, `"code":-32603`) || !strings.Contains(refused, "this client keeps 3 tasks") || !strings.Contains(refused, "make room then") {
		t.Errorf("a fourth task of one client: %s", refused)
	}
	if _, refused := bob.start(10); refused != "" {
		t.Errorf("another client's task: %s", refused)
	}
	for deadline := time.Now().Add(linepeer.HangGuard); ; time.Sleep(20 * time.Millisecond) {
		if _, refused := ann.start(10); refused == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no room once the client's tasks expired")
		}
	}
}

// TestTaskClientShareBytes: the records a client keeps count in bytes,
// results included, across replicas that share a store: the results that
// fit in MaxKeptBytesPerClient complete, the next fails saying it could
// not be kept (and nothing of it is kept), while the client may still
// start small tasks, and another client's result completes. Before, one
// client's results filled the store store by every replica and client.
func TestTaskClientShareBytes(t *testing.T) {
	linepeer.CheckLeaks(t)
	shared := store.NewMemory()
	opts := TaskOptions{MaxKeptBytesPerClient: 50 << 10}
	a := shareServer(t, shared, opts, time.Hour)
	b := shareServer(t, shared, opts, time.Hour)
	const size = 20 << 10 // two fit in 50 KiB, with the records' overhead; three do not
	for i, url := range []string{a, b} {
		ann := shareClient{t, url, "reader"}
		id, refused := ann.start(size)
		if refused != "" {
			t.Fatalf("result %d: %s", i+1, refused)
		}
		if status, msg := ann.await(id); status != taskrecord.Completed {
			t.Fatalf("result %d: %s %s", i+1, status, msg)
		}
	}
	ann := shareClient{t, a, "reader"}
	id, refused := ann.start(size)
	if refused != "" {
		t.Fatalf("a third task, before its result: %s", refused)
	}
	if status, msg := ann.await(id); status != taskrecord.Failed || !strings.Contains(msg, "could not be kept: this client keeps as much as it may") {
		t.Errorf("a result past the client's share: %s %q", status, msg)
	}
	held := shared.Bytes()
	if held > 2*size+20<<10 {
		t.Errorf("the store holds %d bytes, more than the two results kept", held)
	}
	if id, refused := ann.start(10); refused != "" {
		t.Errorf("a small task of the same client: %s", refused)
	} else if status, msg := ann.await(id); status != taskrecord.Completed {
		t.Errorf("a small task of the same client: %s %s", status, msg)
	}
	bob := shareClient{t, b, "writer"}
	if id, refused := bob.start(size); refused != "" {
		t.Errorf("another client's task: %s", refused)
	} else if status, msg := bob.await(id); status != taskrecord.Completed {
		t.Errorf("another client's result: %s %s", status, msg)
	}
}

// TestTaskResultStoreFull: a result the store has no room for fails its
// task, saying so. Before, the replica retried writing it for a lease's
// time, and the task was then reported lost, its outcome unknown.
func TestTaskResultStoreFull(t *testing.T) {
	linepeer.CheckLeaks(t)
	url := shareServer(t, &store.Memory{MaxBytes: 16 << 10}, TaskOptions{Lease: 200 * time.Millisecond}, time.Hour)
	ann := shareClient{t, url, "reader"}
	id, refused := ann.start(20 << 10)
	if refused != "" {
		t.Fatal(refused)
	}
	if status, msg := ann.await(id); status != taskrecord.Failed || !strings.Contains(msg, "could not be kept: the task store is full") {
		t.Errorf("a result larger than the store: %s %q", status, msg)
	}
}
