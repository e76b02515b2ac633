package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

var b64 = base64.RawURLEncoding.EncodeToString

func rsaJWK(t *testing.T, bits int) map[string]any {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"kty": "RSA", "kid": "r", "n": b64(k.N.Bytes()), "e": b64(big.NewInt(int64(k.E)).Bytes())}
}

func ecJWK(t *testing.T) map[string]any {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := k.PublicKey.Bytes()
	return map[string]any{"kty": "EC", "kid": "e", "crv": "P-256", "x": b64(b[1:33]), "y": b64(b[33:])}
}

func with(k map[string]any, kv ...any) map[string]any {
	c := make(map[string]any, len(k))
	for n, v := range k {
		c[n] = v
	}
	for i := 0; i < len(kv); i += 2 {
		c[kv[i].(string)] = kv[i+1]
	}
	return c
}

func set(t *testing.T, keys ...map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"keys": keys})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseJWKS(t *testing.T) {
	r, e := rsaJWK(t, 2048), ecJWK(t)

	keys, err := parseJWKS(set(t, r, with(e, "alg", "ES256"), with(r, "kid", "ps", "alg", "PS384")))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(keys[0].algs, keys[1].algs, keys[2].algs); got != "[RS256 RS384 RS512 PS256 PS384 PS512] [ES256] [PS384]" {
		t.Errorf("algs = %s", got)
	}

	// Left out, the rest of the set still good.
	keys, err = parseJWKS(set(t, e,
		with(r, "use", "enc"),
		with(r, "key_ops", []string{"encrypt"}),
		map[string]any{"kty": "oct", "k": b64([]byte("secret"))},
		map[string]any{"kty": "EC", "crv": "secp256k1", "x": "AA", "y": "AA"},
		map[string]any{"kty": "OKP", "crv": "X25519", "x": "AA"},
		map[string]any{"kty": "AKP", "alg": "ML-DSA-44"},
	))
	if err != nil || len(keys) != 1 || keys[0].kid != "e" {
		t.Errorf("parseJWKS kept %d keys, %v; want only the EC one", len(keys), err)
	}

	offCurve := with(e, "y", e["x"])
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{set(t, rsaJWK(t, 1024)), "RSA modulus of 1024 bits"},
		{set(t, with(r, "e", b64([]byte{1, 0, 0}))), "RSA exponent"},
		{set(t, with(r, "n", "!!")), "member n is not base64url"},
		{set(t, offCurve), "point not on curve"},
		{set(t, with(e, "x", b64(make([]byte, 31)))), "member x is 31 bytes, want 32"},
		{set(t, with(e, "alg", "RS256")), `alg "RS256" does not fit a key of type EC`},
		{set(t, with(r, "alg", "HS256")), `alg "HS256" does not fit a key of type RSA`},
		{set(t, map[string]any{"kty": "OKP", "crv": "Ed25519", "x": b64(make([]byte, 16))}), "member x is 16 bytes"},
		{set(t), "no signature verification key"},
		{[]byte(`{"keys":{}}`), "JWK set"},
		{[]byte(`[`), "JWK set"},
	} {
		if _, err := parseJWKS(tc.data); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseJWKS(%.80s…) = %v, want an error saying %q", tc.data, err, tc.want)
		}
	}

	many := make([]map[string]any, maxKeys)
	for i := range many {
		many[i] = with(e, "kid", fmt.Sprint(i))
	}
	if keys, err := parseJWKS(set(t, many...)); err != nil || len(keys) != maxKeys {
		t.Errorf("a set of %d keys: %d keys, %v", maxKeys, len(keys), err)
	}
	if _, err := parseJWKS(set(t, append(many, e)...)); err == nil {
		t.Errorf("a set of %d keys was accepted", maxKeys+1)
	}
}
