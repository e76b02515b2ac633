// Package defaults: a default is advertised, checked against its own
// schema at generate time, and applied: an optional argument the client
// leaves out reaches the handler as its default.
package defaults

import "time"

// Order is how results are sorted.
type Order string

const (
	Newest Order = "newest"
	Oldest Order = "oldest"
)

// Filter narrows a search.
type Filter struct {
	Limit int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=20"`
	Order Order    `json:"order,omitempty" jsonschema:"default=newest"`
	Sizes []int    `json:"sizes,omitempty" jsonschema:"default=9,default=18"`
	Exact bool     `json:"exact,omitempty" jsonschema:"default=true"`
	Tags  []string `json:"tags,omitempty"`
}

// Input is a search.
type Input struct {
	Query   string        `json:"query"`
	Page    int           `json:"page,omitempty" jsonschema:"minimum=1,default=1"`
	Timeout time.Duration `json:"timeout,omitempty" jsonschema:"default=30s,maximum=1m"`
	Filter  *Filter       `json:"filter,omitempty"`
}

// Search searches, and reports what it was given.
//
//mcp:tool
func Search(in Input) (Input, error) { return in, nil }
