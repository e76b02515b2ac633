package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/fakeapi"
	"github.com/mcpgen/mcpgen/internal/linepeer"
)

// hostCommand builds the example and returns the command that runs it
// with the CLI cli and the fake API api, in a folder of its own.
func hostCommand(t *testing.T, cli string, api *fakeapi.Server) *exec.Cmd {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "host")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-claude", cli)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), claudetest.Env(t, api)...)
	return cmd
}

// TestHost runs the example against the real Claude Code CLI and a fake
// model that looks the order up, then answers with a Reply: the audit
// hook sees the call, the tool runs in this process, and the structured
// answer decodes into Reply.
func TestHost(t *testing.T) {
	linepeer.CheckLeaks(t)
	cli := claudetest.CLI(t)
	api := claudetest.API(t, "mcp__orders__lookup_order", `{"order_id":"A-1001"}`,
		fakeapi.Finally("StructuredOutput", `{"order_id":"A-1001","status":"shipped","message":"Your order shipped on Monday and arrives on Thursday."}`))
	cmd := hostCommand(t, cli, api)
	cmd.Env = append(cmd.Env, "ENABLE_TOOL_SEARCH=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("host: %v\n%s", err, out)
	}
	for _, want := range []string{
		`audit: mcp__orders__lookup_order {"order_id":"A-1001"}`,
		"order:   A-1001\nstatus:  shipped\nmessage: Your order shipped on Monday and arrives on Thursday.\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	trs := api.ToolResults()
	if len(trs) != 1 || !strings.HasPrefix(trs[0].Text, "Order A-1001 shipped on Monday") {
		t.Errorf("the model received %+v", trs)
	}
}

// TestHostNotLoggedIn runs the example with the real CLI and no
// credentials, as a new user's first run may: it fails, and says why in
// the CLI's words (it used to print only "the result has no structured
// output (success, api_error)").
func TestHostNotLoggedIn(t *testing.T) {
	linepeer.CheckLeaks(t)
	cli := claudetest.CLI(t)
	api := claudetest.API(t, "mcp__orders__lookup_order", `{"order_id":"A-1001"}`)
	cmd := hostCommand(t, cli, api)
	cmd.Env = append(cmd.Env, "ANTHROPIC_API_KEY=", "CLAUDE_CODE_OAUTH_TOKEN=", "ANTHROPIC_AUTH_TOKEN=")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("host succeeded without credentials:\n%s", out)
	}
	if want := "host: claude: the run failed: Not logged in · Please run /login"; !strings.Contains(string(out), want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}
