package runtime

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"slices"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// ReportProgress tells the client how far the current tool call has got,
// as a notifications/progress message. It does nothing when the client did
// not ask for progress (its request carried no progressToken) or when ctx
// is not the context of a tool call. progress should increase with every
// report; total is the expected final value, or 0 when unknown; message is
// optional. JSON has no NaN or infinity: a report whose progress is not a
// finite number is dropped (and logged to the Server's Logger), and a
// total that is not finite is left out.
func ReportProgress(ctx context.Context, progress, total float64, message string) {
	c := callOf(ctx)
	if c == nil || c.token == nil || c.sink() == nil || c.over() {
		return
	}
	if math.IsNaN(progress) || math.IsInf(progress, 0) {
		c.ss.srv.logger().Warn("ReportProgress: progress is not a finite number; the report is dropped", "tool", c.target, "progress", progress)
		return
	}
	if math.IsNaN(total) || math.IsInf(total, 0) {
		total = 0
	}
	b := make([]byte, 0, 128+len(message))
	b = append(b, `{"jsonrpc":"2.0","method":"`+wire.NotifyProgress+`","params":{"progressToken":`...)
	b = append(b, c.token...)
	b = append(b, `,"progress":`...)
	b = strconv.AppendFloat(b, progress, 'g', -1, 64)
	if total > 0 {
		b = append(b, `,"total":`...)
		b = strconv.AppendFloat(b, total, 'g', -1, 64)
	}
	if message != "" {
		b = append(b, `,"message":`...)
		b = jsonvalue.AppendString(b, message)
	}
	b = append(b, "}}"...)
	c.sink()(b)
}

// over reports whether the call has finished or was cancelled; the
// protocol forbids notifications about it from then on.
func (c *call) over() bool { return c.ctx.Err() != nil }

// Logger returns a logger whose records go to the client as
// notifications/message, with the tool's name as the logger name. Levels
// map to MCP levels (Debug to "debug", Info to "info", Warn to "warning",
// Error to "error", above Error to "critical"); records below the level the
// client set with logging/setLevel are dropped. Outside a tool call the
// logger discards everything.
func Logger(ctx context.Context) *slog.Logger {
	c := callOf(ctx)
	if c == nil || c.sink() == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(&clientHandler{call: c})
}

func mcpLevel(l slog.Level) int {
	switch {
	case l < slog.LevelInfo:
		return 0
	case l < slog.LevelWarn:
		return 1
	case l < slog.LevelError:
		return 3
	case l == slog.LevelError:
		return 4
	default:
		return 5
	}
}

// clientHandler is a slog.Handler that sends records to the client. The
// record becomes the notification's data: a JSON object with "msg" and the
// record's attributes, as slog's JSON handler writes them.
type clientHandler struct {
	call *call
	ops  []func(slog.Handler) slog.Handler // WithAttrs/WithGroup, in order
}

func (h *clientHandler) Enabled(_ context.Context, l slog.Level) bool {
	return int32(mcpLevel(l)) >= h.call.levelVar().Load()
}

func (h *clientHandler) Handle(ctx context.Context, r slog.Record) error {
	if h.call.over() {
		return nil
	}
	var buf bytes.Buffer
	var jh slog.Handler = slog.NewJSONHandler(&buf, &slog.HandlerOptions{
		Level: slog.LevelDebug - 100,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{}
			}
			return a
		},
	})
	for _, op := range h.ops {
		jh = op(jh)
	}
	if err := jh.Handle(ctx, r); err != nil {
		return err
	}
	b := make([]byte, 0, 96+buf.Len())
	b = append(b, `{"jsonrpc":"2.0","method":"`+wire.NotifyMessage+`","params":{"level":"`...)
	b = append(b, wire.LogLevels[mcpLevel(r.Level)]...)
	b = append(b, `","logger":`...)
	b = jsonvalue.AppendString(b, h.call.target)
	b = append(b, `,"data":`...)
	b = append(b, bytes.TrimSpace(buf.Bytes())...)
	b = append(b, "}}"...)
	h.call.sink()(b)
	return nil
}

func (h *clientHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &clientHandler{call: h.call, ops: append(slices.Clip(h.ops), func(j slog.Handler) slog.Handler { return j.WithAttrs(attrs) })}
}

func (h *clientHandler) WithGroup(name string) slog.Handler {
	return &clientHandler{call: h.call, ops: append(slices.Clip(h.ops), func(j slog.Handler) slog.Handler { return j.WithGroup(name) })}
}
