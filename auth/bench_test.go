package auth_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/hydratest"
)

// BenchmarkJWTVerify verifies one token of Hydra's with the key set
// cached, the verdict cache off (every use checks the signature: the cost
// the verifier adds to a request with a token it has not seen) and on
// (the same token again, as a client sends it with every request). Hydra
// signs with RS256 and a 4096-bit key by default; ES256 after a rotation
// to an EC key. The fake-ES256 cases need no Hydra.
func BenchmarkJWTVerify(b *testing.B) {
	both := func(b *testing.B, issuer, tok string) {
		b.Run("uncached", func(b *testing.B) { benchVerify(b, auth.JWTConfig{Issuer: issuer, CacheTTL: -1}, tok) })
		b.Run("cached", func(b *testing.B) { benchVerify(b, auth.JWTConfig{Issuer: issuer}, tok) })
	}
	b.Run("fake-ES256", func(b *testing.B) {
		f := newFakeIssuer(b)
		both(b, f.issuer(), f.sign(b, f.claims(newClock().Now())))
	})
	s := hydratest.Start(b)
	c := s.RegisterClient(b, hydratest.ClientConfig{Scopes: []string{"notes:read"}})
	rs := s.Token(b, c, []string{"notes:read"}, nil)
	b.Run("hydra-RS256-4096", func(b *testing.B) { both(b, s.Issuer(), rs) })
	s.RotateKeys(b, "ES256")
	es := s.Token(b, c, []string{"notes:read"}, nil)
	b.Run("hydra-ES256", func(b *testing.B) { both(b, s.Issuer(), es) })
}

func benchVerify(b *testing.B, cfg auth.JWTConfig, tok string) {
	cfg.Logger = slog.New(slog.DiscardHandler)
	v, err := auth.NewJWTVerifier(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := v.VerifyToken(ctx, tok); err != nil { // warms the key cache
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.VerifyToken(ctx, tok); err != nil {
			b.Fatal(err)
		}
	}
}
