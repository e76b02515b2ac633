package claude

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/claudetest"
)

// TestProjectKeyMatchesSDK runs the TypeScript SDK's own code for the
// project key (from its sdk.mjs, with Node) on paths that exercise each
// rule (characters replaced, UTF-16 code units, the cut at 200 with a
// hash) and compares sanitizePath's answers: the session functions find
// the CLI's files only if the key is the same.
func TestProjectKeyMatchesSDK(t *testing.T) {
	dts := claudetest.AgentSDK(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node in PATH")
	}
	mjs, err := os.ReadFile(filepath.Join(filepath.Dir(dts), "sdk.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// The key's functions, found by what they do (their names are
	// minified): the hash, the cut, the replacement.
	var code []string
	for _, re := range []string{
		`function \w+\(e\)\{let t=0;for\(let n=0;n<e\.length;n\+\+\)t=\(t<<5\)-t\+e\.charCodeAt\(n\)\|0;return t\}`,
		`var \w+=200;function \w+\(e\)\{return Math\.abs\(\w+\(e\)\)\.toString\(36\)\}function \w+\(e\)\{return e\.replace\(/\[\^a-zA-Z0-9\]/g,"-"\)\}function (\w+)\(e\)\{let t=\w+\(e\);if\(t\.length<=\w+\)return t;return` + "`[^`]*`" + `\}`,
	} {
		m := regexp.MustCompile(re).FindString(string(mjs))
		if m == "" {
			t.Fatalf("sdk.mjs has no %s", re)
		}
		code = append(code, m)
	}
	key := regexp.MustCompile(`function (\w+)\(e\)\{let t=\w+\(e\)`).FindStringSubmatch(code[1])
	if key == nil {
		t.Fatalf("no key function in %s", code[1])
	}
	paths := []string{
		"/home/ana/src/app",
		"/tmp/with space/and.dots_and-dashes",
		"/srv/naïve/日本語/😀emoji",
		"/" + strings.Repeat("deep/", 45) + "end",
		"/" + strings.Repeat("é", 250),
		"/" + strings.Repeat("😀", 120),
	}
	in, _ := json.Marshal(paths)
	script := strings.Join(code, "\n") + "\nconsole.log(JSON.stringify(" + string(in) + ".map(" + key[1] + ")))"
	out, err := exec.Command(node, "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for i, p := range paths {
		if got := sanitizePath(p); got != want[i] {
			t.Errorf("sanitizePath(%q)\n got %s\nwant %s", p, got, want[i])
		}
	}
}
