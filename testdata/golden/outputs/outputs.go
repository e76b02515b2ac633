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

// Optional has fields that can be nil, which encoding/json writes as
// null unless omitempty leaves them out.
type Optional struct {
	Note    *string         `json:"note"`
	Report  *Report         `json:"report"`
	Skipped *int            `json:"skipped,omitempty"`
	Deep    **int           `json:"deep,omitempty"`
	Reports []*Report       `json:"reports"`
	ByName  map[string]*int `json:"byName"`
	Data    []byte          `json:"data"`
	Any     any             `json:"any"`
	Tagged  *int            `json:"tagged" jsonschema:"nullable"`
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

// Nils returns a struct whose pointers are nil.
//
//mcp:tool
func Nils() (Optional, error) {
	var none *int
	return Optional{Deep: &none, Reports: []*Report{nil}, ByName: map[string]*int{"none": nil}}, nil
}

// NilNumber returns a nil pointer to a number, wrapped as {"result": null}.
//
//mcp:tool
func NilNumber() (*int, error) { return nil, nil }

// Full returns a runtime result: several blocks, images, isError.
//
//mcp:tool
func Full(ctx context.Context) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{runtime.TextContent{Text: "a"}, runtime.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}, nil
}

// FullValue returns a runtime result by value.
//
//mcp:tool
func FullValue() (runtime.ToolResult, error) { return runtime.ToolResult{}, nil }
