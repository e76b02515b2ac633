package runtime

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A ToolResult is the outcome of a tool call.
type ToolResult struct {
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
func TextResult(text string) *ToolResult {
	// One allocation for the result, its content list and the block: this
	// is the result of most calls.
	r := &struct {
		result ToolResult
		list   [1]Content
		text   TextContent
	}{text: TextContent{Text: text}}
	r.list[0] = &r.text
	r.result.Content = r.list[:]
	return &r.result
}

// ErrorResult returns a failed result whose text explains the failure.
func ErrorResult(text string) *ToolResult {
	r := TextResult(text)
	r.IsError = true
	return r
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

// EmbeddedResource is a resource whose contents travel in the result.
type EmbeddedResource struct {
	Resource ResourceContents
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
	return append(jsonvalue.AppendString(b, c.Text), '}')
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
	return append(jsonvalue.AppendString(b, mime), '}')
}

func (c EmbeddedResource) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"resource","resource":`...)
	return append(c.Resource.appendJSON(b), '}')
}

func (c ResourceLink) appendJSON(b []byte) []byte {
	b = append(b, `{"type":"resource_link","uri":`...)
	b = jsonvalue.AppendString(b, c.URI)
	b = append(b, `,"name":`...)
	b = jsonvalue.AppendString(b, c.Name)
	for _, f := range []struct{ key, val string }{
		{"title", c.Title}, {"description", c.Description}, {"mimeType", c.MIMEType},
	} {
		if f.val != "" {
			b = append(b, ',', '"')
			b = append(b, f.key...)
			b = append(b, '"', ':')
			b = jsonvalue.AppendString(b, f.val)
		}
	}
	if c.Size > 0 {
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, c.Size, 10)
	}
	return append(b, '}')
}

// appendJSON appends the result as the JSON of a CallToolResult.
func (r *ToolResult) appendJSON(b []byte) ([]byte, error) {
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
		if _, err := jsonvalue.Parse(raw); err != nil {
			return nil, err
		}
		return raw, nil
	}
	return json.Marshal(v)
}
