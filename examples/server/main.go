// Command greeter is an MCP server whose main is meant to be copied: it
// reads its configuration from the environment (the //mcp:config struct
// Config), serves MCP on stdin and stdout by default, or Streamable HTTP
// at http://ADDR/mcp with -http ADDR; with -issuer URL as well, it
// requires OAuth access tokens (JWTs) from that authorization server. It
// is traced and measured with OpenTelemetry when the standard environment
// asks for it (OTEL_EXPORTER_OTLP_ENDPOINT, …), and logs to standard
// error.
//
//mcp:server name=greeter version=1.0.0
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/auth"
	mcpotel "github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP at `addr` (such as 127.0.0.1:8080) under /mcp, instead of stdio")
	issuer := flag.String("issuer", "", "with -http, require access tokens from the OAuth authorization server whose issuer is `url`")
	audience := flag.String("audience", "", "with -issuer, the `uri` tokens must be issued for: the server's URL as clients reach it (default http://ADDR/mcp)")
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*httpAddr, *issuer, *audience, logger); err != nil {
		logger.Error("greeter stopped", "err", err)
		os.Exit(1)
	}
}

// run serves until the end of standard input (stdio), SIGINT or SIGTERM.
func run(httpAddr, issuer, audience string, logger *slog.Logger) error {
	var cfg Config
	if err := cfg.LoadEnv(os.Getenv); err != nil {
		return err // nothing is served with a configuration that is not valid
	}
	if issuer != "" && httpAddr == "" {
		return errors.New("-issuer needs -http: over stdio a server takes its credentials from the environment")
	}
	if audience != "" && issuer == "" {
		return errors.New("-audience needs -issuer")
	}
	s := NewServer(&Greeter{Config: cfg})
	s.Logger = logger

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// Telemetry, when the environment asks for it; otherwise nothing.
	shutdown, err := mcpotel.Setup(ctx, s)
	if err != nil {
		return fmt.Errorf("telemetry: %w", err)
	}
	defer func() {
		// Flush what is left, within a bound of its own: ctx may be
		// cancelled already.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := shutdown(ctx); err != nil {
			logger.Error("flushing telemetry", "err", err)
		}
	}()

	if httpAddr == "" {
		err = s.ServeStdio(ctx)
	} else {
		opts := &runtime.HTTPOptions{}
		if issuer != "" {
			v, err := auth.NewJWTVerifier(auth.JWTConfig{Issuer: issuer})
			if err != nil {
				return fmt.Errorf("-issuer %s: %w", issuer, err)
			}
			opts.Authorization = &runtime.Authorization{
				Verifier:             v,
				Resource:             audience, // empty: http://ADDR/mcp
				AuthorizationServers: []string{issuer},
			}
		}
		err = s.ListenAndServeHTTP(ctx, httpAddr, opts)
	}
	if ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}
