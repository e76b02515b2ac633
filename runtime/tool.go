package runtime

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
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
	// Handler runs a call whose arguments already satisfy InputSchema.
	Handler ToolHandler

	input      *schema.Schema // compiled InputSchema
	output     *schema.Schema // compiled OutputSchema, or nil
	wrapOutput bool           // OutputSchema's root is not an object
	headers    []headerParam  // the input's x-mcp-header properties
	// recent is how long the handler's recent calls took, in nanoseconds,
	// a moving average; 0 until a call has ended. See quick.
	recent atomic.Int64
}

// quickCall is the most a tool's recent calls may take, on average, for
// stdio to run its next call on the reading goroutine (see quick).
const quickCall = 20 * time.Microsecond

// observe adds the duration of a call to t's moving average. Concurrent
// calls may lose an update to each other: the average is a hint.
func (t *Tool) observe(d time.Duration) {
	old := t.recent.Load()
	if old == 0 {
		t.recent.Store(max(int64(d), 1))
		return
	}
	t.recent.Store(max(old+(int64(d)-old)/8, 1))
}

// quick reports whether t's recent calls were quick enough to run the
// next one on stdio's reading goroutine while more lines wait: running it
// there saves handing it to a worker, and the reading it delays is short.
// A tool that has not been called yet is not quick, so that the first
// burst of calls to a slow tool never waits behind each other.
func (t *Tool) quick() bool {
	d := t.recent.Load()
	return d > 0 && d < int64(quickCall)
}

// A ToolHandler runs one tool call. A returned error becomes a result with
// isError set and the error's text, so that the model can read it and
// react; so does a panic (its stack goes to the server's Logger). A
// handler that fails in a way the model should see with more than a text
// can instead return a Result with IsError set.
type ToolHandler func(ctx context.Context, req *ToolRequest) (*ToolResult, error)

// ToolAnnotations are the MCP tool annotations. Nil hints are not sent, which
// clients read as the protocol's defaults.
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

// appendListEntry writes the tool as tools/list describes it, its
// schemas compacted; modern is the era of the client.
func (t *Tool) appendListEntry(b *bytes.Buffer, modern bool) error {
	field := func(name, value string) {
		if value != "" {
			b.WriteString(`,"` + name + `":`)
			b.Write(jsonvalue.AppendString(nil, value))
		}
	}
	b.WriteString(`{"name":`)
	b.Write(jsonvalue.AppendString(nil, t.Name))
	field("title", t.Title)
	field("description", t.Description)
	b.WriteString(`,"inputSchema":`)
	if err := json.Compact(b, []byte(cmp.Or(t.InputSchema, emptyObjectSchema))); err != nil {
		return err
	}
	if t.OutputSchema != "" {
		b.WriteString(`,"outputSchema":`)
		wrap := t.wrapOutput && !modern
		if wrap {
			b.WriteString(`{"type":"object","properties":{"result":`)
		}
		if err := json.Compact(b, []byte(t.OutputSchema)); err != nil {
			return err
		}
		if wrap {
			b.WriteString(`},"required":["result"]}`)
		}
	}
	if t.Annotations != nil {
		data, err := json.Marshal(t.Annotations)
		if err != nil {
			return err
		}
		b.WriteString(`,"annotations":`)
		b.Write(data)
	}
	if len(t.Meta) > 0 || t.SearchHint != "" || t.AlwaysLoad {
		meta := make(map[string]any, len(t.Meta)+2)
		for k, v := range t.Meta {
			meta[k] = v
		}
		if t.SearchHint != "" {
			meta["anthropic/searchHint"] = t.SearchHint
		}
		if t.AlwaysLoad {
			meta["anthropic/alwaysLoad"] = true
		}
		data, err := json.Marshal(meta)
		if err != nil {
			return err
		}
		b.WriteString(`,"_meta":`)
		b.Write(data)
	}
	b.WriteByte('}')
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
