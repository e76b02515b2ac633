package otel_test

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
)

// TestSetupFromEnvironment: without an OTLP endpoint, or with
// OTEL_SDK_DISABLED=true, Setup does nothing (the server pays nothing);
// a protocol other than http/protobuf and grpc is an error that says so;
// with an endpoint, the middleware is put first.
func TestSetupFromEnvironment(t *testing.T) {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_TRACES_EXPORTER", "OTEL_SDK_DISABLED", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_METRICS_EXPORTER"} {
		t.Setenv(k, "")
	}
	ctx := context.Background()
	setup := func() (*runtime.Server, error) {
		s := &runtime.Server{Name: "s", Middleware: []runtime.Middleware{func(next runtime.RequestHandler) runtime.RequestHandler { return next }}}
		shutdown, err := mcpotel.Setup(ctx, s)
		if err == nil {
			if err := shutdown(ctx); err != nil {
				t.Errorf("shutdown: %v", err)
			}
		}
		return s, err
	}
	if s, err := setup(); err != nil || len(s.Middleware) != 1 || mcpotel.Enabled() {
		t.Errorf("no environment: %v, %d middleware", err, len(s.Middleware))
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_SDK_DISABLED", "true")
	if s, err := setup(); err != nil || len(s.Middleware) != 1 {
		t.Errorf("disabled: %v, %d middleware", err, len(s.Middleware))
	}
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json")
	if _, err := setup(); err == nil || !strings.Contains(err.Error(), `"http/json" is not supported`) {
		t.Errorf("http/json: %v", err)
	}
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "")
	// Nothing listens on port 1: both signals off, so that shutdown does
	// not try to send.
	t.Setenv("OTEL_TRACES_EXPORTER", "none")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	if s, err := setup(); err != nil || len(s.Middleware) != 2 {
		t.Errorf("with an endpoint: %v, %d middleware, want the otel one added", err, len(s.Middleware))
	}
}

// TestCLIEnv: the trace of ctx as TRACEPARENT and TRACESTATE; nothing
// without one.
func TestCLIEnv(t *testing.T) {
	if env := mcpotel.CLIEnv(context.Background()); len(env) != 0 {
		t.Errorf("no span: %v", env)
	}
	ts, _ := trace.ParseTraceState("mcpgen=t1")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled, TraceState: ts})
	env := mcpotel.CLIEnv(trace.ContextWithSpanContext(context.Background(), sc))
	want := []string{"TRACEPARENT=00-01000000000000000000000000000000-0200000000000000-01", "TRACESTATE=mcpgen=t1"}
	if strings.Join(env, " ") != strings.Join(want, " ") {
		t.Errorf("CLIEnv = %v, want %v", env, want)
	}
}
