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

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/lineio"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A Tool is one MCP tool: how tools/list describes it and the function that
// runs it. mcpgen generates Tools from annotated Go functions; a Tool can
// also be written by hand.
type Tool struct {
	// Name identifies the tool in tools/call: 1 to 128 characters of
	// A-Z, a-z, 0-9, _, - and . (the MCP rule). Claude Code accepts only
	// ^[a-zA-Z0-9_-]{1,64}$, and mcpgen keeps generated names to that.
	Name string
	// Title is an optional human-readable name.
	Title string
	// Description tells the model what the tool does.
	Description string
	// InputSchema is the JSON Schema of the arguments, as JSON text. Its
	// root must be an object schema. Arguments are validated against it
	// before Handler runs. Empty means a tool without arguments.
	InputSchema string
	// OutputSchema, if set, is the JSON Schema of the structuredContent
	// of successful results. Its root may be any schema (an array, a
	// number): revisions before 2026-07-28 require an object, so clients
	// of those get {"type":"object","properties":{"result":…}} and the
	// structured content wrapped as {"result": …} instead, while newer
	// clients get both as they are. Every such result is checked against it
	// before it is sent: a null where the schema requires exactly an array
	// or an object (what encoding/json writes for a nil slice or map) is
	// sent as [] or {}, in the structuredContent and in a text block that
	// repeats it; a result that still does not match is replaced by an
	// error result that says why, and logged, since the client would
	// reject it.
	OutputSchema string
	// Annotations are hints about the tool's behaviour.
	Annotations *ToolAnnotations
	// Icons are images a client may show for the tool.
	Icons []Icon
	// UI, if set, links the tool to its MCP App view (see UIToolMeta).
	UI *UIToolMeta
	// SearchHint is sent as _meta["anthropic/searchHint"]: words that help
	// Claude Code's tool search find a deferred tool.
	SearchHint string
	// AlwaysLoad is sent as _meta["anthropic/alwaysLoad"]: Claude Code
	// then loads the tool up front instead of deferring it.
	AlwaysLoad bool
	// Meta holds any other _meta entries for tools/list.
	Meta map[string]any
	// Timeout, if positive, bounds each call: the handler's context is
	// cancelled when it expires.
	Timeout time.Duration
	// Scopes are the OAuth scopes a token must hold to call the tool, over
	// Streamable HTTP with Authorization; a token without them gets 403
	// and a challenge that names them. Requests without a token (stdio,
	// the Claude host) need none.
	Scopes []string

	// Handler runs a call whose arguments already satisfy InputSchema.
	Handler ToolHandler

	// Task says whether calls of the tool run as tasks (the extension
	// io.modelcontextprotocol/tasks of revision 2026-07-28): a client that
	// declares the extension gets a task at once, which it polls for the
	// result, while the handler runs on; see TaskSupport.
	Task TaskSupport
	// TaskTTL and TaskPollInterval override the server's
	// Tasks.TTL and Tasks.PollInterval for the tool.
	TaskTTL          time.Duration
	TaskPollInterval time.Duration
	// DeferTask, for a task tool, has a call become a task only when its
	// handler calls BeginTask: until then the call is an ordinary one,
	// whose questions go to the client in the call's own input_required
	// results. A handler that returns without calling it answers the
	// call itself.
	DeferTask bool

	input      *schema.Schema     // compiled InputSchema
	output     *schema.Schema     // compiled OutputSchema, or nil
	wrapOutput bool               // OutputSchema's root is not an object
	headers    []wire.HeaderParam // the input's x-mcp-header properties
	// pace is how long the handler's recent calls took, for the
	// transports that read on one goroutine (see quickTool).
	pace lineio.Pace
}

// A ToolHandler runs one tool call. A returned error becomes a result with
// isError set and the error's text, so that the model can read it and
// react; so does a panic (its stack goes to the server's Logger, and the
// model reads an incident id). A handler that fails in a way the model
// should see with more than a text can instead return a ToolResult with
// IsError set.
type ToolHandler func(ctx context.Context, req *ToolRequest) (*ToolResult, error)

// ToolAnnotations are the MCP tool annotations. Nil hints are not sent,
// which clients read as the protocol's defaults.
type ToolAnnotations struct {
	// Title is a human-readable name for the tool.
	Title string `json:"title,omitempty"`
	// ReadOnlyHint says the tool does not modify its environment.
	ReadOnlyHint *bool `json:"readOnlyHint,omitempty"`
	// DestructiveHint says the tool may perform destructive updates.
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	// IdempotentHint says repeated calls with the same arguments have no
	// additional effect.
	IdempotentHint *bool `json:"idempotentHint,omitempty"`
	// OpenWorldHint says the tool interacts with an open world of external
	// entities.
	OpenWorldHint *bool `json:"openWorldHint,omitempty"`
}

// A ToolRequest is one tools/call as a handler sees it.
type ToolRequest struct {
	// Name is the name of the tool being called.
	Name string
	// Arguments are the call's arguments, already validated against the
	// tool's input schema; "{}" when the client sent none.
	Arguments json.RawMessage
	// Meta is the request's _meta object, if any (Claude Code sends
	// "claudecode/toolUseId" there).
	Meta json.RawMessage
}

// Bind decodes the arguments into v, which is usually a pointer to the
// tool's input struct, with encoding/json.
func (r *ToolRequest) Bind(v any) error {
	if err := json.Unmarshal(r.Arguments, v); err != nil {
		return argumentError(err)
	}
	return nil
}

// argumentError explains arguments that could not be decoded into the
// handler's input type even though they satisfied the schema.
func argumentError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("invalid arguments: %s: cannot use %s as Go type %s: %w", te.Field, te.Value, te.Type, err)
	}
	return fmt.Errorf("invalid arguments: %w", err)
}

// A ToolResult is the outcome of a tool call.
type ToolResult struct {
	// Content is what the model reads: text, images, audio, resources.
	Content []Content
	// StructuredContent, if non-nil, is sent as the result's
	// structuredContent; it is encoded with encoding/json, and a
	// json.RawMessage is sent as is.
	StructuredContent any
	// IsError marks the result as a failure the model should see.
	IsError bool
	// Meta holds the result's _meta entries.
	Meta map[string]any
}

// TextResult returns a result with one text block.
func TextResult(text string) *ToolResult {
	// One allocation for the result, its content list and the block: this
	// is the result of most calls.
	r := &struct {
		result ToolResult
		list   [1]Content
		text   TextContent
	}{text: TextContent{Text: text}}
	r.list[0] = &r.text
	r.result.Content = r.list[:]
	return &r.result
}

// ErrorResult returns a failed result whose text explains the failure.
func ErrorResult(text string) *ToolResult {
	r := TextResult(text)
	r.IsError = true
	return r
}

// AddTool registers t. It panics if the tool is malformed (no name or
// handler, a duplicate name, or an input schema that is not a valid object
// schema), as these are programming errors that no request can fix.
// Clients that are connected learn that the list changed.
func (s *Server) AddTool(t *Tool) {
	if err := s.addTool(t); err != nil {
		panic("runtime: AddTool: " + err.Error())
	}
	s.listChanged(tools)
}

// RemoveTool removes the tool named name, and reports whether there was
// one. Clients that are connected learn that the list changed.
func (s *Server) RemoveTool(name string) bool {
	if !s.tools.Remove(name) {
		return false
	}
	s.listChanged(tools)
	return true
}

func (s *Server) addTool(t *Tool) error {
	if !validSpecToolName(t.Name) {
		return fmt.Errorf("invalid tool name %q: use 1 to 128 of A-Z a-z 0-9 _ - .", t.Name)
	}
	if t.Handler == nil {
		return fmt.Errorf("tool %q has no handler", t.Name)
	}
	if err := t.checkUI(); err != nil {
		return err
	}
	input := cmp.Or(t.InputSchema, emptyObjectSchema)
	sc, err := schema.Compile([]byte(input))
	if err != nil {
		return fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	if !sc.IsObject() {
		return fmt.Errorf("tool %q: input schema must have \"type\": \"object\"", t.Name)
	}
	headers, err := wire.HeaderParams([]byte(input))
	if err != nil {
		return fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	var out *schema.Schema
	if t.OutputSchema != "" {
		if out, err = schema.Compile([]byte(t.OutputSchema)); err != nil {
			return fmt.Errorf("tool %q: output schema: %w", t.Name, err)
		}
	}
	t.input, t.output, t.wrapOutput, t.headers = sc, out, out != nil && !out.IsObject(), headers
	if !s.tools.Add(t.Name, t) {
		return fmt.Errorf("duplicate tool %q", t.Name)
	}
	return nil
}

const emptyObjectSchema = `{"type":"object","properties":{},"additionalProperties":false}`

func validSpecToolName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0
}

// toolNamed is the tool named by the JSON string v, or nil. A name
// without escapes is looked up in place, without copying it.
func (s *Server) toolNamed(v jsonvalue.Value) *Tool {
	raw := v.Raw()
	name := raw[1 : len(raw)-1]
	if slices.Contains(name, '\\') {
		t, _ := s.tools.Get(v.Str())
		return t
	}
	t, _ := s.tools.GetBytes(name)
	return t
}

// listTools answers tools/list: the whole list is encoded once per set of
// tools and revision kind (see Tool.OutputSchema), a page (see PageSize)
// on each request.
func (ss *session) listTools(c *call) response {
	variant, apps := 0, c.rendersApps()
	if c.perRequest() {
		variant = 1
	}
	if apps {
		variant += 2
	}
	shown := func(t *Tool) bool { return apps || !t.modelHidden() }
	entry := func(b []byte, t *Tool) ([]byte, error) {
		if !shown(t) {
			return b, nil
		}
		b, err := t.appendListEntry(b, c.perRequest(), apps)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		return b, nil
	}
	return listPage(c, &ss.srv.tools, "tool", variant, "tools", shown, func(t *Tool) string { return t.Name }, entry)
}

// appendListEntry writes the tool as tools/list describes it to a client
// of the per-request revision or not, that renders MCP Apps or not, its
// schemas compacted.
func (t *Tool) appendListEntry(b []byte, perRequest, apps bool) ([]byte, error) {
	b = append(b, `{"name":`...)
	b = jsonvalue.AppendString(b, t.Name)
	b = appendField(b, "title", t.Title)
	b = appendField(b, "description", t.Description)
	b = append(b, `,"inputSchema":`...)
	b = appendCompact(b, cmp.Or(t.InputSchema, emptyObjectSchema))
	if t.OutputSchema != "" {
		b = append(b, `,"outputSchema":`...)
		wrap := t.wrapOutput && !perRequest
		if wrap {
			b = append(b, `{"type":"object","properties":{"result":`...)
		}
		b = appendCompact(b, t.OutputSchema)
		if wrap {
			b = append(b, `},"required":["result"]}`...)
		}
	}
	if t.Annotations != nil {
		data, err := json.Marshal(t.Annotations)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"annotations":`...), data...)
	}
	b, err := appendDescriptors(b, nil, t.Icons, nil)
	if err != nil {
		return nil, err
	}
	link := apps && t.UI != nil
	if len(t.Meta) > 0 || t.SearchHint != "" || t.AlwaysLoad || link {
		meta := make(map[string]any, len(t.Meta)+2)
		for k, v := range t.Meta {
			meta[k] = v
		}
		if link {
			t.uiMeta(meta)
		}
		if t.SearchHint != "" {
			meta["anthropic/searchHint"] = t.SearchHint
		}
		if t.AlwaysLoad {
			meta["anthropic/alwaysLoad"] = true
		}
		data, err := json.Marshal(meta)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"_meta":`...), data...)
	}
	return append(b, '}'), nil
}

// emptyArguments stands for the arguments of a call that sent none.
var emptyArguments, _ = jsonvalue.Parse([]byte("{}"))

// errNoResult is what a handler that returned neither a result nor an
// error amounts to.
var errNoResult = errors.New("returned no result")

// callTool answers tools/call. Failures of the call itself (invalid
// arguments, a handler's error or panic, a timeout) are results with
// isError set, so that the model sees them; a malformed request and an
// unknown tool are JSON-RPC errors (-32602), as the specification lists
// them among protocol errors.
func (ss *session) callTool(c *call) response {
	params := c.msg.Params
	t := c.tool
	if t == nil {
		nv := params.Get("name")
		if nv.Kind() != jsonvalue.String {
			return invalidParams(`"name" must be a string`)
		}
		return invalidParams("%s", ss.srv.tools.Unknown("tool", nv.Str()))
	}
	if c.tokenInfo != nil {
		if resp, ok := c.allow("tool", t.Name, t.Scopes); !ok {
			return resp
		}
	}
	if t.UI != nil && t.modelHidden() && !c.rendersApps() { // only a tool with a view may be hidden
		return appOnly(t)
	}
	args := params.Get("arguments")
	if k := args.Kind(); k == jsonvalue.Absent || k == jsonvalue.Null {
		args = emptyArguments
	}
	if vs := t.input.Validate(args); len(vs) > 0 {
		return ss.toolResult(c, t, ErrorResult(argumentReport(t.Name, vs)), false)
	}
	c.req = ToolRequest{Name: t.Name, Arguments: args.Raw()}
	c.args.Args, c.args.Input = args, t.input
	if mv := params.Get("_meta"); mv.Kind() == jsonvalue.Object {
		c.req.Meta = mv.Raw()
		if pt := mv.Get("progressToken"); pt.Kind() == jsonvalue.String || pt.Kind() == jsonvalue.Number {
			c.token = pt.Raw()
		}
	}
	if t.Task != TaskForbidden && c.meta != nil {
		if c.meta.Caps.HasExtension(wire.ExtTasks) {
			return ss.callTask(c, t, args)
		}
		if t.Task == TaskRequired {
			return missingCapability(&capabilityError{what: "tool " + t.Name + " runs only as a task", need: []byte(tasksCapabilityRequirement)})
		}
	}
	var res *ToolResult
	err, stop, resp := ss.runHandler(c, handlerRun{kind: "tool", target: t.Name, args: args, timeout: t.Timeout}, func(ctx context.Context) error {
		var err error
		res, err = t.run(ctx, &c.req)
		if err == nil && res == nil {
			err = errNoResult
		}
		return err
	})
	if stop {
		return resp
	}
	return ss.toolOutcome(c, t, res, err)
}

// toolOutcome answers c, a call of t, with what its handler returned: a
// *ProtocolError as a JSON-RPC error, any other error as a result with
// isError set, and a result checked against the output schema.
func (ss *session) toolOutcome(c *call, t *Tool, res *ToolResult, err error) response {
	checked := false
	switch {
	case errors.Is(err, errNoResult):
		res = ErrorResult(fmt.Sprintf("tool %s returned no result", t.Name))
	case err != nil:
		// Declared here, and not above, because errors.As moves it to the
		// heap: a call that succeeds allocates nothing for it.
		var pe *ProtocolError
		if errors.As(err, &pe) {
			return pe.response()
		}
		res = ErrorResult(err.Error())
	case t.output != nil && !res.IsError && res.StructuredContent != nil:
		res, checked = ss.conform(t, res), true
	}
	return ss.toolResult(c, t, res, checked)
}

// A ProtocolError, returned by a handler, answers its request with a
// JSON-RPC error instead of a result: for a failure of the protocol
// rather than of the tool's work, which the client (not the model) should
// act on. A task whose handler returns one fails with it. Any other
// error of a tool handler is a result with isError set, for the model to
// read.
type ProtocolError struct {
	// Code is the JSON-RPC error code, such as -32603 (internal error).
	Code int
	// Message says what went wrong.
	Message string
	// Data, if set, is the error's data: JSON.
	Data []byte
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message)
}

// response is the error response e stands for. Data that is not JSON is
// left out, and logged nowhere: the message still says what happened.
func (e *ProtocolError) response() response {
	if e.Data != nil && json.Valid(e.Data) {
		return errorWithData(e.Code, e.Message, e.Data)
	}
	return errorResponse(e.Code, "%s", e.Message)
}

// run runs the handler, timing the calls its pace samples (see quickTool
// and lineio.Pace.Sample).
func (t *Tool) run(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
	if !t.pace.Sample() {
		return t.Handler(ctx, req)
	}
	start := time.Now()
	res, err := t.Handler(ctx, req)
	t.pace.Observe(time.Since(start))
	return res, err
}

// conform makes a successful structured result honour the tool's output
// schema (see Tool.OutputSchema).
func (ss *session) conform(t *Tool, res *ToolResult) *ToolResult {
	data, err := structuredJSON(res.StructuredContent)
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

// structuredJSON returns structured content as JSON: a json.RawMessage as
// it is, anything else encoded with encoding/json.
func structuredJSON(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
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

// toolResult answers c with res, a result of the tool t; checked says
// that res's structured content, if any, was parsed already (conform).
// The result sent always holds its structured content as JSON that is
// known to be valid, so that encoding it cannot fail: content that does
// not encode, or a nil content block, becomes an error result that says
// so. A tool whose output is not an object wraps its structured content
// as {"result": …} for clients of a session revision, whose protocol
// requires an object.
func (ss *session) toolResult(c *call, t *Tool, res *ToolResult, checked bool) response {
	if slices.Contains(res.Content, nil) {
		res = ErrorResult(fmt.Sprintf("tool %s returned a result with a nil content block", t.Name))
	}
	if sc := res.StructuredContent; sc != nil {
		raw, isRaw := sc.(json.RawMessage)
		var err error
		switch {
		case !isRaw:
			raw, err = json.Marshal(sc)
		case !checked && !json.Valid(raw):
			err = errors.New("it is not valid JSON")
		}
		wrap := t.wrapOutput && !c.perRequest() && !res.IsError
		switch {
		case err != nil:
			res = ErrorResult(fmt.Sprintf("tool %s returned structured content that cannot be encoded: %v", t.Name, err))
		case wrap || !isRaw:
			out := *res
			if wrap {
				raw = append(append([]byte(`{"result":`), raw...), '}')
			}
			out.StructuredContent = json.RawMessage(raw)
			res = &out
		}
	}
	return response{result: res}
}

// appendResult writes the members of a CallToolResult.
func (r *ToolResult) appendResult(b []byte) ([]byte, error) {
	b = append(b, `"content":[`...)
	for i, c := range r.Content {
		if i > 0 {
			b = append(b, ',')
		}
		b = c.appendJSON(b)
	}
	b = append(b, ']')
	if r.StructuredContent != nil {
		// toolResult made it valid JSON.
		data, err := structuredJSON(r.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("structuredContent: %w", err)
		}
		b = append(append(b, `,"structuredContent":`...), data...)
	}
	if r.IsError {
		b = append(b, `,"isError":true`...)
	}
	return appendMeta(b, r.Meta)
}

// size estimates the encoded size of r: its texts, with room for escapes.
func (r *ToolResult) size() int {
	n := 32
	for _, c := range r.Content {
		if t, ok := textOf(c); ok {
			n += len(t) + len(t)/8
		}
	}
	return n
}

// resultReport explains why a tool's result broke its output schema. The
// tool ran: the model must not take the error for a refused call and
// repeat it, which would do what the tool did twice.
func resultReport(tool string, vs []schema.Violation) string {
	return report(fmt.Sprintf("tool %s ran, and what it did stands (do not call it again to retry), but it returned a result that does not match its output schema:", tool), "result", vs)
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

// quickPace returns the pace of t if its recent calls were quick (see
// lineio.Pace), or nil: a transport that reads on one goroutine runs the
// call of such a tool there even while more messages wait.
func quickPace(t *Tool) *lineio.Pace {
	if t != nil && t.pace.Quick() {
		return &t.pace
	}
	return nil
}
