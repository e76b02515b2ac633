// Package claudetest finds the real Claude Code CLI for end-to-end tests
// and gives it an offline environment: a fresh home, a fake Messages API
// (internal/fakeapi) on 127.0.0.1, and every non-essential connection
// switched off.
package claudetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/fakeapi"
)

// Version is the CLI version the tests are pinned to; .ci/install-claude.sh
// installs it.
const Version = "2.1.332"

// CLI returns the path of the CLI: $MCPGEN_CLAUDE, then the copy
// .ci/install-claude.sh puts in the cache ($MCPGEN_CACHE, default
// ~/.cache/mcpgen), then claude in PATH. Without one the test is skipped,
// unless $MCPGEN_REQUIRE_CLAUDE is set (CI sets it): then it fails.
func CLI(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("MCPGEN_CLAUDE"); p != "" {
		return p
	}
	p := filepath.Join(CacheDir(), "claude-code-"+Version, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		return p
	}
	if p, err := exec.LookPath("claude"); err == nil {
		return p
	}
	if os.Getenv("MCPGEN_REQUIRE_CLAUDE") == "" {
		noticeSkipped()
	}
	Missing(t, "Claude Code CLI", "run .ci/install-claude.sh or set MCPGEN_CLAUDE to test against the real CLI")
	return ""
}

// AgentSDKVersion is the TypeScript Agent SDK whose API the host mirrors;
// .ci/install-agent-sdk.sh installs it.
const AgentSDKVersion = "0.3.332"

// AgentSDK returns the path of the TypeScript Agent SDK's type
// declarations, sdk.d.ts: $MCPGEN_AGENT_SDK, then the copy
// .ci/install-agent-sdk.sh puts in the cache. Without one the test is
// skipped, unless $MCPGEN_REQUIRE_CLAUDE is set (CI sets it): then it
// fails.
func AgentSDK(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("MCPGEN_AGENT_SDK"); p != "" {
		return p
	}
	p := filepath.Join(CacheDir(), "claude-agent-sdk-"+AgentSDKVersion, "node_modules", "@anthropic-ai", "claude-agent-sdk", "sdk.d.ts")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	Missing(t, "Agent SDK (sdk.d.ts)", "set MCPGEN_AGENT_SDK=$(.ci/install-agent-sdk.sh) to check docs/agent-sdk.md's SDK tables")
	return ""
}

// Missing ends t for want of what: it fails when CI requires the real
// peers ($MCPGEN_REQUIRE_CLAUDE is set), and is skipped otherwise; how
// says how to get it.
func Missing(t testing.TB, what, how string) {
	t.Helper()
	if os.Getenv("MCPGEN_REQUIRE_CLAUDE") != "" {
		t.Fatalf("MCPGEN_REQUIRE_CLAUDE is set but no %s was found: %s", what, how)
	}
	t.Skipf("no %s found: %s", what, how)
}

// CacheDir is $MCPGEN_CACHE, or ~/.cache/mcpgen: where the .ci/install-*
// scripts put what the tests need.
func CacheDir() string {
	if c := os.Getenv("MCPGEN_CACHE"); c != "" {
		return c
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "mcpgen")
}

// skipped is the line noticeSkipped writes.
const skipped = "claudetest: no Claude Code CLI found, so the tests against the real CLI are skipped: run MCPGEN_CLAUDE=$(.ci/install-claude.sh) go test ./...\n"

var skipNotice sync.Once

// noticeSkipped says once per test binary, on stderr, that the real-CLI
// tests are skipped. go test ./... shows a passing package's output only
// with -v, so that a person running it would see nothing: the line also
// goes to the controlling terminal, when there is one and stderr is not
// it already. Without a terminal (CI) that write fails, and is dropped.
func noticeSkipped() {
	skipNotice.Do(func() {
		os.Stderr.WriteString(skipped)
		if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return
		}
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			tty.WriteString(skipped)
			tty.Close()
		}
	})
}

// Env is the environment that keeps the CLI on api: a fresh HOME, a test
// key, and everything non-essential switched off.
func Env(t testing.TB, api *fakeapi.Server) []string {
	return []string{
		"HOME=" + t.TempDir(),
		"ANTHROPIC_BASE_URL=" + api.URL(),
		"ANTHROPIC_API_KEY=test-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_UPDATES=1",
		"DISABLE_GROWTHBOOK=1",
		"NO_PROXY=127.0.0.1,localhost",
		"LANG=C.UTF-8",
	}
}

// API starts a fake Messages API that makes the model call tool with
// input, and stops it when the test ends.
func API(t testing.TB, tool, input string, opts ...fakeapi.Option) *fakeapi.Server {
	t.Helper()
	api, err := fakeapi.Start(tool, input, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	return api
}
