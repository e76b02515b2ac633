// Package greet is seed 001's demo_tools server, the custom tool of the
// Claude Agent SDK's example: one tool, greet. Its command, cmd/greet,
// serves it.
//
//mcp:server name=demo_tools version=1.0.0 surface
package greet

import (
	"context"
	"fmt"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// GreetInput names the person to greet.
type GreetInput struct {
	Name string `json:"name"`
}

// Greet a person by name.
//
//mcp:tool
func Greet(ctx context.Context, in GreetInput) (string, error) {
	return fmt.Sprintf("Hello, %s! Welcome.", in.Name), nil
}
