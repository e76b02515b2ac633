// Command attack runs the attacks of the hardening issue against a build
// of cmd/attack-server, one fresh server process each, and prints what
// each did to the server: whether other clients were still served, and
// the server's peak RSS (VmHWM). Build attack-server from two versions
// of the runtime and run this against each to compare them:
//
//	go build -o /tmp/srv ./cmd/attack-server
//	go run ./cmd/attack -server /tmp/srv
//
// It is not part of the benchmark: it measures what the server holds
// under abuse, not how fast it serves.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	server := flag.String("server", "", "`path` of an attack-server binary")
	only := flag.String("only", "", "run only the attack with this `name`")
	flag.Parse()
	if *server == "" {
		log.Fatal("attack: -server is required")
	}
	for _, a := range attacks {
		if *only != "" && a.name != *only {
			continue
		}
		start := time.Now()
		result, rss := a.run(*server)
		fmt.Printf("%-18s %-60s peak RSS %6.1f MiB  (%.1f s)\n", a.name, result, float64(rss)/(1<<20), time.Since(start).Seconds())
	}
}

var attacks = []struct {
	name string
	run  func(server string) (string, int64)
}{
	{"idle-uploads", idleUploads},
	{"stray-messages", strayMessages},
	{"roots-stdio", rootsStdio},
	{"roots-http", rootsHTTP},
	{"subscribe", subscribe},
	{"stalled-listener", stalledListener},
	{"listen-slots", listenSlots},
}

// A proc is a running attack-server.
type proc struct {
	cmd  *exec.Cmd
	addr string // host:port, for -http
	in   io.WriteCloser
	out  *bufio.Reader
}

// start runs server with args; with -http it waits until the port
// answers.
func start(server string, args ...string) *proc {
	p := &proc{}
	if len(args) > 0 && args[0] == "-http" {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			log.Fatal(err)
		}
		p.addr = l.Addr().String()
		l.Close()
		args = append([]string{"-http", p.addr}, args[1:]...)
	}
	p.cmd = exec.Command(server, args...)
	p.cmd.Stderr = io.Discard
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		log.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	p.out = bufio.NewReaderSize(out, 1<<20)
	if err := p.cmd.Start(); err != nil {
		log.Fatal(err)
	}
	for p.addr != "" {
		if c, err := net.Dial("tcp", p.addr); err == nil {
			c.Close()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return p
}

// peak returns the server's VmHWM in bytes.
func (p *proc) peak() int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return -1
}

func (p *proc) stop() {
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 60 * time.Second}

// post sends one message and returns the status, the body and the
// session id of the answer.
func (p *proc) post(body string, hdr ...string) (int, string, string) {
	req, _ := http.NewRequest(http.MethodPost, "http://"+p.addr+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err.Error(), ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header.Get("Mcp-Session-Id")
}

const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"attack","version":"1"}}}`

func addNote(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add_note","arguments":{"text":"n"}}}`, id)
}

// idleUploads: four connections announce 16 MiB bodies and send one
// byte; then another client makes 100 calls.
func idleUploads(server string) (string, int64) {
	p := start(server, "-http")
	defer p.stop()
	for range 4 {
		c, err := net.Dial("tcp", p.addr)
		if err != nil {
			log.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n ", p.addr, 16<<20-4096-100) // four of them announce the default 64 MiB budget
	}
	time.Sleep(300 * time.Millisecond)
	refused := 0
	for i := range 100 {
		if status, _, _ := p.post(addNote(i)); status != http.StatusOK {
			refused++
		}
	}
	return fmt.Sprintf("another client's calls refused: %d of 100", refused), p.peak()
}

// strayMessages: 10,000 sessions each get a response without an id;
// then a new client initializes.
func strayMessages(server string) (string, int64) {
	p := start(server, "-http", "-sessions")
	defer p.stop()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for range 10_000 {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			_, _, id := p.post(initialize)
			p.post(`{"jsonrpc":"2.0","result":{}}`, "Mcp-Session-Id", id)
		})
	}
	wg.Wait()
	status, _, _ := p.post(initialize)
	return fmt.Sprintf("a new client's initialize: %d", status), p.peak()
}

// rootsStdio: 100,000 notifications/roots/list_changed on stdio.
func rootsStdio(server string) (string, int64) {
	p := start(server)
	defer p.stop()
	// Written from a goroutine of its own: the server's answers fill the
	// other pipe meanwhile, and are read below.
	go func() {
		w := bufio.NewWriterSize(p.in, 1<<20)
		w.WriteString(initialize + "\n")
		for range 100_000 {
			w.WriteString(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}` + "\n")
		}
		w.WriteString(`{"jsonrpc":"2.0","id":"last","method":"ping"}` + "\n")
		w.Flush()
	}()
	asked := 0
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			break
		}
		if bytes.Contains(line, []byte(`"method":"roots/list"`)) {
			asked++
		}
		if bytes.Contains(line, []byte(`"id":"last"`)) {
			break
		}
	}
	time.Sleep(500 * time.Millisecond)
	return fmt.Sprintf("roots/list requests in flight after 100,000 notifications: %d", asked), p.peak()
}

// rootsHTTP: 20,000 notifications/roots/list_changed in a session, which
// then ends.
func rootsHTTP(server string) (string, int64) {
	p := start(server, "-http", "-sessions")
	defer p.stop()
	_, _, id := p.post(initialize)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for range 20_000 {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			p.post(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`, "Mcp-Session-Id", id)
		})
	}
	wg.Wait()
	req, _ := http.NewRequest(http.MethodDelete, "http://"+p.addr+"/mcp", nil)
	req.Header.Set("Mcp-Session-Id", id)
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
	}
	time.Sleep(500 * time.Millisecond)
	return "20,000 notifications, then the session ended", p.peak()
}

// subscribe: sixty resources/subscribe with 4 MiB URIs.
func subscribe(server string) (string, int64) {
	p := start(server, "-http", "-sessions")
	defer p.stop()
	_, _, id := p.post(initialize)
	accepted := 0
	for i := range 60 {
		uri := fmt.Sprintf("notes://%d%s", i, strings.Repeat("x", 4<<20))
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "resources/subscribe", "params": map[string]string{"uri": uri}})
		if status, b, _ := p.post(string(body), "Mcp-Session-Id", id); status == http.StatusOK && strings.Contains(b, `"result"`) {
			accepted++
		}
	}
	return fmt.Sprintf("4 MiB subscriptions kept: %d of 60", accepted), p.peak()
}

const listen = `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"resourcesListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

// openListen opens a subscriptions/listen from the local address from
// (127.0.0.x) that reads its answer's first bytes, then nothing; it
// reports whether the listen was acknowledged.
func openListen(addr, from string) (net.Conn, bool) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: %d\r\n\r\n%s", addr, len(listen), listen)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 4096)
	n, _ := c.Read(buf)
	c.SetReadDeadline(time.Time{})
	return c, bytes.Contains(buf[:n], []byte("acknowledged"))
}

// stalledListener: one listen that stops reading, while another client
// adds notes; the slowest add_note is reported.
func stalledListener(server string) (string, int64) {
	p := start(server, "-http")
	defer p.stop()
	c, _ := openListen(p.addr, "127.0.0.1")
	defer c.Close()
	var mu sync.Mutex
	var slowest time.Duration
	var wg sync.WaitGroup
	deadline := time.Now().Add(40 * time.Second)
	for w := range 16 {
		wg.Go(func() {
			for i := 0; i < 4000 && time.Now().Before(deadline); i++ {
				t := time.Now()
				p.post(addNote(w*10000 + i))
				d := time.Since(t)
				mu.Lock()
				slowest = max(slowest, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return fmt.Sprintf("slowest of 64,000 add_note with a stalled listener: %v", slowest.Round(time.Millisecond)), p.peak()
}

// listenSlots: one client (127.0.0.1) opens 300 listens; then another
// (127.0.0.2) opens one.
func listenSlots(server string) (string, int64) {
	p := start(server, "-http")
	defer p.stop()
	held := 0
	for range 300 {
		c, ok := openListen(p.addr, "127.0.0.1")
		defer c.Close()
		if ok {
			held++
		}
	}
	c, ok := openListen(p.addr, "127.0.0.2")
	defer c.Close()
	return fmt.Sprintf("listens one client holds: %d; another client's listen served: %v", held, ok), p.peak()
}
