package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/bridge"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/lineio"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A Conn is one client's connection to a Server over a transport of your
// own, for when neither stdio nor Streamable HTTP fits (a WebSocket, a
// message queue, a host that embeds servers in its own protocol): the
// transport hands every message the client sends to Handle, and delivers
// to the client what Handle returns and what the server sends on its own.
// The Claude Code host in runtime/claude is built on it.
type Conn struct {
	ss *session
}

// NewConn returns a new connection to s. send receives the messages that s
// sends on its own, such as progress and log notifications and list
// changes; it may be called from several goroutines at once and should
// not block for long. A nil send drops them. Close the Conn when the
// client is gone: until then the server keeps it among the clients it
// notifies.
//
// It panics when s cannot serve (see Check).
func (s *Server) NewConn(send func(msg []byte)) *Conn {
	s.mustCheck()
	c := &Conn{ss: &session{srv: s, notify: send, sharedIDs: true, canAsk: true, transport: "conn"}}
	s.fanout.join(c.ss)
	return c
}

// Handle handles one JSON-RPC message from the client and returns the
// response to send back. It returns nil when there is nothing to send: for
// a notification, for a response, and for a request that the client
// cancelled with notifications/cancelled (MCP forbids answering it).
// Anything else gets exactly one response, a JSON-RPC error for malformed
// input included.
//
// Handle may be called from several goroutines at once; a call runs in
// the calling goroutine, with a context derived from ctx. Several requests
// with the same id may be in flight: notifications/cancelled cancels every
// one of them.
func (c *Conn) Handle(ctx context.Context, msg []byte) []byte {
	srv := c.ss.srv
	tree := srv.trees.Get()
	defer srv.trees.Put(tree)
	v, err := tree.Parse(msg)
	if err != nil {
		return jsonrpc.ParseErrorResponse(err)
	}
	resp, ok := c.appendResponse(ctx, nil, v)
	if !ok {
		return nil
	}
	return resp
}

// appendResponse is Handle for a message already parsed, with the
// response appended to b; ok is false when there is nothing to send. The
// Claude Code host calls it through the bridge (see hostConn).
func (c *Conn) appendResponse(ctx context.Context, b []byte, msg jsonvalue.Value) (out []byte, ok bool) {
	m, errResp := jsonrpc.FromValue(msg)
	switch {
	case errResp != nil:
		return append(b, errResp...), true
	case !m.IsRequest():
		c.ss.handleMessage(&m)
		return b, false
	}
	call, resp := c.ss.start(ctx, &m, c.ss.srv.resolve(&m), true)
	if call == nil {
		return resp.append(b, m.ID.Raw(), wire.HasRequestMeta(m.Params)), true
	}
	resp = c.ss.answer(call)
	if call.cancelled.Load() {
		return b, false
	}
	if b == nil {
		b = make([]byte, 0, resp.size()+len(m.ID.Raw()))
	}
	return call.encode(b, &resp), true
}

// Close cancels the calls in flight on c, and stops the notifications
// that belong to no call (list changes, resource updates). Handle still
// answers later messages.
func (c *Conn) Close() {
	c.ss.srv.fanout.leave(c.ss)
	c.ss.close()
}

// hostConn is the Claude Code host's side of a Conn (see package
// runtime/internal/bridge): what it needs and no program should call.
type hostConn struct{ c *Conn }

func init() {
	bridge.ConnOf = func(conn any) bridge.Conn { return hostConn{conn.(*Conn)} }
}

func (h hostConn) AppendResponse(ctx context.Context, b []byte, msg jsonvalue.Value) ([]byte, bool) {
	return h.c.appendResponse(ctx, b, msg)
}

func (h hostConn) QuickTool(msg jsonvalue.Value) *lineio.Pace {
	if !msg.Get("method").Is(wire.MethodToolsCall) {
		return nil
	}
	nv := msg.Get("params").Get("name")
	if nv.Kind() != jsonvalue.String {
		return nil
	}
	return quickPace(h.c.ss.srv.toolNamed(nv))
}

func (h hostConn) Close() { h.c.Close() }
