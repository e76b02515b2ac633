package err_forms

import "time"

type Address struct {
	Street string `json:"street"`
}

// Bad has fields a form cannot hold.
//
//mcp:form
type Bad struct {
	Home    Address           `json:"home"`
	Tags    []string          `json:"tags"`
	When    time.Time         `json:"when"`
	Code    string            `json:"code" jsonschema:"pattern=^[A-Z]+$"`
	Extra   map[string]string `json:"extra"`
	Numbers []int             `json:"numbers"`
}

// NotStruct is not a struct.
//
//mcp:form
type NotStruct []string

// Twice has two directives.
//
//mcp:form
//mcp:output
type Twice struct{}

// Args takes none.
//
//mcp:output strict
type Args struct{}

// Own declares its own MCPSchema.
//
//mcp:output
type Own struct{}

func (*Own) MCPSchema() string { return "{}" }
