package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// JSON-RPC and MCP error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeRequestCancelled answers a request that was cancelled where a
	// transport must still answer it (the Claude control protocol).
	CodeRequestCancelled = -32800
)

// Protocol versions this package speaks, newest first.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// latestProtocolVersion is answered to clients asking for a version this
// package does not know.
const latestProtocolVersion = "2025-11-25"

// negotiateVersion echoes a supported version and answers the newest
// otherwise, as the lifecycle section of the specification prescribes.
func negotiateVersion(requested string) string {
	for _, v := range protocolVersions {
		if v == requested {
			return v
		}
	}
	return latestProtocolVersion
}

// A message is one decoded JSON-RPC message. Its fields point into the
// bytes it was decoded from.
type message struct {
	id     *value // nil for a notification
	method string
	params *value // nil when absent
}

// isRequest reports whether m expects a response.
func (m *message) isRequest() bool { return m.id != nil }

// idBytes is the request id as JSON, or null.
func (m *message) idBytes() []byte {
	if m.id == nil {
		return nullID
	}
	return m.id.raw
}

var nullID = []byte("null")

// errResponse is a JSON-RPC error response ready to be written.
type errResponse []byte

// decodeMessage decodes one JSON-RPC message. A message that is a response
// from the client (this server sends no requests that need one) decodes to
// (nil, nil). Malformed input yields the error response to send.
func decodeMessage(data []byte) (*message, errResponse) {
	v, err := parseValue(data)
	if err != nil {
		return nil, errorResponse(nullID, CodeParseError, "parse error: "+err.Error())
	}
	return messageFromValue(&v)
}

func messageFromValue(v *value) (*message, errResponse) {
	if v.kind != kindObject {
		if v.kind == kindArray {
			return nil, errorResponse(nullID, CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported in this context")
		}
		return nil, errorResponse(nullID, CodeInvalidRequest, "invalid request: a JSON-RPC message must be an object, not "+v.kind.String())
	}
	m := &message{}
	var version, method *value
	for i := range v.members {
		mem := &v.members[i]
		switch mem.name {
		case "jsonrpc":
			version = &mem.value
		case "id":
			m.id = &mem.value
		case "method":
			method = &mem.value
		case "params":
			m.params = &mem.value
		}
	}
	if m.id != nil && m.id.kind != kindString && m.id.kind != kindNumber {
		// A null id is a request the client cannot match an answer to;
		// like an object or array id, it is not a valid request.
		return nil, errorResponse(nullID, CodeInvalidRequest, "invalid request: id must be a string or a number")
	}
	if version == nil || version.kind != kindString || string(version.raw) != `"2.0"` {
		return nil, errorResponse(m.idBytes(), CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if method == nil {
		if v.get("result") != nil || v.get("error") != nil {
			return nil, nil // a response; nothing to do
		}
		return nil, errorResponse(m.idBytes(), CodeInvalidRequest, `invalid request: missing "method"`)
	}
	if method.kind != kindString {
		return nil, errorResponse(m.idBytes(), CodeInvalidRequest, `invalid request: "method" must be a string`)
	}
	m.method = method.str()
	if m.params != nil && m.params.kind != kindObject && m.params.kind != kindNull {
		if m.isRequest() {
			return nil, errorResponse(m.idBytes(), CodeInvalidParams, `invalid params: "params" must be an object`)
		}
		return nil, nil // a malformed notification has no one to tell
	}
	if m.params != nil && m.params.kind == kindNull {
		m.params = nil
	}
	return m, nil
}

// appendResult appends a JSON-RPC success response.
func appendResult(b, id, result []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}

// errorResponse builds a JSON-RPC error response.
func errorResponse(id []byte, code int, msg string) errResponse {
	b := make([]byte, 0, 64+len(msg))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = appendString(b, msg)
	return append(b, "}}"...)
}

// A session is the protocol state of one client connection; every
// transport keeps one per connection (or one per request when stateless).
type session struct {
	srv *Server
	// notify sends a server-initiated message (progress, log) to the
	// client, unless a call has a sink of its own. Nil drops them.
	notify func(msg []byte)
	// sharedIDs allows several requests in flight with the same JSON-RPC
	// id, which the Claude CLI does across its MCP connections.
	sharedIDs bool

	mu       sync.Mutex
	inflight map[string]*call
	minLevel atomic.Int32 // index into logLevels of the least severe level sent
}

// A call is a request that has been accepted and not yet answered.
type call struct {
	msg *message
	// notify, if set, receives the call's notifications instead of the
	// session's sink: Streamable HTTP sends them on the stream of the
	// request that started the call.
	notify    func(msg []byte)
	ctx       context.Context
	cancel    context.CancelFunc
	cancelled atomic.Bool // by notifications/cancelled: send no response
	key       string      // inflight key, "" if not registered
	info      callInfo    // what a tool handler's context carries
}

// async reports whether a request may take long and so must run off the
// reader goroutine. Everything else is answered in order, inline, which
// also keeps initialize ahead of the calls that follow it.
func async(method string) bool { return method == "tools/call" }

// start accepts a request: it registers it for cancellation under its id
// and derives its context. The caller must then call run exactly once.
// A non-nil errResponse refuses the request instead.
func (ss *session) start(ctx context.Context, m *message) (*call, errResponse) {
	c := &call{msg: m}
	c.ctx, c.cancel = context.WithCancel(ctx)
	if async(m.method) {
		key := string(m.id.raw)
		ss.mu.Lock()
		if _, dup := ss.inflight[key]; dup && !ss.sharedIDs {
			ss.mu.Unlock()
			c.cancel()
			return nil, errorResponse(m.id.raw, CodeInvalidRequest, "invalid request: a request with id "+key+" is already in flight")
		} else if !dup {
			if ss.inflight == nil {
				ss.inflight = make(map[string]*call)
			}
			ss.inflight[key] = c
			c.key = key
		}
		ss.mu.Unlock()
	}
	return c, nil
}

// run answers the call. It returns the response to write, or nil when the
// client cancelled the request (it then expects no response).
func (ss *session) run(c *call) []byte {
	defer ss.finish(c)
	resp := ss.dispatch(c)
	if c.cancelled.Load() {
		return nil
	}
	return resp
}

func (ss *session) finish(c *call) {
	c.cancel()
	if c.key != "" {
		ss.mu.Lock()
		if ss.inflight[c.key] == c {
			delete(ss.inflight, c.key)
		}
		ss.mu.Unlock()
	}
}

// cancelAll cancels every call in flight, for shutdown.
func (ss *session) cancelAll() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, c := range ss.inflight {
		c.cancel()
	}
}

func (ss *session) dispatch(c *call) []byte {
	m := c.msg
	id := m.id.raw
	switch m.method {
	case "initialize":
		return ss.initialize(id, m.params)
	case "ping":
		return appendResult(nil, id, []byte("{}"))
	case "tools/list":
		list, err := ss.srv.toolsList()
		if err != nil {
			return errorResponse(id, CodeInternalError, err.Error())
		}
		return appendResult(make([]byte, 0, len(list)+40), id, list)
	case "tools/call":
		return ss.callTool(c)
	case "logging/setLevel":
		return ss.setLevel(id, m.params)
	default:
		return errorResponse(id, CodeMethodNotFound, "method not found: "+m.method)
	}
}

// notification handles a message without id.
func (ss *session) notification(m *message) {
	if m.method != "notifications/cancelled" || m.params == nil {
		return // notifications/initialized and the rest need no action
	}
	rid := m.params.get("requestId")
	if rid == nil {
		return
	}
	ss.mu.Lock()
	c := ss.inflight[string(rid.raw)]
	ss.mu.Unlock()
	if c != nil {
		c.cancelled.Store(true)
		c.cancel()
	}
}

func (ss *session) initialize(id []byte, params *value) []byte {
	requested := ""
	if params != nil {
		if pv := params.get("protocolVersion"); pv != nil {
			if pv.kind != kindString {
				return errorResponse(id, CodeInvalidParams, "invalid params: protocolVersion must be a string")
			}
			requested = pv.str()
		}
	}
	srv := ss.srv
	b := make([]byte, 0, 256+len(srv.Instructions))
	b = append(b, `{"protocolVersion":"`...)
	b = append(b, negotiateVersion(requested)...)
	b = append(b, `","capabilities":{"logging":{},"tools":{}},"serverInfo":{"name":`...)
	b = appendString(b, cmp.Or(srv.Name, "mcpgen"))
	if srv.Title != "" {
		b = append(b, `,"title":`...)
		b = appendString(b, srv.Title)
	}
	b = append(b, `,"version":`...)
	b = appendString(b, cmp.Or(srv.Version, "0.0.0"))
	b = append(b, '}')
	if srv.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b = appendString(b, srv.Instructions)
	}
	b = append(b, '}')
	return appendResult(nil, id, b)
}

func (ss *session) setLevel(id []byte, params *value) []byte {
	var lv *value
	if params != nil {
		lv = params.get("level")
	}
	if lv == nil || lv.kind != kindString {
		return errorResponse(id, CodeInvalidParams, "invalid params: level must be a string")
	}
	i := logLevelIndex(lv.str())
	if i < 0 {
		return errorResponse(id, CodeInvalidParams, "invalid params: unknown level "+string(lv.raw)+"; use one of "+strings.Join(logLevels, ", "))
	}
	ss.minLevel.Store(int32(i))
	return appendResult(nil, id, []byte("{}"))
}

// callTool runs tools/call. Failures of the call itself (unknown tool,
// invalid arguments, handler error or panic, timeout) are results with
// isError set, so that the model sees them; only a malformed request is a
// JSON-RPC error.
func (ss *session) callTool(c *call) []byte {
	id := c.msg.id.raw
	params := c.msg.params
	if params == nil {
		return errorResponse(id, CodeInvalidParams, "invalid params: tools/call needs params with a tool name")
	}
	nv := params.get("name")
	if nv == nil || nv.kind != kindString {
		return errorResponse(id, CodeInvalidParams, `invalid params: "name" must be a string`)
	}
	t := ss.srv.toolNamed(nv)
	if t == nil {
		return ss.toolResult(id, ErrorResult(fmt.Sprintf("unknown tool %q; available tools: %s", nv.str(), ss.srv.toolNames())))
	}
	name := t.Name
	args := params.get("arguments")
	if args == nil || args.kind == kindNull {
		args = &value{kind: kindObject, raw: []byte("{}")}
	}
	if vs := t.input.validate(args); len(vs) > 0 {
		return ss.toolResult(id, ErrorResult(argumentReport(name, vs)))
	}
	req := &Request{Name: name, Arguments: args.raw, args: args}
	var token *value
	if mv := params.get("_meta"); mv != nil && mv.kind == kindObject {
		req.Meta = mv.raw
		if pt := mv.get("progressToken"); pt != nil && (pt.kind == kindString || pt.kind == kindNumber) {
			token = pt
		}
	}

	if slots := ss.srv.slotsChan(); slots != nil {
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		case <-c.ctx.Done():
			return ss.toolResult(id, ErrorResult(fmt.Sprintf("tool %s was cancelled before it started", name)))
		}
	}
	ctx := c.ctx
	if t.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.Timeout)
		defer cancel()
	}
	notify := c.notify
	if notify == nil {
		notify = ss.notify
	}
	c.info = callInfo{session: ss, ctx: c.ctx, notify: notify, tool: name, token: token}
	ctx = context.WithValue(ctx, callKey{}, &c.info)
	res, err := ss.invoke(ctx, t, req)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && c.ctx.Err() == nil && (err != nil || res == nil):
		res = ErrorResult(fmt.Sprintf("tool %s timed out after %v", name, t.Timeout))
	case err != nil:
		res = ErrorResult(err.Error())
	case res == nil:
		res = ErrorResult(fmt.Sprintf("tool %s returned no result", name))
	}
	return ss.toolResult(id, res)
}

// invoke runs the handler, turning a panic into an error. The stack goes
// to the server's logger; the client gets one line.
func (ss *session) invoke(ctx context.Context, t *Tool, req *Request) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			ss.srv.logger().Error("tool handler panicked", "tool", t.Name, "panic", p, "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("tool %s failed: internal error (panic: %v)", t.Name, p)
		}
	}()
	return t.Handler(ctx, req)
}

func (ss *session) toolResult(id []byte, res *Result) []byte {
	size := 96 + len(id)
	for _, c := range res.Content {
		if t, ok := c.(*TextContent); ok {
			size += len(t.Text) + len(t.Text)/8 // room for escapes
		}
	}
	b := make([]byte, 0, size)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b, err := res.appendJSON(b)
	if err != nil {
		return ss.toolResult(id, ErrorResult("tool result could not be encoded: "+err.Error()))
	}
	return append(b, '}')
}

// argumentReport explains every violation in one text the model can act on.
func argumentReport(tool string, vs []violation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid arguments for tool %s:", tool)
	for _, v := range vs {
		b.WriteString("\n- ")
		b.WriteString(cmp.Or(v.path, "arguments"))
		b.WriteString(": ")
		b.WriteString(v.msg)
	}
	return b.String()
}
