package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
)

// A publicKey is one usable key of an issuer's JWK set: its id, the JWS
// algorithms it may verify, and the key itself.
type publicKey struct {
	kid  string
	algs []string
	key  crypto.PublicKey
}

// fits reports whether the key may verify a token signed with alg: an RSA
// key never verifies an HMAC or ECDSA signature, whatever the token's
// header claims. This is the check that stops algorithm confusion.
func (k *publicKey) fits(alg string) bool {
	return slices.Contains(k.algs, alg)
}

// same reports whether k and o are the same key, for the same kid and
// algorithms.
func (k *publicKey) same(o *publicKey) bool {
	eq, ok := k.key.(interface{ Equal(crypto.PublicKey) bool })
	return ok && k.kid == o.kid && slices.Equal(k.algs, o.algs) && eq.Equal(o.key)
}

// rsaAlgs, and the per-curve ECDSA algorithms, are the JWS algorithms
// (RFC 7518 §3) a key of each type may verify. Only asymmetric ones:
// a resource server never holds a symmetric signing secret.
var (
	rsaAlgs   = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}
	curveAlgs = map[string]string{"P-256": "ES256", "P-384": "ES384", "P-521": "ES512"}
)

// asymmetricAlgs is every algorithm the verifier accepts at all, whatever
// the key set holds; "none" and the HS family are never among them.
var asymmetricAlgs = append(slices.Clone(rsaAlgs), "ES256", "ES384", "ES512", "EdDSA")

// maxKeys bounds the keys of a set. Real sets hold two or three (current,
// next, previous); a set of more is refused, not truncated, so that the
// misconfiguration shows.
const maxKeys = 100

// RSA moduli outside these bounds are refused: shorter ones are breakable,
// and longer ones would make every verification slow.
const (
	minRSABits = 2048
	maxRSABits = 8192
)

// jwk is a JSON Web Key (RFC 7517) as far as the verifier reads it.
type jwk struct {
	Kty    string   `json:"kty"`
	Kid    string   `json:"kid"`
	Use    string   `json:"use"`
	KeyOps []string `json:"key_ops"`
	Alg    string   `json:"alg"`
	Crv    string   `json:"crv"`
	N      string   `json:"n"`
	E      string   `json:"e"`
	X      string   `json:"x"`
	Y      string   `json:"y"`
}

// errSkipKey marks a key that is well formed but not for verifying
// signatures (an encryption key, say, or a kind this package does not
// know): the set is still good without it.
var errSkipKey = errors.New("not a signature verification key")

// parseJWKS reads a JWK set and returns its signature verification keys.
// Keys for other uses, and of other types, are left out; a key that claims
// to be a signing key but is malformed fails the whole set, as does a set
// with no usable key at all.
func parseJWKS(data []byte) ([]*publicKey, error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("JWK set: %w", err)
	}
	if len(set.Keys) > maxKeys {
		return nil, fmt.Errorf("JWK set holds %d keys, more than %d", len(set.Keys), maxKeys)
	}
	var keys []*publicKey
	for i, raw := range set.Keys {
		var k jwk
		if err := json.Unmarshal(raw, &k); err != nil {
			return nil, fmt.Errorf("JWK set: key %d: %w", i, err)
		}
		pk, err := k.publicKey()
		if errors.Is(err, errSkipKey) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("JWK set: key %d (kid %q): %w", i, k.Kid, err)
		}
		keys = append(keys, pk)
	}
	if len(keys) == 0 {
		return nil, errors.New("JWK set holds no signature verification key")
	}
	return keys, nil
}

// publicKey converts k, checking that its alg member, if any, is one this
// key type may verify.
func (k *jwk) publicKey() (*publicKey, error) {
	if k.Use != "" && k.Use != "sig" {
		return nil, errSkipKey
	}
	if k.KeyOps != nil && !slices.Contains(k.KeyOps, "verify") {
		return nil, errSkipKey
	}
	var (
		key  crypto.PublicKey
		algs []string
		err  error
	)
	switch k.Kty {
	case "RSA":
		key, err = k.rsa()
		algs = rsaAlgs
	case "EC":
		key, err = k.ecdsa()
		algs = []string{curveAlgs[k.Crv]}
	case "OKP":
		key, err = k.ed25519()
		algs = []string{"EdDSA"}
	default: // "oct" (a symmetric secret) among them
		return nil, errSkipKey
	}
	if err != nil {
		return nil, err
	}
	if k.Alg != "" {
		if !slices.Contains(algs, k.Alg) {
			return nil, fmt.Errorf("alg %q does not fit a key of type %s", k.Alg, k.Kty)
		}
		algs = []string{k.Alg}
	}
	return &publicKey{kid: k.Kid, algs: algs, key: key}, nil
}

func (k *jwk) rsa() (*rsa.PublicKey, error) {
	n, err := decodeBig("n", k.N)
	if err != nil {
		return nil, err
	}
	e, err := decodeBig("e", k.E)
	if err != nil {
		return nil, err
	}
	if bits := n.BitLen(); bits < minRSABits || bits > maxRSABits {
		return nil, fmt.Errorf("RSA modulus of %d bits, outside [%d, %d]", bits, minRSABits, maxRSABits)
	}
	if !e.IsInt64() || e.Int64() < 3 || e.Int64() > 1<<31-1 || e.Bit(0) == 0 {
		return nil, errors.New("RSA exponent is not an odd number in [3, 2^31)")
	}
	return &rsa.PublicKey{N: n, E: int(e.Int64())}, nil
}

func (k *jwk) ecdsa() (*ecdsa.PublicKey, error) {
	var curve elliptic.Curve
	switch k.Crv {
	case "P-256":
		curve = elliptic.P256()
	case "P-384":
		curve = elliptic.P384()
	case "P-521":
		curve = elliptic.P521()
	default:
		return nil, errSkipKey // secp256k1, say
	}
	size := (curve.Params().BitSize + 7) / 8
	x, err := decodeFixed("x", k.X, size)
	if err != nil {
		return nil, err
	}
	y, err := decodeFixed("y", k.Y, size)
	if err != nil {
		return nil, err
	}
	// ParseUncompressedPublicKey checks that the point is on the curve.
	point := append(append([]byte{4}, x...), y...)
	return ecdsa.ParseUncompressedPublicKey(curve, point)
}

func (k *jwk) ed25519() (ed25519.PublicKey, error) {
	if k.Crv != "Ed25519" {
		return nil, errSkipKey // X25519 is for key agreement; Ed448 is not supported
	}
	x, err := decodeFixed("x", k.X, ed25519.PublicKeySize)
	if err != nil {
		return nil, err
	}
	return ed25519.PublicKey(x), nil
}

func decodeBig(name, s string) (*big.Int, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) == 0 {
		return nil, fmt.Errorf("member %s is not base64url", name)
	}
	return new(big.Int).SetBytes(b), nil
}

// decodeFixed decodes a base64url member that must be exactly size bytes
// long (RFC 7518 §6.2.1.2 requires the full length for EC coordinates).
func decodeFixed(name, s string, size int) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("member %s is not base64url", name)
	}
	if len(b) != size {
		return nil, fmt.Errorf("member %s is %d bytes, want %d", name, len(b), size)
	}
	return b, nil
}
