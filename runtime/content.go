package runtime

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// Content is one block of a tool result, a prompt message or a sampled
// message: TextContent, ImageContent, AudioContent, EmbeddedResource or
// ResourceLink.
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

// appendMeta writes the _meta member of a result or a listed item, if
// meta has entries.
func appendMeta(b []byte, meta map[string]any) ([]byte, error) {
	if len(meta) == 0 {
		return b, nil
	}
	data, err := json.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("encoding _meta: %w", err)
	}
	return append(append(b, `,"_meta":`...), data...), nil
}

// appendField writes ,"name":value when value is not empty.
func appendField(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return jsonvalue.AppendString(b, value)
}

// appendCompact writes JSON text without insignificant whitespace; text
// that is not JSON (a schema the runtime compiled is) is written as it is.
func appendCompact(b []byte, text string) []byte {
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, []byte(text)); err != nil {
		return append(b, text...)
	}
	return buf.Bytes()
}
