// Command server-mcpgo serves greet and create_ticket with mark3labs/mcp-go
// over stdio, as its README does, with input validation on and panics
// recovered.
package main

import (
	"fmt"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgo"
)

func main() {
	s := mcpgo.NewServer()
	if err := server.ServeStdio(s); err != nil {
		fmt.Printf("Server error: %v\n", err)
	}
}
