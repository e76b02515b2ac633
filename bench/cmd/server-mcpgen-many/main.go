// Command server-mcpgen-many serves the 200 tools of the start-up measurement with the mcpgen
// runtime over stdio, as the repository's examples do.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/bench/internal/many/mcpgen"
)

func main() {
	s := many.NewServer()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := s.ServeStdio(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", s.Name, err)
		os.Exit(1)
	}
}
