package gen_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// guardedSource is a package whose generated file depends on a struct's
// fields, a nested struct, a constant's value and a handler's signature.
const guardedSource = `package tickets

import "context"

// Kind is the kind of a ticket.
type Kind string

const (
	Bug     Kind = "bug"
	Feature Kind = "feature"
)

// Label is a label.
type Label struct {
	Name string ` + "`json:\"name\"`" + `
}

// Input is a new ticket.
type Input struct {
	Title  string  ` + "`json:\"title\"`" + `
	Kind   Kind    ` + "`json:\"kind\"`" + `
	Labels []Label ` + "`json:\"labels,omitempty\"`" + `
}

// Create creates a ticket.
//
//mcp:tool
func Create(ctx context.Context, in Input) (string, error) { return in.Title, nil }
`

// TestGuardsStopStaleBuilds: after a change that the generated file does
// not reflect, the package no longer builds, and the compiler points at
// the guard, whose comment says to re-run go generate. Without the guards
// each of these builds, and serves schemas that no longer match the code.
func TestGuardsStopStaleBuilds(t *testing.T) {
	for _, c := range []struct {
		name, old, new string
		want           string // in the compiler's message
	}{
		{"a field added", "Title  string  `", "Due string `json:\"due\"`\n\tTitle  string  `", "cannot use mcpimpl.RerunGoGenerate(struct"},
		{"a field retagged", "`json:\"kind\"`", "`json:\"type\"`", "cannot use mcpimpl.RerunGoGenerate(struct"},
		{"a nested struct's field retyped", "Name string `", "Name []byte `", "cannot use mcpimpl.RerunGoGenerate(struct"},
		{"a constant's value changed", `Feature Kind = "feature"`, `Feature Kind = "feat"`, "duplicate key false in map literal"},
		{"a signature changed", "in Input) (string, error)", "in *Input) (string, error)", "cannot use mcpimpl.RerunGoGenerate(Create)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if !strings.Contains(guardedSource, c.old) {
				t.Fatalf("the source has no %q", c.old)
			}
			dir := testmodule.New(t, "example.com/tickets", map[string]string{"tickets.go": guardedSource})
			generate(t, dir)
			if out := build(dir); out != "" {
				t.Fatalf("the generated package does not build:\n%s", out)
			}
			src := strings.Replace(guardedSource, c.old, c.new, 1)
			src = strings.ReplaceAll(src, "return in.Title", "return \"\"")
			if err := os.WriteFile(filepath.Join(dir, "tickets.go"), []byte(src), 0o666); err != nil {
				t.Fatal(err)
			}
			out := build(dir)
			if !strings.Contains(out, gen.DefaultOutput) || !strings.Contains(out, c.want) {
				t.Errorf("go build after %s, without go generate: want an error in %s saying %q, got:\n%s", c.name, gen.DefaultOutput, c.want, out)
			}
			// The guard that stops the build does not stop regeneration.
			generate(t, dir)
			if out := build(dir); out != "" {
				t.Errorf("after %s and go generate, the package does not build:\n%s", c.name, out)
			}
		})
	}
}

// generate generates the package in dir and writes its file.
func generate(t *testing.T, dir string) {
	t.Helper()
	results, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	if err != nil || len(results) != 1 || results[0].HasErrors() || results[0].Content == nil {
		t.Fatalf("generate: %v %+v", err, results)
	}
	if _, err := results[0].Write(); err != nil {
		t.Fatal(err)
	}
}

// build builds the module in dir and returns the go command's output if
// it fails.
func build(dir string) string {
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		return ""
	}
	return string(out)
}
