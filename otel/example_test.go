package otel_test

import (
	"context"
	"fmt"
	"slices"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
)

// A tool call whose client put a traceparent in _meta: its span is a
// SERVER span of that trace, named by the conventions, with their
// attributes.
func ExampleNew() {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	mw, err := mcpotel.New(&mcpotel.Options{TracerProvider: tp})
	if err != nil {
		panic(err)
	}
	s := &runtime.Server{Name: "demo", Middleware: []runtime.Middleware{mw}}
	s.AddTool(&runtime.Tool{Name: "greet", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return runtime.TextResult("Hello!"), nil
	}})
	conn := s.NewConn(nil)
	defer conn.Close()
	conn.Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet",`+
		`"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`))

	span := spans.GetSpans()[0]
	fmt.Println(span.Name, span.SpanKind, span.SpanContext.TraceID(), "under", span.Parent.SpanID())
	var attrs []string
	for _, kv := range span.Attributes {
		attrs = append(attrs, fmt.Sprintf("%s=%s", kv.Key, kv.Value.Emit()))
	}
	slices.Sort(attrs)
	fmt.Println(attrs)
	// Output:
	// tools/call greet server 4bf92f3577b34da6a3ce929d0e0e4736 under 00f067aa0ba902b7
	// [gen_ai.operation.name=execute_tool gen_ai.tool.name=greet jsonrpc.request.id=7 mcp.method.name=tools/call]
}
