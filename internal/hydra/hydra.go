// Package hydra holds what the tests' authorization server
// (internal/hydratest) and the local issuer (internal/localissuer) both
// need of ORY Hydra: the environment that serves it in memory, and the
// requests to its APIs that register an OAuth client and get an access
// token by the client credentials grant.
package hydra

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// The URLs Hydra sends a browser to for login and consent; nothing
// listens there (port 9 is discard): the client credentials grant sends
// no browser, and hydratest's Authorize reads the challenges from the
// redirects to these.
const (
	LoginURL   = "http://127.0.0.1:9/login"
	ConsentURL = "http://127.0.0.1:9/consent"
)

// Env is the environment of `hydra serve all --dev --sqa-opt-out` for a
// Hydra with its state in memory, issuing JWT access tokens as issuer,
// its public API at public and its admin API at admin (host:port each),
// with home as $HOME and secret as its system secret.
func Env(home, secret, issuer, public, admin string) ([]string, error) {
	publicHost, publicPort, err := net.SplitHostPort(public)
	if err != nil {
		return nil, fmt.Errorf("the public address: %w", err)
	}
	adminHost, adminPort, err := net.SplitHostPort(admin)
	if err != nil {
		return nil, fmt.Errorf("the admin address: %w", err)
	}
	return []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"DSN=memory",
		"SECRETS_SYSTEM=" + secret,
		"STRATEGIES_ACCESS_TOKEN=jwt",
		"URLS_SELF_ISSUER=" + issuer,
		"URLS_LOGIN=" + LoginURL,
		"URLS_CONSENT=" + ConsentURL,
		"SERVE_PUBLIC_HOST=" + publicHost,
		"SERVE_PUBLIC_PORT=" + publicPort,
		"SERVE_ADMIN_HOST=" + adminHost,
		"SERVE_ADMIN_PORT=" + adminPort,
		"LOG_LEVEL=warn",
		"SQA_OPT_OUT=true",
	}, nil
}

// An API is a running Hydra's two HTTP APIs.
type API struct {
	Issuer string // the public API's URL, also the issuer identifier
	Admin  string // the admin API's URL
	HTTP   *http.Client
}

// A Client is a registered OAuth client.
type Client struct {
	ID, Secret string
}

// A ClientConfig says what a client may ask for.
type ClientConfig struct {
	// Name, if set, is the client's client_name.
	Name string
	// Scopes are the scopes the client may request.
	Scopes []string
	// Audience lists the audiences the client may request.
	Audience []string
	// TokenLifespan, if not zero, is the lifetime of its access tokens
	// (Hydra's default is one hour).
	TokenLifespan time.Duration
	// Opaque makes Hydra issue opaque access tokens to this client instead
	// of JWTs.
	Opaque bool
	// RedirectURIs, if set, let the client use the authorization code
	// grant too (with PKCE, as Hydra requires of every client), sending
	// the user back to one of these.
	RedirectURIs []string
	// TokenEndpointAuthMethod is how the client authenticates at the
	// token endpoint: client_secret_basic (the default),
	// client_secret_post, or none (a public client, without a secret).
	TokenEndpointAuthMethod string
}

// RegisterClient registers a client that may use the client credentials
// grant with the scopes and audiences of cfg.
func (a *API) RegisterClient(ctx context.Context, cfg ClientConfig) (*Client, error) {
	secret, err := RandomHex(16)
	if err != nil {
		return nil, err
	}
	method := cfg.TokenEndpointAuthMethod
	if method == "" {
		method = "client_secret_basic"
	}
	audience := cfg.Audience
	if audience == nil {
		audience = []string{}
	}
	body := map[string]any{
		"grant_types":                []string{"client_credentials"},
		"response_types":             []string{"token"},
		"scope":                      strings.Join(cfg.Scopes, " "),
		"audience":                   audience,
		"token_endpoint_auth_method": method,
		"access_token_strategy":      "jwt",
	}
	if cfg.Name != "" {
		body["client_name"] = cfg.Name
	}
	if method == "none" {
		secret = ""
	} else {
		body["client_secret"] = secret
	}
	if len(cfg.RedirectURIs) > 0 {
		body["grant_types"] = []string{"client_credentials", "authorization_code", "refresh_token"}
		body["response_types"] = []string{"code"}
		body["redirect_uris"] = cfg.RedirectURIs
	}
	if cfg.Opaque {
		body["access_token_strategy"] = "opaque"
	}
	if cfg.TokenLifespan != 0 {
		body["client_credentials_grant_access_token_lifespan"] = cfg.TokenLifespan.String()
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var out struct {
		ClientID string `json:"client_id"`
	}
	if err := a.Do(ctx, http.MethodPost, a.Admin+"/admin/clients", "application/json", bytes.NewReader(data), nil, http.StatusCreated, &out); err != nil {
		return nil, err
	}
	return &Client{ID: out.ClientID, Secret: secret}, nil
}

// TokenURL is the token endpoint.
func (a *API) TokenURL() string { return a.Issuer + "/oauth2/token" }

// Token gets an access token for c by the client credentials grant, with
// the given scopes and audiences (either may be empty).
func (a *API) Token(ctx context.Context, c *Client, scopes, audience []string) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	if len(audience) > 0 {
		form.Set("audience", strings.Join(audience, " "))
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := a.Do(ctx, http.MethodPost, a.TokenURL(), "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), c, http.StatusOK, &out); err != nil {
		return "", err
	}
	if out.AccessToken == "" {
		return "", errors.New("no access_token in the token response")
	}
	return out.AccessToken, nil
}

// Do sends a request to Hydra, authenticated as c when c is not nil,
// checks that the answer has the status want, and decodes its JSON into
// out when out is not nil.
func (a *API) Do(ctx context.Context, method, u, contentType string, body io.Reader, c *Client, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c != nil {
		// RFC 6749 §2.3.1: the id and secret are form-encoded first.
		req.SetBasicAuth(url.QueryEscape(c.ID), url.QueryEscape(c.Secret))
	}
	res, err := a.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, u, err)
	}
	if res.StatusCode != want {
		return fmt.Errorf("%s %s: %s: %s", method, u, res.Status, bytes.TrimSpace(data))
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: %w", method, u, err)
		}
	}
	return nil
}

// RandomHex returns n random bytes in hexadecimal, for secrets.
func RandomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return hex.EncodeToString(b), nil
}
