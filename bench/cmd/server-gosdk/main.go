// Command server-gosdk serves greet and create_ticket with the official
// Go SDK over stdio, as its README does.
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/peers/gosdk"
)

func main() {
	server := gosdk.NewServer()
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
