// Package installtest finds the real tools that check the install files
// mcpgen generates: the MCP bundle command mcpb (@anthropic-ai/mcpb, which
// .ci/install-mcpb.sh installs) and the MCP Registry's schema of
// server.json, from the Registry's own module (which
// .ci/install-registry-schema.sh downloads). Like the Claude Code CLI, each
// is skipped when absent, unless $MCPGEN_REQUIRE_CLAUDE is set (CI sets
// it): then the test fails.
package installtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/claudetest"
)

// MCPBVersion is the version of @anthropic-ai/mcpb the tests are pinned
// to.
const MCPBVersion = "2.1.2"

// The Registry's module, its pinned version, and the schema file in it
// that the Registry validates a server.json against.
const (
	RegistryModule  = "github.com/modelcontextprotocol/registry"
	RegistryVersion = "v1.8.8"
	RegistrySchema  = "internal/validators/schemas/2025-12-11.json"
)

// MCPB returns the path of the mcpb command: $MCPGEN_MCPB, then the copy
// .ci/install-mcpb.sh puts in the cache.
func MCPB(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("MCPGEN_MCPB"); p != "" {
		return p
	}
	p := filepath.Join(claudetest.CacheDir(), "mcpb-"+MCPBVersion, "node_modules", ".bin", "mcpb")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	claudetest.Missing(t, "mcpb "+MCPBVersion, "run .ci/install-mcpb.sh or set MCPGEN_MCPB to test the MCP bundles")
	return ""
}

// RegistrySchemaFile returns the path of the Registry's server.json
// schema: $MCPGEN_REGISTRY_SCHEMA, then the file in the Go module cache.
func RegistrySchemaFile(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("MCPGEN_REGISTRY_SCHEMA"); p != "" {
		return p
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), RegistryModule+"@"+RegistryVersion, filepath.FromSlash(RegistrySchema))
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	claudetest.Missing(t, "MCP Registry schema ("+RegistryModule+"@"+RegistryVersion+")", "run .ci/install-registry-schema.sh or set MCPGEN_REGISTRY_SCHEMA to validate server.json")
	return ""
}
