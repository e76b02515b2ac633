// Command lbload is the load test of .ci/balancer.sh: many MCP clients
// call examples/conformance through a load balancer, a fixed number of
// calls in all, and every answer is checked against its own request.
//
//	lbload -addr 127.0.0.1:8080 [-clients 64] [-calls 20000] [-sessions]
//	       [-kill PID -killed r2 -stats http://127.0.0.1:8404/stats]
//
// Each client is one keep-alive connection to the balancer. It runs
// initialize and notifications/initialized, then calls, one at a time,
// json_schema_2020_12_tool with a name of its own ("c12-345", answered
// "Hello, c12-345") and, every -slow-every calls, test_tool_with_progress,
// which takes 100 ms, so that calls are in flight on every replica at any
// moment. A response is lost if its call times out, and mismatched if its
// JSON-RPC id or its text is not its request's. The balancer names the
// replica that answered in a response header (-replica-header), which
// shows that the load is spread (stateless) or that every session sticks
// to the replica that started it (-sessions).
//
// With -kill, once a third of the calls are done it kills that process
// (SIGKILL: a crash, not a shutdown) and then checks that only calls in
// flight at that moment failed, each with an error the client sees (an
// HTTP 502, 503 or 504 from the balancer, or a reset or closed
// connection), that every call started after the kill succeeded, and that
// the balancer's status page (-stats, HAProxy's CSV) shows the killed
// replica down within 5 seconds. Nothing may hang: every call has a
// timeout, and so has the whole run.
//
// It prints what it saw and exits 1, with a line starting "lbload: FAIL:"
// per failed check, if any check fails.
package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
)

var (
	addr          = flag.String("addr", "", "the balancer's `host:port`; MCP is served at -path")
	path          = flag.String("path", "/mcp", "the MCP endpoint's `path`")
	clients       = flag.Int("clients", 64, "concurrent clients, each on its own keep-alive connection")
	calls         = flag.Int("calls", 20000, "calls in all")
	slowEvery     = flag.Int("slow-every", 8, "every `n`th call is the 100 ms test_tool_with_progress (0: none)")
	sessions      = flag.Bool("sessions", false, "expect a session per client, and every call of a session answered by the replica that started it")
	replicaHeader = flag.String("replica-header", "X-MCP-Replica", "the response `header` in which the balancer names the replica that answered")
	replicas      = flag.String("replicas", "r1,r2,r3", "the replicas' `names`, as the balancer calls them")
	timeout       = flag.Duration("timeout", 10*time.Second, "timeout of each request")
	deadline      = flag.Duration("deadline", 90*time.Second, "timeout of the whole run")
	killPID       = flag.Int("kill", 0, "kill this process (SIGKILL) once a third of the calls are done")
	killed        = flag.String("killed", "", "with -kill: the balancer's name for the replica killed")
	stats         = flag.String("stats", "", "with -kill: `URL` of HAProxy's status page (CSV is asked for with ;csv)")
)

// A call is one tools/call and what became of it.
type call struct {
	client     int
	slow       bool
	start, end time.Time
	err        error
	replica    string
}

var failures []string

func fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	failures = append(failures, msg)
	fmt.Printf("lbload: FAIL: %s\n", msg)
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("lbload: ")
	flag.Parse()
	if *addr == "" || *calls <= 0 || *clients <= 0 || (*killPID != 0 && (*killed == "" || *stats == "")) {
		flag.Usage()
		os.Exit(2)
	}
	names := strings.Split(*replicas, ",")
	watchdog := time.AfterFunc(*deadline, func() {
		fmt.Printf("lbload: FAIL: the run did not end within %s\n", *deadline)
		os.Exit(1)
	})
	defer watchdog.Stop()

	results := make([]call, *calls)
	sessionReplica := make([]string, *clients)
	var next, done atomic.Int64
	var killOnce sync.Once
	var killAt, diedAt time.Time
	downAt := make(chan time.Time, 1)
	killAfter := int64(*calls / 3)
	start := time.Now()
	var wg sync.WaitGroup
	handshakeErrs := make([]error, *clients)
	for w := range *clients {
		wg.Go(func() {
			c := driver.NewHTTPClient(*addr, *path)
			c.Name = fmt.Sprintf("client %d", w)
			c.Timeout = *timeout
			c.CaptureHeader = strings.ToLower(*replicaHeader)
			defer c.Close()
			if err := c.Handshake(); err != nil {
				handshakeErrs[w] = err
				return
			}
			if *sessions && c.Session == "" {
				handshakeErrs[w] = fmt.Errorf("client %d: initialize gave no Mcp-Session-Id", w)
				return
			}
			if !*sessions && c.Session != "" {
				handshakeErrs[w] = fmt.Errorf("client %d: a stateless server gave Mcp-Session-Id %s", w, c.Session)
				return
			}
			sessionReplica[w] = c.Captured
			for {
				i := int(next.Add(1) - 1)
				if i >= *calls {
					return
				}
				r := &results[i]
				r.client = w
				r.slow = *slowEvery > 0 && i%*slowEvery == *slowEvery-1
				var k driver.CallKind
				if r.slow {
					k = driver.CallKind{Name: "test_tool_with_progress",
						Request: []byte(`{"jsonrpc":"2.0","id":%ID%,"method":"tools/call","params":{"name":"test_tool_with_progress","arguments":{}}}`),
						Want:    `"text":"Tool with progress executed successfully"`}
				} else {
					name := fmt.Sprintf("c%d-%d", w, i)
					k = driver.CallKind{Name: "json_schema_2020_12_tool " + name,
						Request: []byte(`{"jsonrpc":"2.0","id":%ID%,"method":"tools/call","params":{"name":"json_schema_2020_12_tool","arguments":{"name":"` + name + `"}}}`),
						Want:    `"text":"Hello, ` + name + `"`}
				}
				r.start = time.Now()
				_, r.err = c.Call(&k)
				r.end = time.Now()
				r.replica = c.Captured
				if done.Add(1) == killAfter && *killPID != 0 {
					killOnce.Do(func() {
						killAt = time.Now()
						if err := syscall.Kill(*killPID, syscall.SIGKILL); err != nil {
							log.Fatalf("kill %d: %v", *killPID, err)
						}
						diedAt = waitDeath(*killPID)
						go watchStats(downAt)
					})
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	var herrs []error
	for _, err := range handshakeErrs {
		if err != nil {
			herrs = append(herrs, err)
		}
	}
	if len(herrs) > 0 {
		fail("%d of %d handshakes through the balancer failed; the first: %v", len(herrs), *clients, herrs[0])
		os.Exit(1)
	}

	// What happened.
	ok, slowest := 0, time.Duration(0)
	served := map[string]int{}
	var failed []*call
	for i := range results {
		r := &results[i]
		slowest = max(slowest, r.end.Sub(r.start))
		if r.err == nil {
			ok++
			served[r.replica]++
		} else {
			failed = append(failed, r)
		}
	}
	fmt.Printf("lbload: %d calls by %d clients in %s (%.0f calls/s): %d answered and checked, %d failed; slowest %s\n",
		*calls, *clients, elapsed.Round(time.Millisecond), float64(*calls)/elapsed.Seconds(), ok, len(failed), slowest.Round(time.Microsecond))
	for _, name := range slices.Sorted(maps.Keys(served)) {
		fmt.Printf("lbload:   replica %q answered %d\n", name, served[name])
	}

	// Spread, or stickiness.
	if *sessions {
		for i := range results {
			r := &results[i]
			if r.err == nil && r.replica != sessionReplica[r.client] {
				fail("a call of client %d's session, started on replica %q, was answered by %q", r.client, sessionReplica[r.client], r.replica)
				break
			}
		}
		started := map[string]int{}
		for _, name := range sessionReplica {
			started[name]++
		}
		for _, name := range names {
			if started[name] == 0 {
				fail("no session was started on replica %q (sessions per replica: %v)", name, started)
			}
		}
	} else if *killPID == 0 {
		for _, name := range names {
			if served[name] < *calls/(2*len(names)) {
				fail("replica %q answered %d of %d calls: the balancer does not spread the load", name, served[name], *calls)
			}
		}
	}

	if *killPID == 0 {
		for i, r := range failed {
			if i == 5 {
				fmt.Printf("lbload:   … and %d more\n", len(failed)-5)
				break
			}
			fail("call by client %d: %v", r.client, r.err)
		}
	} else {
		checkKill(results, failed, killAt, diedAt, downAt)
	}
	if len(failures) > 0 {
		os.Exit(1)
	}
	fmt.Println("lbload: PASS")
}

// checkKill checks what the kill did: only calls in flight when the
// replica died failed, each visibly, and the balancer took the replica
// out.
func checkKill(results []call, failed []*call, killAt, diedAt time.Time, downAt <-chan time.Time) {
	if killAt.IsZero() {
		fail("the replica was never killed (fewer calls than -calls finished?)")
		return
	}
	inFlight := 0
	for i := range results {
		if r := &results[i]; r.start.Before(diedAt) && r.end.After(killAt) {
			inFlight++
		}
	}
	kinds := map[string]int{}
	bad := 0
	for _, r := range failed {
		kind := visible(r.err)
		switch {
		case !r.start.Before(diedAt):
			fail("a call started %s after the replica was dead (%s after the kill) failed: %v", r.start.Sub(diedAt).Round(time.Microsecond), diedAt.Sub(killAt).Round(time.Microsecond), r.err)
			bad++
		case kind == "":
			fail("a call in flight at the kill failed with an error the client cannot tell from a bug or a hang: %v", r.err)
			bad++
		default:
			kinds[kind]++
		}
		if bad == 5 {
			break
		}
	}
	fmt.Printf("lbload: replica %s killed, dead %s later, with %d calls in flight across all replicas; %d failed: %v\n",
		*killed, diedAt.Sub(killAt).Round(time.Microsecond), inFlight, len(failed), kinds)
	if len(failed) == 0 {
		fail("no call failed when the replica was killed: no call was in flight on it, so the test proves nothing (more clients or slower calls?)")
	}
	if len(failed) > inFlight {
		fail("%d calls failed but only %d were in flight at the kill", len(failed), inFlight)
	}
	select {
	case t := <-downAt:
		if t.IsZero() {
			fail("the balancer's status page did not show replica %s down within 5 s of the kill", *killed)
		} else {
			fmt.Printf("lbload: the balancer marked replica %s down %s after the kill\n", *killed, t.Sub(killAt).Round(time.Millisecond))
		}
	case <-time.After(6 * time.Second):
		fail("no answer from the balancer's status page")
	}
}

// waitDeath waits until the process has exited, its files (and so its
// connections and its listening socket) closed: SIGKILL is delivered, and
// the process torn down, after kill returns. It returns when it saw it,
// or exits after 5 s. The process is not lbload's child, so it polls its
// threads in /proc: a process is dead when every thread is gone or a
// zombie (the main thread of a Go program can be a zombie while other
// threads still hold the files open).
func waitDeath(pid int) time.Time {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	for until := time.Now().Add(5 * time.Second); time.Now().Before(until); time.Sleep(20 * time.Microsecond) {
		tasks, err := os.ReadDir(dir)
		if err != nil {
			return time.Now()
		}
		alive := false
		for _, t := range tasks {
			data, err := os.ReadFile(dir + "/" + t.Name() + "/stat")
			if err != nil {
				continue
			}
			if i := bytes.LastIndexByte(data, ')'); i < 0 || i+2 >= len(data) || (data[i+2] != 'Z' && data[i+2] != 'X') {
				alive = true
				break
			}
		}
		if !alive {
			return time.Now()
		}
	}
	log.Fatalf("process %d still running 5 s after SIGKILL", pid)
	return time.Time{}
}

// visible says which error the client saw, or "" if it is not one a
// client can act on: a timeout (a hang), or an answer that is wrong.
func visible(err error) string {
	var he *driver.HTTPError
	switch {
	case errors.As(err, &he) && (he.Status == 502 || he.Status == 503 || he.Status == 504):
		return fmt.Sprintf("HTTP %d", he.Status)
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EPIPE):
		return "broken pipe"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	}
	return ""
}

// watchStats polls the balancer's status page until it shows the killed
// replica down, and sends the time it saw it, or the zero time after 5 s.
func watchStats(downAt chan<- time.Time) {
	until := time.Now().Add(5 * time.Second)
	for time.Now().Before(until) {
		if status, err := replicaStatus(*stats, *killed); err != nil {
			fmt.Printf("lbload: status page: %v\n", err)
		} else if strings.HasPrefix(status, "DOWN") || status == "MAINT" {
			downAt <- time.Now()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	downAt <- time.Time{}
}

// replicaStatus reads the status of one server from HAProxy's CSV status
// page.
func replicaStatus(url, server string) (string, error) {
	c := &http.Client{Timeout: time.Second}
	resp, err := c.Get(url + ";csv")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	r := csv.NewReader(resp.Body)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil || len(rows) == 0 {
		return "", fmt.Errorf("not HAProxy's CSV (%v)", err)
	}
	col := slices.Index(rows[0], "status")
	for _, row := range rows[1:] {
		if col >= 0 && col < len(row) && len(row) > 1 && row[1] == server {
			return row[col], nil
		}
	}
	return "", fmt.Errorf("no server %q on the status page", server)
}
