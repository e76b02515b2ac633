package greet_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/greet"
	"github.com/mcpgen/mcpgen/runtime/runtimetest"
)

// TestGreet calls greet in process, as a client would, under both forms
// of the protocol: with its input struct, and without the name its
// schema requires.
func TestGreet(t *testing.T) {
	for _, rev := range []string{runtimetest.SessionRevision, runtimetest.RequestRevision} {
		t.Run(rev, func(t *testing.T) {
			c := runtimetest.NewClient(t, greet.NewServer(), &runtimetest.Options{Revision: rev})
			res, err := c.CallTool(t.Context(), "greet", greet.GreetInput{Name: "Ada"})
			if err != nil || res.IsError || runtimetest.Text(res) != "Hello, Ada! Welcome." {
				t.Errorf("greet: %q, %v", runtimetest.Text(res), err)
			}
			res, err = c.CallTool(t.Context(), "greet", nil)
			if err != nil || !res.IsError || !strings.Contains(runtimetest.Text(res), "name: is required") {
				t.Errorf("greet without a name: %q, %v", runtimetest.Text(res), err)
			}
		})
	}
}

// TestREADMETesting: the README's example of a test is TestGreet, line
// for line, so that it compiles and runs.
func TestREADMETesting(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### Testing your tools\n")
	_, block, ok2 := strings.Cut(section, "```go\n")
	block, _, ok3 := strings.Cut(block, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal(`README.md has no Go block in a section "### Testing your tools"`)
	}
	src, err := os.ReadFile("greet_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), block) {
		t.Errorf("the README's Go block is not in greet_test.go:\n%s", block)
	}
}
