package runtime

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// MCP has two eras. Up to revision 2025-11-25 a client begins with
// initialize, and what it declares there holds for its connection (stdio)
// or session (HTTP): the legacy era. From revision 2026-07-28 every
// request carries its protocol version and the client's capabilities in
// its _meta, no request depends on an earlier one, and a server asks the
// client for input by answering input_required (see mrtr.go): the modern
// era. The server serves both at once, deciding per request: a request
// whose _meta names a protocol version is modern (over HTTP, so is one
// whose MCP-Protocol-Version header names a version newer than the
// legacy ones); every other request is legacy.

// modernVersion is the protocol revision of the modern era this package
// speaks.
const modernVersion = "2026-07-28"

// legacyVersions are the legacy revisions this package speaks, newest
// first: initialize negotiates one of them.
var legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// supportedVersions are all the revisions this package speaks, newest
// first, as server/discover lists them.
var supportedVersions = append([]string{modernVersion}, legacyVersions...)

// The _meta keys of the modern era.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// Error codes of the modern era.
const (
	codeHeaderMismatch     = -32020 // an HTTP header disagrees with the body
	codeMissingCapability  = -32021 // the request needs a capability the client did not declare
	codeUnsupportedVersion = -32022
)

// A modernRequest is what a modern request declares about its client.
type modernRequest struct {
	version string
	caps    clientCaps
	// capsRaw is the clientCapabilities object, as JSON.
	capsRaw []byte
	// minLevel is the index into logLevels of the least severe log level
	// the request asked for; len(logLevels) when it asked for none, as a
	// modern server sends no logs then.
	minLevel atomic.Int32
	// asks holds the answers this request brings and the questions its
	// handler leaves open (see mrtr.go); nil until a handler asks.
	asks *mrtr
}

// isModern reports whether the request's params carry a modern _meta.
func isModern(params jsonvalue.Value) bool {
	if !params.Exists() {
		return false
	}
	meta := params.Get("_meta")
	return meta.Exists() && meta.Kind() == jsonvalue.Object && meta.Get(metaProtocolVersion).Exists()
}

// readModern reads the modern _meta of a request's params. A _meta that
// lacks a required field, or has one of the wrong type, yields the error
// response to send instead (-32602, with the request's id). It does not
// check that the version is supported: see checkVersion.
func readModern(id []byte, params jsonvalue.Value) (*modernRequest, []byte) {
	invalid := func(msg string) (*modernRequest, []byte) {
		return nil, jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: "+msg)
	}
	var meta jsonvalue.Value
	if params.Exists() {
		meta = params.Get("_meta")
	}
	if !meta.Exists() || meta.Kind() != jsonvalue.Object {
		return invalid(`a request of revision ` + modernVersion + ` needs params._meta with "` + metaProtocolVersion + `" and "` + metaClientCapabilities + `"`)
	}
	pv := meta.Get(metaProtocolVersion)
	if !pv.Exists() || pv.Kind() != jsonvalue.String {
		return invalid(`_meta["` + metaProtocolVersion + `"] must be a string naming the protocol version`)
	}
	caps := meta.Get(metaClientCapabilities)
	if !caps.Exists() || caps.Kind() != jsonvalue.Object {
		return invalid(`_meta["` + metaClientCapabilities + `"] must be an object, {} for none`)
	}
	mr := &modernRequest{version: pv.Str(), caps: parseClientCaps(caps), capsRaw: caps.Raw()}
	mr.minLevel.Store(int32(len(logLevels)))
	if lv := meta.Get(metaLogLevel); lv.Exists() {
		i := -1
		if lv.Kind() == jsonvalue.String {
			i = logLevelIndex(lv.Str())
		}
		if i < 0 {
			return invalid(`_meta["` + metaLogLevel + `"] must be one of ` + strings.Join(logLevels, ", "))
		}
		mr.minLevel.Store(int32(i))
	}
	return mr, nil
}

// checkVersion answers a modern request whose version this package does
// not serve per request with -32022, naming the supported versions.
func (mr *modernRequest) checkVersion(id []byte) []byte {
	if mr.version == modernVersion {
		return nil
	}
	data := []byte(`{"supported":["` + modernVersion + `"],"requested":`)
	data = append(jsonvalue.AppendString(data, mr.version), '}')
	return jsonrpc.ErrorWithData(id, codeUnsupportedVersion,
		fmt.Sprintf("unsupported protocol version %q: requests with a per-request _meta speak %s; older clients begin with initialize", mr.version, modernVersion), data)
}

// dispatchModern answers a request of the modern era. Methods of the
// legacy era that the modern one removed (initialize, ping,
// logging/setLevel, resources/subscribe and unsubscribe) are unknown here.
func (ss *session) dispatchModern(c *call) []byte {
	m := c.msg
	id := m.ID.Raw()
	srv := ss.srv
	if errResp := ss.offered(id, m.Method); errResp != nil {
		return errResp
	}
	switch m.Method {
	case "server/discover":
		return ss.discover(id)
	case "tools/list":
		list, err := srv.toolsList(true)
		if err != nil {
			return jsonrpc.Error(id, jsonrpc.InternalError, err.Error())
		}
		return completeResult(jsonrpc.AppendResult(make([]byte, 0, len(list)+80), id, list), id, &srv.ListCache)
	case "tools/call":
		return ss.callTool(c)
	case "resources/list":
		return completeResult(ss.listResources(c), id, &srv.ListCache)
	case "resources/templates/list":
		return completeResult(ss.listTemplates(id), id, &srv.ListCache)
	case "resources/read":
		return ss.readResource(c)
	case "prompts/list":
		return completeResult(ss.listPrompts(id), id, &srv.ListCache)
	case "prompts/get":
		return ss.getPrompt(c)
	case "completion/complete":
		return completeResult(ss.complete(c), id, nil)
	case "subscriptions/listen":
		return ss.listen(c)
	default:
		return jsonrpc.Error(id, jsonrpc.MethodNotFound, "method not found: "+m.Method+methodHint(m.Method))
	}
}

// offered answers a request for a method of a kind of primitive the
// server does not offer (and so does not advertise) with -32601, as the
// specification asks; it returns nil for the other methods.
func (ss *session) offered(id []byte, method string) []byte {
	kind, _, _ := strings.Cut(method, "/")
	tools, resources, prompts, completions := ss.srv.features()
	var has bool
	switch kind {
	case "tools":
		has = tools
	case "resources":
		has = resources
	case "prompts":
		has = prompts
	case "completion":
		has = completions
	default:
		return nil
	}
	if has {
		return nil
	}
	return jsonrpc.Error(id, jsonrpc.MethodNotFound, "method not found: "+method+" (this server has no "+kind+")")
}

// methodHint says why a legacy method is unknown to a modern request.
func methodHint(method string) string {
	switch method {
	case "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		return " (revision " + modernVersion + " removed it; a request that carries a protocol version in _meta speaks that revision)"
	}
	return ""
}

// discover answers server/discover: the versions, capabilities and
// identity of the server.
func (ss *session) discover(id []byte) []byte {
	srv := ss.srv
	b := []byte(`{"supportedVersions":["`)
	b = append(b, strings.Join(supportedVersions, `","`)...)
	b = append(b, `"],"capabilities":`...)
	b = srv.appendCapabilities(b)
	if srv.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b = jsonvalue.AppendString(b, srv.Instructions)
	}
	b = append(b, `,"_meta":{"`+metaServerInfo+`":`...)
	b = append(srv.appendServerInfo(b), "}}"...)
	return completeResult(jsonrpc.AppendResult(nil, id, b), id, &srv.ListCache)
}

// appendServerInfo writes the server's name, title and version.
func (s *Server) appendServerInfo(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = jsonvalue.AppendString(b, cmp.Or(s.Name, "mcpgen"))
	if s.Title != "" {
		b = append(b, `,"title":`...)
		b = jsonvalue.AppendString(b, s.Title)
	}
	b = append(b, `,"version":`...)
	b = jsonvalue.AppendString(b, cmp.Or(s.Version, "0.0.0"))
	return append(b, '}')
}

// A CacheHint tells clients of revision 2026-07-28 for how long they may
// reuse a result without asking again, and whether caches shared between
// users may keep it.
type CacheHint struct {
	// TTL is how long the result stays fresh; zero means it is stale at
	// once, so clients ask again each time they need it.
	TTL time.Duration
	// Private, if true, limits reuse to the same user (cacheScope
	// "private"); otherwise any cache may serve the result to anyone
	// ("public").
	Private bool
}

// appendJSON writes the hint's ttlMs and cacheScope members, each
// followed by a comma.
func (h CacheHint) appendJSON(b []byte) []byte {
	b = append(b, `"ttlMs":`...)
	b = fmt.Appendf(b, "%d", max(h.TTL.Milliseconds(), 0))
	if h.Private {
		return append(b, `,"cacheScope":"private",`...)
	}
	return append(b, `,"cacheScope":"public",`...)
}

// completeResult marks the result in resp, a response to the request id,
// as complete (resultType), and adds cache hints when hint is not nil.
// An error response is returned unchanged.
func completeResult(resp, id []byte, hint *CacheHint) []byte {
	at := len(`{"jsonrpc":"2.0","id":`) + len(id) + len(`,"result":{`)
	if len(resp) < at || !slices.Equal(resp[at-len(`"result":{`):at], []byte(`"result":{`)) {
		return resp // an error
	}
	head := []byte(`"resultType":"complete",`)
	if hint != nil {
		head = hint.appendJSON(head)
	}
	if resp[at] == '}' { // an empty result
		head = head[:len(head)-1]
	}
	out := make([]byte, 0, len(resp)+len(head))
	out = append(out, resp[:at]...)
	out = append(out, head...)
	return append(out, resp[at:]...)
}

// levelOf is where the log level of c's handler is kept: the request's
// own in the modern era, the session's in the legacy one.
func (ss *session) levelOf(c *call) *atomic.Int32 {
	if c.modern != nil {
		return &c.modern.minLevel
	}
	return &ss.minLevel
}
