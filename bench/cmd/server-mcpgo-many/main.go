// Command server-mcpgo-many serves the 200 tools of the start-up measurement with mark3labs/mcp-go
// over stdio, as its README does, with input validation on and panics
// recovered.
package main

import (
	"fmt"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/many/mcpgo"
	peers "github.com/mcpgen/mcpgen/bench/internal/peers/mcpgo"
)

func main() {
	s := newMCPGo()
	if err := server.ServeStdio(s); err != nil {
		fmt.Printf("Server error: %v\n", err)
	}
}

func newMCPGo() *server.MCPServer {
	s := server.NewMCPServer("many", "1.0.0", peers.Options()...)
	mcpgo.Register(s)
	return s
}
