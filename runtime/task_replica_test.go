package runtime_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// A partitionedStore is a Store that a test can cut off, as a network
// partition or a dead process would cut a replica off from the one its
// replicas share.
type partitionedStore struct {
	store.Store
	cut atomic.Bool
}

var errPartitioned = fmt.Errorf("connection refused (the test cut this replica off)")

func (p *partitionedStore) Get(ctx context.Context, key string) ([]byte, uint64, error) {
	if p.cut.Load() {
		return nil, 0, errPartitioned
	}
	return p.Store.Get(ctx, key)
}

func (p *partitionedStore) Put(ctx context.Context, key string, version uint64, value []byte, ttl time.Duration) (uint64, error) {
	if p.cut.Load() {
		return 0, errPartitioned
	}
	return p.Store.Put(ctx, key, version, value, ttl)
}

// postPerRequest posts a request of revision 2026-07-28 from a client of
// the tasks extension to url, and returns the response's body.
func postPerRequest(t *testing.T, url, method, name, params string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(mcptest.PerRequest(1, method, params, tasksCaps)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestTaskLostReplica: a task whose replica stops renewing its claim (it
// died, or lost the store) fails, on any replica, once the lease lapses,
// with an error that says what happened and what to do; it is never left
// working.
func TestTaskLostReplica(t *testing.T) {
	shared := store.NewMemory()
	cutA := &partitionedStore{Store: shared}
	key := []byte("lost replica key")
	opts := runtime.TaskOptions{Lease: 150 * time.Millisecond}
	a := &runtime.Server{Name: "a", Store: cutA, StateKey: key, Tasks: opts}
	b := &runtime.Server{Name: "b", Store: shared, StateKey: key, Tasks: opts}
	started := make(chan struct{}, 1)
	for _, s := range []*runtime.Server{a, b} {
		s.AddTool(&runtime.Tool{Name: "forever", Task: runtime.TaskOptional, Handler: func(ctx context.Context, _ *runtime.ToolRequest) (*runtime.ToolResult, error) {
			started <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}})
	}
	ha, hb := httptest.NewServer(a.HTTPHandler(nil)), httptest.NewServer(b.HTTPHandler(nil))
	defer ha.Close()
	defer hb.Close()
	var created map[string]any
	mcptest.Result(t, postPerRequest(t, ha.URL, "tools/call", "forever", `"name":"forever","arguments":{}`), &created)
	id := created["taskId"].(string)
	<-started
	cutA.cut.Store(true)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var got map[string]any
		mcptest.Result(t, postPerRequest(t, hb.URL, "tasks/get", id, fmt.Sprintf(`"taskId":%q`, id)), &got)
		if got["status"] == "failed" {
			e := got["error"].(map[string]any)
			if e["code"] != float64(-32603) || !strings.Contains(e["message"].(string), "the server process that ran it stopped") ||
				!strings.Contains(e["message"].(string), "call the tool again") {
				t.Errorf("the lost task: %v", got)
			}
			break
		}
		if got["status"] != "working" || time.Now().After(deadline) {
			t.Fatalf("a task whose replica is gone: %v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The replica that ran it cannot reach the store either: its request
	// fails at once, saying so.
	resp := postPerRequest(t, ha.URL, "tasks/get", id, fmt.Sprintf(`"taskId":%q`, id))
	if code, _ := mcptest.Error(t, resp); code != -32603 || !strings.Contains(resp, "the task store cannot be reached") {
		t.Errorf("a request to the cut-off replica: %s", resp)
	}
	cutA.cut.Store(false)
}

// TestTaskTTL: a handler still running when its task's TTL passes has its
// context cancelled, and the task fails, saying so.
func TestTaskTTL(t *testing.T) {
	srv := &runtime.Server{Name: "ttl"}
	srv.AddTool(&runtime.Tool{Name: "long", Task: runtime.TaskOptional, TaskTTL: 300 * time.Millisecond, Handler: func(ctx context.Context, _ *runtime.ToolRequest) (*runtime.ToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	f := &taskFixture{srv: srv}
	c := f.client(t, tasksCaps)
	id := c.call("long", "{}")["taskId"].(string)
	got := c.await(id, "failed", "completed", "cancelled")
	if got["status"] != "failed" || !strings.Contains(got["statusMessage"].(string), "did not finish within 300ms") {
		t.Errorf("past its TTL: %v", got)
	}
}

// TestSharedStoreNeedsKey: replicas that share a store must share a
// StateKey; a server that has a Store without a key refuses to start, on
// every transport, saying what to do (before, it started, and the first
// task call answered the model with the operator's error).
func TestSharedStoreNeedsKey(t *testing.T) {
	srv := &runtime.Server{Name: "keyless", Store: store.NewMemory(), Logger: slog.New(slog.DiscardHandler)}
	const want = "runtime: Server.Store is set, but Server.StateKey is empty: give every replica that shares the store the same StateKey"
	if err := srv.Check(); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Check: %v", err)
	}
	if err := srv.Serve(context.Background(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), io.Discard); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Serve: %v", err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel() // without the check, it returns at once all the same
	if err := srv.ListenAndServeHTTP(done, "127.0.0.1:0", nil); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ListenAndServeHTTP: %v", err)
	}
	for name, start := range map[string]func(){
		"HTTPHandler": func() { srv.HTTPHandler(nil) },
		"NewConn":     func() { srv.NewConn(nil) },
	} {
		func() {
			defer func() {
				if p, _ := recover().(string); !strings.HasPrefix(p, want) {
					t.Errorf("%s panicked with %q", name, p)
				}
			}()
			start()
		}()
	}
	srv.StateKey = []byte("the replicas' key")
	if err := srv.Check(); err != nil {
		t.Errorf("Check with a key: %v", err)
	}
}

// TestTaskShutdown: when ListenAndServeHTTP returns, the tasks it left
// running are stopped, and their records say why.
func TestTaskShutdown(t *testing.T) {
	shared := store.NewMemory()
	srv := &runtime.Server{Name: "shutdown", Store: shared, StateKey: []byte("shutdown key"), Logger: slog.New(slog.DiscardHandler)}
	started := make(chan struct{}, 1)
	srv.AddTool(&runtime.Tool{Name: "forever", Task: runtime.TaskOptional, Handler: func(ctx context.Context, _ *runtime.ToolRequest) (*runtime.ToolResult, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	// A second replica on the same store, to read the record afterwards.
	reader := &runtime.Server{Name: "reader", Store: shared, StateKey: []byte("shutdown key")}
	hr := httptest.NewServer(reader.HTTPHandler(nil))
	defer hr.Close()

	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	addr := make(chan string, 1)
	srv.Logger = slog.New(&urlCatcher{addr: addr})
	go func() { served <- srv.ListenAndServeHTTP(ctx, "127.0.0.1:0", nil) }()
	url := <-addr
	var created map[string]any
	mcptest.Result(t, postPerRequest(t, url, "tools/call", "forever", `"name":"forever","arguments":{}`), &created)
	id := created["taskId"].(string)
	<-started
	cancel()
	<-served
	var got map[string]any
	mcptest.Result(t, postPerRequest(t, hr.URL, "tasks/get", id, fmt.Sprintf(`"taskId":%q`, id)), &got)
	if got["status"] != "failed" || !strings.Contains(got["statusMessage"].(string), "the server shut down before the task finished") {
		t.Errorf("a task its server left running: %v", got)
	}
}

// urlCatcher is a slog.Handler that sends the URL ListenAndServeHTTP logs.
type urlCatcher struct{ addr chan string }

func (u *urlCatcher) Enabled(context.Context, slog.Level) bool { return true }
func (u *urlCatcher) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "url" {
			u.addr <- a.Value.String()
		}
		return true
	})
	return nil
}
func (u *urlCatcher) WithAttrs([]slog.Attr) slog.Handler { return u }
func (u *urlCatcher) WithGroup(string) slog.Handler      { return u }
