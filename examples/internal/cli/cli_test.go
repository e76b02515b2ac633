package cli_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/claudetest"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// TestPrompt runs docs/claude.md's example, go run ./examples/tickets/cmd/tickets -prompt,
// against the real Claude Code CLI and a fake model that files a ticket.
func TestPrompt(t *testing.T) {
	claude := claudetest.CLI(t)
	api := claudetest.API(t, "mcp__cci__create_ticket", `{"title":"Crash on save","description":"The app crashes when saving","kind":"bug"}`)
	bin := filepath.Join(t.TempDir(), "tickets")
	if out, err := exec.Command("go", "build", "-o", bin, "../../tickets/cmd/tickets").CombinedOutput(); err != nil {
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

// TestDocsHostExample does what docs/claude.md's host example says: it
// puts the example, testdata/hello/main.go (which the page includes), in
// a module set up as the Quickstart's, runs go generate and go build, then
// runs it against the real Claude Code CLI, found in PATH as the example
// expects, and a fake model that converts a temperature. The example is
// built even where the CLI is not installed.
func TestDocsHostExample(t *testing.T) {
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("testdata/hello/main.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gosum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/hello\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + repo +
			"\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n",
		"go.sum":  string(gosum),
		"main.go": string(example),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "hello")
	for _, args := range [][]string{{"mod", "tidy"}, {"generate", "./..."}, {"build", "-o", bin, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s of the host example: %v\n%s\n%s", args[0], err, out, files["main.go"])
		}
	}
	claude := claudetest.CLI(t)
	api := claudetest.API(t, "mcp__hello__convert", `{"value":100,"to":"celsius"}`)
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), claudetest.Env(t, api)...)
	cmd.Env = append(cmd.Env, "PATH="+filepath.Dir(claude)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the host example: %v\n%s", err, out)
	}
	for _, want := range []string{
		`"name":"mcp__hello__convert"`,
		"37.8°C",
		"The tool answered: 37.8°C (is_error=false)\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestHTTPSessions runs examples/greet with -http, with and without
// -stateless, and checks whether initialize starts a session.
func TestHTTPSessions(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "greet")
	if out, err := exec.Command("go", "build", "-o", bin, "../../greet/cmd/greet").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, stateless := range []bool{false, true} {
		args := []string{"-http", "127.0.0.1:0"}
		if stateless {
			args = append(args, "-stateless")
		}
		url := serveHTTP(t, bin, args...)
		r := mcptest.Post(t, url, mcptest.Initialize(1, "2025-06-18"))
		if r.Status != 200 || !strings.Contains(string(r.Body), `"protocolVersion"`) {
			t.Fatalf("%v: initialize: %d %s", args, r.Status, r.Body)
		}
		if got := r.Header.Get("Mcp-Session-Id"); (got == "") != stateless {
			t.Errorf("%v: Mcp-Session-Id %q", args, got)
		}
	}
	if out, err := exec.Command(bin, "-stateless").CombinedOutput(); err == nil || !strings.Contains(string(out), "-stateless needs -http") {
		t.Errorf("-stateless without -http: %v: %s", err, out)
	}
}

// serveHTTP starts bin, which must log the URL it serves, and returns the
// URL; the process is stopped when the test ends.
func serveHTTP(t *testing.T, bin string, args ...string) string {
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := servingURL.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		close(urls)
	}()
	select {
	case url, ok := <-urls:
		if !ok {
			t.Fatalf("%s %v exited without serving", bin, args)
		}
		return url
	case <-time.After(10 * time.Second):
		t.Fatalf("%s %v: no URL logged within 10s", bin, args)
	}
	return ""
}

var servingURL = regexp.MustCompile(`msg="serving MCP over Streamable HTTP" url=(http:\S+)`)

// TestStateKeyEnv checks that MCPGEN_STATE_KEY is read, and refused unless
// it is 32 bytes in hex.
func TestStateKeyEnv(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "greet")
	if out, err := exec.Command("go", "build", "-o", bin, "../../greet/cmd/greet").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, bad := range []string{"xyz", strings.Repeat("ab", 16)} {
		cmd := exec.Command(bin, "-http", "127.0.0.1:0", "-stateless")
		cmd.Env = append(os.Environ(), "MCPGEN_STATE_KEY="+bad)
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "MCPGEN_STATE_KEY must be 32 bytes in hex") {
			t.Errorf("MCPGEN_STATE_KEY=%s: %v: %s", bad, err, out)
		}
	}
	t.Setenv("MCPGEN_STATE_KEY", strings.Repeat("ab", 32))
	serveHTTP(t, bin, "-http", "127.0.0.1:0", "-stateless")
}
