// Package shapes_pointer_input takes its input by pointer.
package shapes_pointer_input

import "context"

// Options configure a search.
type Options struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"`
}

// Search searches.
//
//mcp:tool
func Search(ctx context.Context, opts *Options) (string, error) { return opts.Query, nil }
