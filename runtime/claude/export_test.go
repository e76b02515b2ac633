package claude

import (
	"context"
	"io"
	"log/slog"

	"github.com/mcpgen/mcpgen/runtime"
)

// ControlConn exposes the control-protocol loop to the external tests,
// which drive it over pipes as a scripted CLI would.
type ControlConn = controlConn

// NewControlConn starts the control-protocol loop on r and w.
func NewControlConn(ctx context.Context, r io.Reader, w io.Writer, servers map[string]*runtime.Server, canUseTool func(context.Context, PermissionRequest) (PermissionResult, error)) *ControlConn {
	return newControlConn(ctx, r, w, hostConfig{servers: servers, canUseTool: canUseTool, logger: slog.New(slog.DiscardHandler)})
}

// NewControlConnOptions starts the control-protocol loop on r and w,
// answering as a session with opts would.
func NewControlConnOptions(ctx context.Context, r io.Reader, w io.Writer, opts Options) *ControlConn {
	hooks, err := newHookRegistry(opts.Hooks)
	if err != nil {
		panic(err)
	}
	return newControlConn(ctx, r, w, hostConfig{servers: opts.Servers, canUseTool: opts.CanUseTool, hooks: hooks,
		onElicitation: opts.OnElicitation, onUserDialog: opts.OnUserDialog, logger: slog.New(slog.DiscardHandler)})
}

// Args is the command line opts give the CLI.
func (opts *Options) Args() ([]string, error) { return opts.args() }

// Request sends a control request of the host's own and waits for the
// reply.
func (cc *controlConn) Request(ctx context.Context, subtype string) ([]byte, error) {
	return cc.request(ctx, subtype, nil)
}

// Receive pops the next conversation message.
func (cc *controlConn) Receive(ctx context.Context) (Message, error) { return cc.msgs.pop(ctx) }

// Done is closed when the loop has ended.
func (cc *controlConn) Done() <-chan struct{} { return cc.done }
