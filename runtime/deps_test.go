package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly: a binary built with mcpgen must not pull in
// the generator's dependencies (x/tools, jennifer, invopop) or anything
// else outside the standard library, whichever runtime package it uses.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "github.com/mcpgen/mcpgen/runtime/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 8 {
		t.Fatalf("go list found only %d runtime packages: %v", len(pkgs), pkgs)
	}
	for _, pkg := range pkgs {
		if !strings.HasPrefix(pkg, "github.com/mcpgen/mcpgen/runtime") {
			t.Errorf("the runtime depends on %s, which is not in the standard library", pkg)
		}
	}
}
