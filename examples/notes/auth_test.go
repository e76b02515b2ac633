package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/internal/proctest"
)

// TestIssuer runs this example as docs/authorization.md does,
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

	r := mcptest.Post(t, resource, mcptest.Initialize(1, "2025-11-25"))
	if r.Status != http.StatusUnauthorized || !strings.Contains(r.Header.Get("WWW-Authenticate"), `resource_metadata="`+prm+`"`) {
		t.Errorf("without a token: %d, WWW-Authenticate %q", r.Status, r.Header.Get("WWW-Authenticate"))
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
	r = mcptest.Post(t, resource, mcptest.Initialize(1, "2025-11-25"), "Authorization", "Bearer "+reader)
	session := r.Header.Get("Mcp-Session-Id")
	if r.Status != http.StatusOK || session == "" {
		t.Fatalf("initialize with notes:read: %d %s", r.Status, r.Body)
	}
	r = mcptest.Post(t, resource, mcptest.Call(2, "add_note", `{"title":"x"}`), "Authorization", "Bearer "+reader, "Mcp-Session-Id", session, "Mcp-Protocol-Version", "2025-11-25")
	if challenge := r.Header.Get("WWW-Authenticate"); r.Status != http.StatusForbidden || !strings.Contains(challenge, `error="insufficient_scope"`) || !strings.Contains(challenge, "notes:write") {
		t.Errorf("add_note with notes:read: %d, WWW-Authenticate %q, %s", r.Status, challenge, r.Body)
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
	hc := &http.Client{Timeout: 30 * time.Second, Transport: mcptest.Bearer(token)}
	c := mcp.NewClient(&mcp.Implementation{Name: "notes-test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// getJSON decodes the JSON that a GET of url answers into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := mcptest.Client.Get(url)
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
