package runtime

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// batchesAllowed reports whether a session that negotiated version may
// send JSON-RPC batches: 2025-06-18 removed them from MCP.
func batchesAllowed(version string) bool {
	return version == "2024-11-05" || version == "2025-03-26"
}

// batchRefusal explains why a batch is refused in a session that
// negotiated version.
func batchRefusal(version string) string {
	if version == "" {
		return "invalid request: a JSON-RPC batch before initialize; batches exist only in MCP revisions 2024-11-05 and 2025-03-26, once negotiated"
	}
	return "invalid request: JSON-RPC batches were removed from MCP in revision 2025-06-18, and this session negotiated " + version
}

// negotiateVersion echoes a supported legacy version and answers the
// newest otherwise, as the lifecycle section of the specification
// prescribes: initialize belongs to the legacy era.
func negotiateVersion(requested string) string {
	if slices.Contains(legacyVersions, requested) {
		return requested
	}
	return legacyVersions[0]
}

func (ss *session) dispatch(c *call) []byte {
	if c.modern != nil {
		return ss.dispatchModern(c)
	}
	m := c.msg
	id := m.ID.Raw()
	if errResp := ss.offered(id, m.Method); errResp != nil {
		return errResp
	}
	switch m.Method {
	case "initialize":
		return ss.initialize(id, m.Params)
	case "ping":
		return jsonrpc.AppendResult(nil, id, []byte("{}"))
	case "tools/list":
		list, err := ss.srv.toolsList(false)
		if err != nil {
			return jsonrpc.Error(id, jsonrpc.InternalError, err.Error())
		}
		return jsonrpc.AppendResult(make([]byte, 0, len(list)+40), id, list)
	case "tools/call":
		return ss.callTool(c)
	case "logging/setLevel":
		return ss.setLevel(id, m.Params)
	case "resources/list":
		return ss.listResources(c)
	case "resources/templates/list":
		return ss.listTemplates(id)
	case "resources/read":
		return ss.readResource(c)
	case "resources/subscribe", "resources/unsubscribe":
		return ss.subscribeResource(id, m.Params, m.Method == "resources/subscribe")
	case "prompts/list":
		return ss.listPrompts(id)
	case "prompts/get":
		return ss.getPrompt(c)
	case "completion/complete":
		return ss.complete(c)
	default:
		return jsonrpc.Error(id, jsonrpc.MethodNotFound, "method not found: "+m.Method)
	}
}

func (ss *session) initialize(id []byte, params jsonvalue.Value) []byte {
	requested := ""
	if params.Exists() {
		if pv := params.Get("protocolVersion"); pv.Exists() {
			if pv.Kind() != jsonvalue.String {
				return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: protocolVersion must be a string")
			}
			requested = pv.Str()
		}
	}
	srv := ss.srv
	version := negotiateVersion(requested)
	ss.setProtocolVersion(version)
	var caps clientCaps
	if params.Exists() {
		caps = parseClientCaps(params.Get("capabilities"))
	}
	ss.mu.Lock()
	ss.caps = caps
	ss.mu.Unlock()
	b := make([]byte, 0, 256+len(srv.Instructions))
	b = append(b, `{"protocolVersion":"`...)
	b = append(b, version...)
	b = append(b, `","capabilities":`...)
	b = srv.appendCapabilities(b)
	b = append(b, `,"serverInfo":`...)
	b = srv.appendServerInfo(b)
	if srv.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b = jsonvalue.AppendString(b, srv.Instructions)
	}
	b = append(b, '}')
	return jsonrpc.AppendResult(nil, id, b)
}

// appendCapabilities writes what the server offers: only the features it
// has, each with list changes notified.
func (s *Server) appendCapabilities(b []byte) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b = append(b, `{"logging":{}`...)
	if len(s.tools) > 0 {
		b = append(b, `,"tools":{"listChanged":true}`...)
	}
	if len(s.resources) > 0 || len(s.templates) > 0 || s.ListResources != nil {
		b = append(b, `,"resources":{"subscribe":true,"listChanged":true}`...)
	}
	if len(s.prompts) > 0 {
		b = append(b, `,"prompts":{"listChanged":true}`...)
	}
	completes := slices.ContainsFunc(s.prompts, func(p *Prompt) bool { return p.Complete != nil }) ||
		slices.ContainsFunc(s.templates, func(t *ResourceTemplate) bool { return t.Complete != nil })
	if completes {
		b = append(b, `,"completions":{}`...)
	}
	return append(b, '}')
}

func (ss *session) setLevel(id []byte, params jsonvalue.Value) []byte {
	var lv jsonvalue.Value
	if params.Exists() {
		lv = params.Get("level")
	}
	if !lv.Exists() || lv.Kind() != jsonvalue.String {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: level must be a string")
	}
	i := logLevelIndex(lv.Str())
	if i < 0 {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: unknown level "+string(lv.Raw())+"; use one of "+strings.Join(logLevels, ", "))
	}
	ss.minLevel.Store(int32(i))
	return jsonrpc.AppendResult(nil, id, []byte("{}"))
}

// recoverHandler turns a panic of the handler of the named tool, resource
// or prompt into *err. The stack goes to the server's logger; the client
// gets one line. Use it deferred.
func (ss *session) recoverHandler(kind, name string, err *error) {
	if p := recover(); p != nil {
		ss.srv.logger().Error(kind+" handler panicked", kind, name, "panic", p, "stack", string(debug.Stack()))
		*err = fmt.Errorf("%s %s failed: internal error (panic: %v)", kind, name, p)
	}
}
