package driver

// The Streamable HTTP side of the driver. Every server is driven the same
// way: each client is one goroutine on one keep-alive HTTP/1.1 connection,
// which runs initialize and notifications/initialized as any MCP client
// does (keeping the Mcp-Session-Id the server gives, if it gives one),
// then posts one JSON-RPC message per request and waits for its answer,
// whether it comes as application/json or as a text/event-stream.
//
// The client writes its requests from prepared bytes and reads responses
// with a small HTTP/1.1 reader of its own (Content-Length, chunked, or to
// the end of the connection), so that the load generator's CPU, which
// shares the machine with the server, stays small next to the fastest
// server's: net/http's client costs several times more per request.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// AddrEnv is the environment variable through which StartHTTP tells a
// server where to listen (host:port); the server serves MCP at /mcp there.
const AddrEnv = "MCPGEN_BENCH_ADDR"

// ProtocolVersion is the revision the driver's initialize asks for, and
// the Mcp-Protocol-Version header of every later request.
const ProtocolVersion = "2025-06-18"

// An HTTPServer is a running Streamable HTTP server.
type HTTPServer struct {
	srv    Server
	cmd    *exec.Cmd
	Addr   string // host:port
	stderr *bytes.Buffer
	exited chan struct{}
	err    error // from Wait, once exited is closed
	ids    atomic.Int64
	// Authorization, if set, is the Authorization header of every
	// request of the clients made after it is set ("Bearer …").
	Authorization string
}

// StartHTTP starts the server with AddrEnv set to a free loopback port
// and waits until it accepts connections. The caller must Close it.
func StartHTTP(srv Server) (*HTTPServer, error) {
	addr, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(srv.Argv[0], srv.Argv[1:]...)
	cmd.Dir = srv.Dir
	cmd.Env = append(append(os.Environ(), srv.Env...), AddrEnv+"="+addr)
	s := &HTTPServer{srv: srv, cmd: cmd, Addr: addr, stderr: &bytes.Buffer{}, exited: make(chan struct{})}
	out := &limitedWriter{w: s.stderr, n: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", srv.Name, err)
	}
	go func() { s.err = cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return s, nil
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("%s: exited before listening (%v): %s", srv.Name, s.err, s.stderrText())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Close()
			return nil, fmt.Errorf("%s: not listening on %s after 20s: %s", srv.Name, addr, s.stderrText())
		}
	}
}

// freePort returns a loopback address with a port that was free a moment
// ago.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func (s *HTTPServer) stderrText() string {
	return string(bytes.TrimSpace(s.stderr.Bytes()))
}

// Pid is the server's process id.
func (s *HTTPServer) Pid() int { return s.cmd.Process.Pid }

// Close asks the server to stop (SIGTERM) and waits for it; it kills it
// after a grace period. An exit caused by the signal is no error.
func (s *HTTPServer) Close() error {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
		return fmt.Errorf("%s: did not exit within 5s of SIGTERM", s.srv.Name)
	}
	var ee *exec.ExitError
	if s.err != nil && !(errors.As(s.err, &ee) && ee.ExitCode() <= 0) {
		return fmt.Errorf("%s: %v: %s", s.srv.Name, s.err, s.stderrText())
	}
	return nil
}

// Client returns a new client of the server, not yet connected.
func (s *HTTPServer) Client() *HTTPClient {
	c := NewHTTPClient(s.Addr, "/mcp")
	c.Name = s.srv.Name
	c.ids = &s.ids
	c.Authorization = s.Authorization
	// Between the phases of a measurement some clients sit idle for
	// longer than a server may keep an idle connection (Node's default
	// is 5 s); reconnecting then is what any HTTP client does.
	c.RetryStale = true
	return c
}

// An HTTPClient is one MCP client on one keep-alive HTTP/1.1 connection,
// used by one goroutine at a time.
type HTTPClient struct {
	Name    string // for errors
	Addr    string // host:port, also the Host header
	Path    string
	Session string        // Mcp-Session-Id, set by Handshake if the server gives one
	Timeout time.Duration // of each request, from writing it to the end of its answer; default 30 s
	// RetryStale sends a request again on a new connection when a
	// connection that had served earlier requests is found closed before
	// any byte of the answer arrived (a server may close idle
	// connections). Off, such a request fails: a load test that must see
	// every failure keeps it off.
	RetryStale bool
	Reconnects int // new connections after the first
	// CaptureHeader names a response header (in lower case, such as a
	// balancer's x-replica) whose value Captured holds after each
	// answer.
	CaptureHeader string
	Captured      string
	// Authorization, if set, is sent as the Authorization header of every
	// request.
	Authorization string

	ids      *atomic.Int64
	ownIDs   atomic.Int64
	conn     net.Conn
	br       *bufio.Reader
	served   int // requests answered on conn
	dials    int
	headers  bool // send Mcp-Protocol-Version (after initialize)
	req      []byte
	body     []byte
	msg      []byte
	lastType contentType
}

// NewHTTPClient returns a client of the MCP endpoint at http://addr+path.
func NewHTTPClient(addr, path string) *HTTPClient {
	c := &HTTPClient{Name: addr, Addr: addr, Path: path}
	c.ids = &c.ownIDs
	return c
}

// Close closes the client's connection.
func (c *HTTPClient) Close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

type contentType int

const (
	typeOther contentType = iota
	typeJSON
	typeSSE
)

// An HTTPError is an answer with an unexpected HTTP status.
type HTTPError struct {
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("HTTP %d: %.300s", e.Status, e.Body)
}

func (c *HTTPClient) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return 30 * time.Second
}

// do sends one request (method POST with body, or DELETE without) and
// reads its answer into c.body. It returns the status.
func (c *HTTPClient) do(method string, body []byte) (int, error) {
	c.req = append(c.req[:0], method...)
	c.req = append(c.req, ' ')
	c.req = append(c.req, c.Path...)
	c.req = append(c.req, " HTTP/1.1\r\nHost: "...)
	c.req = append(c.req, c.Addr...)
	c.req = append(c.req, "\r\nUser-Agent: mcpgen-bench\r\nAccept: application/json, text/event-stream\r\n"...)
	if c.headers {
		c.req = append(c.req, "Mcp-Protocol-Version: "+ProtocolVersion+"\r\n"...)
	}
	if c.Authorization != "" {
		c.req = append(c.req, "Authorization: "...)
		c.req = append(c.req, c.Authorization...)
		c.req = append(c.req, "\r\n"...)
	}
	if c.Session != "" {
		c.req = append(c.req, "Mcp-Session-Id: "...)
		c.req = append(c.req, c.Session...)
		c.req = append(c.req, "\r\n"...)
	}
	if body != nil {
		c.req = append(c.req, "Content-Type: application/json\r\nContent-Length: "...)
		c.req = strconv.AppendInt(c.req, int64(len(body)), 10)
		c.req = append(c.req, "\r\n\r\n"...)
		c.req = append(c.req, body...)
	} else {
		c.req = append(c.req, "\r\n"...)
	}
	for attempt := 0; ; attempt++ {
		reused := c.conn != nil && c.served > 0
		status, fresh, err := c.roundTrip()
		if err == nil {
			c.served++
			return status, nil
		}
		c.Close()
		if fresh && reused && c.RetryStale && attempt == 0 {
			continue
		}
		return 0, fmt.Errorf("%s: %s %s: %w", c.Name, method, c.Path, err)
	}
}

// roundTrip writes c.req and reads the answer. fresh reports that nothing
// of an answer arrived, so the request may be sent again.
func (c *HTTPClient) roundTrip() (status int, fresh bool, err error) {
	if c.conn == nil {
		conn, err := net.DialTimeout("tcp", c.Addr, c.timeout())
		if err != nil {
			return 0, false, err
		}
		if c.dials > 0 {
			c.Reconnects++
		}
		c.dials++
		c.served = 0
		c.conn = conn
		if c.br == nil {
			c.br = bufio.NewReaderSize(conn, 64<<10)
		} else {
			c.br.Reset(conn)
		}
	}
	c.conn.SetDeadline(time.Now().Add(c.timeout()))
	if _, err := c.conn.Write(c.req); err != nil {
		return 0, true, err
	}
	return c.readResponse()
}

// readResponse reads one HTTP/1.1 response into c.body.
func (c *HTTPClient) readResponse() (status int, fresh bool, err error) {
	var line []byte
	for {
		line, err = c.br.ReadSlice('\n')
		if err != nil {
			return 0, len(line) == 0, err
		}
		if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
			return 0, false, fmt.Errorf("bad status line %q", line)
		}
		status, err = strconv.Atoi(string(line[9:12]))
		if err != nil {
			return 0, false, fmt.Errorf("bad status line %q", line)
		}
		if status >= 200 || status == 101 {
			break
		}
		// 1xx: its headers, then the real response.
		if err := c.skipHeaders(); err != nil {
			return 0, false, err
		}
	}
	length, chunked, closeConn := int64(-1), false, false
	c.lastType = typeOther
	captured := false
	for {
		line, err = c.br.ReadSlice('\n')
		if err != nil {
			return 0, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case equalFold(name, "content-length"):
			length, err = strconv.ParseInt(string(value), 10, 64)
			if err != nil || length < 0 {
				return 0, false, fmt.Errorf("bad Content-Length %q", value)
			}
		case equalFold(name, "transfer-encoding"):
			chunked = bytes.Contains(bytes.ToLower(value), []byte("chunked"))
		case equalFold(name, "connection"):
			closeConn = bytes.EqualFold(value, []byte("close"))
		case equalFold(name, "content-type"):
			switch {
			case hasPrefixFold(value, "application/json"):
				c.lastType = typeJSON
			case hasPrefixFold(value, "text/event-stream"):
				c.lastType = typeSSE
			}
		case equalFold(name, "mcp-session-id"):
			if string(value) != c.Session {
				c.Session = string(value)
			}
		case c.CaptureHeader != "" && equalFold(name, c.CaptureHeader):
			captured = true
			if string(value) != c.Captured {
				c.Captured = string(value)
			}
		}
	}
	if !captured {
		c.Captured = ""
	}
	c.body = c.body[:0]
	switch {
	case status == 204 || status == 304:
	case chunked:
		if err := c.readChunked(); err != nil {
			return 0, false, err
		}
	case length >= 0:
		c.body = slices.Grow(c.body, int(length))[:length]
		if _, err := io.ReadFull(c.br, c.body); err != nil {
			return 0, false, err
		}
	default:
		// No length: the body ends with the connection.
		var b bytes.Buffer
		b.Write(c.body)
		if _, err := b.ReadFrom(c.br); err != nil {
			return 0, false, err
		}
		c.body = b.Bytes()
		closeConn = true
	}
	if closeConn {
		c.Close()
	}
	return status, false, nil
}

func (c *HTTPClient) skipHeaders() error {
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return nil
		}
	}
}

func (c *HTTPClient) readChunked() error {
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return err
		}
		line = bytes.TrimRight(line, "\r\n")
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("bad chunk size %q", line)
		}
		if n == 0 {
			return c.skipHeaders() // trailers
		}
		at := len(c.body)
		c.body = slices.Grow(c.body, int(n))[:at+int(n)]
		if _, err := io.ReadFull(c.br, c.body[at:]); err != nil {
			return err
		}
		if line, err := c.br.ReadSlice('\n'); err != nil || len(bytes.TrimRight(line, "\r\n")) != 0 {
			return fmt.Errorf("chunk not followed by CRLF (%v)", err)
		}
	}
}

func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && equalFold(b[:len(prefix)], prefix)
}

// Post sends one JSON-RPC message whose JSON has %ID% where its id goes
// (or none, for a notification) and returns the HTTP status and, for a
// request answered 200, the JSON-RPC response to it, taken from an
// application/json body or from the events of a text/event-stream. The
// returned bytes are valid until the next request.
func (c *HTTPClient) Post(template []byte) (status int, msg []byte, err error) {
	i := bytes.Index(template, idMark)
	if i < 0 {
		status, err = c.do("POST", template)
		return status, c.body, err
	}
	id := c.ids.Add(1)
	c.msg = append(c.msg[:0], template[:i]...)
	c.msg = strconv.AppendInt(c.msg, id, 10)
	c.msg = append(c.msg, template[i+len(idMark):]...)
	status, err = c.do("POST", c.msg)
	if err != nil {
		return 0, nil, err
	}
	if status != 200 {
		return status, c.body, &HTTPError{Status: status, Body: string(c.body)}
	}
	switch c.lastType {
	case typeJSON:
		if got, ok := responseID(c.body); ok && got == id {
			return status, c.body, nil
		}
	case typeSSE:
		if m, ok := sseResponse(c.body, id); ok {
			return status, m, nil
		}
	}
	return status, c.body, fmt.Errorf("%s: no response with id %d in the answer: %.300s", c.Name, id, c.body)
}

// sseResponse finds, among the events of a text/event-stream, the data
// of the JSON-RPC response with the given id.
func sseResponse(stream []byte, id int64) ([]byte, bool) {
	var data []byte
	for len(stream) > 0 {
		line := stream
		if i := bytes.IndexByte(stream, '\n'); i >= 0 {
			line, stream = stream[:i], stream[i+1:]
		} else {
			stream = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(line) == 0: // end of an event
			if got, ok := responseID(data); ok && got == id {
				return data, true
			}
			data = data[:0:0]
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(line[5:], []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, d...)
		}
	}
	if got, ok := responseID(data); ok && got == id {
		return data, true
	}
	return nil, false
}

// Handshake runs initialize and notifications/initialized. It keeps the
// session the server starts, if any, and sends Mcp-Protocol-Version from
// then on.
func (c *HTTPClient) Handshake() error {
	c.Session, c.headers = "", false
	_, msg, err := c.Post(InitializeReq)
	if err != nil {
		return fmt.Errorf("%s: initialize: %w", c.Name, err)
	}
	if !bytes.Contains(msg, []byte(`"protocolVersion"`)) {
		return fmt.Errorf("%s: initialize: unexpected answer %.300s", c.Name, msg)
	}
	c.headers = true
	status, _, err := c.Post(InitializedMsg)
	if err != nil {
		return fmt.Errorf("%s: notifications/initialized: %w", c.Name, err)
	}
	if status != 202 && status != 200 && status != 204 {
		return fmt.Errorf("%s: notifications/initialized: HTTP %d: %.300s", c.Name, status, c.body)
	}
	return nil
}

// Call makes one call and checks its answer; it returns the round trip,
// from writing the request to reading the end of its answer.
func (c *HTTPClient) Call(k *CallKind) (time.Duration, error) {
	start := time.Now()
	_, msg, err := c.Post(k.Request)
	d := time.Since(start)
	if err == nil {
		err = k.Check(msg)
	}
	return d, err
}

// Delete ends the client's session (DELETE with its Mcp-Session-Id) and
// returns the HTTP status.
func (c *HTTPClient) Delete() (int, error) {
	return c.do("DELETE", nil)
}

// Dial returns n clients of the server, each connected and past its
// handshake, handshaking four at a time.
func (s *HTTPServer) Dial(n int) ([]*HTTPClient, error) {
	cs := make([]*HTTPClient, n)
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, 4) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				cs[i] = s.Client()
				errs[i] = cs[i].Handshake()
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		CloseAll(cs)
		return nil, err
	}
	return cs, nil
}

// CloseAll closes every client.
func CloseAll(cs []*HTTPClient) {
	for _, c := range cs {
		if c != nil {
			c.Close()
		}
	}
}

// Run makes calls through the clients, each client one call at a time,
// cycling through kinds, and checks every answer. It stops after n calls
// (n > 0) or once d has passed (d > 0), whichever comes first: servers
// that differ forty-fold in speed are each measured for about as long.
func (s *HTTPServer) Run(clients []*HTTPClient, kinds []CallKind, n int, d time.Duration) (*Stats, error) {
	if n <= 0 {
		n = math.MaxInt
	}
	var next atomic.Int64
	var stop atomic.Bool
	lats := make([][]time.Duration, len(clients))
	errs := make(chan error, len(clients))
	reconnects := 0
	for _, c := range clients {
		reconnects -= c.Reconnects
	}
	cpu0, self0 := ProcessCPU(s.Pid()), ProcessCPU(os.Getpid())
	start := time.Now()
	if d > 0 {
		t := time.AfterFunc(d, func() { stop.Store(true) })
		defer t.Stop()
	}
	var wg sync.WaitGroup
	for w, c := range clients {
		wg.Go(func() {
			lat := make([]time.Duration, 0, 1024)
			defer func() { lats[w] = lat }()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				d, err := c.Call(&kinds[i%len(kinds)])
				if err != nil {
					errs <- err
					stop.Store(true)
					return
				}
				lat = append(lat, d)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu, self := ProcessCPU(s.Pid())-cpu0, ProcessCPU(os.Getpid())-self0
	select {
	case err := <-errs:
		return nil, fmt.Errorf("%s: %w", s.srv.Name, err)
	default:
	}
	for _, c := range clients {
		reconnects += c.Reconnects
	}
	lat := slices.Concat(lats...)
	if len(lat) == 0 {
		return nil, fmt.Errorf("%s: no call finished", s.srv.Name)
	}
	slices.Sort(lat)
	calls := time.Duration(len(lat))
	return &Stats{Calls: len(lat), Elapsed: elapsed, Latencies: lat, CPU: cpu, CPUPerCall: cpu / calls,
		DriverCPUPerCall: self / calls, Reconnects: reconnects}, nil
}

// SessionMemory is the memory a server holds for open sessions.
type SessionMemory struct {
	Sessions  int
	RSSBefore int64 // VmRSS with no session open, after a warm-up
	RSSAfter  int64 // VmRSS with every session open
	PeakRSS   int64 // VmHWM then
	Elapsed   time.Duration
}

// PerSession is the growth of the resident set per open session.
func (m *SessionMemory) PerSession() int64 {
	return (m.RSSAfter - m.RSSBefore) / int64(m.Sessions)
}

// OpenSessions measures the memory held by n open sessions. After a
// warm-up session (a few calls, then DELETE) it reads the server's
// VmRSS, opens n sessions (initialize and notifications/initialized
// each, through workers keep-alive connections, so that the sessions and
// not the connections are measured), waits a moment, and reads VmRSS and
// VmHWM again. It then checks that the sessions are still open: a call
// on a sample of them must succeed.
func (s *HTTPServer) OpenSessions(n, workers int) (*SessionMemory, error) {
	warm := s.Client()
	defer warm.Close()
	if err := warm.Handshake(); err != nil {
		return nil, err
	}
	if warm.Session == "" {
		return nil, fmt.Errorf("%s: initialize gave no Mcp-Session-Id", s.srv.Name)
	}
	for i := range 200 {
		if _, err := warm.Call(&Valid[i%len(Valid)]); err != nil {
			return nil, err
		}
	}
	if status, err := warm.Delete(); err != nil {
		return nil, err
	} else if status >= 300 {
		return nil, fmt.Errorf("%s: DELETE of a session: HTTP %d: %.300s", s.srv.Name, status, warm.body)
	}
	time.Sleep(200 * time.Millisecond)
	m := &SessionMemory{Sessions: n, RSSBefore: RSS(s.Pid())}
	ids := make([]string, n)
	errs := make([]error, workers)
	var next atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			c := s.Client()
			defer c.Close()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := c.Handshake(); err != nil {
					errs[w] = err
					next.Store(int64(n))
					return
				}
				if c.Session == "" {
					errs[w] = fmt.Errorf("%s: initialize gave no Mcp-Session-Id", s.srv.Name)
					next.Store(int64(n))
					return
				}
				ids[i] = c.Session
			}
		})
	}
	wg.Wait()
	m.Elapsed = time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	time.Sleep(500 * time.Millisecond)
	m.RSSAfter, m.PeakRSS = RSS(s.Pid()), PeakRSS(s.Pid())
	c := s.Client()
	defer c.Close()
	c.headers = true
	for i := 0; i < n; i += max(1, n/50) {
		c.Session = ids[i]
		if _, err := c.Call(&Greet); err != nil {
			return nil, fmt.Errorf("%s: session %d of %d is no longer open: %w", s.srv.Name, i+1, n, err)
		}
	}
	return m, nil
}

// RSS returns VmRSS, the resident set of the process now, in bytes; 0 if
// unknown.
func RSS(pid int) int64 { return procStatus(pid, "VmRSS:") }
