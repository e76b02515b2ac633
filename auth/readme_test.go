package auth_test

import (
	"context"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/runtime"
)

// readmeExample holds the Go block of README.md's section "Authorization"
// (all but its import line), so that the block compiles: it is not run,
// since it listens on 0.0.0.0:8080 for an issuer of example.com.
func readmeExample(ctx context.Context, s *runtime.Server) error {
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
	return err
}

var _ = readmeExample

// TestREADMEAuthorization: the README's example of Authorization is
// readmeExample's body, line for line.
func TestREADMEAuthorization(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### Authorization\n")
	if !ok {
		t.Fatal(`README.md has no section "### Authorization"`)
	}
	_, block, ok := strings.Cut(section, "```go\n")
	block, _, ok2 := strings.Cut(block, "```\n")
	if !ok || !ok2 {
		t.Fatal("the README's section Authorization has no Go block")
	}
	self, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		if line == "" || strings.HasPrefix(line, "import ") {
			continue
		}
		body.WriteString("\t" + line + "\n")
	}
	if !strings.Contains(string(self), body.String()) {
		t.Errorf("the README's Go block is not readmeExample's body:\n%s", body.String())
	}
}
