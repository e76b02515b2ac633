package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// pageBlocks returns the fenced code blocks of the section of the page
// (a file of docs/) that starts with heading, in order.
func pageBlocks(t *testing.T, page, heading string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testmodule.Root(), "docs", page))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/%s has no section %q", page, heading)
	}
	if end := strings.Index(section, "\n#"); end >= 0 {
		section = section[:end]
	}
	var blocks []string
	for {
		_, rest, ok := strings.Cut(section, "```")
		if !ok {
			return blocks
		}
		_, rest, _ = strings.Cut(rest, "\n") // the info string
		block, after, _ := strings.Cut(rest, "```")
		blocks = append(blocks, block)
		section = after
	}
}

// TestDocsBreaking holds docs/breaking.md's section on -breaking to what
// mcpgen does: its report is that of examples/tickets changed as it says
// (Task removed from Kind, ten labels, a queue), and its two lines for CI
// run as written against a repository whose main branch is on a remote.
func TestDocsBreaking(t *testing.T) {
	blocks := pageBlocks(t, "breaking.md", "## `mcpgen -breaking`")
	if len(blocks) != 2 {
		t.Fatalf("the section has %d code blocks, want the report and the CI lines", len(blocks))
	}
	src, err := os.ReadFile(filepath.Join(testmodule.Root(), "examples/tickets/tickets.go"))
	if err != nil {
		t.Fatal(err)
	}
	dir := testmodule.New(t, "example.com/tickets", map[string]string{"tickets.go": string(src)})
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: %d\n%s", status, errOut)
	}
	runGit(t, dir, "init", "-q", "-b", "main")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "-m", "tickets")
	origin := filepath.Join(t.TempDir(), "origin.git")
	runGit(t, dir, "clone", "-q", "--bare", dir, origin)
	runGit(t, dir, "remote", "add", "origin", "file://"+origin)

	changed := strings.Replace(string(src), "\tTask    Kind = \"task\"\n", "", 1)
	changed = strings.Replace(changed, "`json:\"labels,omitempty\" jsonschema:\"maxItems=5\"` // Up to five labels.",
		"`json:\"labels,omitempty\" jsonschema:\"maxItems=10\"` // Up to ten labels.\n\tQueue       string   `json:\"queue,omitempty\"`                            // The queue; triage when left out.", 1)
	if changed == string(src) {
		t.Fatal("examples/tickets no longer has what docs/breaking.md changes")
	}
	os.WriteFile(filepath.Join(dir, "tickets.go"), []byte(changed), 0o666)
	if status, out, errOut := mcpgen(t, dir, "-breaking", "main", "."); status != 1 || out != blocks[0] {
		t.Errorf("mcpgen -breaking main .: status %d, stdout:\n%s\nstderr:\n%s\ndocs/breaking.md shows:\n%s", status, out, errOut, blocks[0])
	}

	lines := strings.Split(strings.TrimSpace(blocks[1]), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "go tool mcpgen ") {
		t.Fatalf("the CI lines are not a git line and a go tool mcpgen line:\n%s", blocks[1])
	}
	fetch := exec.Command("sh", "-c", lines[0])
	fetch.Dir = dir
	if out, err := fetch.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", lines[0], err, out)
	}
	args := strings.Fields(strings.TrimPrefix(lines[1], "go tool mcpgen "))
	if status, out, errOut := mcpgen(t, dir, args...); status != 1 || !strings.Contains(out, "against origin/main (its mcp_surface.json at origin/main)") {
		t.Errorf("%s: status %d, want 1 and the report against origin/main; stdout:\n%s\nstderr:\n%s", lines[1], status, out, errOut)
	}
}

// TestDocsSkills builds docs/skills-and-apps.md's skills example,
// testdata/docs/skills/main.go (which the page includes), with a skill in
// its folder, and asks the server for its skills.
func TestDocsSkills(t *testing.T) {
	example, err := os.ReadFile("testdata/docs/skills/main.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := testmodule.New(t, "example.com/guide", map[string]string{
		"main.go":                     string(example),
		"skills/code-review/SKILL.md": "---\nname: code-review\ndescription: Review a change.\n---\nSee steps.md.\n",
		"skills/code-review/steps.md": "1. Read.\n",
	})
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: status %d\n%s", status, errOut)
	}
	cmd := exec.Command("go", "-C", dir, "run", ".")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"skills/get","params":{"uri":"skill://code-review/SKILL.md"}}` + "\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"uri":"skill://code-review/steps.md","digest":"sha256:`) {
		t.Fatalf("the skills server of docs/skills-and-apps.md: %v\n%s", err, out)
	}
}
