// Package bridge carries between package runtime and runtime/claude what
// the Claude Code host needs of a server and no program should call. The
// host parses each line of the control protocol once and hands the MCP
// message inside it to the server as it is parsed (a jsonvalue.Value, a
// type no user can name), and runs the calls of quick tools on its reading
// goroutine, as stdio does; neither belongs in runtime's API, which go doc
// shows users.
//
// It is the pattern of encoding/json/internal, whose function variables
// encoding/json sets for encoding/json/v2 and jsontext to call: package
// runtime sets ConnOf when it is initialized, which is before any package
// that imports runtime (runtime/claude) runs, and the typed interfaces
// below are all the host sees.
package bridge

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/lineio"
)

// A Conn is the host's side of a runtime.Conn.
type Conn interface {
	// AppendResponse is runtime.Conn.Handle for a message that the host
	// has already parsed, as part of its control line: the response, if
	// any, is appended to b; ok is false when there is nothing to send
	// (a notification, a response, a request the client cancelled).
	AppendResponse(ctx context.Context, b []byte, msg jsonvalue.Value) (out []byte, ok bool)
	// QuickTool returns the pace of the tool that msg, parsed as for
	// AppendResponse, calls, if its recent calls were quick; nil for any
	// other message. The host answers such a call on its reading
	// goroutine even while more lines wait, as stdio does, and calls
	// MarkSlow on the pace if the call runs past its Handoff's budget.
	QuickTool(msg jsonvalue.Value) *lineio.Pace
	// Close is runtime.Conn.Close.
	Close()
}

// ConnOf returns the host's side of conn, which must be a *runtime.Conn.
// Package runtime sets it.
var ConnOf func(conn any) Conn
