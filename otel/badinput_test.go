package otel

import (
	"context"
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"

	metricnoop "go.opentelemetry.io/otel/metric/noop"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/mcpgen/mcpgen/runtime"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// TestBadContext: a malformed traceparent, an over-long one, a huge
// tracestate or baggage, a _meta or a key of the wrong JSON type: each
// is ignored as W3C Trace Context and Baggage say (a new trace, no
// baggage, the tracestate dropped), within the bounds, and the call
// succeeds as if it carried nothing.
func TestBadContext(t *testing.T) {
	tr := newTraced(t)
	conn := tr.srv.NewConn(nil)
	defer conn.Close()
	long := func(n int, unit string) string { return strings.Repeat(unit, n/len(unit)+1)[:n] }
	validBaggage := "k=" + long(maxBaggage-2, "v")
	for _, tc := range []struct {
		name, meta string
		// wantParent: the span continues the trace of parent;
		// wantBaggage: the handler sees this baggage.
		wantParent  bool
		wantBaggage string
	}{
		{name: "no version", meta: `{"traceparent":"` + traceID + `-` + parentSpan + `-01"}`},
		{name: "bad hex", meta: `{"traceparent":"00-` + strings.Repeat("z", 32) + `-` + parentSpan + `-01"}`},
		{name: "zero trace id", meta: `{"traceparent":"00-` + strings.Repeat("0", 32) + `-` + parentSpan + `-01"}`},
		{name: "version ff", meta: `{"traceparent":"ff-` + traceID + `-` + parentSpan + `-01"}`},
		{name: "too long", meta: `{"traceparent":"01-` + traceID + `-` + parentSpan + `-01-` + long(maxTraceparent, "a") + `"}`},
		{name: "a number", meta: `{"traceparent":42}`},
		{name: "an object", meta: `{"traceparent":{"a":1},"baggage":["k=v"]}`},
		{name: "_meta a string", meta: `"00-` + traceID + `-` + parentSpan + `-01"`},
		{name: "_meta an array", meta: `["traceparent"]`},
		{name: "_meta null", meta: `null`},
		{name: "huge tracestate", meta: `{"traceparent":"` + parent + `","tracestate":"a=` + long(maxTracestate, "b") + `"}`, wantParent: true},
		{name: "baggage at the limit", meta: `{"baggage":"` + validBaggage + `"}`, wantBaggage: validBaggage},
		{name: "baggage past the limit", meta: `{"traceparent":"` + parent + `","baggage":"` + validBaggage + `v"}`, wantParent: true},
		{name: "huge baggage", meta: `{"baggage":"` + long(1<<20, "k=v,") + `"}`},
		{name: "malformed baggage", meta: `{"baggage":"=;;=,,"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := string(conn.Handle(context.Background(), []byte(mcptest.Request(1, "tools/call", `"name":"echo","_meta":`+tc.meta))))
			if !strings.Contains(resp, `"text":"ok"`) {
				t.Fatalf("the call failed: %.300s", resp)
			}
			s := only(t, tr.takeSpans())
			h := tr.handler(t)
			if got := s.Parent.IsValid() && s.Parent.TraceID().String() == traceID; got != tc.wantParent {
				t.Errorf("continues the trace: %v, want %v (parent %v)", got, tc.wantParent, s.Parent)
			}
			if s.SpanContext.TraceState().Len() != 0 {
				t.Errorf("tracestate %q kept", s.SpanContext.TraceState())
			}
			if h.baggage != tc.wantBaggage {
				t.Errorf("baggage %.40q…, want %.40q…", h.baggage, tc.wantBaggage)
			}
			if !s.SpanContext.IsValid() || s.Name != "tools/call echo" {
				t.Errorf("span %q %v", s.Name, s.SpanContext)
			}
		})
	}
}

// TestClientNamesBounded: what a client names that the server does not
// have (a method, a tool, a prompt, of any length) becomes _OTHER in span
// names and in the attributes of spans and metrics, and what a span
// records of the request as it is (a resource URI, a request id, an
// error's message) is cut to maxRecorded bytes: nothing of unbounded size
// or number chosen by a client is kept. Before, 20 unknown tool and
// method names of 4 MiB each left 80 MiB of span names on the heap with
// no-op providers, and 240 MiB with the SDK's.
func TestClientNamesBounded(t *testing.T) {
	tr := newTraced(t)
	conn := tr.srv.NewConn(nil)
	defer conn.Close()
	huge := func(i int) string { return fmt.Sprint(i) + strings.Repeat("x", 64<<10) }
	for i := range 5 {
		for _, req := range []string{
			mcptest.Request(1, "tools/call", `"name":"`+huge(i)+`"`),
			mcptest.Request(2, "prompts/get", `"name":"`+huge(i)+`"`),
			mcptest.Request(3, huge(i), ``),
			mcptest.Request(huge(i), "resources/read", `"uri":"notes://`+huge(i)+`"`),
		} {
			conn.Handle(context.Background(), []byte(req))
		}
	}
	spans := tr.takeSpans()
	if len(spans) != 20 {
		t.Fatalf("%d spans, want 20", len(spans))
	}
	names := map[string]bool{}
	for _, s := range spans {
		names[s.Name] = true
		for _, kv := range s.Attributes {
			if v := kv.Value.Emit(); len(v) > maxRecorded+len("…") {
				t.Errorf("span %.40q: %s of %d bytes", s.Name, kv.Key, len(v))
			}
		}
		if len(s.Status.Description) > maxRecorded+len("…") {
			t.Errorf("span %.40q: a status of %d bytes", s.Name, len(s.Status.Description))
		}
	}
	for _, want := range []string{"tools/call _OTHER", "prompts/get _OTHER", "_OTHER", "resources/read"} {
		if !names[want] {
			t.Errorf("no span %q among %d names", want, len(names))
		}
	}
	if len(names) != 4 {
		t.Errorf("%d span names for 4 kinds of request", len(names))
	}
	h := tr.metrics(t)["mcp.server.operation.duration"]
	for _, dp := range h.DataPoints {
		for _, kv := range dp.Attributes.ToSlice() {
			if v := kv.Value.Emit(); len(v) > 64 {
				t.Errorf("a data point's %s of %d bytes", kv.Key, len(v))
			}
		}
	}
	if len(h.DataPoints) != 4 {
		t.Errorf("%d series of mcp.server.operation.duration for 4 kinds of request", len(h.DataPoints))
	}
}

// TestClientNamesNotKept: the span names the middleware keeps are those
// of what the server has; with no-op providers, 20 calls of unknown tools
// of 1 MiB names leave nothing of them on the heap (before, all 20 MiB).
func TestClientNamesNotKept(t *testing.T) {
	mw, err := New(&Options{TracerProvider: tracenoop.NewTracerProvider(), MeterProvider: metricnoop.NewMeterProvider()})
	if err != nil {
		t.Fatal(err)
	}
	s := &runtime.Server{Name: "kept", Middleware: []runtime.Middleware{mw}}
	conn := s.NewConn(nil)
	defer conn.Close()
	msg := func(i int) []byte {
		return []byte(mcptest.Request(1, "tools/call", `"name":"`+fmt.Sprint(i)+strings.Repeat("x", 1<<20)+`"`))
	}
	conn.Handle(context.Background(), msg(-1)) // the session's first request builds its chain
	before := liveHeap()
	for i := range 20 {
		conn.Handle(context.Background(), msg(i))
	}
	if grown := int64(liveHeap()) - int64(before); grown > 4<<20 {
		t.Errorf("the live heap grew by %d bytes over 20 requests of 1 MiB names", grown)
	}
}

// liveHeap returns the bytes of the heap in use, after a collection.
func liveHeap() uint64 {
	var m goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}
