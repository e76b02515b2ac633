// Package adapters covers the function literals that adapt a tool to
// runtime.Handle when its types come from elsewhere: inputs of other
// packages (two of them with the same name), an anonymous struct result,
// and context imported only for the adapters.
package adapters

import (
	othershared "github.com/mcpgen/mcpgen/testdata/golden/adapters/other/shared"
	"github.com/mcpgen/mcpgen/testdata/golden/adapters/shared"
)

// Assign assigns a task.
//
//mcp:tool timeout=2m
func Assign(in shared.Task) (string, error) { return in.Title, nil }

// Move moves a task.
//
//mcp:tool
func Move(in othershared.Move) error { return nil }

// Stats counts the tasks.
//
//mcp:tool readOnly
func Stats() (struct {
	Count int `json:"count"` // How many tasks there are.
}, error) {
	return struct {
		Count int `json:"count"`
	}{}, nil
}
