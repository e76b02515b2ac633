package redis_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/store/redis"
)

// hangBound is longer than any request may take while Redis is away: the
// store's operations give up after 5 seconds.
const hangBound = 30 * time.Second

// outage is how long Redis is away: longer than go-redis retries a
// connection before it gives up.
const outage = 4 * time.Second

// TestRedisRestart: while Redis restarts under load, every request is
// answered, at once or with an error that says the task store cannot be
// reached (or, for a task Redis forgot, that it is unknown), and none
// hangs, while a call that needs no store is served as usual; once Redis
// is back, tasks work again, and the bus carries list changes between
// replicas again (go-redis subscribes anew).
func TestRedisRestart(t *testing.T) {
	rs := redistest.Start(t)
	store := redis.New(client(t, rs), nil)
	key := []byte("restart test key")
	newServer := func() *runtime.Server {
		s := &runtime.Server{Name: "r", Store: store, StateKey: key, ListResources: func(context.Context, string) ([]*runtime.Resource, string, error) {
			return nil, "", nil
		}}
		s.AddTool(&runtime.Tool{Name: "quick", Task: runtime.TaskOptional, Handler: func(ctx context.Context, _ *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return runtime.TextResult("ok"), nil
		}})
		return s
	}
	a, b := newServer(), newServer()
	// b joins the bus now, before Redis stops: the listener at the end
	// hears a's change only if go-redis subscribes again after the restart.
	joined := b.NewConn(nil)
	defer joined.Close()

	var ok, unreachable, unknown atomic.Int64
	var mu sync.Mutex
	var other []string
	var slowest atomic.Int64
	request := func(conn *runtime.Conn, id int, method, params string) map[string]any {
		start := time.Now()
		resp := conn.Handle(context.Background(), []byte(mcptest.PerRequest(id, method, params, mcptest.TasksCaps)))
		if d := time.Since(start); int64(d) > slowest.Load() {
			slowest.Store(int64(d))
		}
		var m struct {
			Result map[string]any
			Error  *struct{ Message string }
		}
		json.Unmarshal(resp, &m)
		switch {
		case m.Result != nil:
			return m.Result
		case strings.Contains(m.Error.Message, "the task store cannot be reached"):
			unreachable.Add(1)
		case strings.Contains(m.Error.Message, "unknown task"):
			unknown.Add(1)
		default:
			mu.Lock()
			other = append(other, string(resp))
			mu.Unlock()
		}
		return nil
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			conn := a.NewConn(nil)
			defer conn.Close()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				created := request(conn, i, "tools/call", `"name":"quick","arguments":{}`)
				id, _ := created["taskId"].(string)
				for id != "" {
					got := request(conn, i, "tasks/get", fmt.Sprintf(`"taskId":%q`, id))
					if got == nil {
						break
					}
					if got["status"] == "completed" {
						ok.Add(1)
						break
					}
					time.Sleep(time.Millisecond)
				}
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	before := ok.Load()
	rs.Stop()
	// A call that needs no store is served as usual meanwhile.
	plain := a.NewConn(nil)
	resp := string(plain.Handle(context.Background(), []byte(mcptest.PerRequest(1, "tools/call", `"name":"quick"`, "{}"))))
	if !strings.Contains(resp, `"text":"ok"`) {
		t.Errorf("a plain call while Redis is away: %s", resp)
	}
	plain.Close()
	time.Sleep(outage)
	rs.Restart()
	restarted := ok.Load()
	deadline := time.Now().Add(hangBound)
	for ok.Load() < restarted+20 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	t.Logf("tasks completed: %d before Redis stopped, %d in all; while it was away: %d answered that the store cannot be reached, %d that a task is unknown; slowest request %v",
		before, ok.Load(), unreachable.Load(), unknown.Load(), time.Duration(slowest.Load()))
	switch {
	case before == 0:
		t.Error("no task completed before Redis stopped")
	case ok.Load() < restarted+20:
		t.Errorf("tasks do not work again once Redis is back: %d completed after the restart", ok.Load()-restarted)
	case unreachable.Load() == 0:
		t.Error("no request saw that the store was away")
	case time.Duration(slowest.Load()) > hangBound:
		t.Errorf("a request took %v", time.Duration(slowest.Load()))
	}
	for _, o := range other {
		t.Errorf("an answer that does not say what happened: %s", o)
	}

	// The bus: a listener on b hears a change made on a.
	got := make(chan string, 16)
	lconn := b.NewConn(func(msg []byte) { got <- string(msg) })
	defer lconn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan struct{})
	go func() {
		defer close(listening)
		lconn.Handle(ctx, []byte(mcptest.PerRequest(1, "subscriptions/listen", `"notifications":{"resourcesListChanged":true}`, mcptest.TasksCaps)))
	}()
	defer func() { cancel(); <-listening }()
	deadline = time.Now().Add(hangBound)
	for {
		a.ResourceListChanged()
		select {
		case msg := <-got:
			if strings.Contains(msg, "resources/list_changed") {
				return
			}
			continue
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("after Redis restarted, a list change on one replica does not reach a listener on the other")
		}
	}
}
