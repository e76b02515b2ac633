package otel

import (
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
