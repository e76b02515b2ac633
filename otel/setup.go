package otel

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	otelapi "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/mcpgen/mcpgen/runtime"
)

// Enabled reports whether the standard OpenTelemetry environment asks for
// telemetry: an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, or the one for
// traces), or OTEL_TRACES_EXPORTER=otlp; and not OTEL_SDK_DISABLED=true.
func Enabled() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" ||
		os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" ||
		os.Getenv("OTEL_TRACES_EXPORTER") == "otlp"
}

// Setup turns telemetry on for s when the standard OpenTelemetry
// environment asks for it (see Enabled); otherwise it does nothing and s
// pays nothing. It makes a tracer provider that sends spans in batches to
// the OTLP endpoint and a meter provider that sends the metrics
// periodically, over OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf, the
// default, or grpc; the _TRACES_ and _METRICS_ variants too), sets them
// and the W3C propagators as the global ones, and adds the middleware to
// s. The SDK reads the rest of the environment itself: the endpoint,
// headers and timeout of the exporters, OTEL_TRACES_SAMPLER and its
// argument, OTEL_BSP_* and OTEL_METRIC_EXPORT_INTERVAL,
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the service's name is
// s.Name unless they say otherwise). OTEL_TRACES_EXPORTER or
// OTEL_METRICS_EXPORTER set to none turn either off.
//
// The returned shutdown flushes what is left and stops the exporters:
// call it once the server has stopped serving (for stdio, when
// ServeStdio returns at the end of its input), with a deadline.
func Setup(ctx context.Context, s *runtime.Server) (shutdown func(context.Context) error, err error) {
	if !Enabled() {
		return func(context.Context) error { return nil }, nil
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName(s.Name), semconv.ServiceVersion(s.Version)),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
		resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("otel: resource: %w", err)
	}
	var shutdowns []func(context.Context) error
	shutdown = func(ctx context.Context) error {
		var errs []error
		for _, f := range shutdowns {
			errs = append(errs, f(ctx))
		}
		return errors.Join(errs...)
	}
	opts := &Options{}
	if exporter(os.Getenv("OTEL_TRACES_EXPORTER")) {
		exp, err := traceExporter(ctx)
		if err != nil {
			return nil, err
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		shutdowns = append(shutdowns, tp.Shutdown)
		otelapi.SetTracerProvider(tp)
		opts.TracerProvider = tp
	}
	if exporter(os.Getenv("OTEL_METRICS_EXPORTER")) {
		exp, err := metricExporter(ctx)
		if err != nil {
			shutdown(ctx)
			return nil, err
		}
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)), sdkmetric.WithResource(res))
		shutdowns = append(shutdowns, mp.Shutdown)
		otelapi.SetMeterProvider(mp)
		opts.MeterProvider = mp
	}
	otelapi.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	mw, err := New(opts)
	if err != nil {
		shutdown(ctx)
		return nil, err
	}
	s.Middleware = append([]runtime.Middleware{mw}, s.Middleware...)
	return shutdown, nil
}

// exporter reports whether an OTEL_*_EXPORTER value asks for OTLP: unset
// or "otlp"; "none" turns the signal off. Others are not supported here.
func exporter(v string) bool { return v == "" || v == "otlp" }

// protocol is the OTLP protocol for a signal ("TRACES", "METRICS"): its
// own variable, else the general one, else http/protobuf.
func protocol(signal string) (string, error) {
	p := os.Getenv("OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL")
	if p == "" {
		p = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	switch p {
	case "", "http/protobuf":
		return "http/protobuf", nil
	case "grpc":
		return "grpc", nil
	}
	return "", fmt.Errorf("otel: OTLP protocol %q is not supported: use http/protobuf or grpc", p)
}

// newExporter makes the OTLP exporter of a signal ("TRACES", "METRICS")
// over the protocol the environment names.
func newExporter[E any](ctx context.Context, signal string, overGRPC, overHTTP func(context.Context) (E, error)) (E, error) {
	var exp E
	p, err := protocol(signal)
	if err != nil {
		return exp, err
	}
	if p == "grpc" {
		exp, err = overGRPC(ctx)
	} else {
		exp, err = overHTTP(ctx)
	}
	if err != nil {
		return exp, fmt.Errorf("otel: %s exporter: %w", strings.ToLower(signal), err)
	}
	return exp, nil
}

func traceExporter(ctx context.Context) (sdktrace.SpanExporter, error) {
	return newExporter(ctx, "TRACES",
		func(ctx context.Context) (sdktrace.SpanExporter, error) { return otlptracegrpc.New(ctx) },
		func(ctx context.Context) (sdktrace.SpanExporter, error) { return otlptracehttp.New(ctx) })
}

func metricExporter(ctx context.Context) (sdkmetric.Exporter, error) {
	return newExporter(ctx, "METRICS",
		func(ctx context.Context) (sdkmetric.Exporter, error) { return otlpmetricgrpc.New(ctx) },
		func(ctx context.Context) (sdkmetric.Exporter, error) { return otlpmetrichttp.New(ctx) })
}

// CLIEnv returns the environment entries that hand the trace of ctx to a
// process that reads W3C Trace Context from its environment, as the
// Claude Code CLI does: TRACEPARENT and TRACESTATE. Add them to
// claude.Options.Env, and the CLI's own spans (when its telemetry is on)
// are children of the span in ctx. None when ctx has no valid span.
func CLIEnv(ctx context.Context) []string {
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	var env []string
	for _, k := range []string{"traceparent", "tracestate"} {
		if v := carrier.Get(k); v != "" {
			env = append(env, strings.ToUpper(k)+"="+v)
		}
	}
	return env
}
