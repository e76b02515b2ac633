// Command tickets serves the create_ticket tool of package tickets as the
// cci server: MCP on stdio, Streamable HTTP with -http, or one query
// through the Claude Code CLI with -prompt.
package main

import (
	"github.com/mcpgen/mcpgen/examples/internal/cli"
	"github.com/mcpgen/mcpgen/examples/tickets"
)

func main() {
	cli.Main(tickets.NewServer())
}
