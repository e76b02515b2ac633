package auth_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tsSDKVersion is the @modelcontextprotocol/sdk version
// .ci/install-mcp-sdk-ts.sh installs.
const tsSDKVersion = "1.32.2"

// tsSDK returns the folder .ci/install-mcp-sdk-ts.sh installs the
// TypeScript SDK and Node 22 into: $MCPGEN_TS_SDK, else its place in the
// cache. Without it the test is skipped, unless $MCPGEN_REQUIRE_TS_SDK is
// set (CI sets it): then it fails.
func tsSDK(t *testing.T) (dir, node string) {
	t.Helper()
	dir = os.Getenv("MCPGEN_TS_SDK")
	if dir == "" {
		cache := os.Getenv("MCPGEN_CACHE")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache", "mcpgen")
		}
		dir = filepath.Join(cache, "mcp-sdk-ts-"+tsSDKVersion)
	}
	node = filepath.Join(dir, "node_modules", "node", "bin", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err == nil {
		if _, err := os.Stat(node); err == nil {
			return dir, node
		}
	}
	const how = "run .ci/install-mcp-sdk-ts.sh, or set MCPGEN_TS_SDK to what it prints"
	if os.Getenv("MCPGEN_REQUIRE_TS_SDK") != "" {
		t.Fatalf("MCPGEN_REQUIRE_TS_SDK is set but the TypeScript SDK is not in %s: %s", dir, how)
	}
	t.Skipf("no TypeScript SDK in %s: %s", dir, how)
	return "", ""
}

// TestTypeScriptClient: the official TypeScript SDK's client, with an
// OAuth provider for the authorization code flow, meets the server's 401,
// finds the metadata and Hydra, gets a token for this server through
// Hydra's login and consent (the user grants notes:read only), lists the
// tools and calls the reading one; the writing one answers 403
// insufficient_scope, the SDK asks the user again for every scope the
// challenge names, and the call succeeds.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	dir, node := tsSDK(t)
	hydra, srv, client, user := codeFlow(t, "bob", "")
	browser := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		back, err := hydra.Authorize(r.Context(), r.URL.Query().Get("url"), user.next(r.URL.Query().Get("url")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Write([]byte(back.String()))
	}))
	defer browser.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/tsclient.mjs")
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"MCPGEN_TS_SDK=" + dir,
		"SERVER=" + srv.url,
		"BROWSER=" + browser.URL,
		"CLIENT_ID=" + client.ID,
		"CLIENT_SECRET=" + client.Secret,
		"REDIRECT_URI=" + redirectURI,
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node tsclient.mjs: %v\n%s\n%s", err, out, stderr.Bytes())
	}

	type step struct {
		Step     string
		Resource string
		Scope    string
		Names    []string
		Text     string
	}
	var steps []step
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var s step
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		steps = append(steps, s)
	}
	var names []string
	for _, s := range steps {
		names = append(names, s.Step)
	}
	want := []string{"authorize", "tools", "list_notes", "authorize", "add_note", "list_notes"}
	if !slices.Equal(names, want) {
		t.Fatalf("steps %q, want %q\n%s", names, want, out)
	}
	if s := steps[0]; s.Resource != srv.url || !sameSet(strings.Fields(s.Scope), []string{readScope, writeScope}) {
		t.Errorf("first authorization: resource %q, scope %q", s.Resource, s.Scope)
	}
	if !sameSet(steps[1].Names, []string{"list_notes", "add_note"}) {
		t.Errorf("tools/list: %q", steps[1].Names)
	}
	if steps[2].Text != "0 notes for bob: " {
		t.Errorf("list_notes: %q", steps[2].Text)
	}
	if s := steps[3]; s.Resource != srv.url || !sameSet(strings.Fields(s.Scope), []string{readScope, writeScope}) {
		t.Errorf("step-up authorization: resource %q, scope %q", s.Resource, s.Scope)
	}
	if steps[4].Text != "added by bob" || steps[5].Text != "1 notes for bob: bread" {
		t.Errorf("add_note %q, then list_notes %q", steps[4].Text, steps[5].Text)
	}
	if got := srv.runs.Load(); got != 3 {
		t.Errorf("handlers ran %d times, want 3 (the refused call ran none)", got)
	}
}
