// Package proctest runs the real servers that tests start as processes
// (ORY Hydra, Jaeger): it finds their binaries in the cache folder the
// .ci install scripts build them into, picks free loopback ports, starts
// a process with its output in a log file, stops it when the test ends,
// and shows the end of its log when the test failed.
//
// It is test support only, in the root module so that the nested modules
// can use it through the packages built on it (internal/hydratest,
// internal/jaegertest).
package proctest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// A Binary names a server the tests run and where to find it.
type Binary struct {
	// Name is the server's name in messages: "ORY Hydra".
	Name string
	// Env is the variable that may give the binary's path: MCPGEN_HYDRA.
	Env string
	// Require is the variable that, when set, makes a missing binary fail
	// the test instead of skipping it: MCPGEN_REQUIRE_HYDRA.
	Require string
	// Cached is the binary's path under the cache folder: hydra-v2.3.0/hydra.
	Cached string
	// Install says how to get it: "run .ci/install-hydra.sh or set MCPGEN_HYDRA".
	Install string
}

// Path returns the binary's path: $Env, then Cached under the cache
// folder ($MCPGEN_CACHE, default ~/.cache/mcpgen). Without one the test is
// skipped, unless $Require is set: then it fails.
func (b Binary) Path(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(b.Env); p != "" {
		return p
	}
	cache := os.Getenv("MCPGEN_CACHE")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".cache", "mcpgen")
		}
	}
	p := filepath.Join(cache, b.Cached)
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		return p
	}
	if os.Getenv(b.Require) != "" {
		t.Fatalf("%s is set but no %s binary was found: %s", b.Require, b.Name, b.Install)
	}
	t.Skipf("no %s found: %s", b.Name, b.Install)
	return ""
}

// A Process is a server started for a test.
type Process struct {
	// Exited is closed when the process has exited.
	Exited <-chan struct{}
	log    string
	err    error // what Wait returned, once Exited is closed
}

// errExited says that the process exited before it was ready.
var errExited = errors.New("the process exited")

// Start starts cmd, its output in a log file of the test, and stops it
// (an interrupt, then a kill after 10 s) when the test ends, logging the
// end of its log if the test failed. name prefixes what it logs.
func Start(t testing.TB, name string, cmd *exec.Cmd) *Process {
	t.Helper()
	logs, err := os.Create(filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close() // the child has its own descriptor
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: start %s: %v", name, cmd.Path, err)
	}
	exited := make(chan struct{})
	p := &Process{Exited: exited, log: logs.Name()}
	go func() { p.err = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("%s: the server's log:\n%s", name, p.LogTail())
		}
	})
	return p
}

// WaitReady polls ready every 50 ms until it reports true, the process
// exits (errExited), or ctx ends.
func (p *Process) WaitReady(ctx context.Context, ready func(context.Context) bool) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if ready(ctx) {
			return nil
		}
		select {
		case <-p.Exited:
			return errExited
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Explain adds to err, an error of waiting for the process to be ready,
// how the process exited if it did, and the end of its log.
func (p *Process) Explain(err error) string {
	if errors.Is(err, errExited) {
		<-p.Exited
		err = fmt.Errorf("%w (%v)", err, p.err)
	}
	return fmt.Sprintf("%v\n%s", err, p.LogTail())
}

// LogTail returns the end of the process's log: the last 64 KiB, which
// hold the error that made a test fail.
func (p *Process) LogTail() string {
	data, err := os.ReadFile(p.log)
	if err != nil {
		return err.Error()
	}
	const max = 64 << 10
	if len(data) > max {
		data = data[len(data)-max:]
	}
	return string(data)
}

// HTTPStatus returns the status u answers a GET with, 0 if it does not
// answer: for a readiness check.
func HTTPStatus(ctx context.Context, c *http.Client, u string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0
	}
	res, err := c.Do(req)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// FreePort returns a loopback address with a port that was free a moment
// ago. The servers take their ports from their configuration, so the port
// cannot be handed over open; another process could take it in between,
// which on a test machine does not happen in practice.
func FreePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
