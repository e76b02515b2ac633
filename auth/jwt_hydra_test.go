package auth_test

import (
	"context"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"log/slog"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
)

const resource = "http://127.0.0.1:8080/mcp"

// newVerifier returns a verifier of s's tokens that reads the time from c.
func newVerifier(t testing.TB, cfg auth.JWTConfig, c *clock) *auth.JWTVerifier {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return withClock[*auth.JWTVerifier](t, c)(auth.NewJWTVerifier(cfg))
}

// withClock returns a function that fails the test on err, or else makes
// v read the time from c (unless c is nil) and returns it.
func withClock[V interface{ SetClock(func() time.Time) }](t testing.TB, c *clock) func(V, error) V {
	return func(v V, err error) V {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if c != nil {
			v.SetClock(c.Now)
		}
		return v
	}
}

func mustVerify(t *testing.T, v runtime.TokenVerifier, tok string) *runtime.TokenInfo {
	t.Helper()
	ti, err := v.VerifyToken(context.Background(), tok)
	if err != nil {
		t.Fatalf("VerifyToken: %v", err)
	}
	return ti
}

func mustRefuse(t *testing.T, v runtime.TokenVerifier, tok, why string) {
	t.Helper()
	ti, err := v.VerifyToken(context.Background(), tok)
	if !errors.Is(err, runtime.ErrInvalidToken) {
		t.Fatalf("VerifyToken = %+v, %v; want an error wrapping ErrInvalidToken", ti, err)
	}
	if !strings.Contains(err.Error(), why) {
		t.Errorf("error %q does not say %q", err, why)
	}
}

// TestJWTHydra verifies tokens that a real Hydra issued, through its
// OpenID discovery document and JWK set.
func TestJWTHydra(t *testing.T) {
	t.Parallel()
	s := hydratest.Start(t)
	c := s.RegisterClient(t, hydratest.ClientConfig{
		Scopes:   []string{"notes:read", "notes:write"},
		Audience: []string{resource, "http://other.example/mcp"},
	})
	v := newVerifier(t, auth.JWTConfig{Issuer: s.Issuer()}, nil)

	t.Run("scopes", func(t *testing.T) {
		for _, scopes := range [][]string{nil, {"notes:read"}, {"notes:write"}, {"notes:read", "notes:write"}} {
			tok := s.Token(t, c, scopes, []string{resource})
			ti := mustVerify(t, v, tok)
			if !slices.Equal(ti.Scopes, scopes) && !(len(scopes) == 0 && len(ti.Scopes) == 0) {
				t.Errorf("token for scopes %q: Scopes = %q", scopes, ti.Scopes)
			}
			if ti.Subject != c.ID || ti.ClientID != c.ID || ti.Issuer != s.Issuer() {
				t.Errorf("Subject, ClientID, Issuer = %q, %q, %q; want %q, %q, %q", ti.Subject, ti.ClientID, ti.Issuer, c.ID, c.ID, s.Issuer())
			}
			if !slices.Equal(ti.Audience, []string{resource}) {
				t.Errorf("Audience = %q, want [%s]", ti.Audience, resource)
			}
			_, claims, _ := segments(t, tok)
			if want := time.Unix(int64(claims["exp"].(float64)), 0); !ti.Expiry.Equal(want) {
				t.Errorf("Expiry = %v, want %v", ti.Expiry, want)
			}
			if ti.Claims["jti"] != claims["jti"] || ti.Claims["jti"] == nil {
				t.Errorf("Claims[jti] = %v, want %v", ti.Claims["jti"], claims["jti"])
			}
		}
	})

	t.Run("foreign audience", func(t *testing.T) {
		tok := s.Token(t, c, []string{"notes:read"}, []string{"http://other.example/mcp"})
		// Without an Audience the verifier reports it; the runtime refuses it.
		ti := mustVerify(t, v, tok)
		if !slices.Equal(ti.Audience, []string{"http://other.example/mcp"}) {
			t.Errorf("Audience = %q, want the foreign one", ti.Audience)
		}
		strict := newVerifier(t, auth.JWTConfig{Issuer: s.Issuer(), Audience: resource}, nil)
		mustRefuse(t, strict, tok, "aud")
		mustVerify(t, strict, s.Token(t, c, []string{"notes:read"}, []string{resource}))
	})

	t.Run("expired", func(t *testing.T) {
		tok := s.Token(t, c, nil, nil)
		_, claims, _ := segments(t, tok)
		exp := time.Unix(int64(claims["exp"].(float64)), 0)
		clk := newClock()
		v := newVerifier(t, auth.JWTConfig{Issuer: s.Issuer()}, clk)
		clk.Set(exp.Add(auth.DefaultClockSkew - time.Second))
		mustVerify(t, v, tok) // within the skew
		clk.Set(exp.Add(auth.DefaultClockSkew))
		mustRefuse(t, v, tok, "expired")
	})

	t.Run("not yet valid", func(t *testing.T) {
		tok := s.Token(t, c, nil, nil)
		_, claims, _ := segments(t, tok)
		nbf := time.Unix(int64(claims["nbf"].(float64)), 0)
		clk := newClock()
		v := newVerifier(t, auth.JWTConfig{Issuer: s.Issuer(), ClockSkew: 5 * time.Second}, clk)
		clk.Set(nbf.Add(-5 * time.Second))
		mustVerify(t, v, tok) // within the skew
		clk.Set(nbf.Add(-6 * time.Second))
		mustRefuse(t, v, tok, "not valid yet")
	})

	t.Run("wrong issuer", func(t *testing.T) {
		// The keys are Hydra's, so the signature verifies: only iss is wrong.
		jwks := s.Issuer() + "/.well-known/jwks.json"
		tok := s.Token(t, c, nil, nil)
		mustVerify(t, newVerifier(t, auth.JWTConfig{Issuer: s.Issuer(), JWKSURL: jwks}, nil), tok)
		other := newVerifier(t, auth.JWTConfig{Issuer: "https://issuer.example", JWKSURL: jwks}, nil)
		mustRefuse(t, other, tok, "issuer")
	})

	t.Run("discovery names another issuer", func(t *testing.T) {
		// Hydra's metadata says its issuer has no trailing slash: a
		// verifier configured with one must not take its keys.
		v := newVerifier(t, auth.JWTConfig{Issuer: s.Issuer() + "/"}, nil)
		_, err := v.VerifyToken(context.Background(), s.Token(t, c, nil, nil))
		if err == nil || errors.Is(err, runtime.ErrInvalidToken) || !strings.Contains(err.Error(), "names issuer") {
			t.Fatalf("err = %v, want a discovery error that is not ErrInvalidToken", err)
		}
	})

	t.Run("tampered", func(t *testing.T) {
		tok := s.Token(t, c, []string{"notes:read"}, nil)
		header, claims, parts := segments(t, tok)
		claims["scp"] = []string{"notes:read", "notes:write"}
		mustRefuse(t, v, parts[0]+"."+encodeSegment(t, claims)+"."+parts[2], "signature")
		sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
		sig[len(sig)/2] ^= 1
		mustRefuse(t, v, parts[0]+"."+parts[1]+"."+base64.RawURLEncoding.EncodeToString(sig), "signature")
		// A kid that names no key of Hydra's.
		header["kid"] = "no-such-key"
		mustRefuse(t, v, encodeSegment(t, header)+"."+parts[1]+"."+parts[2], `no key "no-such-key"`)
	})

	t.Run("alg none", func(t *testing.T) {
		header, _, parts := segments(t, s.Token(t, c, nil, nil))
		header["alg"] = "none"
		mustRefuse(t, v, encodeSegment(t, header)+"."+parts[1]+".", "signing method none is invalid")
		delete(header, "kid")
		mustRefuse(t, v, encodeSegment(t, header)+"."+parts[1]+".", "signing method none is invalid")
	})

	t.Run("HS256 with the public key", func(t *testing.T) {
		// The classic confusion: sign with HMAC, using the issuer's
		// public key (as PEM, as the DER, as the JWK) as the secret.
		header, _, parts := segments(t, s.Token(t, c, nil, nil))
		pub := hydraPublicKey(t, s, header["kid"].(string))
		der, err := x509.MarshalPKIXPublicKey(pub)
		if err != nil {
			t.Fatal(err)
		}
		header["alg"] = "HS256"
		for _, secret := range [][]byte{pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), der, pub.N.Bytes()} {
			signing := encodeSegment(t, header) + "." + parts[1]
			mac := hmac.New(sha256.New, secret)
			mac.Write([]byte(signing))
			mustRefuse(t, v, signing+"."+base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), "signing method HS256 is invalid")
		}
	})
}

// hydraPublicKey fetches the RSA public key kid from Hydra's JWK set.
func hydraPublicKey(t *testing.T, s *hydratest.Server, kid string) *rsa.PublicKey {
	t.Helper()
	res, err := http.Get(s.Issuer() + "/.well-known/jwks.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var set struct {
		Keys []struct{ Kid, N, E string }
	}
	if err := json.NewDecoder(res.Body).Decode(&set); err != nil {
		t.Fatal(err)
	}
	for _, k := range set.Keys {
		if k.Kid == kid {
			n, _ := base64.RawURLEncoding.DecodeString(k.N)
			e, _ := base64.RawURLEncoding.DecodeString(k.E)
			return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		}
	}
	t.Fatalf("no key %q in Hydra's JWK set", kid)
	return nil
}

// TestJWTHydraKeyRotation rotates Hydra's signing key under a running
// verifier: tokens signed with the old key keep verifying while Hydra
// publishes it, tokens with the new kid verify once the verifier refetched
// (at most MinRefetchGap after its last fetch), and once Hydra withdraws
// the old key the periodic refresh stops trusting it, once it is done: the
// request that finds the set stale is answered with it, not made to wait.
func TestJWTHydraKeyRotation(t *testing.T) {
	t.Parallel()
	s := hydratest.Start(t)
	c := s.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{"notes:read"}})
	clk := newClock()
	v := newVerifier(t, auth.JWTConfig{Issuer: s.Issuer()}, clk)

	old := s.Token(t, c, []string{"notes:read"}, nil)
	oldHeader, _, _ := segments(t, old)
	mustVerify(t, v, old)

	kid := s.RotateKeys(t, "ES256")
	fresh := s.Token(t, c, []string{"notes:read"}, nil)
	if h, _, _ := segments(t, fresh); h["kid"] != kid || h["alg"] != "ES256" {
		t.Fatalf("Hydra signed with %v after the rotation, want kid %q ES256", h, kid)
	}
	mustVerify(t, v, old)
	// The set was fetched a moment ago: no refetch yet for the new kid.
	mustRefuse(t, v, fresh, "no key")
	clk.Add(auth.MinRefetchGap)
	mustVerify(t, v, fresh)
	mustVerify(t, v, old) // both keys are published

	s.DeleteKey(t, oldHeader["kid"].(string))
	mustVerify(t, v, old) // the cached set still has it
	clk.Add(auth.RefreshAfter)
	mustVerify(t, v, old) // answered with the set held, which a refresh replaces
	for deadline := time.Now().Add(linepeer.HangGuard); ; time.Sleep(10 * time.Millisecond) {
		if _, err := v.VerifyToken(context.Background(), old); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the withdrawn key is still trusted after the refresh")
		}
	}
	mustRefuse(t, v, old, "no key")
	mustVerify(t, v, fresh)
}
