package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestEveryModuleInWorkspace: every go.mod that git tracks, outside
// testdata, is a module go.work uses, and go.work uses nothing else.
func TestEveryModuleInWorkspace(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var used []string
	for _, u := range wf.Use {
		used = append(used, filepath.Clean(u.Path))
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "*go.mod").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err) // not a git checkout
	}
	var modules []string
	for _, f := range strings.Fields(string(out)) {
		if strings.Contains(f, "testdata/") {
			continue
		}
		modules = append(modules, filepath.Clean(filepath.Dir(f)))
	}
	slices.Sort(used)
	slices.Sort(modules)
	if !slices.Equal(used, modules) {
		t.Errorf("go.work uses %q; the repository's modules are %q", used, modules)
	}
}
