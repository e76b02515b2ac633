package runtime

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
)

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
		return ss.toolResult(c, nil, ErrorResult(fmt.Sprintf("unknown tool %q; available tools: %s", nv.Str(), ss.srv.toolNames())))
	}
	name := t.Name
	args := params.Get("arguments")
	if !args.Exists() || args.Kind() == jsonvalue.Null {
		args = emptyArguments
	}
	if vs := t.input.Validate(args); len(vs) > 0 {
		return ss.toolResult(c, t, ErrorResult(argumentReport(name, vs)))
	}
	c.req = ToolRequest{Name: name, Arguments: args.Raw()}
	req := &c.req
	var token []byte
	if mv := params.Get("_meta"); mv.Exists() && mv.Kind() == jsonvalue.Object {
		req.Meta = mv.Raw()
		if pt := mv.Get("progressToken"); pt.Exists() && (pt.Kind() == jsonvalue.String || pt.Kind() == jsonvalue.Number) {
			token = pt.Raw()
		}
	}

	if c.modern != nil {
		if errResp := ss.beginRound(c, "tools/call", name, args); errResp != nil {
			return errResp
		}
	}
	if slots := ss.srv.slotsChan(); slots != nil {
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		case <-c.ctx.Done():
			return ss.toolResult(c, t, ErrorResult(fmt.Sprintf("tool %s was cancelled before it started", name)))
		}
	}
	var ctx context.Context = &c.ctx
	if t.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.Timeout)
		defer cancel()
	}
	// The call's context answers for its state (see callContext.Value).
	c.state = ss.handlerState(c, name)
	c.state.Request, c.state.Args, c.state.Token = req, args, token
	res, err := ss.invoke(ctx, t, req)
	if c.modern != nil {
		if resp := ss.endModernCall(c, name, args, err); resp != nil {
			return resp
		}
	} else if err != nil {
		if needURL := (*URLElicitationRequiredError)(nil); errors.As(err, &needURL) {
			return jsonrpc.ErrorWithData(id, codeURLElicitationRequired, needURL.Error(), needURL.data())
		}
	}
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
	return ss.toolResult(c, t, res)
}

// endModernCall answers a modern tool call whose handler returned err
// otherwise than with its result: with the questions it left open, or
// with the error for a capability the client lacks. It returns nil when
// the result stands.
func (ss *session) endModernCall(c *call, name string, args jsonvalue.Value, err error) []byte {
	var needURL *URLElicitationRequiredError
	if errors.As(err, &needURL) {
		if resp := ss.askQuestions(c, needURL.questions()); resp != nil {
			return resp
		}
	}
	if resp := ss.endRound(c, "tools/call", name, args); resp != nil {
		return resp
	}
	var capErr *capabilityError
	if errors.As(err, &capErr) {
		return missingCapability(c.msg.ID.Raw(), capErr)
	}
	return nil
}

// conform makes a successful structured result honour the tool's output
// schema (see Tool.OutputSchema).
func (ss *session) conform(t *Tool, res *ToolResult) *ToolResult {
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

// invoke runs the handler, turning a panic into an error.
func (ss *session) invoke(ctx context.Context, t *Tool, req *ToolRequest) (res *ToolResult, err error) {
	defer ss.recoverHandler("tool", t.Name, &err)
	start := time.Now()
	res, err = t.Handler(ctx, req)
	t.observe(time.Since(start))
	return res, err
}

// toolResult answers c with res, a result of the tool t (nil for an
// unknown tool). A tool whose output is not an object wraps its
// structured content as {"result": …} for legacy clients, whose protocol
// requires an object.
func (ss *session) toolResult(c *call, t *Tool, res *ToolResult) []byte {
	id := c.msg.ID.Raw()
	if t != nil && t.wrapOutput && c.modern == nil && res.StructuredContent != nil && !res.IsError {
		if data, err := marshalValue(res.StructuredContent); err == nil {
			out := *res
			out.StructuredContent = json.RawMessage(append(append([]byte(`{"result":`), data...), '}'))
			res = &out
		}
	}
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
		return ss.toolResult(c, nil, ErrorResult("tool result could not be encoded: "+err.Error()))
	}
	b = append(b, '}')
	if c.modern != nil {
		return completeResult(b, id, nil)
	}
	return b
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
