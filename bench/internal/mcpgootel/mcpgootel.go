// Package mcpgootel adapts mcp-go's tracing hooks (package
// github.com/mark3labs/mcp-go/tracing: a Tracer, a Span, a MetaPropagator)
// to OpenTelemetry, for the benchmark that compares them with mcpgen's
// otel middleware. mcp-go's own adapter module, github.com/mark3labs/mcp-go/otel,
// is not on the Go module proxy, so this is the equivalent written here:
// each hook maps onto the OpenTelemetry API call that does the same work,
// with no work of its own besides the mapping.
package mcpgootel

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/tracing"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Tracer is a tracing.Tracer that starts OpenTelemetry spans.
type Tracer struct{ T trace.Tracer }

var kinds = [...]trace.SpanKind{
	tracing.SpanKindUnspecified: trace.SpanKindUnspecified,
	tracing.SpanKindServer:      trace.SpanKindServer,
	tracing.SpanKindClient:      trace.SpanKindClient,
	tracing.SpanKindInternal:    trace.SpanKindInternal,
}

// Start starts a span of kind with attrs, as mcp-go asks.
func (t Tracer) Start(ctx context.Context, name string, kind tracing.SpanKind, attrs ...tracing.Attribute) (context.Context, tracing.Span) {
	ctx, s := t.T.Start(ctx, name, trace.WithSpanKind(kinds[kind]), trace.WithAttributes(convert(attrs)...))
	sp := span{s}
	return tracing.ContextWithSpan(ctx, sp), sp
}

type span struct{ s trace.Span }

func (s span) SetAttributes(attrs ...tracing.Attribute) { s.s.SetAttributes(convert(attrs)...) }
func (s span) RecordError(err error)                    { s.s.RecordError(err) }
func (s span) End()                                     { s.s.End() }

func (s span) SetStatus(code tracing.StatusCode, description string) {
	switch code {
	case tracing.StatusOK:
		s.s.SetStatus(codes.Ok, description)
	case tracing.StatusError:
		s.s.SetStatus(codes.Error, description)
	}
}

func convert(attrs []tracing.Attribute) []attribute.KeyValue {
	kvs := make([]attribute.KeyValue, len(attrs))
	for i, a := range attrs {
		kvs[i] = attribute.String(a.Key, a.Value)
	}
	return kvs
}

// MetaPropagator is a tracing.MetaPropagator over an OpenTelemetry
// propagator: it reads and writes traceparent, tracestate and baggage in
// _meta.
type MetaPropagator struct{ P propagation.TextMapPropagator }

// ExtractMeta returns ctx with the context meta carries.
func (p MetaPropagator) ExtractMeta(ctx context.Context, meta *mcp.Meta) context.Context {
	if meta == nil {
		return ctx
	}
	return p.P.Extract(ctx, metaCarrier{meta})
}

// InjectMeta writes the context of ctx into meta.
func (p MetaPropagator) InjectMeta(ctx context.Context, meta *mcp.Meta) *mcp.Meta {
	if meta == nil {
		meta = &mcp.Meta{}
	}
	p.P.Inject(ctx, metaCarrier{meta})
	if len(meta.AdditionalFields) == 0 && meta.ProgressToken == nil {
		return nil
	}
	return meta
}

type metaCarrier struct{ m *mcp.Meta }

func (c metaCarrier) Get(key string) string {
	s, _ := c.m.AdditionalFields[key].(string)
	return s
}

func (c metaCarrier) Set(key, value string) {
	if c.m.AdditionalFields == nil {
		c.m.AdditionalFields = map[string]any{}
	}
	c.m.AdditionalFields[key] = value
}

func (c metaCarrier) Keys() []string {
	keys := make([]string, 0, len(c.m.AdditionalFields))
	for k := range c.m.AdditionalFields {
		keys = append(keys, k)
	}
	return keys
}
