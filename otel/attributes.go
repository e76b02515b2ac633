package otel

import (
	"unicode/utf8"

	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// The attribute keys the spans and metrics carry: the generated constants
// of the semantic conventions (go.opentelemetry.io/otel/semconv/v1.41.0,
// the last Go release of them that has the MCP keys before they moved to
// open-telemetry/semantic-conventions-genai). TestConventions checks each
// against the conventions' current model.
var (
	keyMethod                 = semconv.McpMethodNameKey
	keySessionID              = semconv.McpSessionIDKey
	keyProtocolVersion        = semconv.McpProtocolVersionKey
	keyResourceURI            = semconv.McpResourceURIKey
	keyRequestID              = semconv.JSONRPCRequestIDKey
	keyToolName               = semconv.GenAIToolNameKey
	keyPromptName             = semconv.GenAIPromptNameKey
	keyOperationName          = semconv.GenAIOperationNameKey
	keyStatusCode             = semconv.RPCResponseStatusCodeKey
	keyErrorType              = semconv.ErrorTypeKey
	keyNetworkTransport       = semconv.NetworkTransportKey
	keyNetworkProtocolName    = semconv.NetworkProtocolNameKey
	keyNetworkProtocolVersion = semconv.NetworkProtocolVersionKey
	keyClientAddress          = semconv.ClientAddressKey
	keyClientPort             = semconv.ClientPortKey
)

// Values the conventions fix.
var (
	operationExecuteTool = semconv.GenAIOperationNameExecuteTool.Value.AsString()
)

// errorTypeToolError is error.type for a tools/call whose result has
// isError set.
const errorTypeToolError = "tool_error"

// otherValue stands for a method, tool or prompt name that the server
// does not have, which a client chose: the conventions' placeholder for a
// value outside those known, so that neither the span names kept nor the
// metrics' attribute sets grow with what clients make up.
const otherValue = "_OTHER"

// maxRecorded bounds, in bytes, a value of the request's that a span
// records as it is: a resource URI, a request id, an error's message.
const maxRecorded = 1 << 10

// bounded returns s, or its first maxRecorded bytes at most, cut at a
// character's start, and "…".
func bounded(s string) string {
	if len(s) <= maxRecorded {
		return s
	}
	cut := maxRecorded
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
