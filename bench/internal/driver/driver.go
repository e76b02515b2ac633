// Package driver is the one load driver for every stdio MCP server in the
// benchmark. It speaks newline-delimited JSON-RPC to a child process,
// matches responses to requests by id, and measures latency, throughput,
// the server's CPU time and its peak resident set.
//
// The driver treats every server alike: the same request bytes, the same
// checks of every response, the same handshake. It keeps the server's
// stdin open until every response is in (go-sdk drops the responses still
// owed when stdin reaches EOF).
package driver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A Server is how to start one stdio MCP server.
type Server struct {
	Name string   // peer name for the tables
	Argv []string // command and arguments
	Dir  string
	Env  []string // added to os.Environ()
}

// A Conn is a running server.
type Conn struct {
	srv    Server
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	wmu    sync.Mutex
	nextID atomic.Int64

	mu      sync.Mutex
	pending map[int64]chan<- reply
	readErr error
	done    chan struct{}
	stderr  *bytes.Buffer
}

type reply struct {
	line []byte
	at   time.Time
}

// Start starts the server. The caller must Close it.
func Start(srv Server) (*Conn, error) {
	cmd := exec.Command(srv.Argv[0], srv.Argv[1:]...)
	cmd.Dir = srv.Dir
	cmd.Env = append(os.Environ(), srv.Env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &Conn{srv: srv, cmd: cmd, stdin: stdin, pending: map[int64]chan<- reply{}, done: make(chan struct{}), stderr: &bytes.Buffer{}}
	cmd.Stderr = &limitedWriter{w: c.stderr, n: 64 << 10}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", srv.Name, err)
	}
	go c.readLoop(stdout)
	return c, nil
}

type limitedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
	n  int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Pid is the server's process id.
func (c *Conn) Pid() int { return c.cmd.Process.Pid }

func (c *Conn) readLoop(r io.Reader) {
	defer close(c.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			now := time.Now()
			c.deliver(line, now)
		}
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
	}
}

// deliver routes a line to the call waiting for it. It finds the
// JSON-RPC id by scanning rather than decoding, so that the driver's own
// cost stays small next to the fastest server's: the responses here carry
// numeric ids, and the first "id": followed by a digit is the envelope's
// (no tool result or schema of the benchmark has a numeric "id" member).
// Notifications and requests from the server have no such id or are
// ignored.
func (c *Conn) deliver(line []byte, at time.Time) {
	id, ok := responseID(line)
	if !ok {
		return
	}
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- reply{line: line, at: at}
	}
}

var idKey = []byte(`"id":`)

func responseID(line []byte) (int64, bool) {
	if bytes.Contains(line, []byte(`"method":`)) {
		return 0, false // a request or notification from the server
	}
	for rest := line; ; {
		i := bytes.Index(rest, idKey)
		if i < 0 {
			return 0, false
		}
		rest = rest[i+len(idKey):]
		for len(rest) > 0 && rest[0] == ' ' {
			rest = rest[1:]
		}
		n, j := int64(0), 0
		for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
			n = n*10 + int64(rest[j]-'0')
			j++
		}
		if j > 0 {
			return n, true
		}
	}
}

// ErrClosed reports that the server's stdout ended before a response.
var ErrClosed = errors.New("server closed its output")

// A Caller makes calls one at a time; each goroutine that calls needs
// its own.
type Caller struct {
	c   *Conn
	ch  chan reply
	buf []byte
}

// Caller returns a new Caller.
func (c *Conn) Caller() *Caller {
	return &Caller{c: c, ch: make(chan reply, 1)}
}

// Call sends one request whose JSON has %ID% where its id goes and waits
// for the response. It returns the response line and the round trip.
func (cl *Caller) Call(template []byte) ([]byte, time.Duration, error) {
	c := cl.c
	id := c.nextID.Add(1)
	i := bytes.Index(template, idMark)
	cl.buf = append(cl.buf[:0], template[:i]...)
	cl.buf = strconv.AppendInt(cl.buf, id, 10)
	cl.buf = append(cl.buf, template[i+len(idMark):]...)
	cl.buf = append(cl.buf, '\n')
	c.mu.Lock()
	if c.readErr != nil {
		c.mu.Unlock()
		return nil, 0, c.closedErr()
	}
	c.pending[id] = cl.ch
	c.mu.Unlock()
	start := time.Now()
	if err := c.writeLine(cl.buf); err != nil {
		return nil, 0, err
	}
	r, ok := <-cl.ch
	if !ok {
		return nil, 0, c.closedErr()
	}
	return r.line, r.at.Sub(start), nil
}

func (c *Conn) closedErr() error {
	return fmt.Errorf("%s: %w; stderr: %s", c.srv.Name, ErrClosed, strings.TrimSpace(c.stderr.String()))
}

// Notify sends a notification.
func (c *Conn) Notify(msg []byte) error { return c.writeLine(append(slices.Clip(msg), '\n')) }

// writeLine writes one whole line, newline included.
func (c *Conn) writeLine(line []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.stdin.Write(line); err != nil {
		return fmt.Errorf("%s: writing: %w", c.srv.Name, err)
	}
	return nil
}

var idMark = []byte("%ID%")

// Requests of the handshake.
var (
	InitializeReq  = []byte(`{"jsonrpc":"2.0","id":%ID%,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpgen-bench","version":"1.0.0"}}}`)
	InitializedMsg = []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	ToolsListReq   = []byte(`{"jsonrpc":"2.0","id":%ID%,"method":"tools/list"}`)
)

// Handshake runs initialize and notifications/initialized, as any client
// does before its first call.
func (c *Conn) Handshake() error {
	line, _, err := c.Caller().Call(InitializeReq)
	if err != nil {
		return err
	}
	if !bytes.Contains(line, []byte(`"protocolVersion"`)) {
		return fmt.Errorf("%s: initialize: unexpected answer %.300s", c.srv.Name, line)
	}
	return c.Notify(InitializedMsg)
}

// ListTools runs tools/list and returns the number of tools.
func (c *Conn) ListTools() (int, error) {
	line, _, err := c.Caller().Call(ToolsListReq)
	if err != nil {
		return 0, err
	}
	var resp struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return 0, fmt.Errorf("%s: tools/list: %v", c.srv.Name, err)
	}
	return len(resp.Result.Tools), nil
}

// Close closes stdin, which ends every server here, and waits for the
// process; it kills it after a grace period. (wait4's peak RSS is no
// measure of the server: Go starts a child on the parent's memory, and
// Linux counts the parent's peak at exec as the child's. PeakRSS is.)
func (c *Conn) Close() (err error) {
	c.stdin.Close()
	exited := make(chan error, 1)
	go func() { <-c.done; exited <- c.cmd.Wait() }()
	select {
	case err = <-exited:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		err = <-exited
		if err == nil {
			err = fmt.Errorf("%s: did not exit within 5s of stdin closing", c.srv.Name)
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() <= 0 {
		err = nil // killed by a signal after being asked to stop, or similar
	}
	return err
}

// A Call is one kind of tools/call with the check of its answer.
type CallKind struct {
	Name    string
	Request []byte // with %ID%
	// Want is text the response must contain; Invalid calls must be
	// rejected instead (isError result or JSON-RPC error).
	Want    string
	Invalid bool
}

// The benchmark's calls: the same bytes for every server.
var (
	Greet = CallKind{
		Name:    "greet",
		Request: []byte(`{"jsonrpc":"2.0","id":%ID%,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`),
		Want:    `Hello, Ada! Welcome.`,
	}
	CreateTicket = CallKind{
		Name:    "create_ticket",
		Request: []byte(`{"jsonrpc":"2.0","id":%ID%,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash on save","description":"The editor crashes when a file is saved twice.","kind":"bug","labels":["editor","crash"]}}}`),
		Want:    `Ticket 'Crash on save' created successfully (ID: TKT-42)`,
	}
	// BadGreet lacks the required name.
	BadGreet = CallKind{
		Name:    "greet (no name)",
		Request: []byte(`{"jsonrpc":"2.0","id":%ID%,"method":"tools/call","params":{"name":"greet","arguments":{}}}`),
		Invalid: true,
	}
	// BadTicket has a kind outside the enum.
	BadTicket = CallKind{
		Name:    "create_ticket (kind epic)",
		Request: []byte(`{"jsonrpc":"2.0","id":%ID%,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash on save","description":"The editor crashes when a file is saved twice.","kind":"epic"}}}`),
		Invalid: true,
	}
	Valid   = []CallKind{Greet, CreateTicket}
	Invalid = []CallKind{BadGreet, BadTicket}
)

var isErrorTrue = []byte(`"isError":true`)

// Check verifies a response to k.
func (k *CallKind) Check(line []byte) error {
	if k.Invalid {
		if bytes.Contains(line, isErrorTrue) || bytes.Contains(line, []byte(`"error":{`)) {
			return nil
		}
		return fmt.Errorf("%s: invalid call was not rejected: %.300s", k.Name, line)
	}
	if bytes.Contains(line, isErrorTrue) || !bytes.Contains(line, []byte(k.Want)) {
		return fmt.Errorf("%s: unexpected answer: %.300s", k.Name, line)
	}
	return nil
}

// Stats are the figures of one workload.
type Stats struct {
	Calls      int
	Elapsed    time.Duration
	Latencies  []time.Duration // sorted
	CPU        time.Duration   // server CPU time (user+system) during the workload
	CPUPerCall time.Duration
	// DriverCPUPerCall is the driver's own CPU time per call (this whole
	// process, which runs nothing else meanwhile): on a small machine the
	// driver competes with the server for the cores.
	DriverCPUPerCall time.Duration
	// Reconnects counts the HTTP clients' new connections during the
	// workload, after a server closed an idle one.
	Reconnects int
}

// PerSecond is the throughput.
func (s *Stats) PerSecond() float64 { return float64(s.Calls) / s.Elapsed.Seconds() }

// Quantile returns the q-quantile latency (nearest rank).
func (s *Stats) Quantile(q float64) time.Duration {
	return Quantile(s.Latencies, q)
}

// Quantile returns the q-quantile of sorted durations.
func Quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Run makes n calls with inflight of them outstanding at any time,
// cycling through kinds, and checks every answer.
func (c *Conn) Run(kinds []CallKind, n, inflight int) (*Stats, error) {
	var next atomic.Int64
	lat := make([]time.Duration, n)
	errs := make(chan error, inflight)
	cpu0, self0 := ProcessCPU(c.Pid()), ProcessCPU(os.Getpid())
	start := time.Now()
	var wg sync.WaitGroup
	for range inflight {
		wg.Go(func() {
			cl := c.Caller()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				k := &kinds[i%len(kinds)]
				line, d, err := cl.Call(k.Request)
				if err == nil {
					err = k.Check(line)
				}
				if err != nil {
					errs <- err
					next.Store(int64(n))
					return
				}
				lat[i] = d
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu, self := ProcessCPU(c.Pid())-cpu0, ProcessCPU(os.Getpid())-self0
	select {
	case err := <-errs:
		return nil, fmt.Errorf("%s: %w", c.srv.Name, err)
	default:
	}
	slices.Sort(lat)
	return &Stats{Calls: n, Elapsed: elapsed, Latencies: lat, CPU: cpu, CPUPerCall: cpu / time.Duration(n), DriverCPUPerCall: self / time.Duration(n)}, nil
}

// clockTick is USER_HZ, the unit of /proc/<pid>/stat times; it is 100 on
// every Linux that matters.
const clockTick = 10 * time.Millisecond

// ProcessCPU returns the CPU time (user+system, all threads, those that
// have exited included) the process has used so far: from its CPU clock,
// to the nanosecond, where the system has one (processClock), else from
// /proc/<pid>/stat in 10 ms ticks; 0 if unknown. Ticks were too coarse:
// the stdio floor spends 0.2 s of CPU on 100,000 calls, 20 ticks, so
// one tick moved its CPU per call by 5%.
func ProcessCPU(pid int) time.Duration {
	if d, ok := processClock(pid); ok {
		return d
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name may hold spaces: fields start after the last ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	// After ')': state(3) ... utime is field 14, stime 15 (1-based overall).
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * clockTick
}

// PeakRSS returns VmHWM, the peak resident set of the process so far, in
// bytes; 0 if unknown.
func PeakRSS(pid int) int64 { return procStatus(pid, "VmHWM:") }

// procStatus returns a size in /proc/<pid>/status, in bytes; 0 if
// unknown.
func procStatus(pid int, key string) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// StartupToList measures a cold start: from just before the process is
// started to the answer of the first tools/list, after initialize and
// notifications/initialized as any client sends them. It returns that
// time and the number of tools listed.
func StartupToList(srv Server) (time.Duration, int, error) {
	t0 := time.Now()
	c, err := Start(srv)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	if err := c.Handshake(); err != nil {
		return 0, 0, err
	}
	line, _, err := c.Caller().Call(ToolsListReq)
	elapsed := time.Since(t0)
	if err != nil {
		return 0, 0, err
	}
	var resp struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return 0, 0, fmt.Errorf("%s: tools/list: %v", srv.Name, err)
	}
	return elapsed, len(resp.Result.Tools), nil
}
