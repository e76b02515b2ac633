package otel

import (
	"context"
	"strings"
	"testing"
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
			resp := string(conn.Handle(context.Background(), []byte(call(`1`, "tools/call", `"name":"echo","_meta":`+tc.meta))))
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
