package otel

import "github.com/mcpgen/mcpgen/runtime"

// The longest value of each propagation key in params._meta that is
// handed to the propagator; a longer one is ignored, as if absent. They
// bound the work a client can make the server do. traceparent is 55
// characters in version 00 of W3C Trace Context, longer in later versions
// that a version-00 parser reads the start of; 512 is the length of
// tracestate that W3C Trace Context asks every vendor to propagate; 8192
// bytes is W3C Baggage's limit for the whole header.
const (
	maxTraceparent = 256
	maxTracestate  = 512
	maxBaggage     = 8192
)

// metaCarrier reads the W3C propagation keys of a request's params._meta,
// for a propagation.TextMapPropagator. A key whose value is not a string,
// a _meta that is not an object, a value longer than its bound: each
// reads as absent, which the W3C propagators treat as no context. It is a
// pointer-shaped value, so that passing it as an interface allocates
// nothing.
type metaCarrier struct{ req *runtime.RequestInfo }

// Get returns the value of key, "" if absent or ignored.
func (c metaCarrier) Get(key string) string {
	limit := 0
	switch key {
	case "traceparent":
		limit = maxTraceparent
	case "tracestate":
		limit = maxTracestate
	case "baggage":
		limit = maxBaggage
	default:
		return ""
	}
	v := c.req.Meta(key)
	if len(v) > limit {
		return ""
	}
	return v
}

// Set does nothing: the server only reads a request's context.
func (metaCarrier) Set(key, value string) {}

// Keys lists the keys a propagator may read.
func (metaCarrier) Keys() []string { return propagationKeys }

var propagationKeys = []string{"traceparent", "tracestate", "baggage"}

// hasContext reports whether req's _meta carries any propagation key, so
// that a request without one costs no extraction.
func hasContext(req *runtime.RequestInfo) bool {
	return req.Meta("traceparent") != "" || req.Meta("baggage") != ""
}
