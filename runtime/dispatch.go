package runtime

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/callctx"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
)

// Protocol versions this package speaks, newest first.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// latestProtocolVersion is answered to clients asking for a version this
// package does not know.
const latestProtocolVersion = "2025-11-25"

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

func (ss *session) dispatch(c *call) []byte {
	m := c.msg
	id := m.ID.Raw()
	switch m.Method {
	case "initialize":
		return ss.initialize(id, m.Params)
	case "ping":
		return jsonrpc.AppendResult(nil, id, []byte("{}"))
	case "tools/list":
		list, err := ss.srv.toolsList()
		if err != nil {
			return jsonrpc.Error(id, jsonrpc.InternalError, err.Error())
		}
		return jsonrpc.AppendResult(make([]byte, 0, len(list)+40), id, list)
	case "tools/call":
		return ss.callTool(c)
	case "logging/setLevel":
		return ss.setLevel(id, m.Params)
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
	b := make([]byte, 0, 256+len(srv.Instructions))
	b = append(b, `{"protocolVersion":"`...)
	b = append(b, version...)
	b = append(b, `","capabilities":{"logging":{},"tools":{}},"serverInfo":{"name":`...)
	b = jsonvalue.AppendString(b, cmp.Or(srv.Name, "mcpgen"))
	if srv.Title != "" {
		b = append(b, `,"title":`...)
		b = jsonvalue.AppendString(b, srv.Title)
	}
	b = append(b, `,"version":`...)
	b = jsonvalue.AppendString(b, cmp.Or(srv.Version, "0.0.0"))
	b = append(b, '}')
	if srv.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b = jsonvalue.AppendString(b, srv.Instructions)
	}
	b = append(b, '}')
	return jsonrpc.AppendResult(nil, id, b)
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

// emptyArguments stands for the arguments of a call that sent none.
var emptyArguments, _ = jsonvalue.Parse([]byte("{}"))

// callTool runs tools/call. Failures of the call itself (unknown tool,
// invalid arguments, handler error or panic, timeout) are results with
// isError set, so that the model sees them; only a malformed request is a
// JSON-RPC error.
func (ss *session) callTool(c *call) []byte {
	id := c.msg.ID.Raw()
	params := c.msg.Params
	if !params.Exists() {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: tools/call needs params with a tool name")
	}
	nv := params.Get("name")
	if !nv.Exists() || nv.Kind() != jsonvalue.String {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, `invalid params: "name" must be a string`)
	}
	t := ss.srv.toolNamed(nv)
	if t == nil {
		return ss.toolResult(id, ErrorResult(fmt.Sprintf("unknown tool %q; available tools: %s", nv.Str(), ss.srv.toolNames())))
	}
	name := t.Name
	args := params.Get("arguments")
	if !args.Exists() || args.Kind() == jsonvalue.Null {
		args = emptyArguments
	}
	if vs := t.input.Validate(args); len(vs) > 0 {
		return ss.toolResult(id, ErrorResult(argumentReport(name, vs)))
	}
	c.req = Request{Name: name, Arguments: args.Raw()}
	req := &c.req
	var token []byte
	if mv := params.Get("_meta"); mv.Exists() && mv.Kind() == jsonvalue.Object {
		req.Meta = mv.Raw()
		if pt := mv.Get("progressToken"); pt.Exists() && (pt.Kind() == jsonvalue.String || pt.Kind() == jsonvalue.Number) {
			token = pt.Raw()
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
	var ctx context.Context = &c.ctx
	if t.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.Timeout)
		defer cancel()
	}
	notify := c.notify
	if notify == nil {
		notify = ss.notify
	}
	// The call's context answers for its state (see callContext.Value).
	c.state = callctx.Call{Request: req, Args: args, Done: &c.ctx, Notify: notify, Tool: name, Token: token, MinLevel: &ss.minLevel, Logger: ss.srv.logger()}
	res, err := ss.invoke(ctx, t, req)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && c.ctx.Err() == nil && (err != nil || res == nil):
		res = ErrorResult(fmt.Sprintf("tool %s timed out after %v", name, t.Timeout))
	case err != nil:
		res = ErrorResult(err.Error())
	case res == nil:
		res = ErrorResult(fmt.Sprintf("tool %s returned no result", name))
	case t.output != nil && !res.IsError && res.StructuredContent != nil:
		res = ss.conform(t, res)
	}
	return ss.toolResult(id, res)
}

// conform makes a successful structured result honour the tool's output
// schema (see Tool.OutputSchema).
func (ss *session) conform(t *Tool, res *Result) *Result {
	data, err := marshalValue(res.StructuredContent)
	if err != nil {
		return ErrorResult(fmt.Sprintf("tool %s returned a result that cannot be encoded: %v", t.Name, err))
	}
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return ErrorResult(fmt.Sprintf("tool %s returned structured content that is not JSON: %v", t.Name, err))
	}
	if filled := t.output.FillNulls(v, data); filled != nil {
		if v, err = jsonvalue.Parse(filled); err != nil {
			return ErrorResult(fmt.Sprintf("tool %s: internal error: %v", t.Name, err))
		}
		out := *res
		out.StructuredContent = json.RawMessage(filled)
		out.Content = slices.Clone(res.Content)
		for i, c := range out.Content {
			if text, ok := textOf(c); ok && text == string(data) {
				out.Content[i] = TextContent{Text: string(filled)}
			}
		}
		res = &out
	}
	if vs := t.output.Validate(v); len(vs) > 0 {
		report := resultReport(t.Name, vs)
		ss.srv.logger().Error("tool result does not match its output schema; sent an error result instead", "tool", t.Name, "violations", report)
		return ErrorResult(report)
	}
	return res
}

// textOf returns the text of a text block.
func textOf(c Content) (string, bool) {
	switch c := c.(type) {
	case TextContent:
		return c.Text, true
	case *TextContent:
		return c.Text, true
	}
	return "", false
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

// resultReport explains why a tool's result broke its output schema.
func resultReport(tool string, vs []schema.Violation) string {
	return report(fmt.Sprintf("tool %s returned a result that does not match its output schema:", tool), "result", vs)
}

// argumentReport explains every violation in one text the model can act on.
func argumentReport(tool string, vs []schema.Violation) string {
	return report("invalid arguments for tool "+tool+":", "arguments", vs)
}

// report lists violations under a heading, one per line; root names the
// value a violation with an empty path is about.
func report(heading, root string, vs []schema.Violation) string {
	var b strings.Builder
	b.WriteString(heading)
	for _, v := range vs {
		b.WriteString("\n- ")
		b.WriteString(cmp.Or(v.Path, root))
		b.WriteString(": ")
		b.WriteString(v.Msg)
	}
	return b.String()
}
