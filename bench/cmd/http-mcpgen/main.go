// Command http-mcpgen serves greet and create_ticket with the mcpgen
// runtime over Streamable HTTP at http://$MCPGEN_BENCH_ADDR/mcp, as the
// README does (ListenAndServeHTTP): stateless, or with -sessions with
// Mcp-Session-Id sessions; with -issuer URL, as an OAuth protected
// resource that takes JWT access tokens of that issuer
// (HTTPOptions.Authorization with auth.NewJWTVerifier), for
// http://$MCPGEN_BENCH_ADDR/mcp, with the scope mcp; the verifier
// remembers the tokens it accepted unless -nocache says to check every
// token's signature.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/runtime"

	"github.com/mcpgen/mcpgen/bench/internal/issuer"
	"github.com/mcpgen/mcpgen/bench/internal/mcpgentools"
)

func main() {
	sessions := flag.Bool("sessions", false, "give every client an Mcp-Session-Id session")
	issuerURL := flag.String("issuer", "", "require JWT access tokens of this `issuer`")
	nocache := flag.Bool("nocache", false, "with -issuer: check every token's signature (the verifier's cache off)")
	flag.Parse()
	if path := os.Getenv("MCPGEN_BENCH_CPUPROFILE"); path != "" {
		// For diagnosis only: the benchmark never sets it.
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	s := mcpgentools.NewServer()
	s.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := &runtime.HTTPOptions{Sessions: *sessions}
	if *issuerURL != "" {
		cfg := auth.JWTConfig{Issuer: *issuerURL}
		if *nocache {
			cfg.CacheTTL = -1
		}
		v, err := auth.NewJWTVerifier(cfg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		opts.Authorization = &runtime.Authorization{Verifier: v, AuthorizationServers: []string{*issuerURL}, Scopes: []string{issuer.Scope}}
	}
	if err := s.ListenAndServeHTTP(ctx, os.Getenv("MCPGEN_BENCH_ADDR"), opts); err != nil && ctx.Err() == nil {
		pprof.StopCPUProfile()
		fmt.Fprintf(os.Stderr, "%s: %v\n", s.Name, err)
		os.Exit(1)
	}
}
