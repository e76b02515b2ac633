package auth_test

import (
	"context"
	"log"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/runtime"
)

// docsExample holds the Go block of docs/authorization.md, a region woven
// in by internal/docs/weave, so that it compiles: it is not run, since it
// listens on 0.0.0.0:8080 for an issuer of example.com.
func docsExample(ctx context.Context, s *runtime.Server) error {
	//docs:begin verify
	v, err := auth.NewJWTVerifier(auth.JWTConfig{Issuer: "https://auth.example.com"})
	if err != nil {
		log.Fatal(err)
	}
	err = s.ListenAndServeHTTP(ctx, "0.0.0.0:8080", &runtime.HTTPOptions{
		Authorization: &runtime.Authorization{
			Verifier:             v,
			Resource:             "https://mcp.example.com/mcp", // the URL clients use
			AuthorizationServers: []string{"https://auth.example.com"},
		},
	})
	//docs:end verify
	return err
}

var _ = docsExample
