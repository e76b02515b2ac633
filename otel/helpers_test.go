package otel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/runtime"
)

// traced is a server with the middleware, its spans kept in memory and
// its metrics read by hand.
type traced struct {
	srv    *runtime.Server
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
	// seen has, per tool call, the span context and baggage its handler's
	// context carried.
	seen chan handlerContext
}

type handlerContext struct {
	span    trace.SpanContext
	baggage string
}

// newTraced makes a server with tools echo (reports its context), fail
// (a tool error) and refused (refused by an inner middleware with a
// server error), a resource and a prompt, traced by the middleware with
// every span sampled and exported synchronously.
func newTraced(t *testing.T) *traced {
	t.Helper()
	tr := &traced{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader(), seen: make(chan handlerContext, 16)}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tr.spans), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(tr.reader))
	t.Cleanup(func() { tp.Shutdown(context.Background()); mp.Shutdown(context.Background()) })
	mw, err := New(&Options{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	refuse := func(next runtime.RequestHandler) runtime.RequestHandler {
		return func(ctx context.Context, req *runtime.RequestInfo) runtime.Outcome {
			if req.Target == "refused" {
				return runtime.Refuse(-32001, "refused by policy")
			}
			return next(ctx, req)
		}
	}
	s := &runtime.Server{Name: "traced", Version: "1.0.0", Middleware: []runtime.Middleware{mw, refuse}}
	s.AddTool(&runtime.Tool{Name: "echo", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		select {
		case tr.seen <- handlerContext{trace.SpanContextFromContext(ctx), baggage.FromContext(ctx).String()}:
		default:
		}
		return runtime.TextResult("ok"), nil
	}})
	s.AddTool(&runtime.Tool{Name: "fail", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		return nil, errors.New("the tool failed")
	}})
	s.AddTool(&runtime.Tool{Name: "refused", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		panic("refused by the middleware")
	}})
	s.AddResource(&runtime.Resource{URI: "notes://1", Name: "one", Handler: func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
		return &runtime.ResourceResult{Contents: []runtime.ResourceContents{{URI: req.URI, Text: "one"}}}, nil
	}})
	s.AddPrompt(&runtime.Prompt{Name: "summary", Handler: func(ctx context.Context, req *runtime.PromptRequest) (*runtime.PromptResult, error) {
		return runtime.UserPrompt("sum up"), nil
	}})
	tr.srv = s
	return tr
}

// takeSpans returns the spans ended so far, and forgets them.
func (tr *traced) takeSpans() tracetest.SpanStubs {
	s := tr.spans.GetSpans()
	tr.spans.Reset()
	return s
}

// handler returns what the last echo handler's context carried.
func (tr *traced) handler(t *testing.T) handlerContext {
	t.Helper()
	select {
	case h := <-tr.seen:
		return h
	default:
		t.Fatal("no echo handler ran")
		return handlerContext{}
	}
}

// metrics collects the histograms by name.
func (tr *traced) metrics(t *testing.T) map[string]metricdata.Histogram[float64] {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := tr.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Histogram[float64]{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if h, ok := m.Data.(metricdata.Histogram[float64]); ok {
				out[m.Name] = h
			}
		}
	}
	return out
}

// attrs turns attributes into a map of their values as strings.
func attrs(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// only returns the one span, failing otherwise.
func only(t *testing.T, spans tracetest.SpanStubs) tracetest.SpanStub {
	t.Helper()
	if len(spans) != 1 {
		names := []string{}
		for _, s := range spans {
			names = append(names, s.Name)
		}
		t.Fatalf("got %d spans %v, want 1", len(spans), names)
	}
	return spans[0]
}

// runtimeRequest is a request of an HTTP session under revision.
func runtimeRequest(revision string) *runtime.RequestInfo {
	return &runtime.RequestInfo{Method: "tools/call", Transport: "http", SessionID: "s1", Revision: revision}
}

// wantHTTPCall is what the span of a tools/call of tool in a Streamable
// HTTP session carries, over loopback; "*" stands for a value that varies.
func wantHTTPCall(tool, session string) map[string]string {
	return map[string]string{
		"mcp.method.name":          "tools/call",
		"gen_ai.tool.name":         tool,
		"gen_ai.operation.name":    "execute_tool",
		"jsonrpc.request.id":       "*",
		"mcp.protocol.version":     "2025-11-25",
		"mcp.session.id":           session,
		"network.transport":        "tcp",
		"network.protocol.name":    "http",
		"network.protocol.version": "1.1",
		"client.address":           "127.0.0.1",
		"client.port":              "*",
	}
}

// mismatches lists how the attributes got differ from want, where "*"
// matches any value but none.
func mismatches(got, want map[string]string) []string {
	var out []string
	for k, v := range want {
		g, ok := got[k]
		if !ok || v != "*" && g != v {
			out = append(out, fmt.Sprintf("%s = %q (present %v), want %q", k, g, ok, v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s = %q, not expected", k, v))
		}
	}
	slices.Sort(out)
	return out
}
