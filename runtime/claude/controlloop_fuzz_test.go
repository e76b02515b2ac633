package claude

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// FuzzControlProtocol feeds arbitrary lines from the "CLI" to the Claude
// host's control loop (seed corpus in testdata/fuzz/FuzzControlProtocol).
// The loop must never panic or hang, must write only whole JSON lines that
// are control responses (or its own control requests), and must answer
// every control request that carries a request id exactly once, except one
// the CLI withdrew.
//
//	go test ./runtime/claude -run XXX -fuzz FuzzControlProtocol -fuzztime 5m -parallel 1
func FuzzControlProtocol(f *testing.F) {
	for _, seed := range []string{
		`{"type":"control_request","request_id":"a","request":{"subtype":"mcp_message","server_name":"s","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}}}`,
		`{"type":"control_request","request_id":"b","request":{"subtype":"mcp_message","server_name":"s","message":{"jsonrpc":"2.0","method":"notifications/initialized"}}}`,
		`{"type":"control_request","request_id":"c","request":{"subtype":"mcp_message","server_name":"nope","message":{"jsonrpc":"2.0","id":"x","method":"tools/list"}}}`,
		`{"type":"control_request","request_id":"d","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"c":1}}}` + "\n" + `{"type":"control_cancel_request","request_id":"d"}`,
		`{"type":"control_request","request_id":"e","request":{"subtype":"what"}}`,
		`{"type":"control_request","request_id":"f","request":{"subtype":"mcp_message","server_name":"s","message":[1,2]}}`,
		`{"type":"control_request","request_id":"g","request":{"subtype":"mcp_message","server_name":"s"}}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"zzz"}}`,
		`{"type":"assistant","message":{"content":"x"}}` + "\n" + `not json` + "\n" + `{"type":"result","subtype":"success"}`,
		`{"type":"control_request","request_id":7,"request":{"subtype":"mcp_message"}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		s := &runtime.Server{Name: "s", Logger: slog.New(slog.DiscardHandler)}
		s.AddTool(&runtime.Tool{
			Name:        "echo",
			InputSchema: `{"type":"object","properties":{"text":{"type":"string"}},"additionalProperties":false}`,
			Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
				runtime.ReportProgress(ctx, 1, 2, "half")
				return runtime.TextResult(string(req.Arguments)), nil
			},
		})
		allow := func(context.Context, PermissionRequest) (PermissionResult, error) {
			return PermissionResult{Allow: true}, nil
		}
		hostIn, cliOut := io.Pipe()
		cliIn, hostOut := io.Pipe()
		cc := newControlConn(context.Background(), hostIn, hostOut, hostConfig{servers: map[string]*runtime.Server{"s": s}, canUseTool: allow, logger: slog.New(slog.DiscardHandler)})

		lines := make(chan string, 1024)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(cliIn)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		io.WriteString(cliOut, input+"\n")
		cliOut.Close()
		select {
		case <-cc.done:
		case <-time.After(10 * time.Second):
			t.Fatalf("the control loop did not end after its input did, for %q", input)
		}
		hostOut.Close()

		// Requests with a string id that the input did not withdraw.
		want := map[string]int{}
		withdrawn := map[string]bool{}
		for _, l := range strings.Split(input, "\n") {
			// Member names are matched exactly, as the CLI writes them
			// (encoding/json would match "tYpe" too).
			v, err := jsonvalue.Parse([]byte(l))
			if err != nil || v.Kind() != jsonvalue.Object {
				continue
			}
			id := stringMember(v, "request_id")
			switch stringMember(v, "type") {
			case "control_request":
				if req := v.Get("request"); id != "" && req.Exists() && req.Kind() == jsonvalue.Object {
					want[id]++
				}
			case "control_cancel_request":
				withdrawn[id] = true
			}
		}
		got := map[string]int{}
		for l := range lines {
			var env struct {
				Type     string `json:"type"`
				Response struct {
					RequestID string `json:"request_id"`
				} `json:"response"`
			}
			if err := json.Unmarshal([]byte(l), &env); err != nil {
				t.Fatalf("the host wrote a line that is not JSON: %q (%v)", l, err)
			}
			switch env.Type {
			case "control_response":
				got[env.Response.RequestID]++
			case "control_request": // a forwarded notification
			default:
				t.Fatalf("the host wrote %q", l)
			}
		}
		for id, n := range got {
			if n > want[id] {
				t.Fatalf("request %q answered %d times (sent %d) for input %q", id, n, want[id], input)
			}
		}
		for id, n := range want {
			if n == 1 && got[id] != 1 && !withdrawn[id] {
				t.Fatalf("request %q answered %d times for input %q", id, got[id], input)
			}
		}
	})
}
