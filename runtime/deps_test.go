package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly: a binary built with mcpgen must not pull in
// the generator's dependencies (x/tools, jennifer, invopop) or anything
// else outside the standard library.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "github.com/mcpgen/mcpgen/runtime").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg != "github.com/mcpgen/mcpgen/runtime" {
			t.Errorf("runtime depends on %s, which is not in the standard library", pkg)
		}
	}
}
