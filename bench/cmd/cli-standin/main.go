// Command cli-standin stands in for the Claude Code CLI in the control
// protocol benchmark. An Agent SDK host (the TypeScript SDK's query(), or
// mcpgen's claude.Start) spawns it as it would spawn claude; the
// stand-in speaks the control protocol on its stdin and stdout exactly as
// the CLI does (reference/agent-sdk-protocol.md, seed 001), but instead of
// asking a model it drives the host's in-process MCP server through a fixed
// script and times every round trip:
//
//  1. answer the host's initialize control_request;
//  2. connect to the host's "sdk" server as the CLI does, through
//     mcp_message control requests: initialize (JSON-RPC id 0),
//     notifications/initialized, tools/list; then emit system/init;
//  3. wait for the host's user turn;
//  4. send tools/call for greet and create_ticket in turn (with the _meta
//     the CLI adds), first one at a time, then 16 in flight, matching every
//     control_response to its request by request_id and checking the tool's
//     text;
//  5. emit a result message, and wait for the host to close stdin.
//
// The measurements go, as JSON, to the file named by MCPGEN_STANDIN_OUT.
// The stand-in is its host's child, so it also reads the host's CPU time
// and peak RSS from /proc/<ppid>.
//
// Environment:
//
//	MCPGEN_STANDIN_OUT       file for the measurements (required)
//	MCPGEN_STANDIN_SEQ       sequential calls (default 2000)
//	MCPGEN_STANDIN_PAR       calls with 16 in flight (default 4000)
//	MCPGEN_STANDIN_INFLIGHT  calls in flight in the concurrent phase (16)
//	MCPGEN_STANDIN_WARMUP    warm-up calls of each kind (default 200)
//	MCPGEN_STANDIN_TRACE     file that receives every line in and out
package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
)

// Version is what the stand-in claims to be, for hosts that ask.
const Version = "2.1.332"

func main() {
	for _, a := range os.Args[1:] {
		if a == "-v" || a == "--version" {
			fmt.Printf("%s (Claude Code)\n", Version)
			return
		}
	}
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "cli-standin: %v\n", err)
		os.Exit(1)
	}
}

// Measurements is what the stand-in writes to MCPGEN_STANDIN_OUT.
type Measurements struct {
	Server      string `json:"server"`
	Tools       int    `json:"tools"`
	Sequential  Phase  `json:"sequential"`
	Concurrent  Phase  `json:"concurrent"`
	HandshakeNs int64  `json:"handshake_ns"` // MCP initialize to tools/list answer
	// StartNs is the time from the stand-in's start to the host's
	// initialize request.
	StartNs      int64 `json:"start_ns"`
	HostPeakRSS  int64 `json:"host_peak_rss"`
	StandinCPUNs int64 `json:"standin_cpu_ns"`
}

// Phase is one timed series of round trips.
type Phase struct {
	Calls     int     `json:"calls"`
	InFlight  int     `json:"in_flight"`
	ElapsedNs int64   `json:"elapsed_ns"`
	PerSecond float64 `json:"per_second"`
	P50Ns     int64   `json:"p50_ns"`
	P99Ns     int64   `json:"p99_ns"`
	MeanNs    int64   `json:"mean_ns"`
	// HostCPUNs is the host process's CPU time (user+system) during the
	// phase.
	HostCPUNs int64 `json:"host_cpu_ns"`
}

type conn struct {
	out   *bufio.Writer
	wmu   sync.Mutex
	trace io.Writer

	mu      sync.Mutex
	pending map[string]chan incoming

	initReq chan json.RawMessage // the host's initialize request
	user    chan struct{}        // the host's first user turn
	eof     chan struct{}        // stdin closed
	userSet atomic.Bool
	nextID  atomic.Int64
	prefix  string
}

type incoming struct {
	line []byte
	at   time.Time
}

func run() error {
	start := time.Now()
	outPath := os.Getenv("MCPGEN_STANDIN_OUT")
	if outPath == "" {
		return errors.New("MCPGEN_STANDIN_OUT is not set")
	}
	seq := envInt("MCPGEN_STANDIN_SEQ", 2000)
	par := envInt("MCPGEN_STANDIN_PAR", 4000)
	inflight := envInt("MCPGEN_STANDIN_INFLIGHT", 16)
	warmup := envInt("MCPGEN_STANDIN_WARMUP", 200)

	var trace io.Writer
	if p := os.Getenv("MCPGEN_STANDIN_TRACE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		defer f.Close()
		trace = &lockedWriter{w: f}
	}
	var rnd [4]byte
	rand.Read(rnd[:])
	c := &conn{
		out:     bufio.NewWriterSize(os.Stdout, 64<<10),
		trace:   trace,
		pending: map[string]chan incoming{},
		initReq: make(chan json.RawMessage, 1),
		user:    make(chan struct{}),
		eof:     make(chan struct{}),
		prefix:  hex.EncodeToString(rnd[:]),
	}
	go c.readLoop(os.Stdin)

	// 1. The host's initialize.
	var initLine json.RawMessage
	select {
	case initLine = <-c.initReq:
	case <-c.eof:
		return errors.New("stdin closed before the host's initialize request")
	case <-time.After(60 * time.Second):
		return errors.New("no initialize request from the host within 60s")
	}
	startNs := time.Since(start)
	server, err := serverName(initLine, os.Args[1:])
	if err != nil {
		return err
	}
	sessionID := c.uuid()

	// 2. Connect to the sdk server the way the CLI does.
	t0 := time.Now()
	if _, err := c.mcp(server, `{"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"`+Version+`"}},"jsonrpc":"2.0","id":0}`, "protocolVersion"); err != nil {
		return err
	}
	if _, err := c.mcp(server, `{"method":"notifications/initialized","jsonrpc":"2.0"}`, ""); err != nil {
		return err
	}
	list, err := c.mcp(server, `{"method":"tools/list","jsonrpc":"2.0","id":1}`, "tools")
	if err != nil {
		return err
	}
	handshake := time.Since(t0)
	tools, err := toolNames(list)
	if err != nil {
		return err
	}
	for _, want := range []string{"greet", "create_ticket"} {
		if !slices.Contains(tools, want) {
			return fmt.Errorf("server %q lists %v, without %s", server, tools, want)
		}
	}
	wire := []string{"Task", "Bash", "Read"}
	for _, t := range tools {
		wire = append(wire, "mcp__"+server+"__"+t)
	}
	c.emit(map[string]any{
		"type": "system", "subtype": "init", "cwd": mustGetwd(), "session_id": sessionID,
		"tools": wire, "mcp_servers": []any{map[string]any{"name": server, "status": "connected"}},
		"model": "cli-standin", "permissionMode": "default", "slash_commands": []string{},
		"apiKeySource": "none", "claude_code_version": Version, "output_style": "default",
		"uuid": c.uuid(),
	})

	// 3. The user's turn.
	select {
	case <-c.user:
	case <-c.eof:
		return errors.New("stdin closed before the user turn")
	case <-time.After(60 * time.Second):
		return errors.New("no user turn from the host within 60s")
	}
	readsState := os.Getenv("CLAUDE_CODE_SDK_READS_SESSION_STATE") == "1"
	if readsState {
		c.emit(map[string]any{"type": "system", "subtype": "session_state_changed", "state": "running", "session_id": sessionID, "uuid": c.uuid()})
	}

	// 4. The calls.
	host := os.Getppid()
	var jsonrpcID atomic.Int64
	jsonrpcID.Store(1)
	phase := func(n, inflight int) (Phase, error) {
		lat := make([]time.Duration, n)
		var next atomic.Int64
		var firstErr error
		var errOnce sync.Once
		cpu0 := driver.ProcessCPU(host)
		t := time.Now()
		var wg sync.WaitGroup
		for range inflight {
			wg.Go(func() {
				for {
					i := int(next.Add(1) - 1)
					if i >= n {
						return
					}
					d, err := c.toolCall(server, i%2 == 0, jsonrpcID.Add(1))
					if err != nil {
						errOnce.Do(func() { firstErr = err })
						next.Store(int64(n))
						return
					}
					lat[i] = d
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(t)
		cpu := driver.ProcessCPU(host) - cpu0
		if firstErr != nil {
			return Phase{}, firstErr
		}
		slices.Sort(lat)
		var sum time.Duration
		for _, d := range lat {
			sum += d
		}
		return Phase{
			Calls: n, InFlight: inflight, ElapsedNs: elapsed.Nanoseconds(),
			PerSecond: float64(n) / elapsed.Seconds(),
			P50Ns:     driver.Quantile(lat, 0.50).Nanoseconds(),
			P99Ns:     driver.Quantile(lat, 0.99).Nanoseconds(),
			MeanNs:    (sum / time.Duration(max(n, 1))).Nanoseconds(),
			HostCPUNs: cpu.Nanoseconds(),
		}, nil
	}
	if warmup > 0 {
		if _, err := phase(warmup, 1); err != nil {
			return err
		}
		if _, err := phase(warmup, inflight); err != nil {
			return err
		}
	}
	m := Measurements{Server: server, Tools: len(tools), HandshakeNs: handshake.Nanoseconds(), StartNs: startNs.Nanoseconds()}
	if m.Sequential, err = phase(seq, 1); err != nil {
		return err
	}
	if m.Concurrent, err = phase(par, inflight); err != nil {
		return err
	}
	m.HostPeakRSS = driver.PeakRSS(host)
	m.StandinCPUNs = driver.ProcessCPU(os.Getpid()).Nanoseconds()
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(outPath, append(data, '\n'), 0o666); err != nil {
		return err
	}

	// 5. The result, then wait for the host to close stdin.
	c.emit(map[string]any{
		"type": "assistant", "session_id": sessionID, "parent_tool_use_id": nil, "uuid": c.uuid(),
		"message": map[string]any{"id": "msg_standin", "type": "message", "role": "assistant", "model": "cli-standin",
			"content": []any{map[string]any{"type": "text", "text": "Done."}}, "stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 0, "output_tokens": 0}},
	})
	total := time.Since(start)
	c.emit(map[string]any{
		"type": "result", "subtype": "success", "is_error": false, "duration_ms": total.Milliseconds(),
		"duration_api_ms": 0, "num_turns": 1, "result": "Done.", "stop_reason": "end_turn", "session_id": sessionID,
		"total_cost_usd": 0, "usage": map[string]any{"input_tokens": 0, "output_tokens": 0},
		"modelUsage": map[string]any{}, "permission_denials": []any{}, "uuid": c.uuid(),
	})
	if readsState {
		c.emit(map[string]any{"type": "system", "subtype": "session_state_changed", "state": "idle", "session_id": sessionID, "uuid": c.uuid()})
	}
	select {
	case <-c.eof:
	case <-time.After(30 * time.Second):
		return errors.New("the host did not close stdin within 30s of the result")
	}
	return nil
}

// serverName finds the host's sdk server: the TypeScript SDK lists it in
// initialize.sdkMcpServers, the Python SDK and mcpgen in --mcp-config.
func serverName(initLine json.RawMessage, args []string) (string, error) {
	var req struct {
		Request struct {
			SDKMcpServers []string `json:"sdkMcpServers"`
		} `json:"request"`
	}
	if err := json.Unmarshal(initLine, &req); err == nil && len(req.Request.SDKMcpServers) > 0 {
		return req.Request.SDKMcpServers[0], nil
	}
	for i, a := range args {
		var cfg string
		switch {
		case a == "--mcp-config" && i+1 < len(args):
			cfg = args[i+1]
		case strings.HasPrefix(a, "--mcp-config="):
			cfg = strings.TrimPrefix(a, "--mcp-config=")
		default:
			continue
		}
		var mc struct {
			MCPServers map[string]struct {
				Type string `json:"type"`
				Name string `json:"name"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(cfg), &mc); err != nil {
			return "", fmt.Errorf("--mcp-config: %v", err)
		}
		for key, s := range mc.MCPServers {
			if s.Type == "sdk" {
				if s.Name == "" {
					return "", fmt.Errorf("--mcp-config: sdk server %q has no name (the real CLI ignores it)", key)
				}
				return key, nil
			}
		}
	}
	return "", fmt.Errorf("the host declared no sdk server (args %q, initialize %s)", args, initLine)
}

func (c *conn) readLoop(r io.Reader) {
	defer close(c.eof)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			at := time.Now()
			c.traceLine("<", line)
			c.handle(line, at)
		}
		if err != nil {
			return
		}
	}
}

var (
	controlResponse = []byte(`"type":"control_response"`)
	requestIDKey    = []byte(`"request_id":"`)
)

func (c *conn) handle(line []byte, at time.Time) {
	// The hot path, a control_response, is routed by scanning for its
	// request_id rather than by decoding it, to keep the stand-in's own
	// cost small next to the fastest host's. Its only request_id member
	// is the one inside "response".
	if bytes.Contains(line, controlResponse) {
		if i := bytes.Index(line, requestIDKey); i >= 0 {
			rest := line[i+len(requestIDKey):]
			if j := bytes.IndexByte(rest, '"'); j >= 0 {
				c.mu.Lock()
				ch := c.pending[string(rest[:j])]
				delete(c.pending, string(rest[:j]))
				c.mu.Unlock()
				if ch != nil {
					ch <- incoming{line: line, at: at}
				}
				return
			}
		}
	}
	var m struct {
		Type      string `json:"type"`
		RequestID string `json:"request_id"`
		Request   struct {
			Subtype string `json:"subtype"`
		} `json:"request"`
		Response struct {
			RequestID string `json:"request_id"`
		} `json:"response"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		fmt.Fprintf(os.Stderr, "cli-standin: unreadable line from the host: %.200s\n", line)
		return
	}
	switch m.Type {
	case "control_response":
		c.mu.Lock()
		ch := c.pending[m.Response.RequestID]
		delete(c.pending, m.Response.RequestID)
		c.mu.Unlock()
		if ch != nil {
			ch <- incoming{line: line, at: at}
		}
	case "control_request":
		var resp any = map[string]any{}
		if m.Request.Subtype == "initialize" {
			resp = map[string]any{
				"commands": []any{}, "agents": []any{}, "output_style": "default",
				"available_output_styles": []string{"default"}, "models": []any{},
				"account": map[string]any{}, "claude_code_version": Version,
			}
		}
		c.emit(map[string]any{"type": "control_response", "response": map[string]any{
			"subtype": "success", "request_id": m.RequestID, "response": resp,
		}})
		if m.Request.Subtype == "initialize" {
			select {
			case c.initReq <- slices.Clone(line):
			default:
			}
		}
	case "user":
		if c.userSet.CompareAndSwap(false, true) {
			close(c.user)
		}
	}
}

// mcp sends one mcp_message and returns the JSON-RPC response in its
// answer; want, if set, is a key the response's result must have.
func (c *conn) mcp(server, message, want string) ([]byte, error) {
	line, _, err := c.request(server, []byte(message))
	if err != nil {
		return nil, err
	}
	resp, err := mcpResponse(line)
	if err != nil {
		return nil, err
	}
	if want != "" && !bytes.Contains(resp, []byte(`"`+want+`"`)) {
		return nil, fmt.Errorf("mcp_message %.80s: unexpected answer %.300s", message, resp)
	}
	return resp, nil
}

// request sends an mcp_message control request and waits for its
// control_response.
func (c *conn) request(server string, message []byte) ([]byte, time.Duration, error) {
	id := c.prefix + "-" + strconv.FormatInt(c.nextID.Add(1), 10)
	var b []byte
	b = append(b, `{"type":"control_request","request_id":"`...)
	b = append(b, id...)
	b = append(b, `","request":{"subtype":"mcp_message","server_name":`...)
	b = strconv.AppendQuote(b, server)
	b = append(b, `,"message":`...)
	b = append(b, message...)
	b = append(b, "}}\n"...)
	ch := make(chan incoming, 1)
	c.mu.Lock()
	c.pending[id] = ch
	c.mu.Unlock()
	t := time.Now()
	if err := c.write(b); err != nil {
		return nil, 0, err
	}
	select {
	case in := <-ch:
		return in.line, in.at.Sub(t), nil
	case <-c.eof:
		return nil, 0, errors.New("the host closed stdin while a request was pending")
	case <-time.After(30 * time.Second):
		return nil, 0, fmt.Errorf("no control_response for %s within 30s", id)
	}
}

// mcpResponse extracts response.response.mcp_response from a successful
// control_response.
func mcpResponse(line []byte) ([]byte, error) {
	var r struct {
		Response struct {
			Subtype  string `json:"subtype"`
			Error    string `json:"error"`
			Response struct {
				MCPResponse json.RawMessage `json:"mcp_response"`
			} `json:"response"`
		} `json:"response"`
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, err
	}
	if r.Response.Subtype != "success" {
		return nil, fmt.Errorf("control error: %s", r.Response.Error)
	}
	if len(r.Response.Response.MCPResponse) == 0 {
		return nil, fmt.Errorf("control_response without mcp_response: %.300s", line)
	}
	return r.Response.Response.MCPResponse, nil
}

var (
	greetArgs  = `{"name":"Ada"}`
	greetWant  = `Hello, Ada! Welcome.`
	ticketArgs = `{"title":"Crash on save","description":"The editor crashes when a file is saved twice.","kind":"bug","labels":["editor","crash"]}`
	ticketWant = `Ticket 'Crash on save' created successfully (ID: TKT-42)`
)

// toolCall runs one tools/call as the CLI sends it and checks the answer:
// a successful control_response whose mcp_response has the call's id and
// the tool's text, without isError. It checks by scanning, for the same
// reason as handle.
func (c *conn) toolCall(server string, greet bool, id int64) (time.Duration, error) {
	name, args, want := "create_ticket", ticketArgs, ticketWant
	if greet {
		name, args, want = "greet", greetArgs, greetWant
	}
	ids := strconv.FormatInt(id, 10)
	msg := `{"method":"tools/call","params":{"name":"` + name + `","arguments":` + args +
		`,"_meta":{"claudecode/toolUseId":"toolu_standin` + ids + `","progressToken":` + ids + `}},"jsonrpc":"2.0","id":` + ids + `}`
	line, d, err := c.request(server, []byte(msg))
	if err != nil {
		return 0, err
	}
	if !bytes.Contains(line, []byte(`"subtype":"success"`)) || !bytes.Contains(line, []byte(`"mcp_response":`)) ||
		!hasID(line, ids) || !bytes.Contains(line, []byte(`"text":"`+want+`"`)) || bytes.Contains(line, []byte(`"isError":true`)) {
		return 0, fmt.Errorf("tools/call %s (id %s): unexpected answer %.400s", name, ids, line)
	}
	return d, nil
}

// hasID reports whether line has the member "id":<ids> (not a longer
// number).
func hasID(line []byte, ids string) bool {
	key := []byte(`"id":` + ids)
	for rest := line; ; {
		i := bytes.Index(rest, key)
		if i < 0 {
			return false
		}
		rest = rest[i+len(key):]
		if len(rest) == 0 || rest[0] < '0' || rest[0] > '9' {
			return true
		}
	}
}

func toolNames(listResp []byte) ([]string, error) {
	var r struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(listResp, &r); err != nil {
		return nil, fmt.Errorf("tools/list: %v", err)
	}
	var names []string
	for _, t := range r.Result.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

func (c *conn) emit(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	c.write(append(data, '\n'))
}

func (c *conn) write(line []byte) error {
	c.traceLine(">", line)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.out.Write(line); err != nil {
		return err
	}
	return c.out.Flush()
}

func (c *conn) traceLine(dir string, line []byte) {
	if c.trace != nil {
		fmt.Fprintf(c.trace, "%s %s %s\n", time.Now().Format("15:04:05.000000"), dir, bytes.TrimSpace(line))
	}
}

func (c *conn) uuid() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v >= 0 {
		return v
	}
	return def
}

func mustGetwd() string {
	wd, _ := os.Getwd()
	return wd
}
