package greet

// The Go blocks of the pages on serving and asking the client (README.md,
// docs/serving.md, docs/asking.md) are regions of this file, woven in by
// internal/docs/weave, so that they compile here as written, in a package
// with a generated NewServer. They are not run: they serve forever or ask
// a client that is not there.

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"

	"github.com/mcpgen/mcpgen/runtime"
)

var (
	_ = main
	_ = serveStdio
	_ = serveHTTP
	_ = Deploy
)

//docs:begin main

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at this `address` (such as 127.0.0.1:8080) instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	s := NewServer()
	var err error
	if *addr != "" {
		err = s.ListenAndServeHTTP(ctx, *addr, nil) // http://ADDR/mcp
	} else {
		err = s.ServeStdio(ctx) // newline-delimited JSON-RPC on stdin and stdout
	}
	if err != nil {
		log.Fatal(err)
	}
}

//docs:end main

func serveStdio(ctx context.Context) error {
	//docs:begin stdio
	s := NewServer()
	err := s.ServeStdio(ctx) // newline-delimited JSON-RPC on stdin/stdout
	//docs:end stdio
	return err
}

func serveHTTP(ctx context.Context, s *runtime.Server) error {
	//docs:begin http
	err := s.ListenAndServeHTTP(ctx, ":8080", nil) // http://127.0.0.1:8080/mcp
	//docs:end http
	return err
}

// DeployInput names what to deploy.
type DeployInput struct {
	Service string `json:"service"`
}

//docs:begin elicit

func Deploy(ctx context.Context, in DeployInput) (string, error) {
	action, content, err := runtime.Elicit(ctx, "Deploy to production?",
		`{"type":"object","properties":{"reason":{"type":"string"}},"required":["reason"]}`)
	if err != nil {
		return "", err // ErrNotSupported, a timeout, or ErrInputRequired (below)
	}
	if action != runtime.ElicitAccept {
		return "not deployed", nil
	}
	log.Printf("deploying %s: %s", in.Service, content)
	return "deployed", nil
}

//docs:end elicit
