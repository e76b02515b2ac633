package runtimetest_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports: the kit imports the standard library and package runtime,
// never the runtime's internal packages, so that it ships to users as a
// client of the runtime's public API, which a user could have written.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if len(imports) < 5 {
		t.Fatalf("go list found only %d imports: %v", len(imports), imports)
	}
	for _, imp := range imports {
		std := !strings.Contains(strings.Split(imp, "/")[0], ".")
		if !std && imp != "github.com/mcpgen/mcpgen/runtime" {
			t.Errorf("runtimetest imports %s", imp)
		}
	}
}
