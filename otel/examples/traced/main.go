// Command traced is an MCP server traced with OpenTelemetry when the
// standard environment asks for it (see otel.Setup): with
// OTEL_EXPORTER_OTLP_ENDPOINT set, each request it answers is a span of
// the MCP semantic conventions, sent over OTLP (http/protobuf, or grpc
// with OTEL_EXPORTER_OTLP_PROTOCOL=grpc). Like the examples of the root
// module, it serves MCP on stdio with no flags, Streamable HTTP with
// -http ADDR, and runs one query through the Claude Code CLI with
// -prompt TEXT, handing the CLI its trace (TRACEPARENT). Its spans are
// flushed when it stops: at the end of its input on stdio, at SIGINT or
// SIGTERM otherwise.
//
// It has two tools: greet, and divide, which fails on a zero divisor.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"

	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

var (
	httpAddr   = flag.String("http", "", "serve Streamable HTTP at `addr` under /mcp, instead of stdio")
	stateless  = flag.Bool("stateless", false, "with -http, serve without sessions")
	prompt     = flag.String("prompt", "", "run one `query` through the Claude Code CLI with this server's tools in-process")
	claudePath = flag.String("claude", "", "`path` of the Claude Code CLI for -prompt (default: claude in PATH)")
)

type greetInput struct {
	Name string `json:"name"`
}

type divideInput struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// newServer returns the server with its tools.
func newServer() *runtime.Server {
	s := &runtime.Server{Name: "traced", Version: "1.0.0"}
	s.AddTool(&runtime.Tool{
		Name:        "greet",
		Description: "Greet a person by name.",
		InputSchema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			var in greetInput
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			// A span of the program's own nests under the request's.
			_, span := otelapi.Tracer("traced").Start(ctx, "compose greeting")
			defer span.End()
			return runtime.TextResult(fmt.Sprintf("Hello, %s! Welcome.", in.Name)), nil
		},
	})
	s.AddTool(&runtime.Tool{
		Name:        "divide",
		Description: "Divide a by b.",
		InputSchema: `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			var in divideInput
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			if in.B == 0 {
				return nil, errors.New("division by zero")
			}
			return runtime.TextResult(fmt.Sprint(in.A / in.B)), nil
		},
	})
	return s
}

func main() {
	flag.Parse()
	s := newServer()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	shutdown, err := mcpotel.Setup(ctx, s)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", s.Name, err)
		os.Exit(2)
	}
	err = serve(ctx, s)
	// Flush the spans and metrics left, within a bound of its own: the
	// serving context may be cancelled already.
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if serr := shutdown(sctx); serr != nil {
		fmt.Fprintf(os.Stderr, "%s: flushing telemetry: %v\n", s.Name, serr)
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", s.Name, err)
		os.Exit(1)
	}
}

func serve(ctx context.Context, s *runtime.Server) error {
	switch {
	case *prompt != "":
		return ask(ctx, s, *prompt)
	case *httpAddr != "":
		return s.ListenAndServeHTTP(ctx, *httpAddr, &runtime.HTTPOptions{Sessions: !*stateless})
	default:
		return s.ServeStdio(ctx)
	}
}

// ask runs prompt through the Claude Code CLI, in a span of its own whose
// trace the CLI gets in TRACEPARENT; the in-process tool calls are spans
// of that trace too.
func ask(ctx context.Context, s *runtime.Server, prompt string) error {
	ctx, span := otelapi.Tracer("traced").Start(ctx, "ask claude", trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	res, err := claude.Query(ctx, prompt, claude.Options{
		Path:         *claudePath,
		Servers:      map[string]*runtime.Server{s.Name: s},
		AllowedTools: []string{"mcp__" + s.Name + "__*"},
		Env:          mcpotel.CLIEnv(ctx),
	}, func(m claude.Message) {
		if r, ok := m.(*claude.ResultMessage); ok {
			fmt.Println(r.Result)
		}
	})
	if err != nil {
		return err
	}
	return res.Err()
}
