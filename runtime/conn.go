package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
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
// client is gone.
func (s *Server) NewConn(send func(msg []byte)) *Conn {
	c := &Conn{ss: &session{srv: s, notify: send, sharedIDs: true, canAsk: true}}
	s.join(c.ss)
	return c
}

// Handle handles one JSON-RPC message from the client and returns the
// response to send back. It returns nil when there is nothing to send: for
// a notification, for a response, and for a request that the client
// cancelled with notifications/cancelled (MCP forbids answering it).
// Anything else gets exactly one response, a JSON-RPC error for malformed
// input included.
//
// Handle may be called from several goroutines at once; a tool call runs
// in the calling goroutine, with a context derived from ctx. Several
// requests with the same id may be in flight: notifications/cancelled
// cancels every one of them.
func (c *Conn) Handle(ctx context.Context, msg []byte) []byte {
	srv := c.ss.srv
	tree := srv.tree()
	defer srv.freeTree(tree)
	m, errResp := jsonrpc.Decode(tree, msg)
	switch {
	case errResp != nil:
		return errResp
	case m.IsResponse():
		if m.ID.Exists() {
			c.ss.deliver(&m)
		}
		return nil
	case !m.IsRequest():
		c.ss.notification(&m)
		return nil
	}
	call, errResp := c.ss.start(ctx, &m, true)
	if errResp != nil {
		return errResp
	}
	return c.ss.run(call)
}

// Close cancels the calls in flight on c, and stops the notifications
// that belong to no call (list changes, resource updates). Handle still
// answers later messages.
func (c *Conn) Close() {
	c.ss.srv.leave(c.ss)
	c.ss.cancelAll()
}
