// Package err_headers: x-mcp-header on fields that clients could not
// repeat in a header, since the input does not reach them through
// properties alone: a field of a named struct (in $defs), of a list's
// elements, and a nullable field; and one the runtime would refuse, on a
// number. A top-level field and a field of an anonymous struct are fine.
package err_headers

import "context"

// Place is where a note is kept.
type Place struct {
	Region string `json:"region" jsonschema_extras:"x-mcp-header=Region"`
}

// Tag labels a note.
type Tag struct {
	Name string `json:"name" jsonschema_extras:"x-mcp-header=Tag"`
}

// In is the input of Add.
type In struct {
	Title string `json:"title" jsonschema_extras:"x-mcp-header=Title"`
	Owner struct {
		Team string `json:"team" jsonschema_extras:"x-mcp-header=Team"`
	} `json:"owner"`
	Place Place   `json:"place"`
	Tags  []Tag   `json:"tags"`
	Due   *string `json:"due" jsonschema:"nullable" jsonschema_extras:"x-mcp-header=Due"`
}

// Add adds a note.
//
//mcp:tool
func Add(ctx context.Context, in In) error { return nil }

// Ratio's header would carry a number the runtime cannot compare.
type RatioInput struct {
	Ratio float64 `json:"ratio" jsonschema_extras:"x-mcp-header=Ratio"`
}

// Scale scales by a ratio.
//
//mcp:tool
func Scale(ctx context.Context, in RatioInput) error { return nil }
