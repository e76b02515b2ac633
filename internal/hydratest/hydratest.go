// Package hydratest starts a real OAuth 2.0 authorization server, ORY
// Hydra, for tests: in memory, on free loopback ports, issuing JWT access
// tokens by default. It registers clients, issues client-credentials
// tokens with given scopes and audiences, plays the user of an
// authorization code flow (Authorize), rotates the signing keys and
// revokes tokens, all through Hydra's own HTTP APIs; StartWith can put an
// observing proxy in front of the public API.
//
// The binary comes from $MCPGEN_HYDRA, or from the cache folder that
// .ci/install-hydra.sh builds it into. Without it a test is skipped, unless
// $MCPGEN_REQUIRE_HYDRA is set (CI sets it): then it fails.
//
// It is test support only, in the root module so that the nested modules
// (auth, examples) can import it too: an internal package is visible to
// every import path under the module path's root, whichever module holds
// the importer.
package hydratest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/hydra"
	"github.com/mcpgen/mcpgen/internal/proctest"
)

// Version is the Hydra version the tests are pinned to;
// .ci/install-hydra.sh builds it.
const Version = "v2.3.0"

// AccessTokenKeySet is the name of the JSON Web Key Set Hydra signs JWT
// access tokens with.
const AccessTokenKeySet = "hydra.jwt.access-token"

// binary is the Hydra binary .ci/install-hydra.sh builds into the cache.
var binary = proctest.Binary{
	Name:    "ORY Hydra",
	Env:     "MCPGEN_HYDRA",
	Require: "MCPGEN_REQUIRE_HYDRA",
	Cached:  filepath.Join("hydra-"+Version, "hydra"),
	Install: "run .ci/install-hydra.sh or set MCPGEN_HYDRA to test against a real authorization server",
}

// Binary returns the path of the Hydra binary, as Start finds it, for a
// test that runs Hydra through another program: it skips the test without
// one, or fails it when $MCPGEN_REQUIRE_HYDRA is set.
func Binary(t testing.TB) string {
	t.Helper()
	return binary.Path(t)
}

// A Server is a running Hydra.
type Server struct {
	api hydra.API
}

// startTimeout bounds how long Start waits for Hydra to be ready; it is
// ready in about a second on the CI machine (migrations of the in-memory
// database included).
const startTimeout = 60 * time.Second

// Start runs a Hydra for the test on two free loopback ports with an
// in-memory database and the JWT access-token strategy, waits until both
// its APIs answer, and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartWith(t, Config{})
}

// A Config changes how StartWith runs Hydra.
type Config struct {
	// Observe, if set, is called with every request to Hydra's public API
	// (discovery, keys, authorization, tokens), before Hydra answers it:
	// a reverse proxy in this process then stands in front of Hydra, and
	// its URL is the issuer's.
	Observe func(*http.Request)
}

// StartWith is Start with cfg.
func StartWith(t testing.TB, cfg Config) *Server {
	t.Helper()
	bin := binary.Path(t) // $MCPGEN_HYDRA, else the cache's; skipped (or failed, if required) without one
	public, admin := proctest.FreePort(t), proctest.FreePort(t)
	s := &Server{api: hydra.API{
		Issuer: "http://" + public,
		Admin:  "http://" + admin,
		HTTP:   &http.Client{Timeout: 30 * time.Second},
	}}
	if cfg.Observe != nil {
		// Hydra listens on another port; the issuer is the proxy's.
		front, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s.api.Issuer = "http://" + front.Addr().String()
		target := &url.URL{Scheme: "http", Host: public}
		proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = r.In.Host // Hydra builds its URLs from the issuer, not the Host
		}}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			cfg.Observe(r)
			proxy.ServeHTTP(w, r)
		}), ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(front)
		t.Cleanup(func() { srv.Close() })
	}
	env, err := hydra.Env(t.TempDir(), randomHex(t, 32), s.api.Issuer, public, admin)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "all", "--dev", "--sqa-opt-out")
	cmd.Env = env
	proc := proctest.Start(t, "hydratest", cmd)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	// Straight to Hydra, so that an observer sees only the test's requests.
	for _, u := range []string{"http://" + public + "/health/ready", s.api.Admin + "/health/ready"} {
		if err := proc.WaitReady(ctx, func(ctx context.Context) bool { return proctest.HTTPStatus(ctx, s.api.HTTP, u) == http.StatusOK }); err != nil {
			t.Fatalf("hydratest: Hydra is not ready: %s", proc.Explain(err))
		}
	}
	// Hydra generates the OpenID Connect signing key (RSA, 4096 bits) on
	// the first request for its JWK set, which takes seconds on a busy
	// machine: do it now, within the start timeout, so that the tests'
	// first fetch of the keys is not what waits for it. Straight to Hydra,
	// so that an observer sees only the test's requests.
	jwks := "http://" + public + "/.well-known/jwks.json"
	if err := proc.WaitReady(ctx, func(ctx context.Context) bool { return proctest.HTTPStatus(ctx, s.api.HTTP, jwks) == http.StatusOK }); err != nil {
		t.Fatalf("hydratest: Hydra's JWK set: %s", proc.Explain(err))
	}
	return s
}

// Issuer is the issuer identifier of the server (its public URL, no
// trailing slash); its OpenID discovery document is at
// Issuer()+"/.well-known/openid-configuration".
func (s *Server) Issuer() string { return s.api.Issuer }

// IntrospectionURL is the RFC 7662 introspection endpoint (on the admin
// API, which Hydra does not guard: it ignores client authentication there).
func (s *Server) IntrospectionURL() string { return s.api.Admin + "/admin/oauth2/introspect" }

// TokenURL is the token endpoint.
func (s *Server) TokenURL() string { return s.api.TokenURL() }

// A ClientConfig says what a client may ask for.
type ClientConfig = hydra.ClientConfig

// A Client is a registered OAuth client.
type Client = hydra.Client

// RegisterClient registers a client that may use the client credentials
// grant with the given scopes and audiences.
func (s *Server) RegisterClient(t testing.TB, cfg ClientConfig) *Client {
	t.Helper()
	c, err := s.api.RegisterClient(context.Background(), cfg)
	if err != nil {
		t.Fatalf("hydratest: %v", err)
	}
	return c
}

// Token gets an access token for c by the client credentials grant, with
// the given scopes and audiences (either may be empty).
func (s *Server) Token(t testing.TB, c *Client, scopes, audience []string) string {
	t.Helper()
	tok, err := s.TryToken(c, scopes, audience)
	if err != nil {
		t.Fatalf("hydratest: token: %v", err)
	}
	return tok
}

// TryToken is Token that returns Hydra's refusal as an error, for tests
// of what the authorization server itself refuses.
func (s *Server) TryToken(c *Client, scopes, audience []string) (string, error) {
	return s.api.Token(context.Background(), c, scopes, audience)
}

// Revoke revokes token (RFC 7009) as client c, which it was issued to.
func (s *Server) Revoke(t testing.TB, c *Client, token string) {
	t.Helper()
	form := url.Values{"token": {token}}
	s.call(t, http.MethodPost, s.api.Issuer+"/oauth2/revoke", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), c, http.StatusOK, nil)
}

// RotateKeys creates a new signing key for JWT access tokens, with the
// given JWS algorithm (RS256, ES256, …). Hydra signs new tokens with the
// newest key of the set and keeps publishing the older ones in its JWKS
// until DeleteKey removes them. It returns the new key's id.
func (s *Server) RotateKeys(t testing.TB, alg string) string {
	t.Helper()
	kid := "mcpgen-" + randomHex(t, 8)
	body := map[string]string{"alg": alg, "use": "sig", "kid": kid}
	s.call(t, http.MethodPost, s.api.Admin+"/admin/keys/"+AccessTokenKeySet, "application/json", jsonBody(t, body), nil, http.StatusCreated, nil)
	return kid
}

// DeleteKey removes the access-token signing key kid: Hydra stops
// publishing it.
func (s *Server) DeleteKey(t testing.TB, kid string) {
	t.Helper()
	s.call(t, http.MethodDelete, s.api.Admin+"/admin/keys/"+AccessTokenKeySet+"/"+url.PathEscape(kid), "", nil, nil, http.StatusNoContent, nil)
}

// DecodeJWT returns the header and the claims of a JWT without verifying
// it, for tests that look into what Hydra issued or tamper with it.
func DecodeJWT(t testing.TB, token string) (header, claims map[string]any) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("hydratest: not a JWT in compact form: %q", token)
	}
	for i, dst := range []*map[string]any{&header, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatalf("hydratest: JWT segment %d: %v", i, err)
		}
		if err := json.Unmarshal(b, dst); err != nil {
			t.Fatalf("hydratest: JWT segment %d: %v", i, err)
		}
	}
	return header, claims
}

// call is hydra.API.Do that fails the test.
func (s *Server) call(t testing.TB, method, u, contentType string, body io.Reader, c *Client, want int, out any) {
	t.Helper()
	if err := s.api.Do(context.Background(), method, u, contentType, body, c, want, out); err != nil {
		t.Fatalf("hydratest: %v", err)
	}
}

func randomHex(t testing.TB, n int) string {
	h, err := hydra.RandomHex(n)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func jsonBody(t testing.TB, v any) io.Reader {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
