package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/hydratest"
)

func newIntrospector(t testing.TB, cfg auth.IntrospectionConfig, c *clock) *auth.IntrospectionVerifier {
	t.Helper()
	return withClock[*auth.IntrospectionVerifier](t, c)(auth.NewIntrospectionVerifier(cfg))
}

// TestIntrospectionHydra verifies Hydra's opaque tokens through its
// introspection endpoint: scopes and client come back, a revoked token is
// refused (once its cached answer has expired, or at once without a
// cache), and a made-up token is refused.
func TestIntrospectionHydra(t *testing.T) {
	t.Parallel()
	s := hydratest.Start(t)
	c := s.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{"notes:read", "notes:write"}, Opaque: true})
	clk := newClock()
	cfg := auth.IntrospectionConfig{Endpoint: s.IntrospectionURL(), ClientID: c.ID, ClientSecret: c.Secret, Issuer: s.Issuer()}
	cached := newIntrospector(t, cfg, clk)
	cfg.CacheTTL = -1
	uncached := newIntrospector(t, cfg, clk)

	tok := s.Token(t, c, []string{"notes:read"}, nil)
	if strings.Count(tok, ".") == 2 {
		t.Fatalf("Hydra issued a JWT, not an opaque token: %s", tok)
	}
	for _, v := range []*auth.IntrospectionVerifier{cached, uncached} {
		ti := mustVerify(t, v, tok)
		if !slices.Equal(ti.Scopes, []string{"notes:read"}) || ti.ClientID != c.ID || ti.Subject != c.ID || ti.Issuer != s.Issuer() {
			t.Errorf("TokenInfo = %+v", ti)
		}
		if ti.Expiry.IsZero() || ti.Claims["token_use"] != "access_token" {
			t.Errorf("Expiry %v, claims %v", ti.Expiry, ti.Claims)
		}
	}

	s.Revoke(t, c, tok)
	mustRefuse(t, uncached, tok, "not active")
	mustVerify(t, cached, tok) // the answer of a moment ago
	clk.Add(auth.DefaultIntrospectionCacheTTL)
	mustRefuse(t, cached, tok, "not active")

	mustRefuse(t, cached, "ory_at_made-up.token", "not active")

	// A JWT of Hydra's introspects too.
	jc := s.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{"notes:read"}})
	mustVerify(t, uncached, s.Token(t, jc, []string{"notes:read"}, nil))
}

// A fakeIntrospection is an introspection endpoint of our own that
// records how it was called and answers what the test says.
type fakeIntrospection struct {
	srv    *httptest.Server
	calls  int
	lastR  *http.Request
	form   url.Values
	answer func(token string) string
}

func newFakeIntrospection(t *testing.T) *fakeIntrospection {
	f := &fakeIntrospection{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.calls++
		r.ParseForm()
		f.lastR, f.form = r, r.PostForm
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, f.answer(r.PostForm.Get("token")))
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func activeAnswer(exp time.Time, extra string) string {
	return fmt.Sprintf(`{"active":true,"sub":"u","client_id":"c","scope":"a b","aud":"http://127.0.0.1/mcp","exp":%d%s}`, exp.Unix(), extra)
}

func TestIntrospectionClientAuth(t *testing.T) {
	f := newFakeIntrospection(t)
	f.answer = func(string) string { return activeAnswer(time.Now().Add(time.Hour), "") }
	id, secret := "id:with/odd chars", "s3cr3t+&="

	v := newIntrospector(t, auth.IntrospectionConfig{Endpoint: f.srv.URL, ClientID: id, ClientSecret: secret, CacheTTL: -1}, nil)
	mustVerify(t, v, "tok")
	u, p, ok := f.lastR.BasicAuth()
	if !ok || u != url.QueryEscape(id) || p != url.QueryEscape(secret) {
		t.Errorf("Basic credentials %q, %q, want them form-encoded (RFC 6749 §2.3.1)", u, p)
	}
	if f.form.Get("token") != "tok" || f.form.Get("token_type_hint") != "access_token" || f.form.Has("client_secret") {
		t.Errorf("form = %v", f.form)
	}

	v = newIntrospector(t, auth.IntrospectionConfig{Endpoint: f.srv.URL, ClientID: id, ClientSecret: secret, ClientAuthMethod: "client_secret_post", CacheTTL: -1}, nil)
	mustVerify(t, v, "tok")
	if _, _, ok := f.lastR.BasicAuth(); ok || f.form.Get("client_id") != id || f.form.Get("client_secret") != secret {
		t.Errorf("client_secret_post: form %v, Authorization %q", f.form, f.lastR.Header.Get("Authorization"))
	}

	for _, cfg := range []auth.IntrospectionConfig{
		{Endpoint: f.srv.URL},
		{Endpoint: f.srv.URL, ClientID: "x", ClientAuthMethod: "private_key_jwt"},
		{Endpoint: "http://as.example/introspect", ClientID: "x"},
	} {
		if _, err := auth.NewIntrospectionVerifier(cfg); err == nil {
			t.Errorf("NewIntrospectionVerifier(%+v) accepted it", cfg)
		}
	}
}

func TestIntrospectionAnswers(t *testing.T) {
	f := newFakeIntrospection(t)
	clk := newClock()
	now := clk.Now()
	v := newIntrospector(t, auth.IntrospectionConfig{Endpoint: f.srv.URL, ClientID: "rs", Issuer: "https://as.example", CacheTTL: -1}, clk)
	for _, tc := range []struct {
		answer, why string
	}{
		{`{"active":false}`, "not active"},
		{activeAnswer(now.Add(-auth.DefaultClockSkew), ""), "expired"},
		{activeAnswer(now.Add(time.Hour), fmt.Sprintf(`,"nbf":%d`, now.Add(time.Minute).Unix())), "not valid before"},
		{activeAnswer(now.Add(time.Hour), `,"iss":"https://other.example"`), "issued by"},
		{activeAnswer(now.Add(time.Hour), `,"token_use":"refresh_token"`), "a refresh_token, not an access token"},
		{activeAnswer(now.Add(time.Hour), `,"scope":["a",1]`), "claim scope holds a float64"},
	} {
		f.answer = func(string) string { return tc.answer }
		mustRefuse(t, v, "tok", tc.why)
	}
	f.answer = func(string) string {
		return activeAnswer(now.Add(time.Hour), `,"iss":"https://as.example","token_use":"access_token"`)
	}
	ti := mustVerify(t, v, "tok")
	if !slices.Equal(ti.Scopes, []string{"a", "b"}) || !slices.Equal(ti.Audience, []string{"http://127.0.0.1/mcp"}) {
		t.Errorf("TokenInfo = %+v", ti)
	}

	// Answers that decide nothing: the server is not behaving.
	for _, tc := range []struct {
		answer, why string
	}{
		{`{"sub":"u"}`, `no boolean "active"`},
		{`null`, "not a JSON object"},
		{`{"active":true,"pad":"` + strings.Repeat("p", auth.MaxDocumentSize) + `"}`, "document too large"},
	} {
		f.answer = func(string) string { return tc.answer }
		_, err := v.VerifyToken(context.Background(), "tok")
		mustUndecided(t, err, tc.why)
	}
	f.srv.Close()
	_, err := v.VerifyToken(context.Background(), "tok")
	mustUndecided(t, err, "introspection")
}

func TestIntrospectionStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	v := newIntrospector(t, auth.IntrospectionConfig{Endpoint: srv.URL, ClientID: "rs"}, nil)
	_, err := v.VerifyToken(context.Background(), "tok")
	mustUndecided(t, err, "401")
}

// TestIntrospectionCache: active answers are reused until CacheTTL or the
// token's exp, whichever comes first; the cache holds at most CacheSize
// answers; a caller cannot change a cached answer.
func TestIntrospectionCache(t *testing.T) {
	f := newFakeIntrospection(t)
	clk := newClock()
	exp := clk.Now().Add(time.Hour)
	var short time.Time // the exp of token "short"
	f.answer = func(tok string) string {
		if tok == "short" {
			return activeAnswer(short, "")
		}
		return activeAnswer(exp, "")
	}
	v := newIntrospector(t, auth.IntrospectionConfig{Endpoint: f.srv.URL, ClientID: "rs", CacheSize: 2, ClockSkew: -1}, clk)

	ti := mustVerify(t, v, "a")
	ti.Scopes[0] = "changed"
	ti.Claims["sub"] = "changed"
	ti = mustVerify(t, v, "a")
	if f.calls != 1 || ti.Scopes[0] != "a" || ti.Claims["sub"] != "u" {
		t.Errorf("calls %d, cached answer %+v", f.calls, ti)
	}
	clk.Add(auth.DefaultIntrospectionCacheTTL)
	mustVerify(t, v, "a")
	if f.calls != 2 {
		t.Errorf("calls %d after the TTL, want 2", f.calls)
	}

	short = clk.Now().Add(2 * time.Second)
	mustVerify(t, v, "short")
	clk.Add(2 * time.Second)
	mustRefuse(t, v, "short", "expired") // asked again: the cached answer ended with exp
	if f.calls != 4 {
		t.Errorf("calls %d, want 4", f.calls)
	}

	for _, tok := range []string{"b", "c", "d", "e"} {
		mustVerify(t, v, tok)
		if n := v.CacheLen(); n > 2 {
			t.Fatalf("cache holds %d answers, more than CacheSize 2", n)
		}
	}
}

// TestIntrospectionCacheBytes: an answer larger than MaxCachedAnswerSize
// is used but not cached, so that the cache, keyed by the tokens clients
// send, holds at most CacheSize answers of that size; one at the bound is
// cached.
func TestIntrospectionCacheBytes(t *testing.T) {
	f := newFakeIntrospection(t)
	exp := time.Now().Add(time.Hour)
	pad := func(n int) string {
		base := activeAnswer(exp, `,"pad":""`)
		return activeAnswer(exp, `,"pad":"`+strings.Repeat("p", n-len(base))+`"`)
	}
	f.answer = func(tok string) string {
		if tok == "huge" {
			return pad(auth.MaxCachedAnswerSize + 1)
		}
		return pad(auth.MaxCachedAnswerSize)
	}
	v := newIntrospector(t, auth.IntrospectionConfig{Endpoint: f.srv.URL, ClientID: "rs"}, nil)
	mustVerify(t, v, "huge")
	mustVerify(t, v, "at-the-bound")
	if n := v.CacheLen(); n != 1 {
		t.Errorf("the cache holds %d answers, want 1: the one at the bound", n)
	}
	mustVerify(t, v, "huge")
	mustVerify(t, v, "at-the-bound")
	if f.calls != 3 {
		t.Errorf("%d calls, want 3: the huge answer asked for twice", f.calls)
	}
}
