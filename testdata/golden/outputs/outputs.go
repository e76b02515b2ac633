// Package outputs covers every kind of result.
package outputs

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

// Status is a named string: it becomes text.
type Status string

// Report is a structured result.
type Report struct {
	Count int      `json:"count"` // Number of items.
	Names []string `json:"names,omitempty"`
}

// Text returns a string.
//
//mcp:tool
func Text() (string, error) { return "ok", nil }

// NamedText returns a named string type.
//
//mcp:tool
func NamedText() (Status, error) { return "ok", nil }

// Struct returns a struct: structuredContent plus an outputSchema.
//
//mcp:tool
func Struct() (Report, error) { return Report{}, nil }

// StructPointer returns a pointer to a struct.
//
//mcp:tool
func StructPointer() (*Report, error) { return &Report{}, nil }

// Map returns a map: an object.
//
//mcp:tool
func Map() (map[string]int, error) { return nil, nil }

// Slice returns a list, which MCP wraps as {"result": [...]}.
//
//mcp:tool
func Slice() ([]Report, error) { return nil, nil }

// Number returns a number, wrapped as {"result": n}.
//
//mcp:tool
func Number() (float64, error) { return 0, nil }

// Full returns a runtime result: several blocks, images, isError.
//
//mcp:tool
func Full(ctx context.Context) (*runtime.Result, error) {
	return &runtime.Result{Content: []runtime.Content{runtime.TextContent{Text: "a"}, runtime.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, nil
}

// FullValue returns a runtime result by value.
//
//mcp:tool
func FullValue() (runtime.Result, error) { return runtime.Result{}, nil }
