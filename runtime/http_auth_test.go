package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// tokens is a TokenVerifier of a fixed set of tokens, for the unit tests
// of authorization (the auth module's tests use a real authorization
// server): "down" cannot be decided, any other unknown token is invalid.
type tokens map[string]*TokenInfo

func (v tokens) VerifyToken(ctx context.Context, token string) (*TokenInfo, error) {
	if token == "down" {
		return nil, fmt.Errorf("the authorization server does not answer")
	}
	if ti, ok := v[token]; ok {
		return ti, nil
	}
	return nil, fmt.Errorf("%w: unknown token", ErrInvalidToken)
}

const testResource = "https://mcp.example.com/mcp"

func testTokens() tokens {
	user := func(sub string, aud []string, scopes ...string) *TokenInfo {
		return &TokenInfo{Subject: sub, Issuer: "https://as.example.com", Audience: aud, Scopes: scopes}
	}
	here := []string{testResource}
	return tokens{
		"reader":       user("ann", here, "mcp", "notes:read"),
		"writer":       user("bob", here, "mcp", "notes:read", "notes:write"),
		"slash":        user("ann", []string{"HTTPS://MCP.example.com/mcp/"}, "mcp", "notes:read"),
		"other":        user("eve", []string{"https://other.example.com/mcp"}, "mcp", "notes:read", "notes:write"),
		"no-audience":  user("eve", nil, "mcp"),
		"no-mcp-scope": user("ann", here, "notes:read"),
		"expired":      {Subject: "ann", Issuer: "https://as.example.com", Audience: here, Scopes: []string{"mcp"}, Expiry: time.Unix(1, 0)},
	}
}

// authServer is newHTTPTestServer with a tool that needs notes:write.
func authServer() *Server {
	s, _ := newHTTPTestServer()
	s.AddTool(&Tool{Name: "write", Scopes: []string{"notes:write"}, Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
		return TextResult("written by " + TokenInfoFromContext(ctx).Subject), nil
	}})
	return s
}

func testAuthorization() *Authorization {
	return &Authorization{Verifier: testTokens(), Resource: testResource, AuthorizationServers: []string{"https://as.example.com"}, Scopes: []string{"mcp"}}
}

// TestHTTPAuthorization: each way a request's token can fail gets its
// status and challenge, and no handler runs; a good token reaches the
// handler as its TokenInfo; an operation's scopes are checked per call.
func TestHTTPAuthorization(t *testing.T) {
	s := authServer()
	url := serveHTTPTest(t, s, &HTTPOptions{Authorization: testAuthorization()})
	const metadata = `resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`
	call := mcptest.Call(1, "echo", mcptest.Object("text", "x"))
	for _, tc := range []struct {
		what, authorization string
		status              int
		challenge           string // what WWW-Authenticate must be
	}{
		{"no token", "", 401, `Bearer scope="mcp", ` + metadata},
		{"another scheme", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", 401, `Bearer scope="mcp", ` + metadata},
		{"not a token", "Bearer a b", 400, `Bearer error="invalid_request", error_description="the bearer token is not a token (RFC 6750 b64token)", ` + metadata},
		{"empty", "Bearer ", 400, `Bearer error="invalid_request", error_description="the bearer token is not a token (RFC 6750 b64token)", ` + metadata},
		{"huge", "Bearer " + strings.Repeat("a", maxTokenSize+1), 400, `Bearer error="invalid_request", error_description="the token takes more than 16384 bytes", ` + metadata},
		{"unknown", "Bearer forged", 401, `Bearer error="invalid_token", error_description="the token is not valid", ` + metadata},
		{"expired", "Bearer expired", 401, `Bearer error="invalid_token", error_description="the token has expired", ` + metadata},
		{"another resource", "Bearer other", 401, `Bearer error="invalid_token", error_description="the token was not issued for this server", ` + metadata},
		{"no audience", "Bearer no-audience", 401, `Bearer error="invalid_token", error_description="the token was not issued for this server", ` + metadata},
		{"without the server's scope", "Bearer no-mcp-scope", 403, `Bearer error="insufficient_scope", error_description="the token lacks mcp", scope="mcp", ` + metadata},
		{"undecidable", "Bearer down", 503, ""},
	} {
		var hdr []string
		if tc.authorization != "" {
			hdr = []string{"Authorization", tc.authorization}
		}
		r := mcptest.Post(t, url, call, hdr...)
		if r.Status != tc.status || r.Header.Get("WWW-Authenticate") != tc.challenge {
			t.Errorf("%s: status %d, WWW-Authenticate %q; want %d, %q", tc.what, r.Status, r.Header.Get("WWW-Authenticate"), tc.status, tc.challenge)
		}
	}
	// Two Authorization headers.
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(call))
	req.Header = mcptest.Headers()
	req.Header.Add("Authorization", "Bearer reader")
	req.Header.Add("Authorization", "Bearer writer")
	if r, err := mcptest.Send(context.Background(), http.DefaultClient, http.MethodPost, url, call, req.Header); err != nil || r.Status != 400 {
		t.Errorf("two Authorization headers: %v %d", err, r.Status)
	}

	// Good tokens: the handler sees the TokenInfo; an audience that
	// differs only in case and a trailing slash names this server.
	for token, who := range map[string]string{"reader": "ann", "slash": "ann", "writer": "bob"} {
		r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}}`, "Authorization", "Bearer "+token)
		if r.Status != 200 || mcptest.MustToolText(t, r.Response(t)) != who {
			t.Errorf("token %s: %d %s", token, r.Status, r.Body)
		}
	}

	// An operation's scopes, checked per call: 403 with every scope it
	// needs, and those the token holds, so that none is lost.
	r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write"}}`, "Authorization", "Bearer reader")
	want := `Bearer error="insufficient_scope", error_description="insufficient scope: tool write needs the scopes notes:write; ask the authorization server for a token with them", scope="mcp notes:write", ` + metadata
	if r.Status != 403 || r.Header.Get("WWW-Authenticate") != want || !strings.Contains(string(r.Body), `"id":3,"error":{"code":-32600`) {
		t.Errorf("insufficient scope: %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}
	r = mcptest.Post(t, url, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"write"}}`, "Authorization", "Bearer writer")
	if r.Status != 200 || mcptest.MustToolText(t, r.Response(t)) != "written by bob" {
		t.Errorf("with the scope: %d %s", r.Status, r.Body)
	}
	// Per request (revision 2026-07-28) as well.
	r = mcptest.Post(t, url, mcptestPerRequest(5, "tools/call", `"name":"write"`), append(perRequestHeaders("tools/call", wire.HeaderName, "write"), "Authorization", "Bearer reader")...)
	if r.Status != 403 || !strings.Contains(r.Header.Get("WWW-Authenticate"), `scope="mcp notes:write"`) {
		t.Errorf("insufficient scope per request: %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}
}

// refusals is a TokenVerifier that refuses every token with the error
// its name picks, each carrying details a client must not see.
type refusals map[string]error

const secretDetail = `kid "k-SECRET" at /etc/keys\\ "x"`

func (v refusals) VerifyToken(ctx context.Context, token string) (*TokenInfo, error) {
	return nil, fmt.Errorf("%w: %s", v[token], secretDetail)
}

// TestHTTPRefusalReasons: a verifier's reason for refusing a token
// reaches the client as the challenge's error_description, in the
// runtime's words; the error's own text, a verifier's or a token's
// details, never reaches the header or the body.
func TestHTTPRefusalReasons(t *testing.T) {
	reasons := refusals{
		"malformed":     ErrTokenMalformed,
		"expired":       ErrTokenExpired,
		"not-yet":       ErrTokenNotValidYet,
		"audience":      ErrTokenInvalidAudience,
		"issuer":        ErrTokenInvalidIssuer,
		"unknown-key":   ErrTokenUnknownKey,
		"signature":     ErrTokenSignatureInvalid,
		"inactive":      ErrTokenInactive,
		"two-reasons":   fmt.Errorf("%w, and %w", ErrTokenExpired, ErrTokenInvalidAudience),
		"invalid":       ErrInvalidToken,
		"custom-reason": fmt.Errorf("%w: %s", ErrInvalidToken, "the token is revoked by policy 7"),
	}
	a := testAuthorization()
	a.Verifier = reasons
	url := serveHTTPTest(t, authServer(), &HTTPOptions{Authorization: a})
	const metadata = `resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`
	for token, desc := range map[string]string{
		"malformed":     "the token is malformed",
		"expired":       "the token has expired",
		"not-yet":       "the token is not valid yet",
		"audience":      "the token was not issued for this server",
		"issuer":        "the token was not issued by this server's authorization server",
		"unknown-key":   "the token is not signed by a key of its issuer",
		"signature":     "the token's signature does not verify",
		"inactive":      "the authorization server says the token is not active",
		"two-reasons":   "the token has expired",
		"invalid":       "the token is not valid",
		"custom-reason": "the token is not valid",
	} {
		if !errors.Is(reasons[token], ErrInvalidToken) {
			t.Errorf("%s: %v does not wrap ErrInvalidToken", token, reasons[token])
		}
		r := mcptest.Post(t, url, mcptest.Call(1, "echo", mcptest.Object("text", "x")), "Authorization", "Bearer "+token)
		want := `Bearer error="invalid_token", error_description="` + desc + `", ` + metadata
		if r.Status != 401 || r.Header.Get("WWW-Authenticate") != want {
			t.Errorf("%s: %d %q, want 401 %q", token, r.Status, r.Header.Get("WWW-Authenticate"), want)
		}
		if !strings.Contains(string(r.Body), "unauthorized: "+desc) {
			t.Errorf("%s: the body does not say %q: %s", token, desc, r.Body)
		}
		for _, leak := range []string{"SECRET", "/etc/keys", "policy 7"} {
			if strings.Contains(r.Header.Get("WWW-Authenticate"), leak) || strings.Contains(string(r.Body), leak) {
				t.Errorf("%s: the answer echoes the verifier's %q: %q %s", token, leak, r.Header.Get("WWW-Authenticate"), r.Body)
			}
		}
	}
}

func mcptestPerRequest(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, method, params)
}

// TestHTTPSessionBoundToToken: a session is for the holder of the token
// that opened it; another token naming its id finds no such session.
func TestHTTPSessionBoundToToken(t *testing.T) {
	s := authServer()
	url := serveHTTPTest(t, s, &HTTPOptions{Sessions: true, Authorization: testAuthorization()})
	r := mcptest.Post(t, url, mcptest.Initialize(0, "2025-11-25"), "Authorization", "Bearer reader")
	id := r.Header.Get(wire.HeaderSessionID)
	if r.Status != 200 || id == "" {
		t.Fatalf("initialize: %d %s", r.Status, r.Body)
	}
	if r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami"}}`, wire.HeaderSessionID, id, "Authorization", "Bearer writer"); r.Status != http.StatusNotFound {
		t.Errorf("another token's request in the session: %d %s", r.Status, r.Body)
	}
	hdr := mcptest.Headers()
	hdr.Set(wire.HeaderSessionID, id)
	hdr.Set("Authorization", "Bearer writer")
	if r, _ := mcptest.Send(context.Background(), http.DefaultClient, http.MethodDelete, url, "", hdr); r.Status != http.StatusNotFound {
		t.Errorf("another token ending the session: %d", r.Status)
	}
	if r := mcptest.Post(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}}`, wire.HeaderSessionID, id, "Authorization", "Bearer reader"); r.Status != 200 || mcptest.MustToolText(t, r.Response(t)) != "ann" {
		t.Errorf("the session's own holder: %d %s", r.Status, r.Body)
	}
}

// TestProtectedResourceMetadata: ListenAndServeHTTP serves the metadata
// at the path-suffixed and the root well-known URLs, with the scopes of
// the server and of every operation, without offline_access; the
// resource defaults to the endpoint's URL; a 401 names the document.
func TestProtectedResourceMetadata(t *testing.T) {
	s := authServer()
	s.AddPrompt(&Prompt{Name: "p", Scopes: []string{"prompts", "offline_access"}, Handler: func(ctx context.Context, req *PromptRequest) (*PromptResult, error) {
		return UserPrompt("x"), nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	a := &Authorization{Verifier: testTokens(), AuthorizationServers: []string{"https://as.example.com"}, Scopes: []string{"mcp"}, ResourceName: "notes"}
	_, endpoint, done := listenHTTP(t, ctx, s, "127.0.0.1:0", &HTTPOptions{Authorization: a})
	base := strings.TrimSuffix(endpoint, "/mcp")
	defer func() { cancel(); <-done }()
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		scopes := fmt.Sprint(doc["scopes_supported"])
		if resp.StatusCode != 200 || doc["resource"] != base+"/mcp" || fmt.Sprint(doc["authorization_servers"]) != "[https://as.example.com]" ||
			scopes != "[mcp notes:write prompts]" || fmt.Sprint(doc["bearer_methods_supported"]) != "[header]" || doc["resource_name"] != "notes" ||
			resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: %d %v", path, resp.StatusCode, doc)
		}
	}
	r := mcptest.Post(t, base+"/mcp", mcptest.Call(1, "echo", mcptest.Object("text", "x")))
	if want := `Bearer scope="mcp", resource_metadata="` + base + `/.well-known/oauth-protected-resource/mcp"`; r.Status != 401 || r.Header.Get("WWW-Authenticate") != want {
		t.Errorf("401: %d %q", r.Status, r.Header.Get("WWW-Authenticate"))
	}
	if !slices.Contains(s.scopesSupported(a), "notes:write") {
		t.Error("scopesSupported lacks a tool's scope")
	}
}

// TestAuthorizationChecked: HTTPHandler refuses, by a panic as AddTool
// does, an Authorization no request could satisfy.
func TestAuthorizationChecked(t *testing.T) {
	for _, a := range []*Authorization{
		{Resource: testResource, AuthorizationServers: []string{"x"}},
		{Verifier: testTokens(), Resource: testResource},
		{Verifier: testTokens(), Resource: "mcp.example.com", AuthorizationServers: []string{"x"}},
		{Verifier: testTokens(), Resource: "https://mcp.example.com/mcp#f", AuthorizationServers: []string{"x"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("accepted %+v", a)
				}
			}()
			(&Server{}).HTTPHandler(&HTTPOptions{Authorization: a})
		}()
	}
}

func TestSameResource(t *testing.T) {
	for _, tc := range []struct {
		aud  string
		want bool
	}{
		{"https://mcp.example.com/mcp", true},
		{"https://mcp.example.com/mcp/", true},
		{"HTTPS://MCP.EXAMPLE.COM/mcp", true},
		{"https://mcp.example.com/MCP", false},
		{"https://mcp.example.com", false},
		{"https://mcp.example.com:8443/mcp", false},
		{"http://mcp.example.com/mcp", false},
		{"https://mcp.example.com/mcp?x=1", false},
		{"mcp.example.com/mcp", false},
	} {
		if got := sameResource(tc.aud, testResource); got != tc.want {
			t.Errorf("sameResource(%q) = %v", tc.aud, got)
		}
	}
}

// TestListenScopes: every resource update a subscriptions/listen request
// receives passes the checks of the resources/read that would read it: a
// listen naming a resource its token lacks the scopes for is refused
// with 403, as resources/subscribe is; and an update of a resource added
// after the listen began, with scopes the token lacks, does not reach
// it. Before, listen delivered notifications/resources/updated for any
// URI it named.
func TestListenScopes(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := authServer()
	read := func(ctx context.Context, req *ResourceRequest) (*ResourceResult, error) {
		return &ResourceResult{Contents: []ResourceContents{{URI: req.URI, Text: "x"}}}, nil
	}
	s.AddResource(&Resource{URI: "notes://public", Name: "public", Handler: read})
	s.AddResource(&Resource{URI: "notes://private", Name: "private", Scopes: []string{"notes:write"}, Handler: read})
	url := serveHTTPTest(t, s, &HTTPOptions{Authorization: testAuthorization()})
	listen := func(uris string) string {
		return mcptest.PerRequest(1, "subscriptions/listen", `"notifications":{"resourceSubscriptions":[`+uris+`]}`, "{}")
	}

	// Refused at once, as resources/subscribe and resources/read are.
	guard, stop := context.WithTimeout(context.Background(), linepeer.HangGuard) // a listen not refused lasts
	defer stop()
	r, err := mcptest.Send(guard, http.DefaultClient, http.MethodPost, url, listen(`"notes://public","notes://private"`), mcptest.Headers(append(perRequestHeaders("subscriptions/listen"), "Authorization", "Bearer reader")...))
	if err != nil || r.Status != 403 || !strings.Contains(r.Header.Get("WWW-Authenticate"), `error="insufficient_scope"`) || !strings.Contains(string(r.Body), "resource notes://private needs the scopes notes:write") {
		t.Errorf("a listen for a resource the token may not read: %d %q %s", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}

	// Checked per update: notes://later gets its scopes after the listen
	// began. The Conn stands for the transport, which verifies tokens,
	// with the token HTTP would have verified.
	ann := testTokens()["reader"]
	got := make(chan string, 16)
	conn := s.NewConn(func(msg []byte) { got <- string(msg) })
	conn.ss.tokens = true
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), tokenKey{}, ann))
	done := make(chan struct{})
	go func() {
		defer close(done)
		conn.Handle(ctx, []byte(listen(`"notes://public","notes://later"`)))
	}()
	if ack := <-got; !strings.Contains(ack, wire.NotifyAcknowledged) {
		t.Fatalf("not acknowledged: %s", ack)
	}
	s.AddResource(&Resource{URI: "notes://later", Name: "later", Scopes: []string{"notes:write"}, Handler: read})
	s.ResourceUpdated("notes://later")
	s.ResourceUpdated("notes://public")
	if msg := <-got; !strings.Contains(msg, `"uri":"notes://public"`) {
		t.Errorf("the first update the listener got: %s", msg)
	}
	cancel()
	<-done
}

// TestIsBearerToken: a b64token (RFC 6750 §2.1) is one or more of
// letters, digits and -._~+/, then any number of =; every other byte
// value is tried in every place, of short tokens and of a 17-byte one
// (checked eight bytes at a time, then one).
func TestIsBearerToken(t *testing.T) {
	for c := range 256 {
		if c == '=' {
			continue // allowed at the end only: below
		}
		b := string(rune(c))
		if c >= 0x80 {
			b = string([]byte{byte(c)})
		}
		want := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune("-._~+/", rune(c))
		toks := []string{b, "a" + b + "a", "a" + b, b + "a", "a" + b + "=="}
		for i := range 17 {
			toks = append(toks, strings.Repeat("a", i)+b+strings.Repeat("a", 16-i))
		}
		for _, tok := range toks {
			if got := isBearerToken(tok); got != want {
				t.Errorf("isBearerToken(%q) = %v, want %v", tok, got, want)
			}
		}
	}
	for tok, want := range map[string]bool{"": false, "=": false, "==": false, "a=": true, "a==": true, "a=b": false, "abc.DEF_-~+/9": true} {
		if got := isBearerToken(tok); got != want {
			t.Errorf("isBearerToken(%q) = %v, want %v", tok, got, want)
		}
	}
}

// TestScopeChallengeKeepsClientURIOut: a resource read refused for want
// of scopes is named by the URI the client sent in the JSON-RPC error,
// never in the WWW-Authenticate header, which a URI of 100 kB made as
// large (and RFC 6750 keeps what a URI may hold out of a header).
func TestScopeChallengeKeepsClientURIOut(t *testing.T) {
	s := authServer()
	s.AddResourceTemplate(&ResourceTemplate{URITemplate: "notes://{id}", Name: "note", Scopes: []string{"notes:write"},
		Handler: func(ctx context.Context, req *ResourceRequest) (*ResourceResult, error) {
			return &ResourceResult{Contents: []ResourceContents{{URI: req.URI, Text: "x"}}}, nil
		}})
	url := serveHTTPTest(t, s, &HTTPOptions{Authorization: testAuthorization()})
	uri := "notes://" + strings.Repeat("x", 100000)
	r := mcptest.Post(t, url, mcptest.Request(1, "resources/read", `"uri":"`+uri+`"`), "Authorization", "Bearer reader")
	challenge := r.Header.Get("WWW-Authenticate")
	if r.Status != 403 || strings.Contains(challenge, "xxxx") || len(challenge) > 512 ||
		!strings.Contains(challenge, `error_description="insufficient scope: this resource needs the scopes notes:write; ask the authorization server for a token with them"`) {
		t.Errorf("status %d, WWW-Authenticate of %d bytes: %.300q", r.Status, len(challenge), challenge)
	}
	if !strings.Contains(string(r.Body), "resource "+uri+" needs the scopes notes:write") {
		t.Errorf("the JSON-RPC error does not name the URI: %.300s", r.Body)
	}
}

// BenchmarkIsBearerToken checks a token of a kilobyte, the size of an
// access token of Hydra's with a few scopes.
func BenchmarkIsBearerToken(b *testing.B) {
	tok := "eyJhbGciOiJSUzI1NiIsImtpZCI6InB1YmxpYyJ9." + strings.Repeat("eyJhdWQiOltdLCJjbGllbnRfaWQiOiJhYmMiLCJleHAiOjE3", 20) + ".c2ln_-AB"
	for b.Loop() {
		if !isBearerToken(tok) {
			b.Fatal("refused")
		}
	}
}
