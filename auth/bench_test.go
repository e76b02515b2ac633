package auth_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/hydratest"
)

// BenchmarkJWTVerify verifies one token of Hydra's with the key set
// cached: the cost the verifier adds to each request. Hydra signs with
// RS256 and a 4096-bit key by default; ES256 after a rotation to an EC
// key. The fake-ES256 case needs no Hydra.
func BenchmarkJWTVerify(b *testing.B) {
	b.Run("fake-ES256", func(b *testing.B) {
		f := newFakeIssuer(b)
		benchVerify(b, f.issuer(), f.sign(b, f.claims(newClock().Now())))
	})
	s := hydratest.Start(b)
	c := s.RegisterClient(b, hydratest.ClientConfig{Scopes: []string{"notes:read"}})
	rs := s.Token(b, c, []string{"notes:read"}, nil)
	b.Run("hydra-RS256-4096", func(b *testing.B) { benchVerify(b, s.Issuer(), rs) })
	s.RotateKeys(b, "ES256")
	es := s.Token(b, c, []string{"notes:read"}, nil)
	b.Run("hydra-ES256", func(b *testing.B) { benchVerify(b, s.Issuer(), es) })
}

func benchVerify(b *testing.B, issuer, tok string) {
	v, err := auth.NewJWTVerifier(auth.JWTConfig{Issuer: issuer, Logger: slog.New(slog.DiscardHandler)})
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
