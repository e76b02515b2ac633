package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/linepeer"
)

// checksAre fails the test unless v has checked n tokens in full.
func checksAre(t *testing.T, v *auth.JWTVerifier, n int64, when string) {
	t.Helper()
	if got := v.SignatureChecks(); got != n {
		t.Fatalf("%s: %d signatures checked, want %d", when, got, n)
	}
}

// tokenOf signs the issuer's claims for now with jti, so that tokens of
// the same shape and size differ.
func tokenOf(t *testing.T, f *fakeIssuer, now time.Time, jti string) string {
	t.Helper()
	claims := f.claims(now)
	claims["jti"] = jti
	return f.sign(t, claims)
}

// TestVerdictCache: a token verified once is accepted again without its
// signature being checked, and each caller gets a TokenInfo and lists of
// its own (the claims are shared, and read only); with CacheTTL negative
// every use checks the signature.
func TestVerdictCache(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	tok := tokenOf(t, f, clk.Now(), "a")

	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, clk)
	first := mustVerify(t, v, tok)
	first.Scopes[0], first.Audience, first.Subject = "admin", nil, "root"
	for range 10 {
		ti := mustVerify(t, v, tok)
		if len(ti.Scopes) != 1 || ti.Scopes[0] != "notes:read" || len(ti.Audience) != 1 || ti.Audience[0] != "http://127.0.0.1/mcp" || ti.Subject != "user-1" {
			t.Fatalf("a caller's changes reached the cache: %+v", ti)
		}
		ti.Scopes, ti.Audience[0] = append(ti.Scopes, "admin"), "elsewhere"
	}
	checksAre(t, v, 1, "11 uses of one token")
	if n, _ := v.CacheStats(); n != 1 {
		t.Errorf("%d tokens cached, want 1", n)
	}

	off := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), CacheTTL: -1}, clk)
	for range 11 {
		mustVerify(t, off, tok)
	}
	checksAre(t, off, 11, "11 uses with the cache off")
	if n, _ := off.CacheStats(); n != 0 {
		t.Errorf("the cache is off, yet holds %d tokens", n)
	}
}

// TestVerdictCacheTTL: a cached token is checked in full again CacheTTL
// after its verification, and never accepted past its exp.
func TestVerdictCacheTTL(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), CacheTTL: time.Minute, ClockSkew: -1}, clk)
	tok := tokenOf(t, f, clk.Now(), "a")
	mustVerify(t, v, tok)
	clk.Add(time.Minute - time.Second)
	mustVerify(t, v, tok)
	checksAre(t, v, 1, "within the TTL")
	clk.Add(time.Second)
	mustVerify(t, v, tok)
	checksAre(t, v, 2, "at the TTL")

	claims := f.claims(clk.Now())
	claims["exp"] = clk.Now().Add(30 * time.Second).Unix()
	short := f.sign(t, claims)
	mustVerify(t, v, short)
	clk.Add(30 * time.Second)
	mustRefuse(t, v, short, "token is expired")
}

// TestVerdictCacheClaimsChecked: every use of a cached token checks its
// claims against the clock again: a clock set back before the token's
// nbf and iat refuses it, as it would have the first time.
func TestVerdictCacheClaimsChecked(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, clk)
	tok := tokenOf(t, f, clk.Now(), "a")
	mustVerify(t, v, tok)
	clk.Add(-time.Hour)
	mustRefuse(t, v, tok, "token is not valid yet")
	clk.Add(time.Hour)
	mustVerify(t, v, tok)
	clk.Add(time.Hour + auth.DefaultClockSkew) // exp, with the skew
	mustRefuse(t, v, tok, "token is expired")
	if n, _ := v.CacheStats(); n != 0 {
		t.Errorf("%d tokens cached after the only one expired", n)
	}
}

// TestVerdictCacheWholeToken: the cache is keyed by the whole token: a
// token that differs from a cached one only in its signature's last
// character, or by a character more or less, is checked and refused.
func TestVerdictCacheWholeToken(t *testing.T) {
	f := newFakeIssuer(t)
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, nil)
	tok := tokenOf(t, f, newClock().Now(), "a")
	mustVerify(t, v, tok)
	last := tok[len(tok)-1]
	other := byte('A')
	if last == 'A' {
		other = 'B'
	}
	for _, forged := range []string{tok[:len(tok)-1] + string(other), tok[:len(tok)-1], tok + "A"} {
		if _, err := v.VerifyToken(context.Background(), forged); err == nil {
			t.Errorf("a token that is not the cached one was accepted: ...%s", forged[len(forged)-8:])
		}
	}
	checksAre(t, v, 4, "the cached token and three others")
}

// TestVerdictCacheSize: CacheSize tokens are held; one more evicts the
// least recently used.
func TestVerdictCacheSize(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), CacheSize: 2}, clk)
	a, b, c := tokenOf(t, f, clk.Now(), "a"), tokenOf(t, f, clk.Now(), "b"), tokenOf(t, f, clk.Now(), "c")
	for _, tok := range []string{a, b, a, b, a} {
		mustVerify(t, v, tok)
	}
	checksAre(t, v, 2, "two tokens in a cache of two")
	mustVerify(t, v, c) // evicts b, the least recently used
	if n, _ := v.CacheStats(); n != 2 {
		t.Fatalf("%d tokens cached, want 2", n)
	}
	mustVerify(t, v, a)
	mustVerify(t, v, c)
	checksAre(t, v, 3, "a third token")
	mustVerify(t, v, b)
	checksAre(t, v, 4, "the evicted token")
}

// TestVerdictCacheBytes: tokens fill CacheBytes exactly and are all
// held; one more evicts the least recently used; a token whose entry
// alone is larger than CacheBytes is never held.
func TestVerdictCacheBytes(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	a, b, c := tokenOf(t, f, clk.Now(), "a"), tokenOf(t, f, clk.Now(), "b"), tokenOf(t, f, clk.Now(), "c")
	probe := newVerifier(t, auth.JWTConfig{Issuer: f.issuer()}, clk)
	mustVerify(t, probe, a)
	_, size := probe.CacheStats()
	if size < len(a) {
		t.Fatalf("an entry is estimated at %d bytes, less than its token's %d", size, len(a))
	}

	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), CacheBytes: 2 * size}, clk)
	for _, tok := range []string{a, b, a, b} {
		mustVerify(t, v, tok)
	}
	if n, bytes := v.CacheStats(); n != 2 || bytes != 2*size {
		t.Fatalf("cache holds %d tokens, %d bytes; want 2, %d", n, bytes, 2*size)
	}
	checksAre(t, v, 2, "two tokens at the bound")
	mustVerify(t, v, c) // evicts a
	if n, bytes := v.CacheStats(); n != 2 || bytes != 2*size {
		t.Fatalf("past the bound, cache holds %d tokens, %d bytes; want 2, %d", n, bytes, 2*size)
	}
	mustVerify(t, v, b)
	mustVerify(t, v, a)
	checksAre(t, v, 4, "the evicted token")

	small := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), CacheBytes: size - 1}, clk)
	mustVerify(t, small, a)
	mustVerify(t, small, a)
	checksAre(t, small, 2, "a token larger than the cache")
	if n, _ := small.CacheStats(); n != 0 {
		t.Errorf("a cache of %d bytes holds %d tokens of %d", size-1, n, size)
	}
}

// TestVerdictCacheRefusals: refused tokens are not remembered, and a
// flood of them evicts no accepted token, even from a cache of one.
func TestVerdictCacheRefusals(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), CacheSize: 1}, clk)
	good := tokenOf(t, f, clk.Now(), "good")
	mustVerify(t, v, good)
	stranger, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	expired := f.claims(clk.Now().Add(-2 * time.Hour))
	for i := range 100 {
		claims := f.claims(clk.Now())
		claims["jti"] = fmt.Sprint(i)
		mustRefuse(t, v, signWith(t, jwt.SigningMethodES256, f.kid, claims, stranger), "signature is invalid")
		expired["jti"] = fmt.Sprint(i)
		mustRefuse(t, v, f.sign(t, expired), "token is expired")
	}
	forged := signWith(t, jwt.SigningMethodES256, f.kid, f.claims(clk.Now()), stranger)
	mustRefuse(t, v, forged, "signature is invalid")
	mustRefuse(t, v, forged, "signature is invalid")
	checksAre(t, v, 203, "one good token, 202 refusals")
	mustVerify(t, v, good)
	checksAre(t, v, 203, "the good token after the flood")
	if n, _ := v.CacheStats(); n != 1 {
		t.Errorf("%d tokens cached, want 1", n)
	}
}

// TestVerdictCacheKeyWithdrawn: a cached token stays cached while the
// issuer publishes the key that signed it, across refreshes of the set;
// once the verifier has fetched a set without that key, the token is
// refused, as it would be without the cache.
func TestVerdictCacheKeyWithdrawn(t *testing.T) {
	linepeer.CheckLeaks(t)
	f := newFakeIssuer(t)
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), CacheTTL: time.Hour}, clk)
	tok := tokenOf(t, f, clk.Now(), "a")
	mustVerify(t, v, tok)

	next, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	refreshed := func(hits int64) {
		t.Helper()
		clk.Add(auth.RefreshAfter)
		mustVerify(t, v, tok) // stale keys answer while the refresh runs
		for deadline := time.Now().Add(linepeer.HangGuard); f.jwksHits.Load() < hits; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the keys were not refreshed")
			}
		}
	}
	// The issuer publishes its next key beside the current one.
	f.setJWKS(jsonHandler(jwksOf(jwkOf(f.kid, &f.key.PublicKey), jwkOf("next", &next.PublicKey))))
	refreshed(2)
	for deadline := time.Now().Add(linepeer.HangGuard); ; time.Sleep(time.Millisecond) {
		if _, err := v.VerifyToken(context.Background(), signWith(t, jwt.SigningMethodES256, "next", f.claims(clk.Now()), next)); err == nil {
			break // the refreshed set is in use
		}
		if time.Now().After(deadline) {
			t.Fatal("the refreshed set is not used")
		}
	}
	before := v.SignatureChecks()
	mustVerify(t, v, tok)
	checksAre(t, v, before, "a cached token whose key the refreshed set still holds")

	// The issuer withdraws the key that signed tok.
	f.setJWKS(jsonHandler(jwksOf(jwkOf("next", &next.PublicKey))))
	refreshed(3)
	for deadline := time.Now().Add(linepeer.HangGuard); ; time.Sleep(time.Millisecond) {
		if _, err := v.VerifyToken(context.Background(), tok); err != nil {
			mustRefuse(t, v, tok, `no key "fake-1"`)
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a token whose key was withdrawn is still accepted")
		}
	}
}

// TestVerdictCacheConcurrent: many goroutines verifying more tokens than
// the cache holds (run with -race) all get the right answers, and the
// cache stays within its bound.
func TestVerdictCacheConcurrent(t *testing.T) {
	f := newFakeIssuer(t)
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: f.issuer(), CacheSize: 3}, clk)
	var toks []string
	for i := range 5 {
		toks = append(toks, tokenOf(t, f, clk.Now(), fmt.Sprint("user-", i)))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8*50)
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				n := (g + i) % len(toks)
				ti, err := v.VerifyToken(context.Background(), toks[n])
				if want := fmt.Sprint("user-", n); err == nil && ti.Claims["jti"] != want {
					err = fmt.Errorf("the token of %s got the claims %v", want, ti.Claims)
				}
				if err != nil {
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
	if n, _ := v.CacheStats(); n > 3 {
		t.Errorf("%d tokens cached, more than 3", n)
	}
}
