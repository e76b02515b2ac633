// Command greet serves one tool, greet, as the demo_tools server of the
// Claude Agent SDK's custom-tool example.
//
//mcp:server name=demo_tools version=1.0.0
package main

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/examples/internal/cli"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// GreetInput names the person to greet.
type GreetInput struct {
	Name string `json:"name"` // Name of the person to greet.
}

// Greet greets a person by name.
//
//mcp:tool
func Greet(ctx context.Context, in GreetInput) (string, error) {
	return fmt.Sprintf("Hello, %s! Welcome.", in.Name), nil
}

func main() {
	cli.Main(NewServer())
}
