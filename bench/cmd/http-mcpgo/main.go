// Command http-mcpgo serves greet and create_ticket with mark3labs/mcp-go
// over Streamable HTTP at http://$MCPGEN_BENCH_ADDR/mcp, as its README does
// (server.NewStreamableHTTPServer and Start): stateless (WithStateLess), or
// with -sessions with sessions it keeps (WithStateful).
package main

import (
	"flag"
	"log"
	"os"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgo"
)

func main() {
	sessions := flag.Bool("sessions", false, "give every client an Mcp-Session-Id session")
	flag.Parse()
	opt := server.WithStateLess(true)
	if *sessions {
		opt = server.WithStateful(true)
	}
	hs := server.NewStreamableHTTPServer(mcpgo.NewServer(), opt)
	log.Fatal(hs.Start(os.Getenv("MCPGEN_BENCH_ADDR")))
}
