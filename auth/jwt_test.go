package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
)

// mustUndecided checks that err says the verifier could not decide: an
// error that does not wrap ErrInvalidToken.
func mustUndecided(t *testing.T, err error, why string) {
	t.Helper()
	if err == nil || errors.Is(err, runtime.ErrInvalidToken) {
		t.Fatalf("err = %v, want an error that does not wrap ErrInvalidToken", err)
	}
	if !strings.Contains(err.Error(), why) {
		t.Errorf("error %q does not say %q", err, why)
	}
}

func TestNewJWTVerifierConfig(t *testing.T) {
	for _, cfg := range []auth.JWTConfig{
		{},
		{Issuer: "http://issuer.example"}, // plain http off loopback
		{Issuer: "issuer.example"},
		{Issuer: "https://issuer.example?x=1"},
		{Issuer: "https://issuer.example", JWKSURL: "http://issuer.example/jwks"},
	} {
		if _, err := auth.NewJWTVerifier(cfg); err == nil {
			t.Errorf("NewJWTVerifier(%+v) accepted it", cfg)
		}
	}
	for _, iss := range []string{"https://issuer.example", "http://127.0.0.1:4444", "http://localhost:4444/realms/x", "http://[::1]:4444"} {
		if _, err := auth.NewJWTVerifier(auth.JWTConfig{Issuer: iss}); err != nil {
			t.Errorf("NewJWTVerifier(%q): %v", iss, err)
		}
	}
}

// TestTokenSizeLimit: a token of MaxTokenSize bytes is verified, one of
// a byte more is refused before it is decoded.
func TestTokenSizeLimit(t *testing.T) {
	f := newFakeIssuer(t)
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	at := tokenOfLength(t, f, auth.MaxTokenSize)
	mustVerify(t, v, at)
	over := tokenOfLength(t, f, auth.MaxTokenSize+1)
	mustRefuse(t, v, over, "more than 16384")
	mustRefuse(t, v, strings.Repeat("a", 10<<20), "more than 16384")
}

// tokenOfLength signs a valid token of exactly n bytes, padding it with a
// claim and, since base64 skips some lengths, a header parameter.
func tokenOfLength(t *testing.T, f *fakeIssuer, n int) string {
	t.Helper()
	claims := f.claims(newClock().Now())
	sign := func(hpad, pad int) string {
		claims["pad"] = strings.Repeat("p", pad)
		tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
		tok.Header["kid"] = f.kid
		tok.Header["pad"] = strings.Repeat("h", hpad)
		s, err := tok.SignedString(f.key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for hpad := range 4 {
		base := len(sign(hpad, 0))
		for pad := (n - base) * 3 / 4; pad <= (n-base)*3/4+4; pad++ {
			if tok := sign(hpad, pad); len(tok) == n {
				return tok
			}
		}
	}
	t.Fatalf("could not make a token of %d bytes", n)
	return ""
}

// TestKeyTypes verifies tokens signed with each kind of key a JWK set may
// hold, and refuses each key for an algorithm of another kind.
func TestKeyTypes(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	edPub, edPriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	p384Bytes, _ := p384.PublicKey.Bytes()
	keys := []map[string]string{
		{"kty": "RSA", "kid": "rsa", "n": enc(rsaKey.N.Bytes()), "e": enc(big.NewInt(int64(rsaKey.E)).Bytes())},
		{"kty": "EC", "kid": "p384", "crv": "P-384", "x": enc(p384Bytes[1:49]), "y": enc(p384Bytes[49:])},
		{"kty": "OKP", "kid": "ed", "crv": "Ed25519", "x": enc(edPub)},
		// Ignored: a symmetric key, and an encryption key.
		{"kty": "oct", "kid": "hmac", "k": enc([]byte("secret"))},
		{"kty": "RSA", "kid": "enc", "use": "enc", "n": enc(rsaKey.N.Bytes()), "e": "AQAB"},
	}
	f := newFakeIssuer(t)
	f.setJWKS(jsonHandler(jwksOf(keys...)))
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	claims := f.claims(newClock().Now())
	for _, tc := range []struct {
		m   jwt.SigningMethod
		kid string
		key any
	}{
		{jwt.SigningMethodRS256, "rsa", rsaKey},
		{jwt.SigningMethodPS256, "rsa", rsaKey},
		{jwt.SigningMethodRS512, "rsa", rsaKey},
		{jwt.SigningMethodES384, "p384", p384},
		{jwt.SigningMethodEdDSA, "ed", edPriv},
	} {
		mustVerify(t, v, signWith(t, tc.m, tc.kid, claims, tc.key))
	}
	// The right key, named for an algorithm of another kind.
	mustRefuse(t, v, signWith(t, jwt.SigningMethodES256, "p384", claims, f.key), `no key "p384" for ES256`)
	mustRefuse(t, v, signWith(t, jwt.SigningMethodHS256, "hmac", claims, []byte("secret")), "signing method HS256 is invalid")
	mustRefuse(t, v, signWith(t, jwt.SigningMethodRS256, "enc", claims, rsaKey), `no key "enc"`)
}

// TestKid: a token without kid is matched only against a set of one key.
func TestKid(t *testing.T) {
	f := newFakeIssuer(t)
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	claims := f.claims(newClock().Now())
	mustVerify(t, v, signWith(t, jwt.SigningMethodES256, "", claims, f.key))

	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	f.setJWKS(jsonHandler(jwksOf(jwkOf(f.kid, &f.key.PublicKey), jwkOf("other", &other.PublicKey))))
	v = newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	mustRefuse(t, v, signWith(t, jwt.SigningMethodES256, "", claims, f.key), "no kid")
	mustVerify(t, v, f.sign(t, claims))

	tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	tok.Header["kid"] = 7
	s, _ := tok.SignedString(f.key)
	mustRefuse(t, v, s, `"kid" is not a string`)
}

func TestCritHeader(t *testing.T) {
	f := newFakeIssuer(t)
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, f.claims(newClock().Now()))
	tok.Header["kid"] = f.kid
	tok.Header["crit"] = []string{"exp"}
	s, _ := tok.SignedString(f.key)
	mustRefuse(t, v, s, "crit")
}

// TestExpirationRequired: a token without exp is refused: an access
// token that never expires would outlive every revocation (RFC 9068 makes
// exp required). Hydra always sets exp, so this case is made here.
func TestExpirationRequired(t *testing.T) {
	f := newFakeIssuer(t)
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	claims := f.claims(newClock().Now())
	mustVerify(t, v, f.sign(t, claims))
	delete(claims, "exp")
	mustRefuse(t, v, f.sign(t, claims), "exp claim is required")
}

// TestUnknownKidRefetchIsRateLimited: tokens with made-up kids cause at
// most one fetch of the JWK set per MinRefetchGap.
func TestUnknownKidRefetchIsRateLimited(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, clk)
	claims := f.claims(clk.Now())
	for i := range 50 {
		mustRefuse(t, v, signWith(t, jwt.SigningMethodES256, fmt.Sprint("made-up-", i), claims, f.key), "no key")
	}
	if n := f.jwksHits.Load(); n != 1 {
		t.Fatalf("%d fetches of the JWK set for 50 unknown kids within the gap, want 1", n)
	}
	clk.Add(auth.MinRefetchGap)
	mustRefuse(t, v, signWith(t, jwt.SigningMethodES256, "made-up-again", claims, f.key), "no key")
	if n := f.jwksHits.Load(); n != 2 {
		t.Fatalf("%d fetches after the gap, want 2", n)
	}
	mustVerify(t, v, f.sign(t, claims))
	if n := f.jwksHits.Load(); n != 2 {
		t.Fatalf("a known kid fetched the set again: %d fetches", n)
	}
}

// TestConcurrentFirstUse: verifiers share one fetch of the keys, and the
// cache is safe for concurrent use (run with -race).
func TestConcurrentFirstUse(t *testing.T) {
	f := newFakeIssuer(t)
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	tok := f.sign(t, f.claims(newClock().Now()))
	var wg sync.WaitGroup
	errs := make(chan error, 8*20)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if _, err := v.VerifyToken(context.Background(), tok); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := f.jwksHits.Load(); n != 1 {
		t.Errorf("%d fetches of the JWK set, want 1", n)
	}
}

// TestJWKSBounds: a key set at the size bound is read, one a byte longer
// is refused, and either way the refusal is "could not decide".
func TestJWKSBounds(t *testing.T) {
	f := newFakeIssuer(t)
	tok := f.sign(t, f.claims(newClock().Now()))
	set := `{"keys":[` + mustJSON(t, jwkOf(f.kid, &f.key.PublicKey)) + `],"pad":"`
	atLimit := set + strings.Repeat("p", auth.MaxDocumentSize-len(set)-2) + `"}`
	f.setJWKS(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(atLimit)) })
	mustVerify(t, newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil), tok)

	f.setJWKS(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(atLimit + " ")) })
	_, err := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil).VerifyToken(context.Background(), tok)
	mustUndecided(t, err, "document too large")

	many := make([]map[string]string, 101)
	for i := range many {
		many[i] = jwkOf(fmt.Sprint(i), &f.key.PublicKey)
	}
	f.setJWKS(jsonHandler(jwksOf(many...)))
	_, err = newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil).VerifyToken(context.Background(), tok)
	mustUndecided(t, err, "101 keys")
}

// TestSlowIssuer: an issuer that never answers costs a request the HTTP
// client's timeout, and the answer is "could not decide".
func TestSlowIssuer(t *testing.T) {
	f := newFakeIssuer(t)
	f.setJWKS(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), HTTPClient: &http.Client{Timeout: 50e6}}, nil)
	_, err := v.VerifyToken(context.Background(), f.sign(t, f.claims(newClock().Now())))
	mustUndecided(t, err, "Timeout")
}

func TestIssuerUnreachable(t *testing.T) {
	f := newFakeIssuer(t)
	tok := f.sign(t, f.claims(newClock().Now()))
	f.srv.Close()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	_, err := v.VerifyToken(context.Background(), tok)
	mustUndecided(t, err, "connect")
}

// TestRefreshFailureKeepsKeys: when the periodic refresh fails, the keys
// fetched before stay in use.
func TestRefreshFailureKeepsKeys(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, clk)
	tok := f.sign(t, f.claims(clk.Now()))
	mustVerify(t, v, tok)
	f.setJWKS(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	clk.Add(auth.RefreshAfter)
	mustVerify(t, v, tok)
	for deadline := time.Now().Add(linepeer.HangGuard); f.jwksHits.Load() < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the refresh was not tried")
		}
	}
	clk.Add(auth.MinRefetchGap)
	mustVerify(t, v, tok) // the refresh failed: the keys held still answer
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	s := encodeSegment(t, v)
	b, _ := base64.RawURLEncoding.DecodeString(s)
	return string(b)
}

// fetchWatcher is an http.RoundTripper that closes done once a request
// for the JWK set has come back (or failed), once armed.
type fetchWatcher struct {
	armed atomic.Bool
	done  chan struct{}
}

func (w *fetchWatcher) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if w.armed.Load() && strings.HasSuffix(r.URL.Path, "/jwks") {
		close(w.done)
	}
	return resp, err
}

// TestStaleKeysNotWaited: once the keys are stale, a token whose key is
// held is verified with them at once, while one refresh, on its own
// goroutine, waits for an issuer that does not answer; the refreshed set
// is used once it arrives. Before, every such request waited for the
// refresh (10 s each with an issuer that never answers), and a failed
// one left the keys stale for the next to wait again.
func TestStaleKeysNotWaited(t *testing.T) {
	linepeer.CheckLeaks(t)
	f := newFakeIssuer(t)
	clk := newClock()
	watch := &fetchWatcher{done: make(chan struct{})}
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), HTTPClient: &http.Client{Transport: watch}}, clk)
	tok := f.sign(t, f.claims(clk.Now()))
	mustVerify(t, v, tok)

	next, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}, 1), make(chan struct{})
	f.setJWKS(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		jsonHandler(jwksOf(jwkOf(f.kid, &f.key.PublicKey), jwkOf("next", &next.PublicKey)))(w, r)
	})
	watch.armed.Store(true)
	clk.Add(auth.RefreshAfter)
	for range 10 {
		mustVerify(t, v, tok)
	}
	<-started
	select {
	case <-watch.done:
		t.Fatal("the requests waited for the refresh")
	default:
	}
	if n := f.jwksHits.Load(); n != 2 {
		t.Errorf("%d fetches of the JWK set, want 2: one refresh at a time", n)
	}
	close(release)
	<-watch.done
	rotated := signWith(t, jwt.SigningMethodES256, "next", f.claims(clk.Now()), next)
	for deadline := time.Now().Add(linepeer.HangGuard); ; time.Sleep(time.Millisecond) {
		if _, err := v.VerifyToken(context.Background(), rotated); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the refreshed set is not used")
		}
	}
}
