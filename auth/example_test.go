package auth_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/auth"
)

// A verifier for the JWT access tokens of one issuer. Here the issuer is
// a stand-in on 127.0.0.1 that publishes one Ed25519 key; a real one
// (Hydra, Keycloak, Auth0, Entra ID, …) publishes its discovery document
// and JWK set the same way.
func Example() {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	srv.Config.Handler = issuerHandler(issuer, pub)
	srv.Start()
	defer srv.Close()

	v, err := auth.NewJWTVerifier(auth.JWTConfig{Issuer: issuer})
	if err != nil {
		fmt.Println(err)
		return
	}

	// A token as the issuer would sign it.
	tok := jwt.NewWithClaims(jwt.SigningMethodEdDSA, jwt.MapClaims{
		"iss": issuer, "sub": "alice", "client_id": "notes-app",
		"aud": "https://notes.example/mcp", "scope": "notes:read notes:write",
		"exp": time.Now().Add(time.Hour).Unix(),
	})
	tok.Header["kid"] = "key-1"
	signed, _ := tok.SignedString(priv)

	ti, err := v.VerifyToken(context.Background(), signed)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ti.Subject, ti.ClientID, ti.Scopes, ti.Audience)

	_, err = v.VerifyToken(context.Background(), signed[:len(signed)-4]+"AAAA")
	fmt.Println(err != nil)
	// Output:
	// alice notes-app [notes:read notes:write] [https://notes.example/mcp]
	// true
}

// issuerHandler serves an OpenID discovery document and a JWK set of one
// Ed25519 key.
func issuerHandler(issuer string, pub ed25519.PublicKey) http.Handler {
	mux := http.NewServeMux()
	serve := func(path string, doc any) {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(doc)
		})
	}
	serve("/.well-known/openid-configuration", map[string]string{"issuer": issuer, "jwks_uri": issuer + "/jwks"})
	serve("/jwks", map[string]any{"keys": []map[string]string{{
		"kty": "OKP", "crv": "Ed25519", "kid": "key-1", "use": "sig",
		"x": base64.RawURLEncoding.EncodeToString(pub),
	}}})
	return mux
}

// A verifier of opaque tokens that asks the authorization server about
// each one (RFC 7662), reusing an active answer for 10 seconds.
func ExampleNewIntrospectionVerifier() {
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id, _, _ := r.BasicAuth(); id != "notes-server" {
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.PostFormValue("token") == "opaque-token-of-alice" {
			fmt.Fprint(w, `{"active":true,"sub":"alice","scope":"notes:read"}`)
			return
		}
		fmt.Fprint(w, `{"active":false}`)
	}))
	defer as.Close()

	v, err := auth.NewIntrospectionVerifier(auth.IntrospectionConfig{
		Endpoint:     as.URL,
		ClientID:     "notes-server",
		ClientSecret: "its secret",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ti, err := v.VerifyToken(context.Background(), "opaque-token-of-alice")
	fmt.Println(ti.Subject, ti.Scopes, err)
	_, err = v.VerifyToken(context.Background(), "something else")
	fmt.Println(err)
	// Output:
	// alice [notes:read] <nil>
	// invalid token: inactive: the authorization server says it is not active
}
