// Package cli is the command line shared by the example servers: with no
// flags a server speaks MCP on stdin and stdout; with -http ADDR it serves
// Streamable HTTP at http://ADDR/mcp instead.
package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/runtime"
)

var httpAddr = flag.String("http", "", "serve Streamable HTTP at `addr` (host:port; \":8080\" binds 127.0.0.1) under /mcp, instead of stdio")

// Main serves s as the command line asks and exits.
func Main(s *runtime.Server) {
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *httpAddr != "" {
		// The examples are single local processes, so they keep sessions:
		// the log level a client sets then applies to its later calls.
		err = s.ListenAndServeHTTP(ctx, *httpAddr, &runtime.HTTPOptions{Sessions: true})
	} else {
		err = s.ServeStdio(ctx)
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", s.Name, err)
		os.Exit(1)
	}
}
