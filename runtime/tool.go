package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A Tool is one MCP tool: how tools/list describes it and the function that
// runs it. mcpgen generates Tools from annotated Go functions; a Tool can
// also be written by hand.
type Tool struct {
	// Name identifies the tool in tools/call. Claude Code requires it to
	// match ^[a-zA-Z0-9_-]{1,64}$.
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
	// of successful results.
	OutputSchema string
	// Annotations are hints about the tool's behaviour.
	Annotations *Annotations
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
	// A returned error becomes a result with isError set and the error's
	// text, so the model can read it and react.
	Handler func(ctx context.Context, req *Request) (*Result, error)

	input *schema // compiled InputSchema
}

// Annotations are the MCP tool annotations. Nil hints are not sent, which
// clients read as the protocol's defaults.
type Annotations struct {
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

// A Request is one tools/call as a handler sees it.
type Request struct {
	// Name is the name of the tool being called.
	Name string
	// Arguments are the call's arguments, already validated against the
	// tool's input schema; "{}" when the client sent none.
	Arguments json.RawMessage
	// Meta is the request's _meta object, if any (Claude Code sends
	// "claudecode/toolUseId" there).
	Meta json.RawMessage

	args *value // Arguments, parsed; nil for a Request made elsewhere
}

// value returns the parsed arguments.
func (r *Request) value() (Value, error) {
	if r.args != nil {
		return Value{r.args}, nil
	}
	raw := r.Arguments
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	v, err := parseValue(raw)
	if err != nil {
		return Value{}, &ArgumentError{Err: err}
	}
	return Value{&v}, nil
}

// Bind decodes the arguments into v, which is usually a pointer to the
// tool's input struct.
func (r *Request) Bind(v any) error {
	if err := json.Unmarshal(r.Arguments, v); err != nil {
		return &ArgumentError{Err: err}
	}
	return nil
}

// An ArgumentError reports arguments that could not be decoded into the
// handler's input type even though they satisfied the schema.
type ArgumentError struct {
	Err error
}

func (e *ArgumentError) Error() string {
	var te *json.UnmarshalTypeError
	if errors.As(e.Err, &te) && te.Field != "" {
		return fmt.Sprintf("invalid arguments: %s: cannot use %s as Go type %s", te.Field, te.Value, te.Type)
	}
	return "invalid arguments: " + e.Err.Error()
}

func (e *ArgumentError) Unwrap() error { return e.Err }

// A Result is the outcome of a tool call.
type Result struct {
	// Content is what the model reads: text, images, audio, resources.
	Content []Content
	// StructuredContent, if non-nil, is sent as the result's
	// structuredContent; it is encoded with encoding/json, and a
	// json.RawMessage is sent as is.
	StructuredContent any
	// IsError marks the result as a failure the model should see.
	IsError bool
	// Meta holds the result's _meta entries.
	Meta map[string]any
}

// TextResult returns a result with one text block.
func TextResult(text string) *Result {
	// One allocation for the result, its content list and the block: this
	// is the result of most calls.
	r := &struct {
		result Result
		list   [1]Content
		text   TextContent
	}{text: TextContent{Text: text}}
	r.list[0] = &r.text
	r.result.Content = r.list[:]
	return &r.result
}

// ErrorResult returns a failed result whose text explains the failure.
func ErrorResult(text string) *Result {
	r := TextResult(text)
	r.IsError = true
	return r
}

// Handle adapts a typed tool function to Tool.Handler: it decodes the
// validated arguments into In with decode, calls fn, and turns its Out
// into a result with result (Text, Structured, Wrapped, Verbatim or
// Empty). Generated code uses it for every tool, with a decoder it
// generated for In (or DecodeJSON).
func Handle[In, Out any](fn func(context.Context, In) (Out, error), decode func(Value, *In) error, result func(Out) (*Result, error)) func(context.Context, *Request) (*Result, error) {
	return func(ctx context.Context, req *Request) (*Result, error) {
		args, err := req.value()
		if err != nil {
			return nil, err
		}
		var in In
		if err := decode(args, &in); err != nil {
			return nil, &ArgumentError{Err: err}
		}
		out, err := fn(ctx, in)
		if err != nil {
			return nil, err
		}
		return result(out)
	}
}

// Text returns a result with one text block holding s.
func Text[S ~string](s S) (*Result, error) {
	return TextResult(string(s)), nil
}

// Structured returns a result whose structuredContent is v, with the same
// JSON in a text block for clients that do not read structuredContent. v
// must encode as a JSON object (a struct, a map, a pointer to a struct).
func Structured[T any](v T) (*Result, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding result: %w", err)
	}
	if len(data) == 0 || data[0] != '{' {
		return nil, fmt.Errorf("encoding result: structured content must be a JSON object, not %.20s", data)
	}
	return &Result{
		Content:           []Content{TextContent{Text: string(data)}},
		StructuredContent: json.RawMessage(data),
	}, nil
}

// Wrapped returns a result for an output that is not a JSON object (a
// list, a number): MCP requires structuredContent to be an object, so v
// is sent as {"result": v}, with the same JSON in a text block.
func Wrapped[T any](v T) (*Result, error) {
	return Structured(struct {
		Result T `json:"result"`
	}{v})
}

// Verbatim returns r as it is: the tool built its own result.
func Verbatim(r *Result) (*Result, error) {
	return r, nil
}

// Empty returns a result without content, for a tool that returns only an
// error.
func Empty(struct{}) (*Result, error) {
	return &Result{}, nil
}

// Content is one block of a tool result: TextContent, ImageContent,
// AudioContent, EmbeddedResource or ResourceLink.
type Content interface {
	appendJSON(b []byte) []byte
}

// TextContent is a text content block.
type TextContent struct {
	Text string
}

// ImageContent is an image content block; Data is sent base64-encoded.
type ImageContent struct {
	Data     []byte
	MIMEType string // for example "image/png"
}

// AudioContent is an audio content block; Data is sent base64-encoded.
type AudioContent struct {
	Data     []byte
	MIMEType string // for example "audio/wav"
}

// EmbeddedResource is a resource whose contents travel in the result: Text
// for a text resource, or Blob (sent base64-encoded) when Blob is non-nil.
type EmbeddedResource struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
}

// ResourceLink points at a resource the client may read.
type ResourceLink struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Size        int64 // in bytes; 0 means unknown
}

func (c TextContent) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"text","text":`...)
	return append(appendString(b, c.Text), '}')
}

func (c ImageContent) appendJSON(b []byte) []byte {
	return appendMedia(b, "image", c.Data, c.MIMEType)
}

func (c AudioContent) appendJSON(b []byte) []byte {
	return appendMedia(b, "audio", c.Data, c.MIMEType)
}

func appendMedia(b []byte, typ string, data []byte, mime string) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, typ...)
	b = append(b, `","data":"`...)
	b = base64.StdEncoding.AppendEncode(b, data)
	b = append(b, `","mimeType":`...)
	return append(appendString(b, mime), '}')
}

func (c EmbeddedResource) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"resource","resource":{"uri":`...)
	b = appendString(b, c.URI)
	if c.MIMEType != "" {
		b = append(b, `,"mimeType":`...)
		b = appendString(b, c.MIMEType)
	}
	if c.Blob != nil {
		b = append(b, `,"blob":"`...)
		b = base64.StdEncoding.AppendEncode(b, c.Blob)
		b = append(b, '"')
	} else {
		b = append(b, `,"text":`...)
		b = appendString(b, c.Text)
	}
	return append(b, "}}"...)
}

func (c ResourceLink) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"resource_link","uri":`...)
	b = appendString(b, c.URI)
	b = append(b, `,"name":`...)
	b = appendString(b, c.Name)
	for _, f := range []struct{ key, val string }{
		{"title", c.Title}, {"description", c.Description}, {"mimeType", c.MIMEType},
	} {
		if f.val != "" {
			b = append(b, ',', '"')
			b = append(b, f.key...)
			b = append(b, '"', ':')
			b = appendString(b, f.val)
		}
	}
	if c.Size > 0 {
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, c.Size, 10)
	}
	return append(b, '}')
}

// appendJSON appends the result as the JSON of a CallToolResult.
func (r *Result) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"content":[`...)
	for i, c := range r.Content {
		if c == nil {
			return nil, fmt.Errorf("content block %d is nil", i)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = c.appendJSON(b)
	}
	b = append(b, ']')
	if r.StructuredContent != nil {
		data, err := marshalValue(r.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("encoding structuredContent: %w", err)
		}
		b = append(b, `,"structuredContent":`...)
		b = append(b, data...)
	}
	if r.IsError {
		b = append(b, `,"isError":true`...)
	}
	if len(r.Meta) > 0 {
		data, err := json.Marshal(r.Meta)
		if err != nil {
			return nil, fmt.Errorf("encoding _meta: %w", err)
		}
		b = append(b, `,"_meta":`...)
		b = append(b, data...)
	}
	return append(b, '}'), nil
}

// marshalValue encodes v, passing valid json.RawMessage through unchanged.
func marshalValue(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		if _, err := parseValue(raw); err != nil {
			return nil, err
		}
		return raw, nil
	}
	return json.Marshal(v)
}

// validToolName reports whether name satisfies Claude Code's rule for MCP
// tool names, ^[a-zA-Z0-9_-]{1,64}$.
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0
}
