package otel_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/jaegertest"
	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// The tests in this file send spans to a real Jaeger through the
// standard environment and Setup, and read them back through its query
// API: the parent a client put in _meta, the span's name, kind and every
// attribute, the error of a failing call.

// newParent returns a random W3C traceparent, and its trace and span ids.
func newParent(t *testing.T) (traceparent, traceID, spanID string) {
	t.Helper()
	var b [24]byte
	rand.Read(b[:])
	traceID, spanID = hex.EncodeToString(b[:16]), hex.EncodeToString(b[16:])
	return "00-" + traceID + "-" + spanID + "-01", traceID, spanID
}

// otelEnv sets the standard environment for the test: OTLP to Jaeger
// over protocol, every trace sampled, no metrics (Jaeger takes traces).
func otelEnv(t *testing.T, js *jaegertest.Server, protocol, service string) {
	endpoint := js.OTLPHTTP()
	if protocol == "grpc" {
		endpoint = js.OTLPGRPC()
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
	t.Setenv("OTEL_TRACES_SAMPLER", "parentbased_always_on")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	t.Setenv("OTEL_SERVICE_NAME", service)
}

// bySpanName indexes spans by name; a name twice fails the test.
func bySpanName(t *testing.T, spans []jaegertest.Span) map[string]jaegertest.Span {
	t.Helper()
	m := map[string]jaegertest.Span{}
	for _, s := range spans {
		if _, dup := m[s.Name]; dup {
			t.Fatalf("two spans named %q", s.Name)
		}
		m[s.Name] = s
	}
	return m
}

// checkAttrs compares a span's attributes with want; "*" matches any
// value but none.
func checkAttrs(t *testing.T, s jaegertest.Span, want map[string]string) {
	t.Helper()
	if m := mcpotel.Mismatches(s.Attributes, want); len(m) > 0 {
		t.Errorf("span %q: %v", s.Name, m)
	}
}

func tracedServer() *runtime.Server {
	s := &runtime.Server{Name: "traced", Version: "1.0.0"}
	s.AddTool(&runtime.Tool{Name: "greet", InputSchema: `{"type":"object","properties":{"name":{"type":"string"}}}`, Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return runtime.TextResult("Hello!"), nil
	}})
	s.AddTool(&runtime.Tool{Name: "divide", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return nil, os.ErrInvalid
	}})
	return s
}

// TestJaegerOfficialClientHTTP: the official Go SDK's client calls a tool
// over Streamable HTTP with a traceparent in _meta; Jaeger has the
// server's span under that parent, with every attribute, over OTLP
// http/protobuf and grpc; a failing call's span is an error.
func TestJaegerOfficialClientHTTP(t *testing.T) {
	js := jaegertest.Start(t)
	for _, protocol := range []string{"http/protobuf", "grpc"} {
		t.Run(strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			service := "traced-http-" + strings.ReplaceAll(protocol, "/", "-")
			otelEnv(t, js, protocol, service)
			s := tracedServer()
			ctx := context.Background()
			shutdown, err := mcpotel.Setup(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(s.HTTPHandler(&runtime.HTTPOptions{Sessions: true}))
			defer ts.Close()
			client := mcp.NewClient(&mcp.Implementation{Name: "official", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
			if err != nil {
				t.Fatal(err)
			}
			traceparent, traceID, parentID := newParent(t)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Meta: mcp.Meta{"traceparent": traceparent, "tracestate": "mcpgen=t1"}})
			if err != nil || res.IsError {
				t.Fatalf("greet: %v %+v", err, res)
			}
			failParent, failTrace, _ := newParent(t)
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "divide", Meta: mcp.Meta{"traceparent": failParent}})
			if err != nil || !res.IsError {
				t.Fatalf("divide: %v %+v, want a tool error", err, res)
			}
			session := cs.ID()
			cs.Close()
			if err := shutdown(ctx); err != nil {
				t.Fatalf("shutdown: %v", err)
			}

			s1 := bySpanName(t, js.Trace(t, traceID, 1))["tools/call greet"]
			if s1.Kind != "SERVER" || s1.ParentSpanID != parentID || s1.Service != service || s1.StatusCode != "" {
				t.Errorf("greet: %+v, want a SERVER span of %s under %s, status unset", s1, service, parentID)
			}
			checkAttrs(t, s1, mcpotel.WantHTTPCall("greet", session))
			s2 := bySpanName(t, js.Trace(t, failTrace, 1))["tools/call divide"]
			if s2.StatusCode != "ERROR" || s2.Attributes["error.type"] != "tool_error" {
				t.Errorf("divide: status %q, error.type %q, want ERROR and tool_error", s2.StatusCode, s2.Attributes["error.type"])
			}
		})
	}
}

// TestJaegerStdio: the traced example serves stdio; a client writes an
// initialize and two tool calls with traceparents and closes its input;
// the server exits, and Jaeger has both spans (flushed at the end of the
// input), the program's own span nested in the greet call's.
func TestJaegerStdio(t *testing.T) {
	js := jaegertest.Start(t)
	bin := filepath.Join(t.TempDir(), "traced")
	if out, err := exec.Command("go", "build", "-o", bin, "./examples/traced").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, protocol := range []string{"http/protobuf", "grpc"} {
		t.Run(strings.ReplaceAll(protocol, "/", "-"), func(t *testing.T) {
			service := "traced-stdio-" + strings.ReplaceAll(protocol, "/", "-")
			otelEnv(t, js, protocol, service)
			traceparent, traceID, parentID := newParent(t)
			failParent, failTrace, _ := newParent(t)
			in := strings.Join([]string{
				mcptest.Initialize(1, "2025-11-25"),
				mcptest.Initialized,
				mcptest.Request(2, "tools/call", `"name":"greet","arguments":{"name":"Ada"},"_meta":{"traceparent":"`+traceparent+`","baggage":"user=ada"}`),
				mcptest.Request("three", "tools/call", `"name":"divide","arguments":{"a":1,"b":0},"_meta":{"traceparent":"`+failParent+`"}`),
			}, "\n") + "\n"
			cmd := exec.Command(bin)
			cmd.Stdin = strings.NewReader(in)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("traced: %v\n%s", err, stderr.String())
			}
			if !strings.Contains(stdout.String(), "Hello, Ada!") || !strings.Contains(stdout.String(), "division by zero") {
				t.Fatalf("answers: %s", stdout.String())
			}
			spans := bySpanName(t, js.Trace(t, traceID, 2))
			call := spans["tools/call greet"]
			if call.Kind != "SERVER" || call.ParentSpanID != parentID || call.Service != service {
				t.Errorf("greet: %+v", call)
			}
			checkAttrs(t, call, map[string]string{
				"mcp.method.name":       "tools/call",
				"gen_ai.tool.name":      "greet",
				"gen_ai.operation.name": "execute_tool",
				"jsonrpc.request.id":    "2",
				"mcp.protocol.version":  "2025-11-25",
				"network.transport":     "pipe",
			})
			if own := spans["compose greeting"]; own.ParentSpanID != call.SpanID {
				t.Errorf("the handler's own span has parent %q, want the call's %q", own.ParentSpanID, call.SpanID)
			}
			fail := bySpanName(t, js.Trace(t, failTrace, 1))["tools/call divide"]
			if fail.StatusCode != "ERROR" || fail.Attributes["error.type"] != "tool_error" || fail.Attributes["jsonrpc.request.id"] != "three" {
				t.Errorf("divide: %+v", fail)
			}
		})
	}
}

// deadline is how long a Jaeger test may wait for the CLI.
const deadline = 3 * time.Minute
