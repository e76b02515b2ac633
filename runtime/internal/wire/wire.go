// Package wire holds the parts of MCP's wire format that need no server:
// the protocol revisions and how a client's is chosen, the method names,
// the _meta keys, the error codes and the HTTP status of each, the
// capabilities a client declares, the sealed state a multi round-trip
// request carries, and the headers of Streamable HTTP that repeat parts
// of a request's body. Package runtime builds its method table and its
// transports on it; everything here is tested without a server.
package wire

import (
	"net/http"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
)

// The protocol revisions, named by their dates.
const (
	V2024_11_05 = "2024-11-05"
	V2025_03_26 = "2025-03-26"
	V2025_06_18 = "2025-06-18"
	V2025_11_25 = "2025-11-25"
	V2026_07_28 = "2026-07-28"
)

// SessionRevisions are the revisions in which a client begins with
// initialize, and what it declares there holds for its connection (stdio)
// or session (Streamable HTTP): initialize negotiates one of them. Newest
// first.
var SessionRevisions = []string{V2025_11_25, V2025_06_18, V2025_03_26, V2024_11_05}

// RequestRevision is the revision in which every request carries its
// protocol version and its client's capabilities in params._meta, and no
// request depends on an earlier one: the per-request revision.
const RequestRevision = V2026_07_28

// Revisions are all the revisions served, newest first, as
// server/discover lists them.
var Revisions = append([]string{RequestRevision}, SessionRevisions...)

// Negotiate returns the revision initialize answers a client that asked
// for requested: the same when it is a session revision, else the newest
// one, as the lifecycle section of the specification prescribes.
func Negotiate(requested string) string {
	if IsSessionRevision(requested) {
		return requested
	}
	return SessionRevisions[0]
}

// IsSessionRevision reports whether rev is a revision that initialize
// negotiates.
func IsSessionRevision(rev string) bool { return slices.Contains(SessionRevisions, rev) }

// BatchesAllowed reports whether a session of revision rev may send
// JSON-RPC batches: 2025-06-18 removed them.
func BatchesAllowed(rev string) bool { return rev == V2024_11_05 || rev == V2025_03_26 }

// The methods of MCP, as a client or a server sends them. These
// constants are the only place the runtime spells them.
const (
	MethodInitialize       = "initialize"
	MethodPing             = "ping"
	MethodDiscover         = "server/discover"
	MethodToolsList        = "tools/list"
	MethodToolsCall        = "tools/call"
	MethodResourcesList    = "resources/list"
	MethodTemplatesList    = "resources/templates/list"
	MethodResourcesRead    = "resources/read"
	MethodSubscribe        = "resources/subscribe"
	MethodUnsubscribe      = "resources/unsubscribe"
	MethodPromptsList      = "prompts/list"
	MethodPromptsGet       = "prompts/get"
	MethodComplete         = "completion/complete"
	MethodSetLevel         = "logging/setLevel"
	MethodListen           = "subscriptions/listen"
	MethodElicit           = "elicitation/create"
	MethodSample           = "sampling/createMessage"
	MethodRootsList        = "roots/list"
	NotifyInitialized      = "notifications/initialized"
	NotifyCancelled        = "notifications/cancelled"
	NotifyProgress         = "notifications/progress"
	NotifyMessage          = "notifications/message"
	NotifyRootsChanged     = "notifications/roots/list_changed"
	NotifyToolsChanged     = "notifications/tools/list_changed"
	NotifyPromptsChanged   = "notifications/prompts/list_changed"
	NotifyResourcesChanged = "notifications/resources/list_changed"
	NotifyUpdated          = "notifications/resources/updated"
	NotifyElicitDone       = "notifications/elicitation/complete"
	NotifyAcknowledged     = "notifications/subscriptions/acknowledged"
	// The methods of the tasks extension (ExtTasks).
	MethodTasksGet    = "tasks/get"
	MethodTasksUpdate = "tasks/update"
	MethodTasksCancel = "tasks/cancel"
	NotifyTasks       = "notifications/tasks"
)

// The _meta keys of the per-request revision.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// ExtTasks names the tasks extension (SEP-2663): a tools/call may be
// answered with a task that the client polls (tasks/get), answers
// questions for (tasks/update) and cancels (tasks/cancel). A client
// declares it in each request's capabilities, the server in
// server/discover's.
const ExtTasks = "io.modelcontextprotocol/tasks"

// MCP's error codes, beside JSON-RPC's (package jsonrpc).
const (
	// SessionNotFound answers a request for an unknown or expired
	// Streamable HTTP session; Claude Code looks for it to start a new one.
	SessionNotFound = -32001
	// ResourceNotFound answers a read of a URI that names nothing, before
	// the per-request revision (which uses jsonrpc.InvalidParams instead).
	ResourceNotFound = -32002
	// HeaderMismatch answers a request whose HTTP headers disagree with its
	// body.
	HeaderMismatch = -32020
	// MissingCapability answers a request that needs a capability its
	// client did not declare.
	MissingCapability = -32021
	// UnsupportedVersion answers a request of a revision the server does
	// not serve.
	UnsupportedVersion = -32022
	// URLElicitationRequired answers a call that needs interactions at URLs
	// first (revision 2025-11-25).
	URLElicitationRequired = -32042
	// RequestCancelled answers a request that was cancelled where a
	// transport must still answer it (Streamable HTTP, the Claude control
	// protocol).
	RequestCancelled = -32800
)

// HTTPStatus is the status of a response with the error code under the
// per-request revision, which fixes 404 for an unknown method and 400 for
// a malformed request and its own errors; every other answer is 200.
func HTTPStatus(code int) int {
	switch code {
	case jsonrpc.MethodNotFound:
		return http.StatusNotFound
	case jsonrpc.ParseError, jsonrpc.InvalidRequest, jsonrpc.InvalidParams, HeaderMismatch, MissingCapability, UnsupportedVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
