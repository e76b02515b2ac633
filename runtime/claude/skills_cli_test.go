package claude_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/mcpgen/mcpgen/internal/fakeapi"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// reviewSkill is the SKILL.md of the skill the model loads.
const reviewSkill = "---\nname: code-review\ndescription: Review a Go change for correctness and tests. Use it when asked to review a diff.\n---\n\n# Code review\n\nRead checklists/go.md, then say what must change.\n"

// skillsServer serves the skill code-review over Streamable HTTP and
// records every request it answers: method, revision and params.
type skillsServer struct {
	srv  *runtime.Server
	mu   sync.Mutex
	seen []string
}

func newSkillsServer(t *testing.T) *skillsServer {
	k := &skillsServer{srv: &runtime.Server{Name: "guide", Version: "1.0.0"}}
	fsys := fstest.MapFS{
		"code-review/SKILL.md":         {Data: []byte(reviewSkill)},
		"code-review/checklists/go.md": {Data: []byte("# Go\n\n- Errors are wrapped with %w.\n")},
	}
	var files []runtime.SkillFile
	for _, p := range []string{"SKILL.md", "checklists/go.md"} {
		data, _ := fs.ReadFile(fsys, "code-review/"+p)
		sum := sha256.Sum256(data)
		files = append(files, runtime.SkillFile{Path: p, Size: int64(len(data)), Digest: "sha256:" + hex.EncodeToString(sum[:])})
	}
	k.srv.AddSkill(&runtime.Skill{Path: "code-review", FS: fsys, Dir: "code-review", Files: files,
		Frontmatter: `{"name":"code-review","description":"Review a Go change for correctness and tests. Use it when asked to review a diff."}`})
	k.srv.Middleware = []runtime.Middleware{func(next runtime.RequestHandler) runtime.RequestHandler {
		return func(ctx context.Context, req *runtime.RequestInfo) runtime.Outcome {
			k.mu.Lock()
			k.seen = append(k.seen, req.Method+" "+req.Revision+" "+string(req.Params))
			k.mu.Unlock()
			return next(ctx, req)
		}
	}}
	return k
}

func (k *skillsServer) requests() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.seen...)
}

// TestCLISkills: the real CLI, connected to a server with skills over
// Streamable HTTP, speaks revision 2026-07-28 (server/discover, whose
// capabilities declare the skills extension), lists the resources, where
// each skill's SKILL.md is named and described by its frontmatter, and
// reads a skill's SKILL.md when the model asks for it (resources/read):
// its text, checked against the manifest, reaches the model.
//
// Pinned, of Claude Code 2.1.332 offline: it sends no skills/list, and its
// ReadMcpResourceDirTool says "Directory listing is not enabled in this
// build". It lists a server's skills only where its feature flag
// tengu_wiggly_crystal is on and the organization's policy allows them,
// both fetched from Anthropic, which an offline run never is (and with an
// API key no policy arrives); its Skill tool then knows no skill of the
// server. When a CLI does either offline, this test fails: have the model
// load the skill with the Skill tool, or list its folder, and pin that.
func TestCLISkills(t *testing.T) {
	k := newSkillsServer(t)
	h := newHost(t, "ReadMcpResourceTool", `{"server":"guide","uri":"skill://code-review/SKILL.md"}`,
		fakeapi.Finally("ReadMcpResourceDirTool", `{"server":"guide","uri":"skill://code-review"}`))
	h.allowAll()
	web := httptest.NewServer(k.srv.HTTPHandler(nil))
	t.Cleanup(web.Close)
	h.opts.MCPServers = map[string]claude.MCPServerConfig{"guide": {Type: "http", URL: web.URL + "/mcp"}}
	s := h.start()
	h.turn(s, "Review my change with the code-review skill.")

	var methods []string
	params := map[string]string{}
	for _, r := range k.requests() {
		method, rest, _ := strings.Cut(r, " ")
		rev, p, _ := strings.Cut(rest, " ")
		if rev != "2026-07-28" {
			t.Errorf("%s at revision %q, want 2026-07-28", method, rev)
		}
		methods = append(methods, method)
		params[method] = p
	}
	t.Logf("the CLI sent: %s; resources/read %s", strings.Join(methods, ", "), params["resources/read"])
	for _, m := range []string{"server/discover", "resources/list", "resources/read"} {
		if _, ok := params[m]; !ok {
			t.Errorf("the CLI sent no %s; it sent %v", m, methods)
		}
	}
	for _, m := range []string{"skills/list", "skills/get", "resources/directory/read"} {
		if _, ok := params[m]; ok {
			t.Errorf("the CLI now sends %s offline (it sent %v): have the model use it, and pin that", m, methods)
		}
	}
	if p := params["resources/read"]; !strings.Contains(p, `"uri":"skill://code-review/SKILL.md"`) {
		t.Errorf("resources/read params: %s", p)
	}
	results := h.api.ToolResults()
	if len(results) != 1 || results[0].IsError || !strings.Contains(results[0].Text, "Read checklists/go.md, then say what must change.") || !strings.Contains(results[0].Text, "text/markdown") {
		t.Errorf("SKILL.md as the model got it: %+v", results)
	}
	reqs := h.api.Requests()
	if last := string(reqs[len(reqs)-1].Body); !strings.Contains(last, "Directory listing is not enabled in this build.") {
		t.Errorf("ReadMcpResourceDirTool's answer changed; the model's last request: %.3000s", last)
	}
}
