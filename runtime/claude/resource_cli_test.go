package claude_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
	"github.com/mcpgen/mcpgen/testdata/golden/prompts"
	"github.com/mcpgen/mcpgen/testdata/golden/resources"
)

// TestClaudeCLIReadsResource: the real CLI reads a resource of an
// in-process server (generated from //mcp:resource) when the model asks
// for it with its ReadMcpResourceTool, and the resource's text reaches the
// next request to the model. The same server's prompts are in-process
// too; the pinned CLI does not offer the prompts of in-process ("sdk")
// servers as slash commands, and this test pins that: if a later CLI
// does, the assertion fails and docs/claude.md must change.
func TestClaudeCLIReadsResource(t *testing.T) {
	linepeer.CheckLeaks(t)
	const uri = "file:///srv/docs/readme.md"
	input, _ := json.Marshal(map[string]string{"server": "files", "uri": uri})
	api := claudetest.API(t, "ReadMcpResourceTool", string(input))
	opts := offline(t, api)
	srv := resources.NewServer(&resources.Files{Root: "/root-7c1f"})
	prompts.Register(srv)
	opts.Servers = map[string]*runtime.Server{"files": srv}
	opts.CanUseTool = func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
		return claude.PermissionResult{Allow: true}, nil
	}
	var stderr strings.Builder
	opts.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var init *claude.SystemMessage
	res, err := claude.Query(ctx, "Read the readme of the files server.", opts, func(m claude.Message) {
		if s, ok := m.(*claude.SystemMessage); ok && s.Subtype == "init" && init == nil {
			init = s
		}
	})
	if err != nil {
		t.Fatalf("Query: %v\nstderr: %s\nfake API saw: %+v", err, stderr.String(), answers(api))
	}
	trs := api.ToolResults()
	if len(trs) != 1 || trs[0].IsError || !strings.Contains(trs[0].Text, "/root-7c1f/docs/readme.md") {
		t.Fatalf("the model received %+v, want the resource's text /root-7c1f/docs/readme.md", trs)
	}
	if !strings.Contains(res.Result, "/root-7c1f/docs/readme.md") {
		t.Errorf("the final answer does not quote the resource: %q", res.Result)
	}
	if init == nil {
		t.Fatal("no system/init message")
	}
	var fields struct {
		SlashCommands []string `json:"slash_commands"`
	}
	if err := json.Unmarshal(init.Raw(), &fields); err != nil {
		t.Fatal(err)
	}
	if fields.SlashCommands == nil {
		t.Fatalf("system/init has no slash_commands: %s", init.Raw())
	}
	if i := slices.IndexFunc(fields.SlashCommands, func(c string) bool { return strings.Contains(c, "summarize") || strings.Contains(c, "hello") }); i >= 0 {
		t.Errorf("the CLI now offers the in-process prompt %q as a slash command: update docs/claude.md and this test", fields.SlashCommands[i])
	}
}
