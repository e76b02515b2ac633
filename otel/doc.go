// Package otel traces and measures an mcpgen server with OpenTelemetry,
// by the semantic conventions for the Model Context Protocol (the
// conventions of open-telemetry/semantic-conventions-genai, model/mcp;
// docs/observability.md names the revision followed).
//
// Start with Setup, in a program's main: it reads the standard
// OpenTelemetry environment and, when that asks for telemetry, exports
// traces and metrics and adds the middleware to the server; otherwise it
// does nothing. A program that makes its own tracer and meter providers
// uses New instead.
//
// New returns a runtime.Middleware that gives every request a server
// answers, on every transport, a SERVER span named "{mcp.method.name}
// {target}" ("tools/call greet"), with the conventions' attributes, its
// parent taken from the request's params._meta (traceparent, tracestate,
// baggage; W3C Trace Context and Baggage by default), and records the
// metrics mcp.server.operation.duration and mcp.server.session.duration.
// The handler's context carries the span, so that the program's own
// spans and outgoing calls nest under it:
//
//	mw, err := mcpotel.New(nil) // the global tracer and meter providers
//	if err != nil { ... }
//	s.Middleware = append(s.Middleware, mw)
//
// Setup configures the providers from the standard OpenTelemetry
// environment (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL,
// OTEL_TRACES_SAMPLER, OTEL_SERVICE_NAME, …) and installs the middleware
// when that environment asks for telemetry; the shutdown it returns
// flushes what is left, which a stdio server calls when ServeStdio
// returns at the end of its input.
//
// Import it under a name of its own beside go.opentelemetry.io/otel:
//
//	import mcpotel "github.com/mcpgen/mcpgen/otel"
package otel
