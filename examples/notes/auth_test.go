package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/internal/proctest"
)

// TestIssuer runs this example as the README's Authorization section does,
// notes -http ADDR -issuer URL, against a real ORY Hydra: without a token
// it answers 401 pointing to its metadata, which names Hydra and the
// scopes its directives declare; a token with notes:read reads but cannot
// add a note (403 insufficient_scope, naming notes:write); one with both
// scopes adds one, through the official Go SDK's client.
func TestIssuer(t *testing.T) {
	hydra := hydratest.Start(t)
	bin := buildNotes(t, t.TempDir(), "notes")
	addr := proctest.FreePort(t)
	resource := "http://" + addr + "/mcp"
	prm := "http://" + addr + "/.well-known/oauth-protected-resource/mcp"
	proc := proctest.Start(t, "notes", exec.Command(bin, "-http", addr, "-issuer", hydra.Issuer()))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := proc.WaitReady(ctx, func(ctx context.Context) bool {
		return proctest.HTTPStatus(ctx, http.DefaultClient, prm) == http.StatusOK
	}); err != nil {
		t.Fatalf("notes -issuer: %s", proc.Explain(err))
	}

	r := post(t, resource, "", initialize)
	if r.status != http.StatusUnauthorized || !strings.Contains(r.challenge, `resource_metadata="`+prm+`"`) {
		t.Errorf("without a token: %d, WWW-Authenticate %q", r.status, r.challenge)
	}
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		ScopesSupported      []string `json:"scopes_supported"`
	}
	getJSON(t, prm, &meta)
	if meta.Resource != resource || !slices.Equal(meta.AuthorizationServers, []string{hydra.Issuer()}) || !sameSet(meta.ScopesSupported, []string{"notes:read", "notes:write"}) {
		t.Errorf("metadata: %+v", meta)
	}

	client := hydra.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{"notes:read", "notes:write"}, Audience: []string{resource}})
	reader := hydra.Token(t, client, []string{"notes:read"}, []string{resource})
	r = post(t, resource, reader, initialize)
	if r.status != http.StatusOK || r.session == "" {
		t.Fatalf("initialize with notes:read: %d %s", r.status, r.body)
	}
	r = post(t, resource, reader, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_note","arguments":{"title":"x"}}}`, "Mcp-Session-Id", r.session, "Mcp-Protocol-Version", "2025-11-25")
	if r.status != http.StatusForbidden || !strings.Contains(r.challenge, `error="insufficient_scope"`) || !strings.Contains(r.challenge, "notes:write") {
		t.Errorf("add_note with notes:read: %d, WWW-Authenticate %q, %s", r.status, r.challenge, r.body)
	}

	cs := connectWith(t, ctx, resource, reader)
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_notes", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Errorf("find_notes with notes:read: %v %+v", err, res)
	}
	writer := hydra.Token(t, client, []string{"notes:read", "notes:write"}, []string{resource})
	cs = connectWith(t, ctx, resource, writer)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add_note", Arguments: map[string]any{"title": "Buy milk"}})
	if err != nil || res.IsError {
		t.Fatalf("add_note with notes:write: %v %+v", err, res)
	}
	found, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_notes", Arguments: map[string]any{"query": "milk"}})
	if err != nil || !strings.Contains(string(mustJSON(t, found.StructuredContent)), `"total":1`) {
		t.Errorf("find_notes after add_note: %v %+v", err, found)
	}
}

// TestAuthorizationFlags: -issuer needs -http and -audience needs
// -issuer, each refused with a message that says so; -audience is the
// resource the server's metadata names, and the one its tokens must be
// issued for. The issuer is not reached until a token arrives, so none
// runs here.
func TestAuthorizationFlags(t *testing.T) {
	bin := buildNotes(t, t.TempDir(), "notes")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-issuer", "https://auth.example.com"}, "-issuer needs -http"},
		{[]string{"-http", "127.0.0.1:0", "-audience", "https://notes.example.com/mcp"}, "-audience needs -issuer"},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 2 || !strings.Contains(string(out), c.want) {
			t.Errorf("notes %v: %v, %s; want exit status 2 and %q", c.args, err, out, c.want)
		}
	}

	addr := proctest.FreePort(t)
	const audience = "https://notes.example.com/mcp"
	prm := "http://" + addr + "/.well-known/oauth-protected-resource/mcp"
	proc := proctest.Start(t, "notes", exec.Command(bin, "-http", addr, "-issuer", "http://127.0.0.1:1", "-audience", audience))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := proc.WaitReady(ctx, func(ctx context.Context) bool {
		return proctest.HTTPStatus(ctx, http.DefaultClient, prm) == http.StatusOK
	}); err != nil {
		t.Fatalf("notes -audience: %s", proc.Explain(err))
	}
	var meta struct {
		Resource string `json:"resource"`
	}
	getJSON(t, prm, &meta)
	if meta.Resource != audience {
		t.Errorf("with -audience %s, the metadata names the resource %q", audience, meta.Resource)
	}
}

// connectWith connects the official Go SDK's client to url, sending token
// as the bearer token of every request.
func connectWith(t *testing.T, ctx context.Context, url, token string) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Timeout: 30 * time.Second, Transport: bearer{token}}
	c := mcp.NewClient(&mcp.Implementation{Name: "notes-test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// bearer is an http.RoundTripper that adds an Authorization header.
type bearer struct{ token string }

// RoundTrip sends r with the token.
func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// A reply is an HTTP answer, read whole.
type reply struct {
	status    int
	challenge string // WWW-Authenticate
	session   string // Mcp-Session-Id
	body      string
}

// post sends one JSON-RPC message to url, with token as its bearer token
// unless it is empty, and the given extra headers (name, value, …).
func post(t *testing.T, url, token, body string, headers ...string) reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return reply{status: res.StatusCode, challenge: res.Header.Get("WWW-Authenticate"), session: res.Header.Get("Mcp-Session-Id"), body: string(data)}
}

// testClient is the client of post and getJSON: a server that stops
// answering fails the test instead of hanging it.
var testClient = &http.Client{Timeout: 30 * time.Second}

// getJSON decodes the JSON that a GET of url answers into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := testClient.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// mustJSON encodes v.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sameSet reports whether a and b hold the same strings, in any order.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
