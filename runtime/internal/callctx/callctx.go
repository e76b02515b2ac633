// Package callctx carries the state of a running tool call in the call's
// context. The runtime puts it there before it runs a handler; the
// runtime's progress and logging functions and the support package of
// generated code (runtime/mcpimpl) read it.
package callctx

import (
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A Call is what a handler's context knows about its tool call.
type Call struct {
	// Request is the *runtime.ToolRequest the handler was given, to tell
	// whether Args belongs to the request a handler holds.
	Request any
	// Args are the request's arguments, parsed and validated.
	Args jsonvalue.Value
	// Done is done when the call is over; notifications about the call
	// must stop then.
	Done context.Context
	// Notify sends a notification about the call to the client; nil
	// drops them.
	Notify func(msg []byte)
	// Tool is the name of the tool being called.
	Tool string
	// Token is the request's progressToken as JSON, or nil.
	Token []byte
	// MinLevel is the index of the least severe log level the client
	// wants (see logging/setLevel).
	MinLevel *atomic.Int32
	// Logger is the server's own logger, for misuse that the client need
	// not see.
	Logger *slog.Logger
	// Strings hands out the strings decoded from Args.
	Strings jsonvalue.StringArena
	// Session is the runtime's session of the client, to ask it
	// questions.
	Session any
	// Modern is the runtime's *modernRequest when the request is of the
	// modern era (revision 2026-07-28 and later), nil otherwise.
	Modern any
}

// Over reports whether the call has finished or was cancelled; the
// protocol forbids notifications about it from then on.
func (c *Call) Over() bool { return c.Done.Err() != nil }

// Key is the context key under which a context carries its *Call: the
// runtime's own call context answers Value(Key) itself, without a
// context.WithValue layer.
var Key any = key{}

type key struct{}

// With returns a context that carries c.
func With(ctx context.Context, c *Call) context.Context {
	return context.WithValue(ctx, key{}, c)
}

// From returns the call ctx carries, or nil.
func From(ctx context.Context) *Call {
	c, _ := ctx.Value(key{}).(*Call)
	return c
}
