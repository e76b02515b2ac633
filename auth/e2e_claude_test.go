package auth_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/fakeapi"
	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/internal/proctest"
)

// browserEnv names, in the environment of a process the CLI starts as
// $BROWSER, the URL of the test's browser service.
const browserEnv = "MCPGEN_E2E_BROWSER"

// TestMain lets the test binary stand in for a web browser: the Claude
// Code CLI opens an authorization URL by running $BROWSER with the URL,
// and TestClaudeCode points $BROWSER at this binary, with browserEnv
// naming its browser service, which plays the user.
func TestMain(m *testing.M) {
	if svc := os.Getenv(browserEnv); svc != "" && len(os.Args) == 2 {
		res, err := http.Get(svc + "?url=" + url.QueryEscape(os.Args[1]))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		res.Body.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A cli is the real Claude Code CLI with a home of its own, whose model
// is a fake Messages API scripted to call one tool.
type cli struct {
	path string
	env  []string
	dir  string
	api  *fakeapi.Server
}

func newCLI(t *testing.T, tool, input string) *cli {
	t.Helper()
	path := claudetest.CLI(t)
	api := claudetest.API(t, tool, input)
	return &cli{path: path, env: claudetest.Env(t, api), dir: t.TempDir(), api: api}
}

// script makes the model call tool with input from now on: a new fake
// Messages API, which c.api then is.
func (c *cli) script(t *testing.T, tool, input string) {
	t.Helper()
	c.api = claudetest.API(t, tool, input)
	for i, kv := range c.env {
		if strings.HasPrefix(kv, "ANTHROPIC_BASE_URL=") {
			c.env[i] = "ANTHROPIC_BASE_URL=" + c.api.URL()
		}
	}
}

// run runs the CLI with args and returns its output.
func (c *cli) run(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.path, args...)
	cmd.Env, cmd.Dir = c.env, c.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// shellQuote quotes s for sh. claude mcp login refuses to run without a
// terminal: script(1) (util-linux, in every Debian) gives it one.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ask runs one prompt in print mode, allowed to run tool, and returns the
// status of the server named notes in the system init message; when the
// CLI had not finished connecting by then ("pending", on a busy machine),
// the status claude mcp get reports after its own health check.
func (c *cli) ask(t *testing.T, prompt, tool string) (status string) {
	t.Helper()
	status = c.initStatus(t, prompt, tool)
	if status != "pending" {
		return status
	}
	out := c.run(t, "mcp", "get", "notes")
	for text, s := range map[string]string{"Status: ✔ Connected": "connected", "Status: ! Needs authentication": "needs-auth", "Status: ✘ Failed": "failed"} {
		if strings.Contains(out, text) {
			t.Logf("the notes server was pending in print mode; claude mcp get says %s", s)
			return s
		}
	}
	t.Fatalf("the notes server was pending in print mode, and claude mcp get says:\n%s", out)
	return ""
}

// initStatus runs one prompt in print mode, allowed to run tool, and
// returns the status of the server named notes in the system init
// message.
func (c *cli) initStatus(t *testing.T, prompt, tool string) (status string) {
	t.Helper()
	out := c.run(t, "-p", prompt, "--output-format", "stream-json", "--verbose", "--allowedTools", tool)
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m struct {
			Subtype    string
			MCPServers []struct{ Name, Status string } `json:"mcp_servers"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Subtype == "init" {
			for _, s := range m.MCPServers {
				if s.Name == "notes" {
					return s.Status
				}
			}
		}
	}
	t.Fatalf("no status of the notes server in the CLI's output:\n%s", out)
	return ""
}

// TestClaudeCode: the real Claude Code CLI with the notes server added by
// claude mcp add --transport http.
//
// Without a token, the CLI meets the 401, fetches the metadata document
// the challenge names and the authorization server's metadata (RFC 8414
// first, then OpenID discovery), and reports the server: "failed" when it
// has no client at Hydra (it registers itself only by dynamic client
// registration, which this Hydra does not offer), "needs-auth" once
// claude mcp add gave it a pre-registered one. claude mcp login then runs
// the authorization code flow through $BROWSER (the test plays the user
// at Hydra and delivers the code to the CLI's callback port), asking for
// the scopes of the metadata document, plus offline_access, which Hydra
// lists, for this server as the RFC 8707 resource; the user grants
// notes:read only. Print mode then calls the reading tool with the token
// the CLI stored. The writing tool answers 403 insufficient_scope: the
// model gets an error naming the scopes the challenge named, and the
// handler does not run; after a second claude mcp login, where the user
// grants them, the call succeeds.
func TestClaudeCode(t *testing.T) {
	t.Parallel()
	log := &requestLog{}
	hydra := hydratest.StartWith(t, hydratest.Config{Observe: func(r *http.Request) {
		log.add("AS " + r.Method + " " + r.URL.Path)
	}})
	srv := serveMounted(t, jwtVerifier(t, hydra, nil), hydra.Issuer(), log)
	const (
		list = "mcp__notes__list_notes"
		add  = "mcp__notes__add_note"
	)
	c := newCLI(t, list, `{}`)
	discovery := []string{
		"RS POST /mcp 401",
		"RS GET /.well-known/oauth-protected-resource/mcp 200",
		"AS GET /.well-known/oauth-authorization-server",
		"AS GET /.well-known/openid-configuration",
	}

	// No client: the CLI discovers everything, then gives up.
	c.run(t, "mcp", "add", "--transport", "http", "--scope", "user", "notes", srv.url)
	if status := c.ask(t, "List my notes.", list); status != "failed" {
		t.Errorf("status without a client: %q, want failed", status)
	}
	if got := log.all(); len(got) < len(discovery) || !slices.Equal(got[:len(discovery)], discovery) {
		t.Errorf("the CLI's first requests:\n%q\nwant them to begin with\n%q", got, discovery)
	}
	if out := c.run(t, "mcp", "get", "notes"); !strings.Contains(out, "does not support dynamic client registration") {
		t.Errorf("claude mcp get notes:\n%s", out)
	}

	// A pre-registered client, whose redirect URI is the CLI's callback.
	_, port, _ := net.SplitHostPort(proctest.FreePort(t))
	client := hydra.RegisterClient(t, hydratest.ClientConfig{
		// The CLI asks for offline_access too, which Hydra lists.
		Scopes:       []string{readScope, writeScope, "offline_access"},
		Audience:     []string{srv.url},
		RedirectURIs: []string{"http://localhost:" + port + "/callback"},
	})
	c.run(t, "mcp", "remove", "notes", "--scope", "user")
	c.env = append(c.env, "MCP_CLIENT_SECRET="+client.Secret)
	c.run(t, "mcp", "add", "--transport", "http", "--scope", "user", "--client-id", client.ID, "--client-secret", "--callback-port", port, "notes", srv.url)
	mark := len(log.all())
	if status := c.ask(t, "List my notes.", list); status != "needs-auth" {
		t.Errorf("status with a client and no token: %q, want needs-auth", status)
	}
	if got := log.all()[mark:]; len(got) < len(discovery) || !slices.Equal(got[:len(discovery)], discovery) {
		t.Errorf("the CLI's requests with a client:\n%q\nwant them to begin with\n%q", got, discovery)
	}

	// claude mcp login, with the test as the browser; the user grants
	// notes:read only.
	user := &consents{hydra: hydra, subject: "carol", audience: srv.url, firstScopes: []string{readScope, "offline_access"}}
	c.login(t, hydra, user)
	if reqs := user.requests(); len(reqs) != 1 {
		t.Errorf("authorization requests: %q", reqs)
	} else if q := query(t, reqs[0]); q.Get("resource") != srv.url || !sameSet(strings.Fields(q.Get("scope")), []string{readScope, writeScope, "offline_access"}) ||
		q.Get("code_challenge_method") != "S256" || q.Get("client_id") != client.ID {
		t.Errorf("the CLI's authorization request: %s", reqs[0])
	}

	// Print mode, with the token the CLI stored.
	if status := c.ask(t, "List my notes.", list); status != "connected" {
		t.Errorf("status after login: %q, want connected", status)
	}
	if got := toolTexts(c.api); !slices.Equal(got, []string{"0 notes for carol: "}) {
		t.Errorf("tool results that reached the model: %q", got)
	}

	// A tool that needs notes:write, which the token lacks.
	c.script(t, add, `{"text":"from Claude"}`)
	mark = len(log.all())
	c.ask(t, "Add a note.", add)
	const shortfall = `needs additional permissions (scope: \"notes:read notes:write\")`
	if !slices.ContainsFunc(c.api.Requests(), func(r fakeapi.Request) bool { return strings.Contains(string(r.Body), shortfall) }) {
		t.Errorf("no request to the model holds the tool error %s", shortfall)
	}
	if got := log.all()[mark:]; !slices.Contains(got, "RS POST /mcp 403 with token") {
		t.Errorf("the CLI's requests for add_note: %q", got)
	}
	if srv.runs.Load() != 1 {
		t.Errorf("handlers ran %d times, want 1 (list_notes)", srv.runs.Load())
	}

	// Step up: log in again; this time the user grants what is asked.
	c.login(t, hydra, user)
	if reqs := user.requests(); len(reqs) != 2 || !sameSet(strings.Fields(query(t, reqs[1]).Get("scope")), []string{readScope, writeScope, "offline_access"}) {
		t.Errorf("authorization requests: %q", reqs)
	}
	c.script(t, add, `{"text":"from Claude"}`)
	c.ask(t, "Add a note.", add)
	if got := toolTexts(c.api); !slices.Equal(got, []string{"added by carol"}) {
		t.Errorf("tool results that reached the model after the step-up: %q", got)
	}
}

// login runs claude mcp login notes with the test as the browser: the
// CLI opens the authorization URL with $BROWSER (this test binary, see
// TestMain), and user answers at hydra, whose redirect the browser
// delivers to the CLI's callback port.
func (c *cli) login(t *testing.T, hydra *hydratest.Server, user *consents) {
	t.Helper()
	errs := make(chan error, 1)
	browser := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authURL := r.URL.Query().Get("url")
		// As a browser does, come back at once and go on in the background.
		go func() { errs <- loginAs(hydra, authURL, user.next(authURL)) }()
	}))
	defer browser.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "script", "--quiet", "--return", "--command", shellQuote(c.path)+" mcp login notes", "/dev/null")
	cmd.Env, cmd.Dir = append(slices.Clip(c.env), "BROWSER="+self, browserEnv+"="+browser.URL), c.dir
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := cmd.CombinedOutput()
		done <- result{out, err}
	}()
	browsed := false
	for {
		select {
		case err := <-errs:
			if err != nil {
				cancel()
				t.Fatalf("the browser: %v\nclaude mcp login: %s", err, (<-done).out)
			}
			browsed = true
		case r := <-done:
			if r.err != nil || !browsed && len(errs) == 0 {
				t.Fatalf("claude mcp login notes: %v (browser opened: %v)\n%s", r.err, browsed || len(errs) > 0, r.out)
			}
			return
		}
	}
}

// TestClaudeCodeHeader: the CLI calls the server's tools with a token
// given by claude mcp add --header, with no OAuth of its own.
func TestClaudeCodeHeader(t *testing.T) {
	t.Parallel()
	hydra := hydratest.Start(t)
	log := &requestLog{}
	srv := serveMounted(t, jwtVerifier(t, hydra, nil), hydra.Issuer(), log)
	client := hydra.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{readScope, writeScope}, Audience: []string{srv.url}})
	token := hydra.Token(t, client, []string{readScope, writeScope}, []string{srv.url})
	const tool = "mcp__notes__add_note"
	c := newCLI(t, tool, `{"text":"from Claude"}`)
	// --header takes every argument after it: it comes last.
	c.run(t, "mcp", "add", "--transport", "http", "--scope", "user", "notes", srv.url, "--header", "Authorization: Bearer "+token)
	if status := c.ask(t, "Add a note.", tool); status != "connected" {
		t.Errorf("status: %q, want connected", status)
	}
	if got, want := toolTexts(c.api), []string{"added by " + client.ID}; !slices.Equal(got, want) {
		t.Errorf("tool results that reached the model: %q, want %q", got, want)
	}
	for _, r := range log.all() {
		if !strings.HasSuffix(r, "with token") || strings.Contains(r, " 401") || strings.Contains(r, " 403") {
			t.Errorf("a request without the token, or refused: %q", r)
		}
	}
}

// loginAs runs the authorization request authURL at hydra as u, then
// takes Hydra's redirect back to the CLI's callback, as a browser would.
func loginAs(hydra *hydratest.Server, authURL string, u hydratest.User) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	back, err := hydra.Authorize(ctx, authURL, u)
	if err != nil {
		return err
	}
	if back.Query().Get("code") == "" {
		return fmt.Errorf("Hydra sent the browser back without a code: %s", back)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, back.String(), nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("the CLI's callback: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("the CLI's callback: %s", res.Status)
	}
	return nil
}

// toolTexts returns the text of every tool result that reached the model.
func toolTexts(api *fakeapi.Server) []string {
	var out []string
	for _, tr := range api.ToolResults() {
		out = append(out, tr.Text)
	}
	return out
}
