// Package redistest starts real Redis servers for tests: Debian's
// redis-server, on a free loopback port, without persistence, stopped when
// the test ends. A test can stop one and start it again on the same port,
// to see what its clients do meanwhile.
//
// The binary comes from $MCPGEN_REDIS, then /usr/bin/redis-server and
// redis-server in PATH (.ci/install-redis.sh installs it). Without one a
// test is skipped, unless $MCPGEN_REQUIRE_REDIS is set (CI sets it): then
// it fails.
//
// It is test support only, in the root module so that the nested modules
// (store/redis) can import it too: an internal package is visible to every
// import path under the module path's root, whichever module holds the
// importer.
package redistest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/proctest"
)

// Binary returns the path of redis-server: $MCPGEN_REDIS, then
// /usr/bin/redis-server, then redis-server in PATH. Without one the test is
// skipped, unless $MCPGEN_REQUIRE_REDIS is set: then it fails.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("MCPGEN_REDIS"); p != "" {
		return p
	}
	if fi, err := os.Stat("/usr/bin/redis-server"); err == nil && !fi.IsDir() {
		return "/usr/bin/redis-server"
	}
	if p, err := exec.LookPath("redis-server"); err == nil {
		return p
	}
	if os.Getenv("MCPGEN_REQUIRE_REDIS") != "" {
		t.Fatal("MCPGEN_REQUIRE_REDIS is set but no redis-server was found: run .ci/install-redis.sh or set MCPGEN_REDIS")
	}
	t.Skip("no redis-server found: run .ci/install-redis.sh or set MCPGEN_REDIS to test against a real Redis")
	return ""
}

// A Server is a Redis server of a test.
type Server struct {
	t    testing.TB
	bin  string
	addr string // host:port, the same across restarts
	dir  string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// startTimeout bounds how long Start waits for Redis to answer; it does in
// a few milliseconds.
const startTimeout = 20 * time.Second

// Start runs a Redis server for the test on a free loopback port, waits
// until it answers, and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, bin: Binary(t), addr: proctest.FreePort(t), dir: t.TempDir()}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// Addr returns the server's address, host:port.
func (s *Server) Addr() string { return s.addr }

// URL returns the server's address as a redis:// URL.
func (s *Server) URL() string { return "redis://" + s.addr }

// Stop stops the server (SIGTERM, then SIGKILL after 10 s) and waits until
// it has exited; it does nothing if it is not running.
func (s *Server) Stop() {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(os.Interrupt)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
}

// Restart starts the server again on its port, after Stop, and waits
// until it answers; its data are gone.
func (s *Server) Restart() {
	s.t.Helper()
	host, port, _ := net.SplitHostPort(s.addr)
	cmd := exec.Command(s.bin, "--bind", host, "--port", port, "--save", "", "--appendonly", "no",
		"--dir", s.dir, "--protected-mode", "yes", "--loglevel", "warning")
	logs, err := os.OpenFile(filepath.Join(s.dir, "redis.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer logs.Close() // the child has its own descriptor
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("redistest: start %s: %v", s.bin, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	s.mu.Lock()
	s.cmd, s.exited = cmd, exited
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := waitPong(ctx, s.addr, exited); err != nil {
		log, _ := os.ReadFile(logs.Name())
		s.t.Fatalf("redistest: Redis is not ready: %v\n%s", err, log)
	}
}

// errExited is why a server that exited is not ready.
var errExited = errors.New("redis-server exited")

// waitPong waits until the server at addr answers PING.
func waitPong(ctx context.Context, addr string, exited <-chan struct{}) error {
	for {
		if err := ping(ctx, addr); err == nil {
			return nil
		}
		select {
		case <-exited:
			return errExited
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// ping sends PING in Redis's inline protocol and reads +PONG.
func ping(ctx context.Context, addr string) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if strings.TrimSpace(line) != "+PONG" {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}
