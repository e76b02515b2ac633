// Command server-mcpgen serves greet and create_ticket with the mcpgen
// runtime over stdio, as the repository's examples do.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/mcpgen/mcpgen/bench/internal/mcpgentools"
)

func main() {
	if path := os.Getenv("MCPGEN_BENCH_CPUPROFILE"); path != "" {
		// For diagnosis only: the benchmark never sets it.
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	s := mcpgentools.NewServer()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := s.ServeStdio(ctx); err != nil && ctx.Err() == nil {
		pprof.StopCPUProfile()
		fmt.Fprintf(os.Stderr, "%s: %v\n", s.Name, err)
		os.Exit(1)
	}
}
