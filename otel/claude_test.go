package otel_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/jaegertest"
	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// TestJaegerClaudeCLI: the real Claude Code CLI, offline, calls a tool of
// a server hosted in this process, inside a span of the test's. The CLI
// puts no trace context in an in-process tool call's _meta, so the
// server's span is a child of the span the host runs in (the ambient
// context). And the CLI reads TRACEPARENT from its environment (CLIEnv)
// when its own tracing is on: its spans, sent to the same Jaeger, are in
// the test's trace, its interaction span a child of the test's span.
func TestJaegerClaudeCLI(t *testing.T) {
	js := jaegertest.Start(t)
	cli := claudetest.CLI(t)
	api := claudetest.API(t, "mcp__traced__greet", `{"name":"Ada"}`)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()

	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(js.OTLPHTTP()+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	mw, err := mcpotel.New(&mcpotel.Options{TracerProvider: tp})
	if err != nil {
		t.Fatal(err)
	}
	s := tracedServer()
	s.Middleware = []runtime.Middleware{mw}

	ctx, root := tp.Tracer("test").Start(ctx, "ask claude", trace.WithSpanKind(trace.SpanKindClient))
	env := slices.DeleteFunc(claudetest.Env(t, api), func(kv string) bool { return strings.HasPrefix(kv, "DISABLE_TELEMETRY=") })
	env = append(env,
		"ENABLE_TOOL_SEARCH=false",
		// The CLI's own tracing, to the same Jaeger.
		"CLAUDE_CODE_ENABLE_TELEMETRY=1",
		"CLAUDE_CODE_ENHANCED_TELEMETRY_BETA=1",
		"OTEL_TRACES_EXPORTER=otlp",
		"OTEL_METRICS_EXPORTER=none",
		"OTEL_LOGS_EXPORTER=none",
		"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
		"OTEL_EXPORTER_OTLP_ENDPOINT="+js.OTLPHTTP(),
		"OTEL_BSP_SCHEDULE_DELAY=100",
	)
	env = append(env, mcpotel.CLIEnv(ctx)...)
	var stderr strings.Builder
	res, err := claude.Query(ctx, "Greet Ada.", claude.Options{
		Path:         cli,
		Dir:          t.TempDir(),
		Env:          env,
		Model:        "claude-sonnet-4-5",
		Servers:      map[string]*runtime.Server{"traced": s},
		AllowedTools: []string{"mcp__traced__greet"},
		Stderr:       &stderr,
	}, nil)
	if err != nil {
		t.Fatalf("Query: %v\n%s", err, stderr.String())
	}
	if err := res.Err(); err != nil {
		t.Fatalf("the run failed: %v\n%s", err, stderr.String())
	}
	root.End()
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	rootID := root.SpanContext()
	// The host's span, the server's initialize and tool call, and the
	// CLI's interaction, two model requests and its tool spans.
	spans := js.Trace(t, rootID.TraceID().String(), 8)
	byName := map[string][]jaegertest.Span{}
	for _, sp := range spans {
		byName[sp.Name] = append(byName[sp.Name], sp)
	}
	calls := byName["tools/call greet"]
	if len(calls) != 1 {
		t.Fatalf("spans of the trace: %v, want one tools/call greet", jaegertest.Tree(spans))
	}
	call := calls[0]
	if call.Kind != "SERVER" || call.ParentSpanID != rootID.SpanID().String() {
		t.Errorf("the tool call's span: %+v, want a SERVER span under the host's span %s", call, rootID.SpanID())
	}
	checkAttrs(t, call, map[string]string{
		"mcp.method.name":       "tools/call",
		"gen_ai.tool.name":      "greet",
		"gen_ai.operation.name": "execute_tool",
		"jsonrpc.request.id":    "*",
		"mcp.protocol.version":  "*",
	})
	// The CLI's own spans: its interaction is a child of the span whose
	// trace CLIEnv handed it, and it ran the tool in a span of its own.
	interaction := byName["claude_code.interaction"]
	if len(interaction) != 1 || interaction[0].ParentSpanID != rootID.SpanID().String() || interaction[0].Service != "claude-code" {
		t.Errorf("the CLI's interaction spans %+v, want one of claude-code under the host's span %s; the trace: %v", interaction, rootID.SpanID(), jaegertest.Tree(spans))
	}
	if len(byName["claude_code.tool"]) != 1 {
		t.Errorf("the CLI's tool spans: %v", jaegertest.Tree(spans))
	}
}
