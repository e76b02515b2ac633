package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
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
