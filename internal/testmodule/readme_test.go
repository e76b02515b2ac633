package testmodule

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// nestedMain imports the root module and every nested module a user may
// need: runtime, auth, otel and store/redis.
const nestedMain = `package main

import (
	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/otel"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/store/redis"
)

var (
	_ runtime.TokenVerifier = (*auth.JWTVerifier)(nil)
	_                       = otel.Setup
	_                       = redis.Open
)

func main() {}
`

// TestReadmeNestedModules runs the README's commands for the nested
// modules (between <!-- modules:begin --> and <!-- modules:end -->), as
// written, in a fresh module next to a link named mcpgen to this
// repository, whose main imports runtime, auth, otel and store/redis; the
// module then builds outside the repository's workspace. It reaches the
// module proxy for what the module cache lacks.
func TestReadmeNestedModules(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: go mod tidy of a module that needs auth, otel and store/redis takes seconds")
	}
	readme, err := os.ReadFile(filepath.Join(Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	script := shBlock(t, readme, "<!-- modules:begin -->", "<!-- modules:end -->")

	work := t.TempDir()
	root, err := filepath.Abs(Root())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(work, "mcpgen")); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(work, "app")
	write(t, filepath.Join(app, "main.go"), []byte(nestedMain))
	// The user's module is outside the repository's go.work; GOFLAGS as
	// the user's shell has it, empty.
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = app, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	run("go", "mod", "init", "example.com/app")
	run("bash", "-euo", "pipefail", "-c", script)
	run("go", "build", "-o", filepath.Join(work, "app.bin"), ".")
	gomod, err := os.ReadFile(filepath.Join(app, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"", "/auth", "/otel", "/store/redis"} {
		if !bytes.Contains(gomod, []byte("github.com/mcpgen/mcpgen"+m+" v")) {
			t.Errorf("go.mod does not require github.com/mcpgen/mcpgen%s:\n%s", m, gomod)
		}
	}
}

// shBlock returns the body of the one sh code block between the lines
// begin and end of page.
func shBlock(t *testing.T, page []byte, begin, end string) string {
	t.Helper()
	_, rest, ok := strings.Cut(string(page), begin+"\n")
	block, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("no %s … %s in the page", begin, end)
	}
	body, ok := strings.CutPrefix(strings.TrimSpace(block), "```sh\n")
	body, ok2 = strings.CutSuffix(body, "```")
	if !ok || !ok2 {
		t.Fatalf("between %s and %s, not one sh block:\n%s", begin, end, block)
	}
	return body
}
