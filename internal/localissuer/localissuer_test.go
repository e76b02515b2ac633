package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/internal/proctest"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// TestLocalIssuer does what docs/authorization.md's walkthrough does: it
// runs this program against the real Hydra with the notes example's
// scopes and the resource of a notes server, runs examples/notes with
// -http and -issuer the printed issuer, and calls add_note with the
// printed token, as the page's curl does: the note is added. The command
// printed after "another:" gets a second token, which finds the note; a
// notes server on another address refuses the token with 401 and
// error_description "the token was not issued for this server".
func TestLocalIssuer(t *testing.T) {
	hydra := hydratest.Binary(t) // skipped without Hydra, failed if $MCPGEN_REQUIRE_HYDRA
	dir := t.TempDir()
	issuerBin, notesBin := filepath.Join(dir, "localissuer"), filepath.Join(dir, "notes")
	build(t, ".", issuerBin)
	build(t, filepath.Join(testmodule.Root(), "examples", "notes"), notesBin)

	addr := proctest.FreePort(t)
	resource := "http://" + addr + "/mcp"
	out := startIssuer(t, issuerBin, "-hydra", hydra, "-addr", proctest.FreePort(t), "-admin", proctest.FreePort(t),
		"-scope", "notes:read notes:write", resource)
	for _, k := range []string{"issuer", "token", "another"} {
		if out[k] == "" {
			t.Fatalf("localissuer printed no %q line: %q", k, out)
		}
	}
	if out["resource"] != resource || out["scopes"] != "notes:read notes:write" {
		t.Errorf("localissuer printed resource %q and scopes %q, want %q and notes:read notes:write", out["resource"], out["scopes"], resource)
	}

	startNotes(t, notesBin, addr, out["issuer"])
	r := callTool(t, resource, out["token"], "add_note", `{"title":"Buy milk"}`)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"Buy milk"`) || strings.Contains(string(r.Body), `"isError":true`) {
		t.Fatalf("add_note with the printed token: %d %s", r.Status, r.Body)
	}

	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("curl, which the page uses: %v", err)
	}
	another, err := exec.Command("sh", "-c", out["another"]).Output()
	if err != nil {
		t.Fatalf("%s: %v", out["another"], err)
	}
	token, _, _ := strings.Cut(strings.TrimPrefix(string(another), `{"access_token":"`), `"`)
	r = callTool(t, resource, token, "find_notes", `{"query":"milk"}`)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"total":1`) {
		t.Errorf("find_notes with the token of %q: %d %s", out["another"], r.Status, r.Body)
	}

	other := proctest.FreePort(t)
	startNotes(t, notesBin, other, out["issuer"])
	r = callTool(t, "http://"+other+"/mcp", out["token"], "find_notes", `{}`)
	if challenge := r.Header.Get("WWW-Authenticate"); r.Status != http.StatusUnauthorized ||
		!strings.Contains(challenge, `error_description="the token was not issued for this server"`) {
		t.Errorf("another server's token: %d, WWW-Authenticate %q", r.Status, challenge)
	}
}

// TestLocalIssuerArguments: a resource that is not an http URL, two
// resources, a lifespan that is not positive and an address without a
// port are refused before Hydra is looked for.
func TestLocalIssuerArguments(t *testing.T) {
	for _, args := range [][]string{
		{"notes"},
		{"http://a/mcp", "http://b/mcp"},
		{"-lifespan", "0s"},
		{"-addr", "127.0.0.1"},
		{"-admin", "localhost"},
	} {
		if _, err := parse(args, io.Discard); err == nil {
			t.Errorf("parse(%q) accepted it", args)
		}
	}
	c, err := parse(nil, io.Discard)
	if err != nil || c.resource != defaultResource || c.lifespan != time.Hour || len(c.scopes) != 0 {
		t.Errorf("parse(nil) = %+v, %v", c, err)
	}
}

// build builds the main package in dir into bin.
func build(t *testing.T, dir, bin string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
}

// startIssuer runs the built program with args until the test ends and
// returns the lines it printed, by their label ("token: …" is
// out["token"]), once it printed the last, "another:".
func startIssuer(t *testing.T, bin string, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("localissuer, interrupted: %v", err)
			}
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("localissuer did not stop on an interrupt")
		}
	})
	lines := make(chan map[string]string, 1)
	go func() {
		out := map[string]string{}
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			out[k] = strings.TrimSpace(v)
			if k == "another" {
				lines <- out
				io.Copy(io.Discard, stdout)
				break
			}
		}
		exited <- cmd.Wait()
		close(lines)
	}()
	select {
	case out, ok := <-lines:
		if !ok {
			t.Fatalf("localissuer exited before it printed a token")
		}
		return out
	case <-time.After(2 * time.Minute):
		t.Fatalf("localissuer printed no token in 2 minutes")
	}
	return nil
}

// startNotes runs the notes example on addr with -issuer, until the test
// ends, and waits until it serves its metadata.
func startNotes(t *testing.T, bin, addr, issuer string) {
	t.Helper()
	cmd := exec.Command(bin, "-http", addr, "-issuer", issuer)
	proc := proctest.Start(t, "notes", cmd)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	prm := "http://" + addr + "/.well-known/oauth-protected-resource/mcp"
	if err := proc.WaitReady(ctx, func(ctx context.Context) bool {
		return proctest.HTTPStatus(ctx, http.DefaultClient, prm) == http.StatusOK
	}); err != nil {
		t.Fatalf("notes -issuer: %s", proc.Explain(err))
	}
}

// callTool calls tool with arguments as a 2026-07-28 request, which needs
// no session: the request docs/authorization.md sends with curl.
func callTool(t *testing.T, url, token, tool, arguments string) mcptest.Reply {
	t.Helper()
	return mcptest.Post(t, url, mcptest.PerRequest(1, "tools/call", `"name":"`+tool+`","arguments":`+arguments, "{}"),
		"Authorization", "Bearer "+token, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", tool)
}
