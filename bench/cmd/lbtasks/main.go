// Command lbtasks drives the replicas of .ci/balancer.sh that share a
// Redis store, with requests of revision 2026-07-28 from a client of the
// tasks extension, in one of four modes:
//
//	lbtasks -mode load   -url URL [-clients 16] [-duration 10s] [-plain] [-outage]
//	lbtasks -mode lost   -url URL -pids r1=PID,r2=PID,r3=PID [-bound 30s]
//	lbtasks -mode notify -listen URL -change URL [-n 50] [-bound 1s]
//
// load: each client creates tasks of slow_compute (seconds 0) through the
// balancer and polls each to its end with tasks/get, which round robin
// sends to any replica; -plain calls greet instead, which needs no store.
// It prints the rate of completed calls per second. Every answer must be
// right; with -outage (Redis is stopped and started again meanwhile) an
// error is allowed if it says that the task store cannot be reached or,
// for a task Redis forgot, that it is unknown, and calls must complete
// again in the last two seconds. No request may take longer than -hang.
//
// lost: creates a task of slow_compute (seconds 600), learns from the
// balancer's X-MCP-Replica header which replica runs it, kills that
// process (SIGKILL), and polls the task through the balancer until it
// fails; it must fail within -bound, with an error that says its server
// stopped.
//
// notify: opens subscriptions/listen (resourcesListChanged) on the
// replica at -listen, adds a note (add_note, examples/notes) on the one at
// -change, -n times, and prints how long each list change took to reach
// the listener; the slowest must be within -bound.
//
// It exits 1, with a line starting "lbtasks: FAIL:" per failed check, if
// any check fails.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

var (
	mode     = flag.String("mode", "load", "load, lost or notify")
	url      = flag.String("url", "", "the balancer's MCP `URL`")
	clients  = flag.Int("clients", 16, "load: concurrent clients")
	duration = flag.Duration("duration", 10*time.Second, "load: how long to run")
	plain    = flag.Bool("plain", false, "load: call greet, which needs no store, instead of creating tasks")
	outage   = flag.Bool("outage", false, "load: the store is away for a while during the run")
	hang     = flag.Duration("hang", 20*time.Second, "the longest any request may take")
	pids     = flag.String("pids", "", "lost: the replicas' processes, `name=pid,…`, as the balancer names them")
	listen   = flag.String("listen", "", "notify: the `URL` of the replica that listens")
	change   = flag.String("change", "", "notify: the `URL` of the replica that adds notes")
	n        = flag.Int("n", 50, "notify: how many changes to time")
	bound    = flag.Duration("bound", 30*time.Second, "lost: how soon the task must fail; notify: how soon each change must arrive")
)

var failed atomic.Bool

func fail(format string, args ...any) {
	fmt.Printf("lbtasks: FAIL: "+format+"\n", args...)
	failed.Store(true)
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	client = &http.Client{Timeout: *hang, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	switch *mode {
	case "load":
		runLoad()
	case "lost":
		runLost()
	case "notify":
		runNotify()
	default:
		log.Fatalf("lbtasks: unknown -mode %q", *mode)
	}
	if failed.Load() {
		os.Exit(1)
	}
}

// client sends the requests, each bounded by -hang.
var client *http.Client

// An answer is a response: its result or its error, and the replica the
// balancer says answered.
type answer struct {
	result  map[string]any
	errMsg  string // the JSON-RPC error's message, or the HTTP failure
	rpc     bool   // errMsg is a JSON-RPC error's
	replica string
	took    time.Duration
}

// post sends method with params (members without braces) to u.
func post(ctx context.Context, u, method, name, params string) answer {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",`+
		`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`, method, params)
	req, err := http.NewRequestWithContext(ctx, "POST", u, strings.NewReader(body))
	if err != nil {
		return answer{errMsg: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return answer{errMsg: err.Error(), took: time.Since(start)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	a := answer{replica: resp.Header.Get("X-MCP-Replica"), took: time.Since(start)}
	var m struct {
		Result map[string]any
		Error  *struct{ Message string }
	}
	switch {
	case err != nil:
		a.errMsg = err.Error()
	case json.Unmarshal(data, &m) != nil:
		a.errMsg = fmt.Sprintf("HTTP %d: %.200s", resp.StatusCode, data)
	case m.Error != nil:
		a.errMsg, a.rpc = m.Error.Message, true
	default:
		a.result = m.Result
	}
	return a
}

// clear reports whether msg says what happened to the store.
func clear(msg string) bool {
	return strings.Contains(msg, "the task store cannot be reached") || strings.Contains(msg, "unknown task")
}

func runLoad() {
	var done, cleared atomic.Int64
	var slowest atomic.Int64
	perSecond := make([]atomic.Int64, int(duration.Seconds())+2)
	start := time.Now()
	stop := start.Add(*duration)
	note := func(a answer) bool {
		if int64(a.took) > slowest.Load() {
			slowest.Store(int64(a.took))
		}
		switch {
		case a.errMsg == "":
			return true
		case *outage && clear(a.errMsg):
			cleared.Add(1)
		default:
			fail("an answer: %s", a.errMsg)
		}
		return false
	}
	var wg sync.WaitGroup
	for c := range *clients {
		wg.Go(func() {
			ctx := context.Background()
			for i := 0; time.Now().Before(stop); i++ {
				if *plain {
					name := fmt.Sprintf("c%d-%d", c, i)
					a := post(ctx, *url, "tools/call", "greet", fmt.Sprintf(`"name":"greet","arguments":{"name":%q}`, name))
					if note(a) {
						if text := firstText(a.result); text != "Hello, "+name+"!" {
							fail("greet %s answered %q", name, text)
						}
						done.Add(1)
						perSecond[int(time.Since(start).Seconds())].Add(1)
					}
					continue
				}
				label := fmt.Sprintf("c%d-%d", c, i)
				a := post(ctx, *url, "tools/call", "slow_compute", fmt.Sprintf(`"name":"slow_compute","arguments":{"seconds":0,"label":%q}`, label))
				if !note(a) {
					time.Sleep(20 * time.Millisecond)
					continue
				}
				id, _ := a.result["taskId"].(string)
				if id == "" {
					fail("slow_compute created no task: %v", a.result)
					continue
				}
				for {
					g := post(ctx, *url, "tasks/get", id, fmt.Sprintf(`"taskId":%q`, id))
					if !note(g) {
						break
					}
					if g.result["status"] == "working" {
						time.Sleep(5 * time.Millisecond)
						continue
					}
					want := fmt.Sprintf("Computed %q in 0s", label)
					if g.result["status"] != "completed" || firstText(g.result["result"]) != want {
						fail("task %s ended %v", id, g.result)
					}
					done.Add(1)
					perSecond[int(time.Since(start).Seconds())].Add(1)
					break
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	what := "task round trips (tools/call, then tasks/get to the end)"
	if *plain {
		what = "plain tools/call"
	}
	var secs []string
	for i := range perSecond {
		secs = append(secs, strconv.FormatInt(perSecond[i].Load(), 10))
	}
	fmt.Printf("lbtasks: %d %s in %.1fs by %d clients: %.0f/s; per second: %s; answers saying the store was away: %d; slowest request %v\n",
		done.Load(), what, elapsed.Seconds(), *clients, float64(done.Load())/elapsed.Seconds(), strings.Join(secs, " "), cleared.Load(), time.Duration(slowest.Load()).Round(time.Millisecond))
	if time.Duration(slowest.Load()) > *hang {
		fail("a request took %v", time.Duration(slowest.Load()))
	}
	if done.Load() == 0 {
		fail("no call completed")
	}
	if *outage {
		last := int(duration.Seconds())
		if perSecond[last-1].Load()+perSecond[last].Load() == 0 {
			fail("no call completed in the last seconds: the replicas did not recover from the outage")
		}
		if cleared.Load() == 0 {
			fail("no answer said that the store was away")
		}
	}
}

// firstText returns the text of the first content block of a
// CallToolResult.
func firstText(result any) string {
	m, _ := result.(map[string]any)
	content, _ := m["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

func runLost() {
	procs := map[string]int{}
	for pair := range strings.SplitSeq(*pids, ",") {
		name, pid, _ := strings.Cut(pair, "=")
		n, err := strconv.Atoi(pid)
		if err != nil {
			log.Fatalf("lbtasks: -pids: %q", pair)
		}
		procs[name] = n
	}
	ctx := context.Background()
	a := post(ctx, *url, "tools/call", "slow_compute", `"name":"slow_compute","arguments":{"seconds":600,"label":"lost"}`)
	id, _ := a.result["taskId"].(string)
	pid, ok := procs[a.replica]
	if id == "" || !ok {
		fail("creating the task: %v %s (replica %q)", a.result, a.errMsg, a.replica)
		return
	}
	if g := post(ctx, *url, "tasks/get", id, fmt.Sprintf(`"taskId":%q`, id)); g.result["status"] != "working" {
		fail("the task before the kill: %v %s", g.result, g.errMsg)
		return
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		fail("kill %s (%d): %v", a.replica, pid, err)
		return
	}
	killed := time.Now()
	fmt.Printf("lbtasks: task %s runs on %s: killed it (pid %d)\n", id, a.replica, pid)
	for {
		g := post(ctx, *url, "tasks/get", id, fmt.Sprintf(`"taskId":%q`, id))
		switch {
		case g.rpc:
			fail("tasks/get after the kill: %s", g.errMsg)
			return
		case g.result["status"] == "failed":
			e, _ := g.result["error"].(map[string]any)
			msg, _ := e["message"].(string)
			fmt.Printf("lbtasks: the task failed %v after its replica was killed, answered by %s: %s\n", time.Since(killed).Round(time.Millisecond), g.replica, msg)
			if !strings.Contains(msg, "the server process that ran it stopped") {
				fail("the failed task's error does not say what happened: %v", e)
			}
			return
		case g.result != nil && g.result["status"] != "working":
			fail("after the kill the task is %v", g.result)
			return
		case time.Since(killed) > *bound:
			fail("the task is still %v %v after its replica was killed", g.result["status"], *bound)
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func runNotify() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"resourcesListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequestWithContext(ctx, "POST", *listen, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		fail("subscriptions/listen: %v", err)
		return
	}
	defer resp.Body.Close()
	events := make(chan time.Time, 1024)
	acked := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
			switch {
			case !ok:
			case bytes.Contains(data, []byte("notifications/subscriptions/acknowledged")):
				close(acked)
			case bytes.Contains(data, []byte("notifications/resources/list_changed")):
				events <- time.Now()
			}
		}
	}()
	select {
	case <-acked:
	case <-time.After(*hang):
		fail("subscriptions/listen was not acknowledged")
		return
	}
	var took []time.Duration
	for i := range *n {
		start := time.Now()
		a := post(context.Background(), *change, "tools/call", "add_note", fmt.Sprintf(`"name":"add_note","arguments":{"title":"note %d"}`, i))
		if a.errMsg != "" {
			fail("add_note: %s", a.errMsg)
			return
		}
		select {
		case at := <-events:
			took = append(took, at.Sub(start))
		case <-time.After(*hang):
			fail("the change %d did not reach the listener", i)
			return
		}
		for len(events) > 0 { // the note also updates its resource: one list change per add
			<-events
		}
	}
	slices.Sort(took)
	q := func(p float64) time.Duration {
		return took[min(len(took)-1, int(p*float64(len(took))))].Round(10 * time.Microsecond)
	}
	fmt.Printf("lbtasks: %d changes made on %s reached a listener on %s: median %v, p95 %v, slowest %v (from the start of add_note to the notification)\n",
		len(took), *change, *listen, q(0.5), q(0.95), took[len(took)-1].Round(10*time.Microsecond))
	if took[len(took)-1] > *bound {
		fail("the slowest change took %v, more than %v", took[len(took)-1], *bound)
	}
}
