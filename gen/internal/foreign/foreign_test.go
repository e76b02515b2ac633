package foreign

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/internal/foreign/tools"
	"github.com/mcpgen/mcpgen/runtime"
)

// call calls a tool of the package tools over a new connection of the
// newest revision, and returns its result.
func call(t *testing.T, name, args string) (res struct {
	Content []struct{ Text string }
	IsError bool
}) {
	t.Helper()
	c := tools.NewServer().NewConn(nil)
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	var resp struct {
		Result json.RawMessage
	}
	out := c.Handle(context.Background(), []byte(req))
	if err := json.Unmarshal(out, &resp); err != nil || resp.Result == nil {
		t.Fatalf("%s → %s", req, out)
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

var _ = runtime.TextResult // the tools' results are the runtime's

// TestForeignValues: values that the types of other modules read (and
// write back) are accepted, and what the tools return passes their own
// output schemas: a GitHub search without the option members it may leave
// out, timestamps, Kubernetes quantities and int-or-strings, UUIDs and
// null ones, zap, slog and language levels and tags, a big integer, a
// network prefix, a milestone given by pointer.
func TestForeignValues(t *testing.T) {
	for _, c := range []struct{ tool, args string }{
		{"search_issues", `{"q":"is:open bug"}`},
		{"search_issues", `{"q":"is:open bug","Sort":"created","Order":"asc","PerPage":50}`},
		{"set_deadline", `{"due":"2026-01-02T03:04:05Z","when":"2026-01-02T03:04:05Z"}`},
		{"set_deadline", `{"due":"2026-01-02T03:04:05Z","when":null}`},
		{"scale", `{"cpu":"500m","port":8080}`},
		{"scale", `{"cpu":"1Gi","port":"http"}`},
		{"scale", `{"cpu":2,"port":80}`},
		{"lookup_by_id", `{"id":"0b4d2ac6-6d9c-4b7e-9d5e-5a9d3f1b2c3d","parent":null,"level":"warn","slog":"INFO+2","lang":"en-US","big":123456789012345678901234567890,"net":"10.0.0.0/8"}`},
		{"lookup_by_id", `{"id":"0b4d2ac6-6d9c-4b7e-9d5e-5a9d3f1b2c3d","parent":"0b4d2ac6-6d9c-4b7e-9d5e-5a9d3f1b2c3e","level":"debug","slog":"DEBUG","lang":"fr","big":-1,"net":"::1/128"}`},
		{"create_milestone", `{"title":"v1.0"}`},
		{"describe_container", `{"container":{"name":"web","image":"nginx","ports":[{"containerPort":80}]}}`},
	} {
		res := call(t, c.tool, c.args)
		if res.IsError {
			t.Errorf("%s %s: %v", c.tool, c.args, res.Content)
		}
	}
	if res := call(t, "create_milestone", `{"title":"v1.0"}`); len(res.Content) != 1 || res.Content[0].Text != "v1.0" {
		t.Errorf("create_milestone: %+v, want the title back", res)
	}
	for _, c := range []struct{ tool, args, want string }{
		{"search_issues", `{"q":"x","Sort":1}`, "Sort: must be a string"},
		{"scale", `{"cpu":{},"port":8080}`, "cpu: must be a number or a string; got an object"},
		{"lookup_by_id", `{"id":"x","parent":null,"level":7,"slog":"INFO","lang":"en","big":1,"net":"::/0"}`, "level: must be a string"},
	} {
		res := call(t, c.tool, c.args)
		if !res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, c.want) {
			t.Errorf("%s %s: %+v, want an error saying %q", c.tool, c.args, res, c.want)
		}
	}
}

// TestToolsListBounded: the doc comments of other modules contribute
// their first sentence, at most 200 bytes, not pages: tools/list stays a
// size a model can afford on every turn (76.8 KB with whole comments).
func TestToolsListBounded(t *testing.T) {
	results, err := gen.Generate(context.Background(), gen.Config{Patterns: []string{"./tools"}})
	if err != nil || len(results) != 1 || results[0].Content == nil {
		t.Fatalf("generate: %v %+v", err, results)
	}
	r := results[0]
	if r.ToolsListSize == 0 || r.ToolsListSize > 50_000 {
		t.Errorf("tools/list is %d bytes; want at most 50 KB", r.ToolsListSize)
	}
	for _, line := range strings.Split(string(r.Content), "\n") {
		if _, desc, ok := strings.Cut(line, `"description": `); ok && len(desc) > 220 && !strings.Contains(line, "CreateMilestone") {
			t.Errorf("a description of %d bytes: %s", len(desc), desc)
		}
	}
}

// TestDiagnosticsAtUserFields: a type of another module that needs a
// statement is reported at the field of the user's package that reaches
// it, with the path from the input, never in the module cache.
func TestDiagnosticsAtUserFields(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("tools", "tools.go"))
	if err != nil {
		t.Fatal(err)
	}
	// Without the statement for metav1.Time.
	var kept []string
	for _, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(line, "//mcp:schema metav1.Time") {
			kept = append(kept, line)
		}
	}
	dir := module(t, map[string]string{"tools/tools.go": strings.Join(kept, "\n")})
	results, err := gen.Generate(context.Background(), gen.Config{Dir: dir, Patterns: []string{"./tools"}, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")})
	if err != nil || len(results) != 1 {
		t.Fatalf("generate: %v", err)
	}
	var found bool
	for _, d := range results[0].Diagnostics {
		if !strings.HasPrefix(d.Pos.Filename, dir) {
			t.Errorf("a diagnostic outside the user's package: %s", d)
		}
		if strings.Contains(d.Message, "metav1.Time") || strings.Contains(d.Message, "v1.Time") {
			found = true
			if want := "Deadline.When: "; !strings.HasPrefix(d.Message, want) || d.Pos.Line != lineOf(kept, "When metav1.Time") {
				t.Errorf("%s: want it at the field When of Deadline, starting %q", d, want)
			}
		}
	}
	if !found {
		t.Errorf("no diagnostic about metav1.Time: %v", results[0].Diagnostics)
	}
}

// module writes a copy of this module, with files replaced, into a
// temporary directory: the same requirements, mcpgen from this checkout.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	gomod := strings.Replace(string(mod), "=> ../../..", "=> "+root, 1)
	sum, _ := os.ReadFile("go.sum")
	rootSum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
	all := map[string]string{"go.mod": gomod, "go.sum": string(sum) + string(rootSum)}
	for name, content := range files {
		all[name] = content
	}
	for name, content := range all {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lineOf returns the line number (from 1) of the first line holding s.
func lineOf(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	return 0
}
