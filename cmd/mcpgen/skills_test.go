package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// skillServerSource is a command that serves the skills of its folder
// skills/ over stdio.
const skillServerSource = `// Command guide serves skills.
package main

import (
	"context"
	"embed"
	"log"
)

//go:embed skills
//mcp:skills
var skillFiles embed.FS

func main() {
	if err := NewServer().ServeStdio(context.Background()); err != nil {
		log.Fatal(err)
	}
}
`

// TestSkillChanged: a skill's file changed after go generate is caught by
// mcpgen -check, whose diff shows the file's new digest, and by the
// server built from the stale file, which refuses to start and says to
// re-run go generate; once regenerated, it serves.
func TestSkillChanged(t *testing.T) {
	dir := testmodule.New(t, "example.com/guide", map[string]string{
		"main.go":                      skillServerSource,
		"skills/release/SKILL.md":      "---\nname: release\ndescription: \"Cut a release: tag, build, announce.\"\n---\nSee steps.md.\n",
		"skills/release/steps.md":      "1. Tag.\n2. Build.\n",
		"skills/release/.editor-state": "left out by //go:embed\n",
	})
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: status %d\n%s", status, errOut)
	}
	if status, out, _ := mcpgen(t, dir, "-check"); status != 0 || out != "" {
		t.Fatalf("-check after generating: status %d, output:\n%s", status, out)
	}
	bin := filepath.Join(t.TempDir(), "guide")
	serve := func() (string, error) {
		t.Helper()
		if out, err := exec.Command("go", "-C", dir, "build", "-o", bin, ".").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		cmd := exec.Command(bin)
		cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"skills/list"}` + "\n")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := serve(); err != nil || !strings.Contains(out, `"uri":"skill://release/steps.md","digest":"sha256:`) {
		t.Fatalf("the generated server: %v\n%s", err, out)
	}

	os.WriteFile(filepath.Join(dir, "skills/release/steps.md"), []byte("1. Tag.\n2. Build.\n3. Announce.\n"), 0o666)
	status, out, _ := mcpgen(t, dir, "-check")
	if status != 1 || !strings.Contains(out, `-			{Path: "steps.md", Size: 18,`) || !strings.Contains(out, `+			{Path: "steps.md", Size: 31,`) {
		t.Fatalf("-check after a skill's file changed: status %d, want 1 and the file's new size and digest in the diff:\n%s", status, out)
	}
	out, err := serve()
	if err == nil || !strings.Contains(out, "skill release: steps.md has 31 bytes and digest sha256:") || !strings.Contains(out, "re-run go generate") {
		t.Fatalf("the server with a stale manifest: %v, want it to refuse to start and say to re-run go generate:\n%s", err, out)
	}
	if status, _, errOut := mcpgen(t, dir); status != 0 {
		t.Fatalf("mcpgen: status %d\n%s", status, errOut)
	}
	if out, err := serve(); err != nil || !strings.Contains(out, `"size":31`) {
		t.Fatalf("the regenerated server: %v\n%s", err, out)
	}
}
