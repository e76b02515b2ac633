// Command greet serves the greet tool of package greet as the demo_tools
// server: MCP on stdio, Streamable HTTP with -http, or one query through
// the Claude Code CLI with -prompt.
package main

import (
	"github.com/mcpgen/mcpgen/examples/greet"
	"github.com/mcpgen/mcpgen/examples/internal/cli"
)

func main() {
	cli.Main(greet.NewServer())
}
