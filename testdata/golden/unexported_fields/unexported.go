// Package unexported_fields: structs whose fields are all unexported,
// which encoding/json ignores: their schemas have no properties.
package unexported_fields

import (
	"context"
	"time"
)

// Query has only unexported fields: every argument would be refused.
type Query struct {
	text  string
	limit int
}

// Hidden is all left out on purpose: no warning.
type Hidden struct {
	Secret string `json:"-"`
}

// Answer has only unexported fields: it is always sent as {}.
type Answer struct {
	body string
}

// Search searches.
//
//mcp:tool
func Search(ctx context.Context, in Query) (Answer, error) { return Answer{body: in.text}, nil }

// Ping pings.
//
//mcp:tool
func Ping(ctx context.Context, in Hidden) error { return nil }

// Zone holds a type of the standard library without exported fields:
// exporting them is not the user's to do, and the warning says what is.
type Zone struct {
	Location time.Location `json:"location"`
}

// Locate locates.
//
//mcp:tool
func Locate(ctx context.Context, in Zone) error { return nil }
