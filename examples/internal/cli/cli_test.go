package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/claudetest"
)

// TestPrompt runs the README's example, go run ./examples/tickets -prompt,
// against the real Claude Code CLI and a fake model that files a ticket.
func TestPrompt(t *testing.T) {
	claude := claudetest.CLI(t)
	api := claudetest.API(t, "mcp__cci__create_ticket", `{"title":"Crash on save","description":"The app crashes when saving","kind":"bug"}`)
	bin := filepath.Join(t.TempDir(), "tickets")
	if out, err := exec.Command("go", "build", "-o", bin, "../../tickets").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(context.Background(), bin, "-claude", claude, "-prompt", "File a bug: the app crashes on save")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), claudetest.Env(t, api)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tickets -prompt: %v\n%s", err, out)
	}
	for _, want := range []string{
		"[MCP server cci: connected]",
		`claude calls mcp__cci__create_ticket {"title":"Crash on save","description":"The app crashes when saving","kind":"bug"}`,
		"  result: Ticket 'Crash on save' created successfully (ID: TKT-42)",
		"claude: The tool answered: Ticket 'Crash on save' created successfully (ID: TKT-42) (is_error=false)",
		"[success after ",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// hostExample is the Go block of README.md's section on hosting tools
// in-process.
var hostExample = regexp.MustCompile("(?s)### In-process to the Claude Code CLI\n.*?```go\n(.*?)```")

// TestREADMEHostExample copies the README's host example, as written, into
// a program of its own module (as a user would, with seed 000's tickets
// package as theirs), and runs it against the real Claude Code CLI, found
// in PATH as the example expects.
func TestREADMEHostExample(t *testing.T) {
	claude := claudetest.CLI(t)
	api := claudetest.API(t, "mcp__cci__create_ticket", `{"title":"Login crash","description":"Crashes on login","kind":"bug"}`)
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := hostExample.FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no Go block under \"### In-process to the Claude Code CLI\"")
	}
	dir := t.TempDir()
	gosum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":  "module example.com/host\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + repo + "\n",
		"go.sum":  string(gosum),
		"main.go": string(m[1]),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "host")
	build := exec.Command("go", "build", "-mod=mod", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the README's host example: %v\n%s\n%s", err, out, files["main.go"])
	}
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), claudetest.Env(t, api)...)
	cmd.Env = append(cmd.Env, "PATH="+filepath.Dir(claude)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's host example: %v\n%s", err, out)
	}
	for _, want := range []string{
		`"name":"mcp__cci__create_ticket"`,
		"Ticket 'Login crash' created successfully (ID: TKT-42)",
		"The tool answered: Ticket 'Login crash' created successfully (ID: TKT-42) (is_error=false)\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
