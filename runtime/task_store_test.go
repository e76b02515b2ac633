package runtime_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// A listedStore is a Store whose keys a test can list, as anyone who can
// list a store Redis's keys can.
type listedStore struct {
	store.Store
	mu   sync.Mutex
	keys []string
}

func (l *listedStore) Put(ctx context.Context, key string, version uint64, value []byte, ttl time.Duration) (uint64, error) {
	l.mu.Lock()
	if !slices.Contains(l.keys, key) {
		l.keys = append(l.keys, key)
	}
	l.mu.Unlock()
	return l.Store.Put(ctx, key, version, value, ttl)
}

func (l *listedStore) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.keys)
}

// TestTaskKeyNames: a task is stored under a name derived from its id
// with the replicas' key, so that whoever lists the store's keys learns
// no task's id: for a client without a session or a token, the id is
// all it takes to read the task (before, the key was "task:<id>").
func TestTaskKeyNames(t *testing.T) {
	linepeer.CheckLeaks(t)
	shared := &listedStore{Store: store.NewMemory()}
	srv := &runtime.Server{Name: "keys", Store: shared, StateKey: []byte("the replicas' key")}
	f := newTaskFixture(t, srv)
	hs := httptest.NewServer(srv.HTTPHandler(nil))
	defer hs.Close()
	var created map[string]any
	mcptest.Result(t, postPerRequest(t, hs.URL, "tools/call", "slow", `"name":"slow","arguments":{}`), &created)
	id := created["taskId"].(string)
	<-f.started
	defer close(f.release)
	keys := shared.list()
	if len(keys) == 0 {
		t.Fatal("the task was stored under no key")
	}
	for _, key := range keys {
		if strings.Contains(key, id) {
			t.Errorf("store key %q holds the task's id %s", key, id)
		}
		_, name, _ := strings.Cut(key, ":")
		resp := postPerRequest(t, hs.URL, "tasks/get", name, fmt.Sprintf(`"taskId":%q`, name))
		if code, _ := mcptest.Error(t, resp); code != -32602 {
			t.Errorf("tasks/get of the key name %q: %s", name, resp)
		}
	}
	var got map[string]any
	mcptest.Result(t, postPerRequest(t, hs.URL, "tasks/get", id, fmt.Sprintf(`"taskId":%q`, id)), &got)
	if got["status"] != "working" {
		t.Errorf("tasks/get of the id: %v", got)
	}
}

// TestTaskClientShareAnswers: answers that tasks/update brings count in
// the client's share of the store, as results do: answers that would
// pass it are refused, saying so, and the task waits on for others.
func TestTaskClientShareAnswers(t *testing.T) {
	linepeer.CheckLeaks(t)
	f := newTaskFixture(t, &runtime.Server{Name: "answers", Tasks: runtime.TaskOptions{MaxKeptBytesPerClient: 32 << 10}})
	c := f.client(t, tasksCaps)
	id := c.call("confirm", "{}")["taskId"].(string)
	c.await(id, "input_required")
	huge := strings.Repeat("x", 40<<10)
	resp := c.request("tasks/update", fmt.Sprintf(`"taskId":%q,"inputResponses":{"elicitation-1":{"action":"accept","content":{"name":%q}}}`, id, huge))
	if code, _ := mcptest.Error(t, resp); code != -32603 || !strings.Contains(resp, "this client keeps 1 tasks") {
		t.Errorf("answers past the client's share: %.300s", resp)
	}
	if got := c.get(id); got["status"] != "input_required" {
		t.Errorf("after the refused answers: %v", got)
	}
	c.result("tasks/update", fmt.Sprintf(`"taskId":%q,"inputResponses":{"elicitation-1":{"action":"accept","content":{"name":"ann"}}}`, id))
	if done := c.await(id, "completed"); firstText(t, done["result"]) != `accept {"name":"ann"}` {
		t.Errorf("completed: %v", done)
	}
}
