// Command http-gosdk serves greet and create_ticket with the official Go
// SDK over Streamable HTTP at http://$MCPGEN_BENCH_ADDR/mcp, as its README
// does (mcp.NewStreamableHTTPHandler served by net/http): stateless
// (StreamableHTTPOptions.Stateless), or with -sessions with sessions. Both
// answer application/json (JSONResponse), as mcpgen does, rather than the
// default one-event text/event-stream.
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/peers/gosdk"
)

func main() {
	sessions := flag.Bool("sessions", false, "give every client an Mcp-Session-Id session")
	flag.Parse()
	server := gosdk.NewServer()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: !*sessions, JSONResponse: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	hs := &http.Server{Addr: os.Getenv("MCPGEN_BENCH_ADDR"), Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(hs.ListenAndServe())
}
