package claude_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// jobsServer is an MCP server whose report tool runs as a task and takes
// a while; it records the requests it serves and how the handler ended.
type jobsServer struct {
	srv   *runtime.Server
	delay time.Duration
	ended chan error

	mu   sync.Mutex
	seen []string // method and revision of each request
}

func newJobsServer(delay time.Duration) *jobsServer {
	j := &jobsServer{delay: delay, ended: make(chan error, 4)}
	j.srv = &runtime.Server{Name: "jobs", Version: "1.0.0"}
	j.srv.Middleware = []runtime.Middleware{func(next runtime.RequestHandler) runtime.RequestHandler {
		return func(ctx context.Context, req *runtime.RequestInfo) runtime.Outcome {
			j.mu.Lock()
			j.seen = append(j.seen, req.Method+" "+req.Revision+" "+string(req.Params))
			j.mu.Unlock()
			return next(ctx, req)
		}
	}}
	j.srv.AddTool(&runtime.Tool{
		Name:        "report",
		Description: "Build the monthly report. It takes a while.",
		Task:        runtime.TaskOptional,
		Handler: func(ctx context.Context, _ *runtime.ToolRequest) (*runtime.ToolResult, error) {
			t := time.NewTimer(j.delay)
			defer t.Stop()
			select {
			case <-t.C:
				j.ended <- nil
				return runtime.TextResult("Report ready: 42 items"), nil
			case <-ctx.Done():
				j.ended <- ctx.Err()
				return nil, ctx.Err()
			}
		},
	})
	return j
}

func (j *jobsServer) requests() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.seen...)
}

// startJobs serves a jobsServer whose report takes delay over
// Streamable HTTP, and starts the real CLI with it as an external server
// and a model that calls report.
func startJobs(t *testing.T, delay time.Duration) (*jobsServer, *host, *claude.Session) {
	t.Helper()
	j := newJobsServer(delay)
	h := newHost(t, "mcp__jobs__report", `{}`)
	h.allowAll()
	web := httptest.NewServer(j.srv.HTTPHandler(nil))
	t.Cleanup(web.Close)
	h.opts.MCPServers = map[string]claude.MCPServerConfig{"jobs": {Type: "http", URL: web.URL + "/mcp"}}
	return j, h, h.start()
}

// TestCLITaskTool: the real CLI reaches a task tool over Streamable HTTP
// under revision 2026-07-28 (it probes server/discover). Claude Code
// 2.1.332 declares the tasks extension only in interactive sessions: in
// the SDK's stream-json mode, the one this host drives, it declares none,
// so the tool answers it as a plain call, and the result reaches the next
// request to the model. (Interactive sessions poll tasks with tasks/get
// and cancel them with tasks/cancel when a turn is aborted; the offline
// harness does not drive one.)
func TestCLITaskTool(t *testing.T) {
	j, h, s := startJobs(t, 500*time.Millisecond)
	h.turn(s, "Build the report.")
	var call string
	for _, r := range j.requests() {
		if strings.HasPrefix(r, "tools/call ") {
			call = r
		}
	}
	switch {
	case !strings.HasPrefix(call, "tools/call 2026-07-28 "):
		t.Fatalf("the CLI's calls: %q", j.requests())
	case strings.Contains(call, "io.modelcontextprotocol/tasks"):
		t.Errorf("the CLI declared the tasks extension in SDK mode: run it as a task, and test the polling (%s)", call)
	}
	if err := <-j.ended; err != nil {
		t.Errorf("the handler ended with %v", err)
	}
	if len(requestsWith(h.api, "Report ready: 42 items")) == 0 {
		t.Errorf("the result did not reach the model: %v", answers(h.api))
	}
}

// TestCLITaskToolInterrupted: interrupting a turn while the CLI waits for
// a long call of the task tool ends the call on the server: the handler's
// ctx is cancelled, and the turn ends with a result. (A plain call, since
// the CLI declares no tasks in SDK mode: see TestCLITaskTool.)
func TestCLITaskToolInterrupted(t *testing.T) {
	j, h, s := startJobs(t, time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.Send(ctx, "Build the report."); err != nil {
		t.Fatal(err)
	}
	for !slices.ContainsFunc(j.requests(), func(r string) bool { return strings.HasPrefix(r, "tools/call ") }) {
		select {
		case <-ctx.Done():
			t.Fatalf("the CLI never called the tool: %q", j.requests())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := s.Interrupt(ctx); err != nil {
		t.Fatalf("Interrupt: %v", err)
	}
	select {
	case err := <-j.ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the handler ended with %v, want its ctx cancelled", err)
		}
	case <-ctx.Done():
		t.Fatalf("the handler still runs after the turn was interrupted; the server saw %q", j.requests())
	}
	h.until(ctx, s)
}
