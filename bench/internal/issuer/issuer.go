// Package issuer is the authorization server of the benchmark's
// authorization runs: an OpenID discovery document and a JWK set of one
// RSA key on a loopback port, and the one access token every client of a
// run sends. Both servers under test fetch the keys from it once, through
// discovery, and verify the same token with the same verifier
// (github.com/mcpgen/mcpgen/auth), so that what differs between them is
// only what each library does around the verification.
package issuer

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net"
	"net/http"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Scope is the scope the servers require of every request, and the token
// holds.
const Scope = "mcp"

// keyID names the issuer's key.
const keyID = "bench-1"

// An Issuer is a running authorization server.
type Issuer struct {
	URL string // the issuer identifier, http://127.0.0.1:PORT
	key *rsa.PrivateKey
	srv *http.Server
}

// Start generates an RSA key of 2048 bits, the size most identity
// providers sign access tokens with, and serves discovery and the key set.
func Start() (*Issuer, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	is := &Issuer{URL: "http://" + ln.Addr().String(), key: key}
	b64 := base64.RawURLEncoding.EncodeToString
	jwks, _ := json.Marshal(map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "kid": keyID, "use": "sig", "alg": "RS256",
		"n": b64(key.N.Bytes()), "e": b64(big.NewInt(int64(key.E)).Bytes()),
	}}})
	discovery, _ := json.Marshal(map[string]string{"issuer": is.URL, "jwks_uri": is.URL + "/jwks.json"})
	mux := http.NewServeMux()
	serve := func(body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
		}
	}
	mux.Handle("GET /.well-known/openid-configuration", serve(discovery))
	mux.Handle("GET /jwks.json", serve(jwks))
	is.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go is.srv.Serve(ln)
	return is, nil
}

// Token returns an RS256 access token of the issuer for audience, with
// Scope, valid for an hour.
func (is *Issuer) Token(audience string) (string, error) {
	now := time.Now()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
		"iss": is.URL, "sub": "bench", "client_id": "bench", "aud": []string{audience}, "scope": Scope,
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(), "jti": "bench",
	})
	tok.Header["kid"] = keyID
	return tok.SignedString(is.key)
}

// Close stops the issuer.
func (is *Issuer) Close() error { return is.srv.Close() }
