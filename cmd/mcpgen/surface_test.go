package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/surface"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// surfaceSource is toolSource with the snapshot asked for.
var surfaceSource = "// Package tools has a tool.\n//\n//mcp:server version=1.0.0 surface\n" + toolSource

// TestSurfaceSnapshot: //mcp:server surface writes mcp_surface.json, which
// -check keeps current like the install files (a changed member shows in
// its diff), and which mcpgen removes when the package stops asking.
func TestSurfaceSnapshot(t *testing.T) {
	dir := testmodule.New(t, "example.com/tools", map[string]string{"tools.go": surfaceSource})
	snapshot := filepath.Join(dir, surface.File)
	if status, _, errOut := mcpgen(t, dir, "-v"); status != 0 || !strings.Contains(errOut, "mcp_surface.json: surface snapshot: written\n") {
		t.Fatalf("mcpgen -v: status %d, stderr:\n%s", status, errOut)
	}
	data, err := os.ReadFile(snapshot)
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(data)
	if err != nil || s.Server.Name != "tools" || s.Server.Version != "1.0.0" || len(s.Tools) != 1 || s.Tools[0].Name != "hello" {
		t.Fatalf("the snapshot does not hold the server and its tool (%v):\n%s", err, data)
	}
	if status, out, errOut := mcpgen(t, dir, "-check"); status != 0 || out != "" || errOut != "" {
		t.Fatalf("-check after generating: status %d, stdout %q, stderr %q", status, out, errOut)
	}

	edited := strings.Replace(surfaceSource, "Name string", "Nick string `json:\"nick\"`\n\tName string", 1)
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(edited), 0o666)
	status, out, errOut := mcpgen(t, dir, "-check")
	if status != 1 || !strings.Contains(errOut, "mcp_surface.json: surface snapshot: out of date: run go generate\n") ||
		!strings.Contains(out, "+++ b/mcp_surface.json") || !strings.Contains(out, `+          "nick": {`) {
		t.Fatalf("-check after adding a member: status %d, want 1, the snapshot named and its diff; stderr:\n%s\nstdout:\n%s", status, errOut, out)
	}
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: status %d\n%s", status, errOut)
	}

	// Asking for the snapshot changes nothing else: -v says the Go file
	// is unchanged.
	os.Remove(snapshot)
	if status, _, errOut := mcpgen(t, dir, "-v"); status != 0 || !strings.Contains(errOut, "mcp_gen.go: tool hello: tools/list 296 B: unchanged\n") ||
		!strings.Contains(errOut, "mcp_surface.json: surface snapshot: written\n") {
		t.Fatalf("mcpgen -v with only the snapshot to write: status %d, stderr:\n%s", status, errOut)
	}

	// A package that no longer asks for the snapshot: -check says it
	// should go, and mcpgen removes it.
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(strings.Replace(edited, " surface\n", "\n", 1)), 0o666)
	status, out, errOut = mcpgen(t, dir, "-check")
	if status != 1 || !strings.Contains(errOut, "mcp_surface.json: surface snapshot: out of date") || !strings.Contains(out, `-  "format": 1,`) {
		t.Fatalf("-check after dropping the option: status %d, want 1 and the snapshot's removal; stderr:\n%s\nstdout:\n%s", status, errOut, out)
	}
	if status, _, errOut := mcpgen(t, dir, "-v"); status != 0 || !strings.Contains(errOut, "mcp_surface.json: surface snapshot: removed: the package no longer asks for it\n") {
		t.Fatalf("mcpgen -v after dropping the option: status %d, stderr:\n%s", status, errOut)
	}
	if _, err := os.Stat(snapshot); !os.IsNotExist(err) {
		t.Fatalf("the snapshot is still there (%v)", err)
	}
	if status, out, errOut := mcpgen(t, dir, "-check"); status != 0 || out != "" || errOut != "" {
		t.Fatalf("-check once it is gone: status %d, stdout %q, stderr %q", status, out, errOut)
	}

	// A file of that name that mcpgen did not write is not touched.
	os.WriteFile(snapshot, []byte("{\"mine\": true}\n"), 0o666)
	if status, _, errOut := mcpgen(t, dir, "-check"); status != 0 {
		t.Fatalf("-check beside a file of the user's: status %d\n%s", status, errOut)
	}
	mcpgen(t, dir)
	if data, _ := os.ReadFile(snapshot); string(data) != "{\"mine\": true}\n" {
		t.Fatalf("mcpgen changed a file it did not write: %q", data)
	}
}
