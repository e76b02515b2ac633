package runtime

import (
	"cmp"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A method is one MCP method a client may send: what answers it, and the
// facts about it that dispatch and the transports act on. The table
// below lists each method once; a revision that adds or removes methods
// is an edit of it.
type method struct {
	name string
	// serve answers a request; notified acts on a notification. A method
	// has one of them.
	serve    func(ss *session, c *call) response
	notified func(ss *session, params jsonvalue.Value)
	// revisions are the revisions that have the method.
	revisions revisions
	// feature is what the server must offer (and advertise) for the
	// method to exist; a server without it answers -32601.
	feature feature
	// handler says that the method runs a handler of the program's, which
	// may take long: it runs off the reading goroutine, can be cancelled
	// by notifications/cancelled, and counts as a call for MaxInFlight.
	// Every other method is answered in order, inline, which also keeps
	// initialize ahead of the calls that follow it.
	handler bool
	// cacheable says that, under the per-request revision, the result
	// carries the server's ListCache hint.
	cacheable bool
	// nameParam is the member of params that the Mcp-Name header repeats
	// over Streamable HTTP, if any.
	nameParam string
	// connectionState says that the method sets what later requests of
	// its connection find: under revision 2026-07-28, where requests
	// carry their own state, it is served only where a connection keeps
	// some (stdio, a Conn, an HTTP session); see stateless.
	connectionState bool
}

// revisions is a set of the two kinds of revision.
type revisions uint8

const (
	sessionRevisions revisions = 1 << iota // negotiated by initialize: 2024-11-05 … 2025-11-25
	requestRevision                        // declared per request: 2026-07-28
	allRevisions     = sessionRevisions | requestRevision
)

// A feature is a kind of primitive a server may offer, as its
// capabilities advertise it.
type feature uint8

const (
	anyServer feature = iota // every server has the method
	tools
	resources
	prompts
	completions
)

func (f feature) String() string {
	return [...]string{"", "tools", "resources", "prompts", "completions"}[f]
}

// methodTable lists every method of the protocol the server answers.
var methodTable = []*method{
	{name: wire.MethodInitialize, serve: (*session).initialize, revisions: sessionRevisions},
	{name: wire.MethodPing, serve: (*session).ping, revisions: sessionRevisions},
	{name: wire.MethodDiscover, serve: (*session).discover, revisions: requestRevision, cacheable: true},
	{name: wire.MethodSetLevel, serve: (*session).setLevel, revisions: allRevisions, connectionState: true},

	{name: wire.MethodToolsList, serve: (*session).listTools, revisions: allRevisions, feature: tools, cacheable: true},
	{name: wire.MethodToolsCall, serve: (*session).callTool, revisions: allRevisions, feature: tools, handler: true, nameParam: "name"},

	{name: wire.MethodResourcesList, serve: (*session).listResources, revisions: allRevisions, feature: resources, cacheable: true},
	{name: wire.MethodTemplatesList, serve: (*session).listTemplates, revisions: allRevisions, feature: resources, cacheable: true},
	{name: wire.MethodResourcesRead, serve: (*session).readResource, revisions: allRevisions, feature: resources, handler: true, nameParam: "uri"},
	{name: wire.MethodSubscribe, serve: (*session).subscribe, revisions: sessionRevisions, feature: resources},
	{name: wire.MethodUnsubscribe, serve: (*session).unsubscribe, revisions: sessionRevisions, feature: resources},

	{name: wire.MethodPromptsList, serve: (*session).listPrompts, revisions: allRevisions, feature: prompts, cacheable: true},
	{name: wire.MethodPromptsGet, serve: (*session).getPrompt, revisions: allRevisions, feature: prompts, handler: true, nameParam: "name"},

	{name: wire.MethodComplete, serve: (*session).complete, revisions: allRevisions, feature: completions, handler: true},

	{name: wire.MethodListen, serve: (*session).listen, revisions: requestRevision, handler: true},

	// The tasks extension (see task.go). The client must declare it in
	// each request, which each method checks first.
	{name: wire.MethodTasksGet, serve: (*session).getTask, revisions: requestRevision, nameParam: "taskId"},
	{name: wire.MethodTasksUpdate, serve: (*session).updateTask, revisions: requestRevision, nameParam: "taskId"},
	{name: wire.MethodTasksCancel, serve: (*session).cancelTask, revisions: requestRevision, nameParam: "taskId"},

	{name: wire.NotifyInitialized, notified: func(*session, jsonvalue.Value) {}, revisions: sessionRevisions},
	{name: wire.NotifyCancelled, notified: (*session).cancelled, revisions: allRevisions},
	{name: wire.NotifyRootsChanged, notified: (*session).rootsChanged, revisions: sessionRevisions},
	{name: wire.NotifyProgress, notified: func(*session, jsonvalue.Value) {}, revisions: allRevisions},
}

// methodsByName indexes methodTable.
var methodsByName = func() map[string]*method {
	m := make(map[string]*method, len(methodTable))
	for _, meth := range methodTable {
		m[meth.name] = meth
	}
	return m
}()

// lookupMethod returns the method named name, or nil.
func lookupMethod(name string) *method { return methodsByName[name] }

// runsHandler reports whether m is a method that runs a handler of the
// program's; false for an unknown method.
func (m *method) runsHandler() bool { return m != nil && m.handler }

// dispatch answers c: it finds the method, checks that the request's
// revision has it and that the server offers what it belongs to, and
// calls it.
func (ss *session) dispatch(c *call) response {
	m := c.method
	name := c.msg.Method
	switch {
	case m == nil || m.serve == nil:
		return errorResponse(jsonrpc.MethodNotFound, "method not found: %s", name)
	case c.perRequest() && m.revisions&requestRevision == 0:
		return errorResponse(jsonrpc.MethodNotFound, "method not found: %s (revision %s removed it; a request that carries a protocol version in _meta speaks that revision)", name, wire.RequestRevision)
	case !c.perRequest() && m.revisions&sessionRevisions == 0:
		return errorResponse(jsonrpc.MethodNotFound, "method not found: %s (it belongs to revision %s: send the protocol version and the client's capabilities in params._meta)", name, wire.RequestRevision)
	case m.feature != anyServer && !ss.srv.offers(m.feature):
		return errorResponse(jsonrpc.MethodNotFound, "method not found: %s (this server has no %s)", name, m.feature)
	}
	resp := m.serve(ss, c)
	if m.cacheable && c.perRequest() && resp.err == nil && resp.cache == nil {
		resp.cache = &ss.srv.ListCache
	}
	return resp
}

// offers reports whether the server offers f, and so advertises it.
func (s *Server) offers(f feature) bool {
	switch f {
	case tools:
		return s.tools.len() > 0
	case resources:
		return s.resources.len() > 0 || s.templates.len() > 0 || s.ListResources != nil
	case prompts:
		return s.prompts.len() > 0
	case completions:
		for _, p := range s.prompts.all() {
			if p.Complete != nil {
				return true
			}
		}
		for _, t := range s.templates.all() {
			if t.Complete != nil {
				return true
			}
		}
		return false
	}
	return true
}

// appendCapabilities writes what the server offers, for initialize and
// server/discover alike: only the features it has, each with list changes
// notified, and logging; the MCP Apps extension when a tool links a view;
// per request (server/discover), the tasks extension too, which only
// requests of that revision can use.
func (s *Server) appendCapabilities(b []byte, perRequest bool) []byte {
	b = append(b, `{"logging":{}`...)
	if s.offers(tools) {
		b = append(b, `,"tools":{"listChanged":true}`...)
	}
	if s.offers(resources) {
		b = append(b, `,"resources":{"subscribe":true,"listChanged":true}`...)
	}
	if s.offers(prompts) {
		b = append(b, `,"prompts":{"listChanged":true}`...)
	}
	if s.offers(completions) {
		b = append(b, `,"completions":{}`...)
	}
	var exts []string
	if perRequest && s.hasTaskTools() {
		exts = append(exts, wire.ExtTasks)
	}
	if s.hasAppTools() {
		exts = append(exts, wire.ExtUI)
	}
	for i, ext := range exts {
		if i == 0 {
			b = append(b, `,"extensions":{`...)
		} else {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), ext...), `":{}`...)
	}
	if exts != nil {
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendServerInfo writes the server's name, title and version.
func (s *Server) appendServerInfo(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = jsonvalue.AppendString(b, cmp.Or(s.Name, "mcpgen"))
	b = appendField(b, "title", s.Title)
	b = append(b, `,"version":`...)
	b = jsonvalue.AppendString(b, cmp.Or(s.Version, "0.0.0"))
	return append(b, '}')
}

// initialize negotiates the session revision and records what the client
// declared. A client may initialize again (the Claude CLI does): the last
// one holds.
func (ss *session) initialize(c *call) response {
	pv := c.msg.Params.Get("protocolVersion")
	if pv.Exists() && pv.Kind() != jsonvalue.String {
		return invalidParams("protocolVersion must be a string")
	}
	revision := wire.Negotiate(pv.Str())
	caps := wire.ParseClientCaps(c.msg.Params.Get("capabilities"))
	ss.mu.Lock()
	ss.revision, ss.caps = revision, caps
	ss.mu.Unlock()
	srv := ss.srv
	b := make([]byte, 0, 256+len(srv.Instructions))
	b = append(b, `"protocolVersion":"`...)
	b = append(b, revision...)
	b = append(b, `","capabilities":`...)
	b = srv.appendCapabilities(b, false)
	b = append(b, `,"serverInfo":`...)
	b = srv.appendServerInfo(b)
	b = appendField(b, "instructions", srv.Instructions)
	return rawResult(b)
}

func (ss *session) ping(*call) response { return emptyResult }

// discover answers server/discover: the revisions, capabilities and
// identity of the server.
func (ss *session) discover(*call) response {
	srv := ss.srv
	b := []byte(`"supportedVersions":["`)
	b = append(b, strings.Join(wire.Revisions, `","`)...)
	b = append(b, `"],"capabilities":`...)
	b = srv.appendCapabilities(b, true)
	b = appendField(b, "instructions", srv.Instructions)
	b = append(b, `,"_meta":{"`+wire.MetaServerInfo+`":`...)
	b = append(srv.appendServerInfo(b), '}')
	return rawResult(b)
}

// setLevel answers logging/setLevel: the least severe level of the log
// messages the session's handlers send. Revision 2026-07-28 removed the
// method, a request naming its own level in _meta instead; so that the
// same client code logs against servers of both revisions, as the
// official Go SDK's does, a request of that revision may still set a
// level, which then holds for the requests of its connection that name
// none (stdio, a Conn, an HTTP session). Where nothing is kept between
// requests (Streamable HTTP without a session), it is refused, saying so.
func (ss *session) setLevel(c *call) response {
	if c.perRequest() && ss.stateless() {
		return statelessRefusal(wire.MethodSetLevel)
	}
	lv := c.msg.Params.Get("level")
	if lv.Kind() != jsonvalue.String {
		return invalidParams("level must be a string")
	}
	i := wire.LogLevel(lv.Str())
	if i < 0 {
		return invalidParams("unknown level %s; use one of %s", lv.Raw(), strings.Join(wire.LogLevels, ", "))
	}
	ss.level.Store(int32(i))
	ss.levelSet.Store(true)
	return emptyResult
}

// stateless reports whether ss lives for one request only: Streamable
// HTTP without a session.
func (ss *session) stateless() bool { return ss.transport == "http" && ss.id == "" }

// statelessRefusal answers a method that sets connection state (see
// method.connectionState) under revision 2026-07-28 where nothing is kept
// between requests.
func statelessRefusal(method string) response {
	return errorResponse(jsonrpc.MethodNotFound, "method not found: %s (revision %s removed it, and this server keeps nothing between requests: name the level in each request's _meta, %q)", method, wire.RequestRevision, wire.MetaLogLevel)
}

// cancelled acts on notifications/cancelled: the calls it names are
// cancelled, and send no response.
func (ss *session) cancelled(params jsonvalue.Value) {
	if rid := params.Get("requestId"); rid.Kind() == jsonvalue.String || rid.Kind() == jsonvalue.Number {
		ss.cancelRequest(rid.Raw())
	}
}

// stringParam returns the string member name of params; a missing one is
// "" unless required. A member of another type is invalid params, named.
func stringParam(params jsonvalue.Value, name string, required bool) (string, *response) {
	v := params.Get(name)
	switch {
	case !v.Exists() && !required:
		return "", nil
	case v.Kind() != jsonvalue.String:
		r := invalidParams("%q must be a string", name)
		return "", &r
	}
	return v.Str(), nil
}
