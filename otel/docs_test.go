package otel_test

import (
	"context"
	"log"
	"time"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
)

// The Go blocks of docs/observability.md on OpenTelemetry are regions of
// this file, woven in by internal/docs/weave, so that they compile as
// written. They are not run: one serves stdio until its input ends.

var (
	_ = docsSetup
	_ = docsProviders
)

func docsSetup(ctx context.Context, s *runtime.Server) error {
	//docs:begin setup
	shutdown, err := mcpotel.Setup(ctx, s) // from the standard environment; nothing without it
	if err != nil {
		log.Fatal(err)
	}
	err = s.ServeStdio(ctx)
	// Flush what is left (a stdio server at the end of its input), within
	// a bound of its own: ctx may be cancelled already.
	flushCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	shutdown(flushCtx)
	//docs:end setup
	return err
}

func docsProviders(s *runtime.Server, tp trace.TracerProvider, mp metric.MeterProvider) error {
	//docs:begin providers
	mw, err := mcpotel.New(&mcpotel.Options{TracerProvider: tp, MeterProvider: mp})
	if err != nil {
		return err
	}
	s.Middleware = append(s.Middleware, mw)
	//docs:end providers
	return nil
}
