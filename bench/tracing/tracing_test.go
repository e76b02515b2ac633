// Package tracing compares what tracing costs one tools/call in mcpgen
// (its otel module's middleware) and in mcp-go (its tracing hooks, through
// the equivalent of its OpenTelemetry adapter, internal/mcpgootel), each
// called in-process with no transport, on the same OpenTelemetry SDK:
// tracing off, every span dropped by the sampler, every span sampled into
// a batch span processor, and the same with a parent in _meta. Run them
// with
//
//	go test -run '^$' -bench . -benchmem ./tracing
//
// mcp-go makes two spans of a tools/call (mcp.tools/call and
// tool.create_ticket), mcpgen one (tools/call create_ticket); the rows
// measure each library doing what it does.
package tracing

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/mcpgentools"
	"github.com/mcpgen/mcpgen/bench/internal/mcpgootel"
	mcpgopeer "github.com/mcpgen/mcpgen/bench/internal/peers/mcpgo"
	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
)

const parent = `"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},`

// request is create_ticket with id 7, with a traceparent in _meta or not.
func request(withParent bool) []byte {
	r := bytes.Replace(driver.CreateTicket.Request, []byte("%ID%"), []byte("7"), 1)
	if withParent {
		r = bytes.Replace(r, []byte(`"params":{`), []byte(`"params":{`+parent), 1)
	}
	return r
}

type setup struct {
	name   string
	tp     trace.TracerProvider // nil: no tracing
	parent bool
}

func setups(b *testing.B) []setup {
	dropAll := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	batched := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	b.Cleanup(func() { dropAll.Shutdown(context.Background()); batched.Shutdown(context.Background()) })
	return []setup{
		{"off", nil, false},
		{"sampled-out", dropAll, false},
		{"sampled-in-batch", batched, false},
		{"sampled-in-batch-parent", batched, true},
	}
}

var w3c = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// BenchmarkTracing is one create_ticket call per library and setup.
func BenchmarkTracing(b *testing.B) {
	for _, st := range setups(b) {
		req := request(st.parent)
		b.Run(st.name+"/mcpgen", func(b *testing.B) {
			s := mcpgentools.NewServer()
			if st.tp != nil {
				mw, err := mcpotel.New(&mcpotel.Options{TracerProvider: st.tp, MeterProvider: noop.NewMeterProvider(), Propagator: w3c})
				if err != nil {
					b.Fatal(err)
				}
				s.Middleware = []runtime.Middleware{mw}
			}
			conn := s.NewConn(nil)
			defer conn.Close()
			ctx := context.Background()
			conn.Handle(ctx, driver.InitializeReq)
			check := func(out []byte) {
				if err := driver.CreateTicket.Check(out); err != nil {
					b.Fatal(err)
				}
			}
			check(conn.Handle(ctx, req))
			b.ReportAllocs()
			for b.Loop() {
				conn.Handle(ctx, req)
			}
		})
		b.Run(st.name+"/mcp-go", func(b *testing.B) {
			opts := mcpgopeer.Options()
			if st.tp != nil {
				opts = append(opts,
					mcpgoserver.WithTracer(mcpgootel.Tracer{T: st.tp.Tracer("mcp-go")}),
					mcpgoserver.WithMetaPropagator(mcpgootel.MetaPropagator{P: w3c}))
			}
			s := mcpgoserver.NewMCPServer("bench", "1.0.0", opts...)
			mcpgopeer.Register(s)
			ctx := context.Background()
			s.HandleMessage(ctx, driver.InitializeReq)
			s.HandleMessage(ctx, driver.InitializedMsg)
			call := func() []byte {
				out, err := json.Marshal(s.HandleMessage(ctx, req))
				if err != nil {
					b.Fatal(err)
				}
				return out
			}
			if err := driver.CreateTicket.Check(call()); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				call()
			}
		})
	}
}
