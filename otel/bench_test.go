package otel_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpgen/mcpgen/examples/tickets"
	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
)

// The tools/call of the runtime's BenchmarkCall, and the same with a
// traceparent in _meta.
var (
	createTicket       = []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash on save","description":"The app crashes when saving","kind":"bug","labels":["ui","p1"]}}}`)
	createTicketParent = []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash on save","description":"The app crashes when saving","kind":"bug","labels":["ui","p1"]},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`)
)

const createTicketReply = `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Ticket 'Crash on save' created successfully (ID: TKT-42)"}]}}`

// BenchmarkCall is the runtime's BenchmarkCall (one tools/call through a
// Conn) without middleware, with a middleware that only passes the
// request on, and with this module's middleware: every span dropped by
// the sampler (metrics off, then on), and every span sampled and sent to
// a batch span processor (whose exporter discards them), with and without
// a parent in _meta.
func BenchmarkCall(b *testing.B) {
	pass := func(next runtime.RequestHandler) runtime.RequestHandler { return next }
	dropAll := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	batched := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	metrics := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() {
		ctx := context.Background()
		dropAll.Shutdown(ctx)
		batched.Shutdown(ctx)
		metrics.Shutdown(ctx)
	})
	otelMW := func(b *testing.B, opts *mcpotel.Options) runtime.Middleware {
		mw, err := mcpotel.New(opts)
		if err != nil {
			b.Fatal(err)
		}
		return mw
	}
	for _, bc := range []struct {
		name string
		mw   func(b *testing.B) []runtime.Middleware
		req  []byte
	}{
		{"none", func(*testing.B) []runtime.Middleware { return nil }, createTicket},
		{"pass-through", func(*testing.B) []runtime.Middleware { return []runtime.Middleware{pass} }, createTicket},
		{"otel-sampled-out", func(b *testing.B) []runtime.Middleware {
			return []runtime.Middleware{otelMW(b, &mcpotel.Options{TracerProvider: dropAll, MeterProvider: noop.NewMeterProvider()})}
		}, createTicket},
		{"otel-sampled-out-metrics", func(b *testing.B) []runtime.Middleware {
			return []runtime.Middleware{otelMW(b, &mcpotel.Options{TracerProvider: dropAll, MeterProvider: metrics})}
		}, createTicket},
		{"otel-sampled-in-batch", func(b *testing.B) []runtime.Middleware {
			return []runtime.Middleware{otelMW(b, &mcpotel.Options{TracerProvider: batched, MeterProvider: noop.NewMeterProvider()})}
		}, createTicket},
		{"otel-sampled-in-batch-parent", func(b *testing.B) []runtime.Middleware {
			return []runtime.Middleware{otelMW(b, &mcpotel.Options{TracerProvider: batched, MeterProvider: noop.NewMeterProvider()})}
		}, createTicketParent},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := tickets.NewServer()
			s.Middleware = bc.mw(b)
			conn := s.NewConn(nil)
			defer conn.Close()
			ctx := context.Background()
			if got := string(conn.Handle(ctx, bc.req)); got != createTicketReply {
				b.Fatalf("unexpected reply %s", got)
			}
			b.ReportAllocs()
			for b.Loop() {
				conn.Handle(ctx, bc.req)
			}
		})
	}
}
