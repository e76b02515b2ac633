// Package other_package uses types from another package: their doc
// comments and constants still count.
package other_package

import (
	"context"

	"github.com/mcpgen/mcpgen/testdata/golden/other_package/shared"
)

type Input struct {
	Priority shared.Priority `json:"priority"`
	Owner    shared.Owner    `json:"owner"`
}

// Assign assigns work.
//
//mcp:tool
func Assign(ctx context.Context, in *Input) (shared.Owner, error) { return in.Owner, nil }
