package otel

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	otelapi "go.opentelemetry.io/otel"

	"github.com/mcpgen/mcpgen/runtime"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/mcpgen/mcpgen/otel"

// Options configure the middleware. The zero value (or nil) uses the
// global tracer and meter providers and the W3C propagators.
type Options struct {
	// TracerProvider makes the spans; nil means the global one.
	TracerProvider trace.TracerProvider
	// MeterProvider makes the metrics; nil means the global one.
	MeterProvider metric.MeterProvider
	// Propagator reads the context a request carries in params._meta;
	// nil means W3C Trace Context and W3C Baggage, which the conventions
	// name. It is given only traceparent, tracestate and baggage.
	Propagator propagation.TextMapPropagator
}

// durationBuckets are the bucket boundaries, in seconds, that the
// conventions give mcp.server.operation.duration; the session duration
// uses them too.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// A tracing middleware's instruments and state.
type middleware struct {
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	operation  metric.Float64Histogram
	session    metric.Float64Histogram
	names      spanNames
	sessions   sync.Map // *runtime.SessionInfo → *sessionState, while the session lasts
}

// New returns a middleware that traces and measures every request by the
// MCP semantic conventions. It fails only when the meter provider refuses
// an instrument.
func New(opts *Options) (runtime.Middleware, error) {
	if opts == nil {
		opts = &Options{}
	}
	tp, mp, prop := opts.TracerProvider, opts.MeterProvider, opts.Propagator
	if tp == nil {
		tp = otelapi.GetTracerProvider()
	}
	if mp == nil {
		mp = otelapi.GetMeterProvider()
	}
	if prop == nil {
		prop = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	meter := mp.Meter(ScopeName)
	bounds := metric.WithExplicitBucketBoundaries(durationBuckets...)
	op, err1 := mcpconv.NewServerOperationDuration(meter, bounds)
	sess, err2 := mcpconv.NewServerSessionDuration(meter, bounds)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	m := &middleware{
		tracer:     tp.Tracer(ScopeName),
		propagator: prop,
		operation:  op.Inst(),
		session:    sess.Inst(),
	}
	return m.wrap, nil
}

// serverKind is the one start option of every span: its attributes are
// set only once it is known to be recorded, so that a span the sampler
// drops costs no attribute.
var serverKind = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}

func (m *middleware) wrap(next runtime.RequestHandler) runtime.RequestHandler {
	return func(ctx context.Context, req *runtime.RequestInfo) runtime.Outcome {
		start := time.Now()
		if req.Session != nil {
			m.watchSession(req)
		}
		parent := ctx
		if hasContext(req) {
			parent = m.propagator.Extract(ctx, metaCarrier{req})
		}
		spanCtx, span := m.tracer.Start(parent, m.spanName(req), serverKind...)
		if span.IsRecording() {
			span.SetAttributes(requestAttributes(req)...)
			if link, ok := ambientLink(ctx, parent); ok {
				span.AddLink(link)
			}
		}
		o := next(spanCtx, req)
		if span.IsRecording() {
			recordOutcome(span, o)
		}
		span.End()
		if m.operation.Enabled(spanCtx) {
			m.operation.Record(spanCtx, time.Since(start).Seconds(), metric.WithAttributeSet(operationAttributes(req, o)))
		}
		return o
	}
}

// ambientLink is the link to the context the request arrived in (the
// host's, say), when its _meta named another parent: the conventions make
// the _meta context the parent and link the ambient one.
func ambientLink(ambient, parent context.Context) (trace.Link, bool) {
	a, p := trace.SpanContextFromContext(ambient), trace.SpanContextFromContext(parent)
	if !a.IsValid() || a.Equal(p) {
		return trace.Link{}, false
	}
	return trace.Link{SpanContext: a}, true
}

// spanName is the span's name, "{method} {target}": the method, or
// _OTHER for one the runtime does not serve, then the tool or prompt, or
// _OTHER for one the server does not have; no target for a resource,
// whose URI the conventions keep out of span names. Only names made of
// what the server has are kept (see spanNames), never what a client made
// up.
func (m *middleware) spanName(req *runtime.RequestInfo) string {
	switch {
	case !req.KnownMethod:
		return otherValue
	case req.Target == "" || req.Method != "tools/call" && req.Method != "prompts/get":
		return req.Method
	case !req.KnownTarget:
		return m.names.of(req.Method, otherValue)
	}
	return m.names.of(req.Method, req.Target)
}

// methodName is mcp.method.name: the method, or _OTHER for one the
// runtime does not serve.
func methodName(req *runtime.RequestInfo) string {
	if !req.KnownMethod {
		return otherValue
	}
	return req.Method
}

// requestAttributes are a request's span attributes.
func requestAttributes(req *runtime.RequestInfo) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 12)
	attrs = append(attrs, keyMethod.String(methodName(req)))
	attrs = appendTarget(attrs, req)
	if id, ok := requestID(req.ID); ok {
		attrs = append(attrs, keyRequestID.String(bounded(id)))
	}
	if req.Revision != "" {
		attrs = append(attrs, keyProtocolVersion.String(req.Revision))
	}
	if sessionIDApplies(req) {
		attrs = append(attrs, keySessionID.String(req.SessionID))
	}
	attrs = appendNetwork(attrs, req)
	if host, port, ok := splitAddr(req.RemoteAddr); ok {
		attrs = append(attrs, keyClientAddress.String(host), keyClientPort.Int(port))
	}
	return attrs
}

// appendTarget appends what the request acts on: the tool (and the
// execute_tool operation), the prompt, each _OTHER when the server does
// not have it, or the resource URI, cut to maxRecorded bytes.
func appendTarget(attrs []attribute.KeyValue, req *runtime.RequestInfo) []attribute.KeyValue {
	if req.Target == "" {
		return attrs
	}
	switch req.Method {
	case "tools/call":
		attrs = append(attrs, keyToolName.String(knownTarget(req)), keyOperationName.String(operationExecuteTool))
	case "prompts/get":
		attrs = append(attrs, keyPromptName.String(knownTarget(req)))
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		attrs = append(attrs, keyResourceURI.String(bounded(req.Target)))
	}
	return attrs
}

// knownTarget is the tool or prompt the request names, or _OTHER for one
// the server does not have.
func knownTarget(req *runtime.RequestInfo) string {
	if !req.KnownTarget {
		return otherValue
	}
	return req.Target
}

// appendNetwork appends network.transport and, over HTTP, the protocol
// and its version. A Conn's transport is the program's own, unknown here.
func appendNetwork(attrs []attribute.KeyValue, req *runtime.RequestInfo) []attribute.KeyValue {
	switch req.Transport {
	case "stdio":
		attrs = append(attrs, keyNetworkTransport.String("pipe"))
	case "http":
		attrs = append(attrs, keyNetworkTransport.String("tcp"), keyNetworkProtocolName.String("http"))
		if v := httpVersion(req.Proto); v != "" {
			attrs = append(attrs, keyNetworkProtocolVersion.String(v))
		}
	}
	return attrs
}

// sessionIDApplies reports whether mcp.session.id belongs on the span: a
// request of a Streamable HTTP session, of a revision before 2026-07-28,
// which removed sessions (the conventions: MUST NOT be set then).
func sessionIDApplies(req *runtime.RequestInfo) bool {
	return req.SessionID != "" && req.Revision != "" && req.Revision < "2026-07-28"
}

// httpVersion turns http.Request.Proto into network.protocol.version:
// "HTTP/1.1" is "1.1", "HTTP/2.0" is "2".
func httpVersion(proto string) string {
	v, ok := strings.CutPrefix(proto, "HTTP/")
	if !ok {
		return ""
	}
	return strings.TrimSuffix(v, ".0")
}

// splitAddr splits host:port; ok is false for anything else.
func splitAddr(addr string) (host string, port int, ok bool) {
	if addr == "" {
		return "", 0, false
	}
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, false
	}
	return h, n, true
}

// requestID is jsonrpc.request.id: a number as written, a string without
// its quotes; none for a null or absent id (the conventions).
func requestID(id []byte) (string, bool) {
	switch {
	case len(id) == 0, string(id) == "null":
		return "", false
	case id[0] == '"':
		s, err := strconv.Unquote(string(id))
		if err != nil {
			return string(id), true
		}
		return s, true
	}
	return string(id), true
}

// recordOutcome records how the request ended on span: the attributes
// of appendOutcome and, for an error, an ERROR status whose description
// is the error's message.
func recordOutcome(span trace.Span, o runtime.Outcome) {
	attrs, failed := appendOutcome(nil, o) // no allocation for a success
	if len(attrs) > 0 {
		span.SetAttributes(attrs...)
	}
	switch {
	case failed && o.Code != 0:
		span.SetStatus(codes.Error, bounded(o.Message)) // which may quote the request
	case failed:
		span.SetStatus(codes.Error, errorTypeToolError)
	}
}

// appendOutcome appends the attributes of how the request ended, which
// the span and the operation metric share: the JSON-RPC code
// (rpc.response.status_code) and, when it is an error by the conventions
// or the tool failed, error.type; failed says which.
func appendOutcome(attrs []attribute.KeyValue, o runtime.Outcome) (_ []attribute.KeyValue, failed bool) {
	switch {
	case o.Code != 0:
		code := strconv.Itoa(o.Code)
		attrs = append(attrs, keyStatusCode.String(code))
		if isServerError(o.Code) {
			return append(attrs, keyErrorType.String(code)), true
		}
	case o.ToolError:
		return append(attrs, keyErrorType.String(errorTypeToolError)), true
	}
	return attrs, false
}

// isServerError reports whether a JSON-RPC error code is an error of the
// server's by the conventions (mcp.server.status.attributes): every code
// but those saying the caller sent a request the server could not serve.
func isServerError(code int) bool {
	switch code {
	case -32700, -32600, -32601, -32602, -32002:
		return false
	}
	return true
}

// operationAttributes are the attributes of mcp.server.operation.duration.
func operationAttributes(req *runtime.RequestInfo, o runtime.Outcome) attribute.Set {
	attrs := make([]attribute.KeyValue, 0, 10)
	attrs = append(attrs, keyMethod.String(methodName(req)))
	switch req.Method {
	case "tools/call", "prompts/get":
		attrs = appendTarget(attrs, req) // resource URIs are opt-in on metrics
	}
	if req.Revision != "" {
		attrs = append(attrs, keyProtocolVersion.String(req.Revision))
	}
	attrs = appendNetwork(attrs, req)
	attrs, _ = appendOutcome(attrs, o)
	return attribute.NewSet(attrs...)
}
