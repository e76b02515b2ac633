package claude

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/bridge"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/lineio"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// controlConn runs the Claude Agent SDK control protocol on the CLI's
// stdout (r) and stdin (w): it answers the CLI's control requests (MCP
// messages for the hosted servers, permission checks), routes the answers
// to the host's own requests by request_id, and queues every other line
// as a conversation message. It knows nothing of processes, so tests
// drive it over pipes.
type controlConn struct {
	servers       map[string]bridge.Conn // the servers' connections, by name
	canUseTool    func(context.Context, PermissionRequest) (PermissionResult, error)
	hooks         *hookRegistry
	onElicitation func(context.Context, ElicitationRequest) (ElicitationResult, error)
	onUserDialog  func(context.Context, UserDialogRequest) (UserDialogResult, error)
	mirror        *mirror // nil without a SessionStore
	logger        *slog.Logger

	ctx    context.Context // cancelled when the connection ends
	cancel context.CancelCauseFunc

	out     *lineio.Writer          // one writer, whole lines, batched when busy
	workers *lineio.Workers[func()] // answer requests while more lines wait
	// inline is the pace of the quick tool whose call the reader runs
	// itself, if it is one (see readLoop).
	inline atomic.Pointer[lineio.Pace]

	mu       sync.Mutex
	pending  map[string]chan controlReply // the host's requests awaiting a reply
	inflight map[string]context.CancelFunc
	nextID   int
	handlers sync.WaitGroup

	trees jsonvalue.TreePool // to parse lines into (see handleLine)

	msgs      *messageQueue
	sessionID atomic.Pointer[string] // of the latest system/init or result
	done      chan struct{}          // closed when the read loop has ended
	err       error                  // why it ended; set before done is closed

	// startupFailure is the result of a CLI that refused to start.
	startupFailure atomic.Pointer[ResultMessage]
}

// hostConfig is what the host answers the CLI's requests with.
type hostConfig struct {
	servers       map[string]*runtime.Server
	canUseTool    func(context.Context, PermissionRequest) (PermissionResult, error)
	hooks         *hookRegistry
	onElicitation func(context.Context, ElicitationRequest) (ElicitationResult, error)
	onUserDialog  func(context.Context, UserDialogRequest) (UserDialogResult, error)
	mirror        *mirror
	logger        *slog.Logger
}

// controlReply is the CLI's answer to one of the host's requests.
type controlReply struct {
	response json.RawMessage
	err      error
}

func newControlConn(ctx context.Context, r io.Reader, w io.Writer, cfg hostConfig) *controlConn {
	cc := &controlConn{
		servers:       map[string]bridge.Conn{},
		canUseTool:    cfg.canUseTool,
		hooks:         cfg.hooks,
		onElicitation: cfg.onElicitation,
		onUserDialog:  cfg.onUserDialog,
		mirror:        cfg.mirror,
		logger:        cfg.logger,
		pending:       map[string]chan controlReply{},
		inflight:      map[string]context.CancelFunc{},
		msgs:          newMessageQueue(maxQueuedMessages, maxQueuedBytes),
		done:          make(chan struct{}),
	}
	if cc.hooks == nil {
		cc.hooks = &hookRegistry{}
	}
	cc.ctx, cc.cancel = context.WithCancelCause(ctx)
	cc.out = lineio.NewWriter(w, func() { cc.cancel(errors.New("writing to the CLI failed")) })
	for name, srv := range cfg.servers {
		cc.servers[name] = bridge.ConnOf(srv.NewConn(func(msg []byte) { cc.sendMCPNotification(name, msg) }))
	}
	cc.workers = lineio.NewWorkers(func(work func()) { work() })
	go cc.readLoop(lineio.NewReader(r, maxControlLine))
	return cc
}

// maxControlLine bounds one line from the CLI. Conversation messages can
// be large (a file read by a tool), so the bound is generous.
const maxControlLine = 256 << 20

// readLoop reads the CLI's lines until its output ends. A control request
// is answered on the reading goroutine when no other line waits, or when
// it is a call of a tool whose recent calls were quick (see lineio.Pace),
// and the reading passes to another goroutine if
// the answer takes long (see lineio.Handoff), which also marks the tool as
// slow; any other request with a line waiting is answered on a worker at
// once (see lineio.Workers). Answering a burst of quick calls here costs
// no wake-up of another goroutine, and their answers go out in one write.
func (cc *controlConn) readLoop(lr *lineio.Reader) {
	h := lineio.NewHandoff(func() {
		if p := cc.inline.Load(); p != nil {
			p.MarkSlow() // it was not quick: its next calls go to workers
		}
		cc.readLoop(lr)
	})
	for {
		line, size, rerr := lr.NextFor(cc.out)
		var work func()
		var quick *lineio.Pace
		if size > maxControlLine {
			cc.logger.Warn("claude: dropped an oversized line from the CLI", "bytes", size)
		} else if len(line) > 0 && line[0] == '{' {
			work, quick = cc.handleLine(line)
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
		switch {
		case work == nil:
		case quick == nil && lr.Buffered(): // a line is waiting: do not hold it up
			cc.workers.Run(work)
		default:
			cc.inline.Store(quick)
			h.Arm()
			work()
			if !h.Disarm() {
				return // another goroutine reads now, and owns inline
			}
			cc.inline.Store(nil)
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
	handled := make(chan struct{})
	go func() { cc.handlers.Wait(); close(handled) }()
	select {
	case <-handled:
	case <-time.After(handlerGrace):
	}
	cc.closeServerConns()
	if cc.mirror != nil {
		cc.mirror.close()
	}
	cc.out.Close()
	cc.workers.Stop()
	cc.err = err
	cc.msgs.close(err)
	close(cc.done)
}

// closeServerConns ends the connection's session with each hosted
// server. A Server keeps every open Conn to send it list changes and
// resource updates; one left open would keep this controlConn, its
// message queue and its share of every later notification for as long as
// the Server lives: a host that runs one query after another would grow
// without bound.
func (cc *controlConn) closeServerConns() {
	for _, conn := range cc.servers {
		conn.Close()
	}
}

// handlerGrace bounds how long a finished connection waits for handlers
// that ignore their cancelled context.
const handlerGrace = 5 * time.Second

// handleLine routes one line from the CLI. The line is parsed once; the
// request handlers and the MCP dispatch work on the parsed tree. A control
// request is returned as work to run rather than answered here, with the
// pace of the quick tool it calls, if it does.
func (cc *controlConn) handleLine(line []byte) (work func(), quick *lineio.Pace) {
	tree := cc.trees.Get()
	v, err := tree.Parse(line)
	if err != nil || v.Kind() != jsonvalue.Object {
		cc.trees.Put(tree)
		cc.logger.Warn("claude: ignored a line from the CLI that is not a JSON object", "error", err)
		return nil, nil
	}
	switch typ := v.Get("type"); {
	case typ.Is("control_request"):
		id := stringMember(v, "request_id")
		req := v.Get("request")
		if id == "" || req.Kind() != jsonvalue.Object {
			// Without an id there is no one to answer.
			cc.trees.Put(tree)
			cc.logger.Warn("claude: ignored a malformed control request from the CLI", "line", fmt.Sprintf("%.200s", line))
			return nil, nil
		}
		if req.Get("subtype").Is("mcp_message") {
			if conn := cc.server(req.Get("server_name")); conn != nil {
				quick = conn.QuickTool(req.Get("message"))
			}
		}
		return cc.startHandler(id, req, tree), quick // which gives the tree back once answered
	case typ.Is("control_response"):
		if resp := v.Get("response"); resp.Kind() == jsonvalue.Object {
			var payload json.RawMessage
			if p := resp.Get("response"); p.Exists() {
				payload = slices.Clone(p.Raw()) // the waiter keeps it; the tree goes back
			}
			cc.reply(stringMember(resp, "request_id"), stringMember(resp, "subtype"), payload, stringMember(resp, "error"), stringMember(resp, "error_code"))
		}
	case typ.Is("control_cancel_request"):
		cc.mu.Lock()
		cancel := cc.inflight[stringMember(v, "request_id")]
		cc.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case typ.Is("keep_alive"):
	case typ.Is("transcript_mirror"):
		if cc.mirror != nil {
			cc.mirror.add(v)
		}
	default:
		m := parseMessage(line)
		switch m := m.(type) {
		case *SystemMessage:
			if m.Subtype == "init" && m.SessionID != "" {
				cc.sessionID.Store(&m.SessionID)
			}
		case *ResultMessage:
			if m.SessionID != "" {
				cc.sessionID.Store(&m.SessionID)
			}
			if m.StartupFailureReason != "" {
				cc.startupFailure.Store(m)
			}
			if cc.mirror != nil {
				// Whoever reads the result can resume from the store.
				cc.mirror.flush()
			}
		}
		cc.msgs.push(m)
	}
	cc.trees.Put(tree)
	return nil, nil
}

// stringMember is the named string member of an object, or "".
func stringMember(v jsonvalue.Value, name string) string {
	if m := v.Get(name); m.Exists() && m.Kind() == jsonvalue.String {
		return m.Str()
	}
	return ""
}

func (cc *controlConn) reply(id, subtype string, response json.RawMessage, errText, errCode string) {
	cc.mu.Lock()
	ch := cc.pending[id]
	delete(cc.pending, id)
	cc.mu.Unlock()
	if ch == nil {
		return // a reply to a notification we forwarded, or to nothing
	}
	if subtype == "error" {
		ch <- controlReply{err: &ControlError{Message: errText, Code: errCode}}
		return
	}
	ch <- controlReply{response: response}
}

// A ControlError is a refusal of a control request: the CLI's of the
// host's, or the host's of the CLI's. Code, when set, is the refusal's
// error_code, such as "unsupported_request" or "invalid_mode".
type ControlError struct {
	Message string
	Code    string
}

func (e *ControlError) Error() string { return "claude: control request failed: " + e.Message }

// Unsupported control requests are answered as the TypeScript SDK
// answers them.
const unsupportedCode = "unsupported_request"

// startHandler registers one control request from the CLI and returns
// the work that answers it, which the read loop runs (see readLoop): a
// slow tool must not hold up the others, nor the reading of the
// conversation.
func (cc *controlConn) startHandler(id string, req jsonvalue.Value, tree *jsonvalue.Tree) (work func()) {
	ctx, cancel := context.WithCancel(cc.ctx)
	cc.mu.Lock()
	if _, dup := cc.inflight[id]; dup {
		cc.mu.Unlock()
		cancel()
		cc.trees.Put(tree)
		return nil // a duplicate delivery of a request being handled
	}
	cc.inflight[id] = cancel
	cc.handlers.Add(1)
	cc.mu.Unlock()
	return func() {
		defer cc.handlers.Done()
		var line []byte
		var err error
		if req.Get("subtype").Is("mcp_message") {
			line, err = cc.mcpMessage(ctx, id, req)
		} else {
			var resp []byte
			if resp, err = cc.handle(ctx, req); err == nil {
				line = controlSuccessLine(id, resp)
			}
		}
		cc.trees.Put(tree)
		cc.mu.Lock()
		delete(cc.inflight, id)
		cc.mu.Unlock()
		if ctx.Err() != nil && cc.ctx.Err() == nil {
			cancel()
			return // withdrawn by control_cancel_request: the CLI expects nothing
		}
		cancel()
		if err != nil {
			var code string
			if ce, ok := err.(*ControlError); ok {
				code = ce.Code
				err = errors.New(ce.Message)
			}
			cc.writeLine(controlErrorLine(id, err.Error(), code))
			return
		}
		cc.writeLine(line)
	}
}

func controlSuccessLine(id string, resp []byte) []byte {
	b := make([]byte, 0, len(resp)+96)
	b = append(b, `{"type":"control_response","response":{"subtype":"success","request_id":`...)
	b = jsonvalue.AppendString(b, id)
	b = append(b, `,"response":`...)
	b = append(b, resp...)
	return append(b, "}}"...)
}

func controlErrorLine(id, msg, code string) []byte {
	b := make([]byte, 0, len(msg)+128)
	b = append(b, `{"type":"control_response","response":{"subtype":"error","request_id":`...)
	b = jsonvalue.AppendString(b, id)
	b = append(b, `,"error":`...)
	b = jsonvalue.AppendString(b, msg)
	if code != "" {
		b = append(b, `,"error_code":`...)
		b = jsonvalue.AppendString(b, code)
	}
	return append(b, "}}"...)
}

// handle answers one control request with the payload of a success
// response, or an error for an error response.
func (cc *controlConn) handle(ctx context.Context, req jsonvalue.Value) ([]byte, error) {
	switch subtype := stringMember(req, "subtype"); subtype {
	case "can_use_tool":
		return cc.permission(ctx, req.Raw())
	case "hook_callback":
		var input json.RawMessage
		if in := req.Get("input"); in.Exists() {
			input = in.Raw()
		}
		return cc.hookCallback(ctx, stringMember(req, "callback_id"), input)
	case "elicitation":
		return cc.elicitation(ctx, req.Raw())
	case "request_user_dialog":
		return cc.userDialog(ctx, req.Raw())
	default:
		return nil, &ControlError{Message: "Unsupported control request subtype: " + subtype, Code: unsupportedCode}
	}
}

// callback runs f, a callback of the host's user (CanUseTool,
// OnElicitation, OnUserDialog), turning a panic into an error that the
// CLI gets as the request's refusal: a bug in it must not end the host.
func callback[Req, Res any](cc *controlConn, what string, f func(context.Context, Req) (Res, error), ctx context.Context, req Req) (res Res, err error) {
	defer func() {
		if p := recover(); p != nil {
			cc.logger.Error("claude: "+what+" callback panicked", "panic", p)
			err = fmt.Errorf("%s callback failed: %v", what, p)
		}
	}()
	return f(ctx, req)
}

// mcpMessage answers the control request id, an mcp_message: it hands the
// JSON-RPC message, already parsed as part of its control line, to the
// named server's connection, and returns the whole control_response line
// that wraps what it answers as {"mcp_response": …}, written once. Every
// message is answered, notifications included: the CLI waits for a reply
// to each.
func (cc *controlConn) mcpMessage(ctx context.Context, id string, req jsonvalue.Value) ([]byte, error) {
	v := req.Get("message")
	if !v.Exists() {
		return nil, errors.New("mcp_message without a message")
	}
	mid := jsonrpc.NullID // the message's id, for an answer made here
	if v.Get("method").Exists() {
		if idv := v.Get("id"); idv.Exists() {
			mid = idv.Raw()
		}
	}
	b := make([]byte, 0, 512)
	b = append(b, `{"type":"control_response","response":{"subtype":"success","request_id":`...)
	b = jsonvalue.AppendString(b, id)
	b = append(b, `,"response":{"mcp_response":`...)
	conn := cc.server(req.Get("server_name"))
	if conn == nil {
		name := req.Get("server_name").Str()
		b = append(b, jsonrpc.ErrorResponse(mid, jsonrpc.MethodNotFound, fmt.Sprintf("Server '%s' not found", name))...)
		return append(b, "}}}"...), nil
	}
	b, ok := conn.AppendResponse(ctx, b, v)
	switch {
	case ok:
	case string(mid) == string(jsonrpc.NullID):
		// A notification or a response: the CLI still waits for an
		// answer to the control request that carried it.
		b = append(b, `{"jsonrpc":"2.0","result":{}}`...)
	default:
		// Cancelled by notifications/cancelled. The control request that
		// carried the call still needs its one answer.
		b = append(b, jsonrpc.ErrorResponse(mid, wire.RequestCancelled, "request cancelled")...)
	}
	return append(b, "}}}"...), nil
}

// server returns the connection of the server the JSON string name names,
// or nil; a name without escapes is looked up in place.
func (cc *controlConn) server(name jsonvalue.Value) bridge.Conn {
	if name.Kind() != jsonvalue.String {
		return nil
	}
	if raw := name.Raw(); !bytes.ContainsAny(raw, `\`) {
		return cc.servers[string(raw[1:len(raw)-1])]
	}
	return cc.servers[name.Str()]
}

// sendMCPNotification forwards a notification of a hosted server (progress,
// log) to the CLI as an mcp_message control request, as the TypeScript SDK
// does; the CLI's acknowledgement is not awaited.
func (cc *controlConn) sendMCPNotification(server string, msg []byte) {
	id := cc.newID()
	b := make([]byte, 0, len(msg)+128)
	b = append(b, `{"type":"control_request","request_id":`...)
	b = jsonvalue.AppendString(b, id)
	b = append(b, `,"request":{"subtype":"mcp_message","server_name":`...)
	b = jsonvalue.AppendString(b, server)
	b = append(b, `,"message":`...)
	b = append(b, msg...)
	b = append(b, "}}"...)
	cc.writeLine(b)
}

// request sends a control request of the host's own and waits for the
// CLI's reply. fields, nil or a value that encodes as a JSON object (a
// struct or a map), are the request's members besides its subtype.
func (cc *controlConn) request(ctx context.Context, subtype string, fields any) (json.RawMessage, error) {
	id := cc.newID()
	line, err := controlRequestLine(id, subtype, fields)
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
		return nil, context.Cause(ctx)
	}
}

// controlRequestLine is the control request id of subtype with fields
// (see request).
func controlRequestLine(id, subtype string, fields any) ([]byte, error) {
	b := []byte(`{"type":"control_request","request_id":`)
	b = jsonvalue.AppendString(b, id)
	b = append(b, `,"request":{"subtype":`...)
	b = jsonvalue.AppendString(b, subtype)
	if fields != nil {
		obj, err := json.Marshal(fields)
		if err != nil {
			return nil, fmt.Errorf("claude: %s: %w", subtype, err)
		}
		// obj is {…}, or null for a nil map: its members follow the
		// subtype's.
		if string(obj) == "null" {
			obj = []byte("{}")
		}
		if len(obj) < 2 || obj[0] != '{' {
			return nil, fmt.Errorf("claude: %s: the request's fields are not a JSON object", subtype)
		}
		if len(obj) > 2 {
			b = append(b, ',')
			b = append(b, obj[1:len(obj)-1]...)
		}
	}
	return append(b, "}}"...), nil
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
	if err := cc.out.Err(); err != nil {
		return err
	}
	cc.out.Send(line)
	return nil
}
