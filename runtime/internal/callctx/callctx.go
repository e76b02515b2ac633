// Package callctx carries what the support package of generated code
// (runtime/mcpimpl) needs from a running tool call: the arguments the
// runtime already parsed and validated, so that the generated decoder
// reads them without parsing them again. The runtime's call context
// answers Key itself, without a context.WithValue layer.
package callctx

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
)

// A Call is what a tool handler's context knows about its arguments.
type Call struct {
	// Args are the request's arguments, parsed and validated. Args.Raw()
	// is the very slice the handler's runtime.ToolRequest holds, which is
	// how a handler tells that they belong to the request it serves.
	Args jsonvalue.Value
	// Strings hands out the strings decoded from Args.
	Strings jsonvalue.StringArena
	// Input is the tool's compiled input schema, which gives the defaults
	// of the members Args leaves out (schema.FillDefaults).
	Input *schema.Schema
}

// Key is the context key under which a context carries its *Call.
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
