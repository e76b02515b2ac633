package runtime

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// controlConn runs the Claude Agent SDK control protocol on the CLI's
// stdout (r) and stdin (w): it answers the CLI's control requests (MCP
// messages for the hosted servers, permission checks), routes the answers
// to the host's own requests by request_id, and queues every other line
// as a conversation message. It knows nothing of processes, so tests
// drive it over pipes.
type controlConn struct {
	servers    map[string]*session
	canUseTool func(context.Context, PermissionRequest) (PermissionResult, error)
	logger     *slog.Logger

	ctx    context.Context // cancelled when the connection ends
	cancel context.CancelCauseFunc

	out *lineWriter // one writer, whole lines, batched when busy

	mu       sync.Mutex
	pending  map[string]chan controlReply // the host's requests awaiting a reply
	inflight map[string]context.CancelFunc
	nextID   int
	handlers sync.WaitGroup

	msgs *messageQueue
	done chan struct{} // closed when the read loop has ended
	err  error         // why it ended; set before done is closed
}

// controlReply is the CLI's answer to one of the host's requests.
type controlReply struct {
	response json.RawMessage
	err      error
}

func newControlConn(ctx context.Context, r io.Reader, w io.Writer, servers map[string]*Server, canUseTool func(context.Context, PermissionRequest) (PermissionResult, error), logger *slog.Logger) *controlConn {
	cc := &controlConn{
		servers:    map[string]*session{},
		canUseTool: canUseTool,
		logger:     logger,
		pending:    map[string]chan controlReply{},
		inflight:   map[string]context.CancelFunc{},
		msgs:       newMessageQueue(),
		done:       make(chan struct{}),
	}
	cc.ctx, cc.cancel = context.WithCancelCause(ctx)
	cc.out = newLineWriter(w, func() { cc.cancel(errors.New("writing to the CLI failed")) })
	for name, srv := range servers {
		ss := &session{srv: srv, sharedIDs: true}
		ss.notify = func(msg []byte) { cc.sendMCPNotification(name, msg) }
		cc.servers[name] = ss
	}
	go cc.readLoop(&lineReader{r: bufio.NewReaderSize(r, 64<<10), limit: maxControlLine})
	return cc
}

// maxControlLine bounds one line from the CLI. Conversation messages can
// be large (a file read by a tool), so the bound is generous.
const maxControlLine = 256 << 20

// readLoop reads the CLI's lines until its output ends. A control request
// is answered on the reading goroutine, and the reading passes to another
// goroutine if the answer takes long (see runInline).
func (cc *controlConn) readLoop(lr *lineReader) {
	for {
		line, size, rerr := lr.nextFor(cc.out)
		var work func()
		if size > maxControlLine {
			cc.logger.Warn("claude: dropped an oversized line from the CLI", "bytes", size)
		} else if len(line) > 0 && line[0] == '{' {
			work = cc.handleLine(line)
		}
		if rerr != nil {
			if work != nil {
				work()
			}
			var err error
			if !errors.Is(rerr, io.EOF) {
				err = fmt.Errorf("reading from the CLI: %w", rerr)
			}
			cc.finish(err)
			return
		}
		if work != nil && !runInline(work, func() { cc.readLoop(lr) }) {
			return
		}
	}
}

// finish ends the connection: requests still waiting for the CLI fail,
// handlers are cancelled, and the message queue is closed once they are
// done.
func (cc *controlConn) finish(err error) {
	if err == nil {
		err = io.EOF
	}
	cc.cancel(err)
	cc.mu.Lock()
	for id, ch := range cc.pending {
		ch <- controlReply{err: err}
		delete(cc.pending, id)
	}
	cc.mu.Unlock()
	waitGroup(&cc.handlers, nil, handlerGrace)
	cc.out.close()
	cc.err = err
	cc.msgs.close(err)
	close(cc.done)
}

// handlerGrace bounds how long a finished connection waits for handlers
// that ignore their cancelled context.
const handlerGrace = 5 * time.Second

// handleLine routes one line from the CLI. The line is parsed once; the
// request handlers and the MCP dispatch work on the parsed tree. A control
// request is returned as work to run rather than answered here.
func (cc *controlConn) handleLine(line []byte) (work func()) {
	v, err := parseValue(line)
	if err != nil || v.kind != kindObject {
		cc.logger.Warn("claude: ignored a line from the CLI that is not a JSON object", "error", err)
		return nil
	}
	switch stringMember(&v, "type") {
	case "control_request":
		id := stringMember(&v, "request_id")
		req := v.get("request")
		if id == "" || req == nil || req.kind != kindObject {
			// Without an id there is no one to answer.
			cc.logger.Warn("claude: ignored a malformed control request from the CLI", "line", truncate(line))
			return nil
		}
		return cc.startHandler(id, req)
	case "control_response":
		if resp := v.get("response"); resp != nil && resp.kind == kindObject {
			var payload json.RawMessage
			if p := resp.get("response"); p != nil {
				payload = p.raw
			}
			cc.reply(stringMember(resp, "request_id"), stringMember(resp, "subtype"), payload, stringMember(resp, "error"))
		}
	case "control_cancel_request":
		cc.mu.Lock()
		cancel := cc.inflight[stringMember(&v, "request_id")]
		cc.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case "keep_alive", "transcript_mirror":
	default:
		cc.msgs.push(parseMessage(line))
	}
	return nil
}

// stringMember is the named string member of an object, or "".
func stringMember(v *value, name string) string {
	if m := v.get(name); m != nil && m.kind == kindString {
		return m.str()
	}
	return ""
}

func (cc *controlConn) reply(id, subtype string, response json.RawMessage, errText string) {
	cc.mu.Lock()
	ch := cc.pending[id]
	delete(cc.pending, id)
	cc.mu.Unlock()
	if ch == nil {
		return // a reply to a notification we forwarded, or to nothing
	}
	if subtype == "error" {
		ch <- controlReply{err: &ControlError{Message: errText}}
		return
	}
	ch <- controlReply{response: response}
}

// A ControlError is the CLI's refusal of a control request.
type ControlError struct {
	Message string
}

func (e *ControlError) Error() string { return "claude: control request failed: " + e.Message }

// startHandler registers one control request from the CLI and returns
// the work that answers it, which the read loop runs (see runInline): a
// slow tool must not hold up the others, nor the reading of the
// conversation.
func (cc *controlConn) startHandler(id string, req *value) (work func()) {
	ctx, cancel := context.WithCancel(cc.ctx)
	cc.mu.Lock()
	if _, dup := cc.inflight[id]; dup {
		cc.mu.Unlock()
		cancel()
		return nil // a duplicate delivery of a request being handled
	}
	cc.inflight[id] = cancel
	cc.handlers.Add(1)
	cc.mu.Unlock()
	return func() {
		defer cc.handlers.Done()
		resp, err := cc.handle(ctx, req)
		cc.mu.Lock()
		delete(cc.inflight, id)
		cc.mu.Unlock()
		if ctx.Err() != nil && cc.ctx.Err() == nil {
			cancel()
			return // withdrawn by control_cancel_request: the CLI expects nothing
		}
		cancel()
		if err != nil {
			cc.writeLine(controlErrorLine(id, err.Error()))
			return
		}
		cc.writeLine(controlSuccessLine(id, resp))
	}
}

func controlSuccessLine(id string, resp []byte) []byte {
	b := make([]byte, 0, len(resp)+96)
	b = append(b, `{"type":"control_response","response":{"subtype":"success","request_id":`...)
	b = appendString(b, id)
	b = append(b, `,"response":`...)
	b = append(b, resp...)
	return append(b, "}}"...)
}

func controlErrorLine(id, msg string) []byte {
	b := make([]byte, 0, len(msg)+96)
	b = append(b, `{"type":"control_response","response":{"subtype":"error","request_id":`...)
	b = appendString(b, id)
	b = append(b, `,"error":`...)
	b = appendString(b, msg)
	return append(b, "}}"...)
}

// handle answers one control request with the payload of a success
// response, or an error for an error response.
func (cc *controlConn) handle(ctx context.Context, req *value) ([]byte, error) {
	switch subtype := stringMember(req, "subtype"); subtype {
	case "mcp_message":
		return cc.mcpMessage(ctx, stringMember(req, "server_name"), req.get("message"))
	case "can_use_tool":
		return cc.permission(ctx, req.raw)
	default:
		return nil, fmt.Errorf("unsupported control request subtype: %s", subtype)
	}
}

// mcpMessage hands one JSON-RPC message to the named server's session and
// wraps what it answers as {"mcp_response": …}. Every message is
// answered, notifications included: the CLI waits for a reply to each.
func (cc *controlConn) mcpMessage(ctx context.Context, server string, v *value) ([]byte, error) {
	if v == nil {
		return nil, errors.New("mcp_message without a message")
	}
	ss := cc.servers[server]
	if ss == nil {
		id := nullID
		if v.kind == kindObject {
			if idv := v.get("id"); idv != nil {
				id = idv.raw
			}
		}
		return mcpResponse(errorResponse(id, CodeMethodNotFound, fmt.Sprintf("Server '%s' not found", server))), nil
	}
	m, errResp := messageFromValue(v)
	switch {
	case errResp != nil:
		return mcpResponse(errResp), nil
	case m == nil || !m.isRequest():
		if m != nil {
			ss.notification(m)
		}
		return mcpResponse([]byte(`{"jsonrpc":"2.0","result":{}}`)), nil
	}
	c, errResp := ss.start(ctx, m)
	if errResp != nil {
		return mcpResponse(errResp), nil
	}
	resp := ss.run(c)
	if resp == nil {
		// Cancelled by notifications/cancelled. The control request that
		// carried the call still needs its one answer.
		resp = errorResponse(m.id.raw, CodeRequestCancelled, "request cancelled")
	}
	return mcpResponse(resp), nil
}

func mcpResponse(jsonrpc []byte) []byte {
	b := make([]byte, 0, len(jsonrpc)+18)
	b = append(b, `{"mcp_response":`...)
	b = append(b, jsonrpc...)
	return append(b, '}')
}

// sendMCPNotification forwards a notification of a hosted server (progress,
// log) to the CLI as an mcp_message control request, as the TypeScript SDK
// does; the CLI's acknowledgement is not awaited.
func (cc *controlConn) sendMCPNotification(server string, msg []byte) {
	id := cc.newID()
	b := make([]byte, 0, len(msg)+128)
	b = append(b, `{"type":"control_request","request_id":`...)
	b = appendString(b, id)
	b = append(b, `,"request":{"subtype":"mcp_message","server_name":`...)
	b = appendString(b, server)
	b = append(b, `,"message":`...)
	b = append(b, msg...)
	b = append(b, "}}"...)
	cc.writeLine(b)
}

// request sends a control request of the host's own and waits for the
// CLI's reply.
func (cc *controlConn) request(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	body := map[string]any{"subtype": subtype}
	for k, v := range fields {
		body[k] = v
	}
	id := cc.newID()
	line, err := json.Marshal(map[string]any{"type": "control_request", "request_id": id, "request": body})
	if err != nil {
		return nil, err
	}
	ch := make(chan controlReply, 1)
	cc.mu.Lock()
	if cc.ctx.Err() != nil {
		cc.mu.Unlock()
		return nil, context.Cause(cc.ctx)
	}
	cc.pending[id] = ch
	cc.mu.Unlock()
	if err := cc.writeLine(line); err != nil {
		cc.mu.Lock()
		delete(cc.pending, id)
		cc.mu.Unlock()
		return nil, err
	}
	select {
	case r := <-ch:
		return r.response, r.err
	case <-ctx.Done():
		cc.mu.Lock()
		delete(cc.pending, id)
		cc.mu.Unlock()
		cc.writeLine([]byte(`{"type":"control_cancel_request","request_id":` + strconv.Quote(id) + `}`))
		return nil, ctx.Err()
	}
}

func (cc *controlConn) newID() string {
	var b [4]byte
	rand.Read(b[:])
	cc.mu.Lock()
	cc.nextID++
	n := cc.nextID
	cc.mu.Unlock()
	return "req_" + strconv.Itoa(n) + "_" + hex.EncodeToString(b[:])
}

// writeLine queues one line for the CLI's stdin: handlers still answer
// the requests they received after the CLI's output has ended, as long as
// the writer runs. It fails once a write has failed; that also ends the
// connection, so whoever waits for the CLI learns of it from there.
func (cc *controlConn) writeLine(line []byte) error {
	if err := cc.out.err(); err != nil {
		return err
	}
	cc.out.send(line)
	return nil
}

// A PermissionRequest is the CLI asking whether a tool may run.
type PermissionRequest struct {
	// ToolName is the tool as the model calls it, mcp__<server>__<tool>
	// for MCP tools.
	ToolName string `json:"tool_name"`
	// Input is the tool's input as the model wrote it.
	Input json.RawMessage `json:"input"`
	// ToolUseID identifies the model's tool_use block.
	ToolUseID string `json:"tool_use_id"`
	// BlockedPath is the path that triggered the check, for file tools.
	BlockedPath string `json:"blocked_path"`
	// DecisionReason explains why the CLI asks, when it says.
	DecisionReason string `json:"decision_reason"`
	// Suggestions are the CLI's permission_suggestions, as sent.
	Suggestions json.RawMessage `json:"permission_suggestions"`
}

// A PermissionResult answers a PermissionRequest.
type PermissionResult struct {
	// Allow lets the tool run.
	Allow bool
	// UpdatedInput, if set, replaces the tool's input (only with Allow).
	UpdatedInput json.RawMessage
	// Message tells the model why the tool was denied.
	Message string
	// Interrupt, with a denial, also stops the current turn.
	Interrupt bool
}

func (cc *controlConn) permission(ctx context.Context, req json.RawMessage) ([]byte, error) {
	if cc.canUseTool == nil {
		return nil, errors.New("canUseTool callback is not provided")
	}
	var pr PermissionRequest
	if err := json.Unmarshal(req, &pr); err != nil {
		return nil, fmt.Errorf("malformed can_use_tool request: %w", err)
	}
	res, err := cc.callPermission(ctx, pr)
	if err != nil {
		return nil, err
	}
	if res.Allow {
		input := res.UpdatedInput
		if input == nil {
			input = pr.Input // the CLI wants updatedInput even when unchanged
		}
		if input == nil {
			input = json.RawMessage("{}")
		}
		return json.Marshal(struct {
			Behavior     string          `json:"behavior"`
			UpdatedInput json.RawMessage `json:"updatedInput"`
		}{"allow", input})
	}
	msg := res.Message
	if msg == "" {
		msg = "The user denied this tool."
	}
	return json.Marshal(struct {
		Behavior  string `json:"behavior"`
		Message   string `json:"message"`
		Interrupt bool   `json:"interrupt,omitempty"`
	}{"deny", msg, res.Interrupt})
}

// callPermission runs the callback, turning a panic into an error.
func (cc *controlConn) callPermission(ctx context.Context, pr PermissionRequest) (res PermissionResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			cc.logger.Error("claude: permission callback panicked", "panic", p)
			err = fmt.Errorf("permission callback failed: %v", p)
		}
	}()
	return cc.canUseTool(ctx, pr)
}

// messageQueue holds conversation messages until the host reads them; it
// never blocks the reader, which must keep answering control requests.
type messageQueue struct {
	mu     sync.Mutex
	items  []Message
	ready  chan struct{} // closed and replaced when items or closed change
	closed error
}

func newMessageQueue() *messageQueue {
	return &messageQueue{ready: make(chan struct{})}
}

func (q *messageQueue) push(m Message) {
	q.mu.Lock()
	q.items = append(q.items, m)
	close(q.ready)
	q.ready = make(chan struct{})
	q.mu.Unlock()
}

func (q *messageQueue) close(err error) {
	q.mu.Lock()
	q.closed = err
	close(q.ready)
	q.ready = make(chan struct{})
	q.mu.Unlock()
}

// pop returns the next message, or the error the queue was closed with
// once it is empty.
func (q *messageQueue) pop(ctx context.Context) (Message, error) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			m := q.items[0]
			q.items[0] = nil
			q.items = q.items[1:]
			q.mu.Unlock()
			return m, nil
		}
		if q.closed != nil {
			err := q.closed
			q.mu.Unlock()
			return nil, err
		}
		ready := q.ready
		q.mu.Unlock()
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
