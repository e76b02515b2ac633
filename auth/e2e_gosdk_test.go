package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gosdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/internal/hydratest"
)

// redirectURI is where Hydra sends the user back to; the scripted user
// (hydratest.Server.Authorize) stops there instead of following it.
const redirectURI = "http://127.0.0.1:9/callback"

// A consents plays the user of an authorization code flow and records
// each consent: the first grants only firstScopes, later ones all that the
// client asks for (a user who grants more once the client needs it).
type consents struct {
	hydra       *hydratest.Server
	subject     string
	audience    string
	firstScopes []string

	mu   sync.Mutex
	urls []string // the authorization requests, in order
}

// codeFlow starts Hydra and a notes server with sessions behind
// ListenAndServeHTTP, registers a client that may use the authorization
// code flow (authenticating at the token endpoint with authMethod, empty
// for Hydra's default), and returns them with a user, subject, who grants
// only notes:read the first time.
func codeFlow(t *testing.T, subject, authMethod string) (*hydratest.Server, *served, *hydratest.Client, *consents) {
	t.Helper()
	hydra := hydratest.Start(t)
	srv := serve(t, jwtVerifier(t, hydra, nil), hydra.Issuer(), true)
	client := hydra.RegisterClient(t, hydratest.ClientConfig{
		Scopes:                  []string{readScope, writeScope},
		Audience:                []string{srv.url},
		RedirectURIs:            []string{redirectURI},
		TokenEndpointAuthMethod: authMethod,
	})
	return hydra, srv, client, &consents{hydra: hydra, subject: subject, audience: srv.url, firstScopes: []string{readScope}}
}

// next records the authorization request authURL and returns the user
// who answers it.
func (c *consents) next(authURL string) hydratest.User {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.urls = append(c.urls, authURL)
	u := hydratest.User{Subject: c.subject, Audience: []string{c.audience}}
	if len(c.urls) == 1 {
		u.Scopes = c.firstScopes
	}
	return u
}

// authorize runs the authorization request authURL as the user and
// returns what Hydra sends back to the client.
func (c *consents) authorize(ctx context.Context, authURL string) (code, state, iss string, err error) {
	back, err := c.hydra.Authorize(ctx, authURL, c.next(authURL))
	if err != nil {
		return "", "", "", err
	}
	q := back.Query()
	if e := q.Get("error"); e != "" {
		return "", "", "", fmt.Errorf("authorization refused: %s: %s", e, q.Get("error_description"))
	}
	return q.Get("code"), q.Get("state"), q.Get("iss"), nil
}

func (c *consents) requests() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.urls)
}

// TestGoSDKClient: the official Go SDK's client, with its authorization
// code handler, meets the server's 401, finds the metadata document and
// Hydra from it, gets a token through Hydra's login and consent, and
// calls a tool; a call that needs a scope the token lacks gets 403
// insufficient_scope, and the client steps up to a token with every scope
// the challenge names, and the call succeeds.
func TestGoSDKClient(t *testing.T) {
	t.Parallel()
	// client_secret_post is what the Go SDK picks when Hydra offers it.
	hydra, srv, client, user := codeFlow(t, "alice", "client_secret_post")
	handler, err := gosdkauth.NewAuthorizationCodeHandler(&gosdkauth.AuthorizationCodeHandlerConfig{
		PreregisteredClient: &oauthex.ClientCredentials{
			ClientID:         client.ID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: client.Secret},
			Issuer:           hydra.Issuer(),
		},
		RedirectURL: redirectURI,
		AuthorizationCodeFetcher: func(ctx context.Context, args *gosdkauth.AuthorizationArgs) (*gosdkauth.AuthorizationResult, error) {
			code, state, iss, err := user.authorize(ctx, args.URL)
			if err != nil {
				return nil, err
			}
			return &gosdkauth.AuthorizationResult{Code: code, State: state, Iss: iss}, nil
		},
		Client: &http.Client{Timeout: 30 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.url, OAuthHandler: handler}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()

	// The first authorization asked for what the metadata lists, for this
	// server as the RFC 8707 resource.
	reqs := user.requests()
	if len(reqs) != 1 {
		t.Fatalf("authorization requests after connecting: %q", reqs)
	}
	if q := query(t, reqs[0]); q.Get("resource") != srv.url || !sameSet(strings.Fields(q.Get("scope")), []string{readScope, writeScope}) || q.Get("code_challenge_method") != "S256" {
		t.Errorf("first authorization request: resource %q, scope %q, code_challenge_method %q", q.Get("resource"), q.Get("scope"), q.Get("code_challenge_method"))
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	// A token without notes:write still sees add_note: the call, not the
	// list, tells it what it lacks.
	if !sameSet(names, []string{"list_notes", "add_note"}) {
		t.Errorf("tools/list: %q", names)
	}
	if text := callText(t, ctx, cs, "list_notes", nil); text != "0 notes for alice: " {
		t.Errorf("list_notes: %q", text)
	}

	// add_note needs notes:write, which the user did not grant at first.
	if text := callText(t, ctx, cs, "add_note", map[string]any{"text": "milk"}); text != "added by alice" {
		t.Errorf("add_note after stepping up: %q", text)
	}
	reqs = user.requests()
	if len(reqs) != 2 {
		t.Fatalf("authorization requests after the step-up: %d, want 2", len(reqs))
	}
	if q := query(t, reqs[1]); !sameSet(strings.Fields(q.Get("scope")), []string{readScope, writeScope}) {
		t.Errorf("step-up authorization request asks for %q, want both scopes", q.Get("scope"))
	}
	if text := callText(t, ctx, cs, "list_notes", nil); text != "1 notes for alice: milk" {
		t.Errorf("list_notes after add_note: %q", text)
	}
	if got := srv.runs.Load(); got != 3 {
		t.Errorf("handlers ran %d times, want 3 (the refused call ran none)", got)
	}
}

// callText calls a tool and returns the text of its result.
func callText(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("call %s: %+v", name, res)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("call %s: %T", name, res.Content[0])
	}
	return text.Text
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// query returns the query of u.
func query(t *testing.T, u string) url.Values {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query()
}
