// Command server-gosdk-many serves the 200 tools of the start-up measurement with the official
// Go SDK over stdio, as its README does.
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/many/gosdk"
)

func main() {
	server := newGoSDK()
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

func newGoSDK() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1.0.0"}, nil)
	gosdk.Register(s)
	return s
}
