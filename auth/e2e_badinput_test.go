package auth_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/internal/mcptest"
	"github.com/mcpgen/mcpgen/internal/proctest"
)

// challenge is the WWW-Authenticate value the server answers with: the
// error and its description, if any, then the scopes, if any, then
// always the metadata document of srv.
func challenge(srv *served, errCode, desc, scope string) string {
	var params []string
	if errCode != "" {
		params = append(params, `error="`+errCode+`"`, `error_description="`+desc+`"`)
	}
	if scope != "" {
		params = append(params, `scope="`+scope+`"`)
	}
	metadata := strings.Replace(srv.url, "/mcp", "/.well-known/oauth-protected-resource/mcp", 1)
	return "Bearer " + strings.Join(append(params, `resource_metadata="`+metadata+`"`), ", ")
}

// TestRefusalReasons sends tokens of a local issuer that the JWT verifier
// refuses, each for one reason, to a server served by ListenAndServeHTTP:
// the client reads the reason in the challenge's error_description, and
// nothing of the token or of the verifier's error (a kid, an issuer's
// URL, a time) beyond it.
func TestRefusalReasons(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	clk := newClock()
	// The verifier checks an audience of its own, so that it, not the
	// runtime, refuses a token for another resource.
	const audience = "https://notes.example.com/mcp"
	srv := serve(t, newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), Audience: audience}, clk), f.issuer(), false)
	now := time.Now()
	claims := func(change func(jwt.MapClaims)) jwt.MapClaims {
		c := f.claims(now)
		c["aud"] = []string{srv.url, audience}
		if change != nil {
			change(c)
		}
		return c
	}
	good := f.sign(t, claims(nil))
	_, _, parts := segments(t, good)
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what, token, desc string
		at                time.Time // the verifier's clock, if not now
	}{
		{what: "expired", token: good, at: now.Add(time.Hour + auth.DefaultClockSkew + time.Second), desc: "the token has expired"},
		{what: "not yet valid", token: f.sign(t, claims(func(c jwt.MapClaims) { c["nbf"] = now.Add(time.Minute).Unix() })), desc: "the token is not valid yet"},
		{what: "issued in the future", token: f.sign(t, claims(func(c jwt.MapClaims) { c["iat"] = now.Add(time.Minute).Unix() })), desc: "the token is not valid yet"},
		{what: "wrong audience", token: f.sign(t, claims(func(c jwt.MapClaims) { c["aud"] = srv.url })), desc: "the token was not issued for this server"},
		{what: "wrong issuer", token: f.sign(t, claims(func(c jwt.MapClaims) { c["iss"] = "https://evil.example.com" })), desc: "the token was not issued by this server's authorization server"},
		{what: "unknown kid", token: signWith(t, jwt.SigningMethodES256, "k-SECRET", claims(nil), other), desc: "the token is not signed by a key of its issuer"},
		{what: "bad signature", token: signWith(t, jwt.SigningMethodES256, f.kid, claims(nil), other), desc: "the token's signature does not verify"},
		{what: "claims changed", token: parts[0] + "." + encodeSegment(t, claims(func(c jwt.MapClaims) { c["scope"] = "notes:read notes:write" })) + "." + parts[2], desc: "the token's signature does not verify"},
		{what: "malformed", token: "not-a-jwt", desc: "the token is malformed"},
		{what: "crit header", token: func() string {
			tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims(nil))
			tok.Header["kid"], tok.Header["crit"] = f.kid, []string{"exp"}
			s, err := tok.SignedString(f.key)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}(), desc: "the token is not valid"},
	} {
		clk.Set(now)
		if !tc.at.IsZero() {
			clk.Set(tc.at)
		}
		before := srv.runs.Load()
		r := mcptest.Post(t, srv.url, mcptest.Call(1, "list_notes", `{}`), "Authorization", "Bearer "+tc.token)
		got := r.Header.Get("WWW-Authenticate")
		if want := challenge(srv, "invalid_token", tc.desc, ""); r.Status != 401 || got != want {
			t.Errorf("%s: %d %q\nwant 401 %q\n%s", tc.what, r.Status, got, want, r.Body)
		}
		for _, leak := range []string{"SECRET", f.issuer(), "evil", "expired at", "invalid claims", "keyfunc"} {
			if strings.Contains(got, leak) || strings.Contains(string(r.Body), leak) {
				t.Errorf("%s: the answer says %q: %q %s", tc.what, leak, got, r.Body)
			}
		}
		if srv.runs.Load() != before {
			t.Errorf("%s: a handler ran", tc.what)
		}
	}
	// The good token passes, so that each refusal above is for its reason.
	clk.Set(now)
	if r := mcptest.Post(t, srv.url, mcptest.Call(1, "list_notes", `{}`), "Authorization", "Bearer "+good); r.Status != 200 {
		t.Errorf("good token: %d %s", r.Status, r.Body)
	}
}

// TestBadTokens sends a call with each kind of bad token Hydra's tokens
// can be turned into to a server served by ListenAndServeHTTP with the
// JWT verifier: each gets its status and challenge, and no handler runs.
func TestBadTokens(t *testing.T) {
	t.Parallel()
	hydra := hydratest.Start(t)
	clk := newClock()
	srv := serve(t, jwtVerifier(t, hydra, clk), hydra.Issuer(), false)
	const other = "http://127.0.0.1:1/mcp"
	client := hydra.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{readScope, writeScope}, Audience: []string{srv.url, other}})
	good := hydra.Token(t, client, []string{readScope, writeScope}, []string{srv.url})
	header, claims, parts := segments(t, good)
	exp := time.Unix(int64(claims["exp"].(float64)), 0)
	nbf := time.Unix(int64(claims["nbf"].(float64)), 0)

	// A token of another authorization server, for this very resource.
	foreign := hydratest.Start(t)
	foreignClient := foreign.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{readScope}, Audience: []string{srv.url}})

	// HS256 with the issuer's public key, PEM-encoded, as the secret.
	der, err := x509.MarshalPKIXPublicKey(hydraPublicKey(t, hydra, header["kid"].(string)))
	if err != nil {
		t.Fatal(err)
	}
	hs := map[string]any{"alg": "HS256", "kid": header["kid"], "typ": "JWT"}
	mac := hmac.New(sha256.New, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	mac.Write([]byte(encodeSegment(t, hs) + "." + parts[1]))
	hs256 := encodeSegment(t, hs) + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))

	escalated := func() string { // a read-only token whose claims say it may write
		tok := hydra.Token(t, client, []string{readScope}, []string{srv.url})
		_, c, p := segments(t, tok)
		c["scp"] = []string{readScope, writeScope}
		return p[0] + "." + encodeSegment(t, c) + "." + p[2]
	}()

	invalid := func(desc string) string { return challenge(srv, "invalid_token", desc, "") }
	badRequest := func(desc string) string { return challenge(srv, "invalid_request", desc, "") }
	for _, tc := range []struct {
		what          string
		authorization string
		at            time.Time // the verifier's clock, if not now
		tool          string    // list_notes, unless set
		status        int
		challenge     string
	}{
		{what: "missing", status: 401, challenge: challenge(srv, "", "", "")},
		{what: "another scheme", authorization: "Basic " + base64.StdEncoding.EncodeToString([]byte(client.ID+":"+client.Secret)), status: 401, challenge: challenge(srv, "", "", "")},
		{what: "malformed header", authorization: "Bearer " + good + " extra", status: 400, challenge: badRequest("the bearer token is not a token (RFC 6750 b64token)")},
		{what: "malformed token", authorization: "Bearer not-a-jwt", status: 401, challenge: invalid("the token is malformed")},
		{what: "expired", authorization: "Bearer " + good, at: exp.Add(auth.DefaultClockSkew + time.Second), status: 401, challenge: invalid("the token has expired")},
		{what: "not yet valid", authorization: "Bearer " + good, at: nbf.Add(-auth.DefaultClockSkew - time.Second), status: 401, challenge: invalid("the token is not valid yet")},
		{what: "wrong issuer", authorization: "Bearer " + foreign.Token(t, foreignClient, []string{readScope}, []string{srv.url}), status: 401, challenge: invalid("the token is not signed by a key of its issuer")}, // its kid is another issuer's
		{what: "wrong audience", authorization: "Bearer " + hydra.Token(t, client, []string{readScope}, []string{other}), status: 401, challenge: challenge(srv, "invalid_token", "the token was not issued for this server", "")},
		{what: "no audience", authorization: "Bearer " + hydra.Token(t, client, []string{readScope}, nil), status: 401, challenge: challenge(srv, "invalid_token", "the token was not issued for this server", "")},
		{what: "alg none", authorization: "Bearer " + encodeSegment(t, map[string]any{"alg": "none", "typ": "JWT"}) + "." + parts[1] + ".", status: 401, challenge: invalid("the token's signature does not verify")},
		{what: "HS256 with the public key", authorization: "Bearer " + hs256, status: 401, challenge: invalid("the token's signature does not verify")},
		{what: "unknown kid", authorization: "Bearer " + encodeSegment(t, map[string]any{"alg": header["alg"], "kid": "no-such-key", "typ": "JWT"}) + "." + parts[1] + "." + parts[2], status: 401, challenge: invalid("the token is not signed by a key of its issuer")},
		{what: "claims changed", authorization: "Bearer " + escalated, tool: "add_note", status: 401, challenge: invalid("the token's signature does not verify")},
		{what: "huge token", authorization: "Bearer " + strings.Repeat("a", auth.MaxTokenSize+1), status: 400, challenge: badRequest("the token takes more than 16384 bytes")},
		{what: "insufficient scope", authorization: "Bearer " + hydra.Token(t, client, []string{readScope}, []string{srv.url}), tool: "add_note", status: 403,
			challenge: challenge(srv, "insufficient_scope", "insufficient scope: tool add_note needs the scopes notes:write; ask the authorization server for a token with them", "notes:read notes:write")},
	} {
		clk.Set(time.Now())
		if !tc.at.IsZero() {
			clk.Set(tc.at)
		}
		tool := tc.tool
		if tool == "" {
			tool = "list_notes"
		}
		var hdr []string
		if tc.authorization != "" {
			hdr = []string{"Authorization", tc.authorization}
		}
		before := srv.runs.Load()
		r := mcptest.Post(t, srv.url, mcptest.Call(1, tool, `{"text":"x"}`), hdr...)
		if r.Status != tc.status || r.Header.Get("WWW-Authenticate") != tc.challenge {
			t.Errorf("%s: %d %q\nwant %d %q\n%s", tc.what, r.Status, r.Header.Get("WWW-Authenticate"), tc.status, tc.challenge, r.Body)
		}
		if srv.runs.Load() != before {
			t.Errorf("%s: a handler ran", tc.what)
		}
	}

	// Headers larger than ListenAndServeHTTP reads (MaxHeaderBytes 64 KiB,
	// which net/http stretches by its buffers' slack) are refused by
	// net/http before the handler: 431, and nothing is verified.
	r := mcptest.Post(t, srv.url, mcptest.Call(1, "list_notes", `{}`), "Authorization", "Bearer "+strings.Repeat("a", 128<<10))
	if r.Status != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a 128 KiB header: %d %s", r.Status, r.Body)
	}

	// The good token, at the right time, for both tools.
	clk.Set(time.Now())
	for _, tool := range []string{"add_note", "list_notes"} {
		if r := mcptest.Post(t, srv.url, mcptest.Call(1, tool, `{"text":"x"}`), "Authorization", "Bearer "+good); r.Status != 200 || !strings.Contains(string(r.Body), client.ID) {
			t.Errorf("the good token, %s: %d %s", tool, r.Status, r.Body)
		}
	}
	if got := srv.runs.Load(); got != 2 {
		t.Errorf("handlers ran %d times, want 2", got)
	}
}

// TestSessionOfAnotherUser: a session opened with one user's token is
// not found with another user's valid token, however good that token is;
// the owner keeps it.
func TestSessionOfAnotherUser(t *testing.T) {
	t.Parallel()
	hydra := hydratest.Start(t)
	srv := serve(t, jwtVerifier(t, hydra, nil), hydra.Issuer(), true)
	cfg := hydratest.ClientConfig{Scopes: []string{readScope, writeScope}, Audience: []string{srv.url}}
	alice, mallory := hydra.RegisterClient(t, cfg), hydra.RegisterClient(t, cfg)
	aliceToken := "Bearer " + hydra.Token(t, alice, []string{readScope, writeScope}, []string{srv.url})
	malloryToken := "Bearer " + hydra.Token(t, mallory, []string{readScope, writeScope}, []string{srv.url})

	r := mcptest.Post(t, srv.url, mcptest.Initialize(1, "2025-11-25"), "Authorization", aliceToken)
	if r.Status != 200 || r.Header.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d %q %s", r.Status, r.Header.Get("Mcp-Session-Id"), r.Body)
	}
	for _, tool := range []string{"list_notes", "add_note"} {
		if r := mcptest.Post(t, srv.url, mcptest.Call(2, tool, `{"text":"x"}`), "Authorization", malloryToken, "Mcp-Session-Id", r.Header.Get("Mcp-Session-Id")); r.Status != http.StatusNotFound {
			t.Errorf("%s with another user's session: %d %s", tool, r.Status, r.Body)
		}
	}
	if srv.runs.Load() != 0 {
		t.Errorf("a handler ran for the other user")
	}
	if r := mcptest.Post(t, srv.url, mcptest.Call(3, "list_notes", `{}`), "Authorization", aliceToken, "Mcp-Session-Id", r.Header.Get("Mcp-Session-Id")); r.Status != 200 || !strings.Contains(string(r.Body), "0 notes for "+alice.ID) {
		t.Errorf("the session's owner: %d %s", r.Status, r.Body)
	}
}

// TestRevokedToken: with the introspection verifier (and its cache off),
// an opaque token of Hydra's works until it is revoked, then gets 401
// saying the authorization server holds it not active.
func TestRevokedToken(t *testing.T) {
	t.Parallel()
	hydra := hydratest.Start(t)
	resourceServer := hydra.RegisterClient(t, hydratest.ClientConfig{})
	v, err := auth.NewIntrospectionVerifier(auth.IntrospectionConfig{
		Endpoint: hydra.IntrospectionURL(), ClientID: resourceServer.ID, ClientSecret: resourceServer.Secret,
		Issuer: hydra.Issuer(), CacheTTL: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, v, hydra.Issuer(), false)
	client := hydra.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{readScope}, Audience: []string{srv.url}, Opaque: true})
	tok := hydra.Token(t, client, []string{readScope}, []string{srv.url})
	if strings.Count(tok, ".") == 2 {
		t.Fatalf("Hydra issued a JWT, not an opaque token: %s", tok)
	}
	if r := mcptest.Post(t, srv.url, mcptest.Call(1, "list_notes", `{}`), "Authorization", "Bearer "+tok); r.Status != 200 {
		t.Fatalf("before revocation: %d %s", r.Status, r.Body)
	}
	hydra.Revoke(t, client, tok)
	r := mcptest.Post(t, srv.url, mcptest.Call(2, "list_notes", `{}`), "Authorization", "Bearer "+tok)
	if want := challenge(srv, "invalid_token", "the authorization server says the token is not active", ""); r.Status != 401 || r.Header.Get("WWW-Authenticate") != want {
		t.Errorf("after revocation: %d %q, want 401 %q", r.Status, r.Header.Get("WWW-Authenticate"), want)
	}
	if srv.runs.Load() != 1 {
		t.Errorf("handlers ran %d times, want 1", srv.runs.Load())
	}
}

// TestServerIssuerUnreachable: when the verifier cannot fetch the
// issuer's keys, a well-formed token of Hydra's gets 503 with Retry-After
// and no challenge (the client keeps its token and retries), and no
// handler runs.
func TestServerIssuerUnreachable(t *testing.T) {
	t.Parallel()
	hydra := hydratest.Start(t)
	down := "http://" + proctest.FreePort(t) // nothing listens there
	v := newVerifier(t, auth.JWTConfig{Issuer: down, JWKSURL: down + "/.well-known/jwks.json"}, nil)
	srv := serve(t, v, down, false)
	client := hydra.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{readScope}, Audience: []string{srv.url}})
	tok := hydra.Token(t, client, []string{readScope}, []string{srv.url})
	res := mcptest.Post(t, srv.url, mcptest.Call(1, "list_notes", `{}`), "Authorization", "Bearer "+tok)
	if res.Status != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || res.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("%d, Retry-After %q, WWW-Authenticate %q; want 503 with Retry-After and no challenge", res.Status, res.Header.Get("Retry-After"), res.Header.Get("WWW-Authenticate"))
	}
	if srv.runs.Load() != 0 {
		t.Error("a handler ran")
	}
}
