package board_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEApp: the README's example of an MCP App is this package's
// code, line for line, so that it compiles and the browser test runs it.
func TestREADMEApp(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### MCP Apps and icons\n")
	_, block, ok2 := strings.Cut(section, "```go\n")
	block, _, ok3 := strings.Cut(block, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal(`README.md has no Go block in a section "### MCP Apps and icons"`)
	}
	src, err := os.ReadFile("board.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), block) {
		t.Errorf("the README's Go block is not in board.go:\n%s", block)
	}
}
