// Package testmodule builds throwaway Go modules for tests: a module that
// uses this repository through a replace directive, the way a user's
// module would use a published mcpgen.
package testmodule

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Root returns the directory of the mcpgen repository.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// New writes a module named path into a new temporary directory, with the
// given files (names relative to the module root), a go.mod that requires
// mcpgen from this repository, and this repository's go.sum, so that the
// module builds without a network. It returns the module's directory.
func New(t testing.TB, path string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	root := Root()
	gomod := "module " + path + "\n\ngo 1.26.0\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	write(t, filepath.Join(dir, "go.sum"), sum)
	for name, content := range files {
		write(t, filepath.Join(dir, name), []byte(content))
	}
	return dir
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o666); err != nil {
		t.Fatal(err)
	}
}
