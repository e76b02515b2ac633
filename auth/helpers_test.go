package auth_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/internal/hydratest"
)

// A clock is a time source that tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now()} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// A fakeIssuer is an authorization server of our own for the unit tests
// and the attack cases: it serves OpenID discovery and a JWK set of one
// ES256 key, which tests can replace, and counts the JWK set requests.
type fakeIssuer struct {
	srv      *httptest.Server
	key      *ecdsa.PrivateKey
	kid      string
	jwksHits atomic.Int64

	mu   sync.Mutex
	jwks http.HandlerFunc // serves the JWK set
}

func newFakeIssuer(t testing.TB) *fakeIssuer {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeIssuer{key: key, kid: "fake-1"}
	f.setJWKS(jsonHandler(jwksOf(jwkOf(f.kid, &key.PublicKey))))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		jsonHandler(map[string]string{"issuer": f.issuer(), "jwks_uri": f.issuer() + "/jwks"})(w, r)
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		f.jwksHits.Add(1)
		f.mu.Lock()
		h := f.jwks
		f.mu.Unlock()
		h(w, r)
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeIssuer) issuer() string { return f.srv.URL }

func (f *fakeIssuer) setJWKS(h http.HandlerFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.jwks = h
}

// claims are valid claims of this issuer for a token issued now.
func (f *fakeIssuer) claims(now time.Time) jwt.MapClaims {
	return jwt.MapClaims{
		"iss": f.issuer(), "sub": "user-1", "client_id": "client-1",
		"aud": "http://127.0.0.1/mcp", "scope": "notes:read",
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
}

// sign signs claims with the issuer's key under its kid.
func (f *fakeIssuer) sign(t testing.TB, claims jwt.MapClaims) string {
	t.Helper()
	return signWith(t, jwt.SigningMethodES256, f.kid, claims, f.key)
}

func signWith(t testing.TB, m jwt.SigningMethod, kid string, claims jwt.MapClaims, key any) string {
	t.Helper()
	tok := jwt.NewWithClaims(m, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func jwkOf(kid string, pub crypto.PublicKey) map[string]string {
	k := pub.(*ecdsa.PublicKey)
	b, err := k.Bytes() // 0x04 || x || y
	if err != nil {
		panic(err)
	}
	n := (len(b) - 1) / 2
	enc := base64.RawURLEncoding.EncodeToString
	return map[string]string{"kty": "EC", "crv": "P-256", "kid": kid, "use": "sig",
		"x": enc(b[1 : 1+n]), "y": enc(b[1+n:])}
}

func jwksOf(keys ...map[string]string) map[string]any {
	return map[string]any{"keys": keys}
}

func jsonHandler(v any) http.HandlerFunc {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	}
}

// segments splits a compact JWS and decodes its header and claims.
func segments(t testing.TB, tok string) (header, claims map[string]any, parts []string) {
	t.Helper()
	header, claims = hydratest.DecodeJWT(t, tok)
	return header, claims, strings.Split(tok, ".")
}

func encodeSegment(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
