package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

const toolSource = `package tools

import "context"

// Input is the input.
type Input struct {
	Name string ` + "`json:\"name\"`" + `
}

// Hello says hello.
//
//mcp:tool
func Hello(ctx context.Context, in Input) (string, error) { return "hello " + in.Name, nil }
`

// mcpgen runs the command in dir and returns its exit status and output.
func mcpgen(t *testing.T, dir string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	status = run(context.Background(), args, &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestGenerateThenCheck(t *testing.T) {
	dir := testmodule.New(t, "example.com/tools", map[string]string{"tools.go": toolSource})
	gen := filepath.Join(dir, "mcp_gen.go")

	status, out, _ := mcpgen(t, dir, "-check")
	if status != 1 || !strings.Contains(out, "+++ b/mcp_gen.go") || !strings.Contains(out, "+func Register(s *runtime.Server) {") {
		t.Fatalf("-check before generating: status %d, want 1 and a diff adding the file; output:\n%s", status, out)
	}
	if _, err := os.Stat(gen); err == nil {
		t.Fatal("-check wrote the file")
	}

	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: status %d\n%s", status, errOut)
	}
	build(t, dir)
	if status, out, _ := mcpgen(t, dir, "-check"); status != 0 || out != "" {
		t.Fatalf("-check after generating: status %d, want 0 and no output; output:\n%s", status, out)
	}

	// Unchanged output is not rewritten: the build cache keeps its mtime.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(gen, old, old)
	mcpgen(t, dir)
	if fi, _ := os.Stat(gen); !fi.ModTime().Equal(old) {
		t.Errorf("an unchanged file was rewritten (mtime %v, want %v)", fi.ModTime(), old)
	}

	// A change to the input shows up in the diff.
	edited := strings.Replace(toolSource, "Name string", "Nick string `json:\"nick\"`\n\tName string", 1)
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(edited), 0o666)
	status, out, _ = mcpgen(t, dir, "-check")
	if status != 1 || !strings.Contains(out, `+    "nick": {`) {
		t.Fatalf("-check after editing the input: status %d, want 1 and the new property in the diff:\n%s", status, out)
	}
}

// TestVerbose: mcpgen is quiet, as go generate wants; -v says, for each
// package, which file serves which tools and what became of it.
func TestVerbose(t *testing.T) {
	dir := testmodule.New(t, "example.com/tools", map[string]string{"tools.go": toolSource})
	if status, out, errOut := mcpgen(t, dir); status != 0 || out != "" || errOut != "" {
		t.Fatalf("mcpgen: status %d, stdout %q, stderr %q; want 0 and no output", status, out, errOut)
	}
	os.Remove(filepath.Join(dir, "mcp_gen.go"))
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"-check"}, 1, "mcp_gen.go: tool hello: out of date: run go generate\n"},
		{[]string{"-v", "-check"}, 1, "mcp_gen.go: tool hello: tools/list 264 B: out of date: run go generate\n"},
		{[]string{"-v"}, 0, "mcp_gen.go: tool hello: tools/list 264 B: written\n"},
		{[]string{"-v"}, 0, "mcp_gen.go: tool hello: tools/list 264 B: unchanged\n"},
		{[]string{"-v", "-check"}, 0, "mcp_gen.go: tool hello: tools/list 264 B: current\n"},
	} {
		if status, _, errOut := mcpgen(t, dir, c.args...); status != c.status || errOut != c.want {
			t.Errorf("mcpgen %s: status %d, stderr %q; want %d and %q", strings.Join(c.args, " "), status, errOut, c.status, c.want)
		}
	}
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(strings.Replace(toolSource, "//mcp:tool\n", "", 1)), 0o666)
	if status, _, errOut := mcpgen(t, dir, "-v"); status != 0 || errOut != "mcp_gen.go: removed: the package has no tools any more\n" {
		t.Errorf("mcpgen -v without tools: status %d, stderr %q", status, errOut)
	}
	// A package with no directive: -v says so, instead of nothing.
	for _, args := range [][]string{{"-v"}, {"-v", "-check"}, {"-v", "./..."}} {
		if status, _, errOut := mcpgen(t, dir, args...); status != 0 || errOut != ".: no mcpgen directives\n" {
			t.Errorf("mcpgen %s without directives: status %d, stderr %q", strings.Join(args, " "), status, errOut)
		}
	}
	if status, out, errOut := mcpgen(t, dir); status != 0 || out != "" || errOut != "" {
		t.Errorf("mcpgen without directives and without -v: status %d, stdout %q, stderr %q; want silence", status, out, errOut)
	}
}

func TestCheckErrorStatus(t *testing.T) {
	dir := testmodule.New(t, "example.com/tools", map[string]string{
		"tools.go": strings.Replace(toolSource, "(string, error)", "string", 1),
	})
	if status, _, errOut := mcpgen(t, dir, "-check"); status != 2 || !strings.Contains(errOut, "tools.go:13:") {
		t.Fatalf("-check on a package with errors: status %d, want 2 with the diagnostic:\n%s", status, errOut)
	}
}

// TestNoSuchPackage: a pattern that names no package is an error, in go
// list's words, with or without -check, and nothing is written.
func TestNoSuchPackage(t *testing.T) {
	dir := testmodule.New(t, "example.com/tools", map[string]string{"tools.go": toolSource, "docs/README.md": "no Go here"})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.go"), []byte(toolSource), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"./nosuch"}, "stat " + filepath.Join(dir, "nosuch") + ": directory not found\n"},
		{[]string{"-check", "./nosuch"}, "stat " + filepath.Join(dir, "nosuch") + ": directory not found\n"},
		// go list's words depend on -mod ("no required module provides
		// package …", or with -mod=readonly as CI runs "cannot find module
		// providing package …"); both name the package.
		{[]string{".", "example.com/nosuch"}, "package example.com/nosuch"},
		{[]string{outside}, " outside main module or its selected dependencies\n"}, // go list shortens the path
		{[]string{"./nosuch/..."}, "pattern ./nosuch/...: lstat ./nosuch/: no such file or directory\n"},
		{[]string{"./docs/..."}, `"./docs/..." matched no packages`},
	} {
		status, out, errOut := mcpgen(t, dir, c.args...)
		if status != 2 || out != "" || !strings.HasPrefix(errOut, "mcpgen: ") || !strings.Contains(errOut, c.want) {
			t.Errorf("mcpgen %s: status %d, stdout %q, stderr %q; want status 2 and %q", strings.Join(c.args, " "), status, out, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp_gen.go")); err == nil {
		t.Error("mcpgen wrote the package it could load although another pattern named nothing")
	}
}

// TestMistakesReportedNothingWritten: a package with several mistakes gets
// every one of them in one run, each with its position, exit status 1, and
// no file: those in a tool's input struct too, although the tool's name
// and result are wrong as well.
func TestMistakesReportedNothingWritten(t *testing.T) {
	src := toolSource + `
// Bad has three mistakes: a bad name, a bad tag and a bad result.
//
//mcp:tool bad.name
func Bad(in BadInput) int { return 0 }

type BadInput struct {
	N int ` + "`json:\"n\" jsonschema:\"minimum=one\"`" + `
	C chan int
}
`
	dir := testmodule.New(t, "example.com/tools", map[string]string{"tools.go": src})
	status, _, errOut := mcpgen(t, dir)
	if status != 1 {
		t.Fatalf("status %d, want 1\n%s", status, errOut)
	}
	for _, want := range []string{
		`tools.go:17:12: invalid tool name "bad.name"`,
		"tools.go:18:23: tool bad.name must return (Out, error) or error, not (int)",
		`tools.go:21:30: BadInput.N: jsonschema tag: minimum must be a number, not "one"`,
		"tools.go:22:2: BadInput.C: unsupported type chan int",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("missing diagnostic %q in:\n%s", want, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp_gen.go")); err == nil {
		t.Error("mcpgen wrote a file for a package with errors")
	}
}

// TestBrokenGeneratedFile: when the user renames a tool and its input,
// the old generated file no longer compiles, and with it the package;
// regeneration must still work.
func TestBrokenGeneratedFile(t *testing.T) {
	main := `package main

func main() { _ = NewServer() }
`
	dir := testmodule.New(t, "example.com/tools", map[string]string{"tools.go": strings.Replace(toolSource, "package tools", "package main", 1), "main.go": main})
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("first generation: status %d\n%s", status, errOut)
	}
	renamed := strings.NewReplacer("package tools", "package main", "Input", "Greeting", "Hello", "Greet").Replace(toolSource)
	os.WriteFile(filepath.Join(dir, "tools.go"), []byte(renamed), 0o666)
	if err := exec.Command("go", "-C", dir, "build", "./...").Run(); err == nil {
		t.Fatal("the package still builds with the stale generated file; the test proves nothing")
	}
	status, _, errOut := mcpgen(t, dir)
	if status != 0 || errOut != "" {
		t.Fatalf("regeneration over a broken file: status %d\n%s", status, errOut)
	}
	build(t, dir)
}

func build(t *testing.T, dir string) {
	t.Helper()
	if out, err := exec.Command("go", "-C", dir, "vet", "./...").CombinedOutput(); err != nil {
		t.Fatalf("generated package does not build: %v\n%s", err, out)
	}
}

// installSource is a server whose doc comment asks for install files.
const installSource = `// Command hello says hello.
//
//mcp:server name=hello version=0.3.0
//mcp:install oci=ghcr.io/acme/hello
package main

import (
	"context"
	"fmt"
	"os"
)

// Config is the server's configuration.
//
//mcp:config
type Config struct {
	Greeting string ` + "`json:\"greeting,omitempty\" jsonschema:\"default=hello\"`" + ` // The word to greet with.
	Token    string ` + "`json:\"token\" mcp:\"secret\" jsonschema:\"pattern=^t[0-9a-z]+$\"`" + ` // The token of the greeting service.
}

// Input is the input.
type Input struct {
	Name string ` + "`json:\"name\"`" + `
}

// Hello says hello.
//
//mcp:tool
func Hello(ctx context.Context, in Input) (string, error) { return "hello " + in.Name, nil }

func main() {
	var c Config
	if err := c.LoadEnv(os.Getenv); err != nil {
		fmt.Fprintf(os.Stderr, "hello: %v\n", err)
		os.Exit(2)
	}
	NewServer().ServeStdio(context.Background())
}
`

// TestInstallFiles checks that mcpgen writes the install files of a
// package with //mcp:install, that -check catches a file that no longer
// matches the code, with a diff, and that -claude-add prints the command
// line and writes nothing.
func TestInstallFiles(t *testing.T) {
	dir := testmodule.New(t, "github.com/acme/hello", map[string]string{"hello.go": installSource})
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: status %d\n%s", status, errOut)
	}
	for _, name := range []string{"manifest.json", "server.json", ".mcp.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("mcpgen did not write %s: %v", name, err)
		}
	}
	build(t, dir)
	if status, out, errOut := mcpgen(t, dir, "-check"); status != 0 || out != "" {
		t.Fatalf("-check after generating: status %d, want 0 and no output; output:\n%s%s", status, out, errOut)
	}
	if _, _, errOut := mcpgen(t, dir, "-v"); !strings.Contains(errOut, "manifest.json: install file: unchanged\n") {
		t.Errorf("-v does not say the manifest is unchanged:\n%s", errOut)
	}

	// A changed description, and an install file edited by hand.
	src := strings.Replace(installSource, "// Hello says hello.", "// Hello greets a person.", 1)
	if err := os.WriteFile(filepath.Join(dir, "hello.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte("{}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	status, out, errOut := mcpgen(t, dir, "-check")
	if status != 1 {
		t.Fatalf("-check after a change: status %d, want 1\n%s%s", status, out, errOut)
	}
	for _, want := range []string{
		"--- a/manifest.json\n+++ b/manifest.json\n",
		`-      "description": "Hello says hello."` + "\n" + `+      "description": "Hello greets a person."`,
		"--- a/.mcp.json\n+++ b/.mcp.json\n",
		"--- a/mcp_gen.go\n+++ b/mcp_gen.go\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("-check output lacks %q:\n%s", want, out)
		}
	}
	for _, want := range []string{"manifest.json: install file: out of date: run go generate", ".mcp.json: install file: out of date: run go generate"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("-check's standard error lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(out, "server.json") {
		t.Errorf("-check shows server.json, which lists no tools and did not change:\n%s", out)
	}

	before, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	status, out, errOut = mcpgen(t, dir, "-claude-add")
	if want := "claude mcp add hello -e HELLO_GREETING=\"$HELLO_GREETING\" -e HELLO_TOKEN=\"$HELLO_TOKEN\" -- hello\n"; status != 0 || out != want {
		t.Errorf("-claude-add: status %d, output %q, want %q\n%s", status, out, want, errOut)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "manifest.json")); !bytes.Equal(before, after) {
		t.Error("-claude-add wrote the install files")
	}
}

// TestInstallConfigAtStartup runs a server whose configuration has a
// required value, as its install files start it: without the variable it
// says which one is missing, exits non-zero and serves nothing; with a
// secret that does not fit its pattern, likewise, without showing it;
// with it, it serves. (Other values out of their schema are mcpimpl's
// TestLoadEnvProblems and TestLoadEnvSecret.)
func TestInstallConfigAtStartup(t *testing.T) {
	dir := testmodule.New(t, "github.com/acme/hello", map[string]string{"hello.go": installSource})
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: status %d\n%s", status, errOut)
	}
	bin := filepath.Join(t.TempDir(), "hello")
	if out, err := exec.Command("go", "-C", dir, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	initialize := mcptest.Initialize(1, "2025-06-18") + "\n"
	run := func(env ...string) (int, string, string) {
		cmd := exec.Command(bin)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
		cmd.Stdin = strings.NewReader(initialize)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errOut.String()
	}
	for _, env := range [][]string{nil, {"HELLO_TOKEN="}, {"HELLO_TOKEN=${user_config.token}"}} {
		code, out, errOut := run(env...)
		if code != 2 || out != "" || !strings.Contains(errOut, "HELLO_TOKEN: is not set, and the server needs it") {
			t.Errorf("without a token (%q): exit %d, stdout %q, stderr %q; want 2, nothing served, and the variable named", env, code, out, errOut)
		}
	}
	// A secret that does not fit: the error says what it must be, and
	// nothing of what it is (before, it quoted the value to the log).
	if code, out, errOut := run("HELLO_TOKEN=sk-live-SECRET"); code != 2 || out != "" ||
		!strings.Contains(errOut, `HELLO_TOKEN: must match the pattern "^t[0-9a-z]+$" (the value is secret, and not shown)`) || strings.Contains(errOut, "SECRET") {
		t.Errorf("with a token that does not fit: exit %d, stdout %q, stderr %q; want 2, nothing served, and the variable named without its value", code, out, errOut)
	}
	if code, out, _ := run("HELLO_TOKEN=t0k"); code != 0 || !strings.Contains(out, `"serverInfo":{"name":"hello","version":"0.3.0"}`) {
		t.Errorf("with a token: exit %d, stdout %q", code, out)
	}
}
