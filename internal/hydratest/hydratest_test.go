package hydratest_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/hydratest"
)

// TestHydra checks what the authorization tests rely on: the token Hydra
// issues carries the requested scopes and audience and the newest key's
// id, a rotation changes that key while the old one stays published, and
// a revoked token introspects as inactive.
func TestHydra(t *testing.T) {
	s := hydratest.Start(t)
	c := s.RegisterClient(t, hydratest.ClientConfig{
		Scopes:   []string{"notes:read", "notes:write"},
		Audience: []string{"http://127.0.0.1:1/mcp"},
	})

	tok := s.Token(t, c, []string{"notes:read"}, []string{"http://127.0.0.1:1/mcp"})
	header, claims := hydratest.DecodeJWT(t, tok)
	if claims["iss"] != s.Issuer() {
		t.Errorf("iss = %v, want %q", claims["iss"], s.Issuer())
	}
	if claims["client_id"] != c.ID {
		t.Errorf("client_id = %v, want %q", claims["client_id"], c.ID)
	}
	if !slices.Equal(strings.Fields(claimString(claims["scp"])), []string{"notes:read"}) {
		t.Errorf("scp = %v, want [notes:read]", claims["scp"])
	}
	if claimString(claims["aud"]) != "http://127.0.0.1:1/mcp" {
		t.Errorf("aud = %v, want [http://127.0.0.1:1/mcp]", claims["aud"])
	}
	oldKid, _ := header["kid"].(string)
	if oldKid == "" {
		t.Fatalf("token header has no kid: %v", header)
	}

	if _, err := s.TryToken(c, []string{"admin"}, nil); err == nil {
		t.Error("Hydra issued a scope the client may not request")
	}

	if !introspect(t, s, tok) {
		t.Fatal("a fresh token introspects as inactive")
	}
	s.Revoke(t, c, tok)
	if introspect(t, s, tok) {
		t.Error("a revoked token introspects as active")
	}

	newKid := s.RotateKeys(t, "ES256")
	header, _ = hydratest.DecodeJWT(t, s.Token(t, c, nil, nil))
	if header["kid"] != newKid || header["alg"] != "ES256" {
		t.Errorf("after rotation the token header is %v, want kid %q and ES256", header, newKid)
	}
	kids := publishedKids(t, s)
	if !slices.Contains(kids, oldKid) || !slices.Contains(kids, newKid) {
		t.Errorf("published kids %v, want both %q and %q", kids, oldKid, newKid)
	}
	s.DeleteKey(t, oldKid)
	if kids := publishedKids(t, s); slices.Contains(kids, oldKid) {
		t.Errorf("published kids %v still hold the deleted %q", kids, oldKid)
	}

}

// claimString renders a string or a list of strings as one space-separated
// string.
func claimString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var s []string
		for _, e := range v {
			s = append(s, e.(string))
		}
		return strings.Join(s, " ")
	}
	return ""
}

func publishedKids(t *testing.T, s *hydratest.Server) []string {
	t.Helper()
	var set struct {
		Keys []struct {
			Kid string `json:"kid"`
		} `json:"keys"`
	}
	getJSON(t, http.MethodGet, s.Issuer()+"/.well-known/jwks.json", nil, &set)
	var kids []string
	for _, k := range set.Keys {
		kids = append(kids, k.Kid)
	}
	return kids
}

func introspect(t *testing.T, s *hydratest.Server, tok string) bool {
	t.Helper()
	var out struct {
		Active bool `json:"active"`
	}
	getJSON(t, http.MethodPost, s.IntrospectionURL(), url.Values{"token": {tok}}, &out)
	return out.Active
}

func getJSON(t *testing.T, method, u string, form url.Values, out any) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s", method, u, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// TestAuthorize: the scripted user takes an authorization code request
// through Hydra's login and consent, granting the scopes and audience it
// is told to; the code it brings back is exchanged for a token that
// carries them; and the observer sees the requests to the public API.
func TestAuthorize(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	s := hydratest.StartWith(t, hydratest.Config{Observe: func(r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.URL.Path)
	}})
	const redirect = "http://127.0.0.1:9/callback"
	const aud = "http://127.0.0.1:1/mcp"
	c := s.RegisterClient(t, hydratest.ClientConfig{
		Scopes: []string{"notes:read", "notes:write"}, Audience: []string{aud}, RedirectURIs: []string{redirect},
	})
	verifier := strings.Repeat("v", 43)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{
		"response_type": {"code"}, "client_id": {c.ID}, "redirect_uri": {redirect},
		"scope": {"notes:read notes:write"}, "state": {"state-1234"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
	}
	back, err := s.Authorize(context.Background(), s.Issuer()+"/oauth2/auth?"+q.Encode(),
		hydratest.User{Subject: "ann", Audience: []string{aud}, Scopes: []string{"notes:read"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(back.String(), redirect+"?") || back.Query().Get("state") != "state-1234" || back.Query().Get("code") == "" {
		t.Fatalf("Hydra sent the browser back to %s", back)
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {back.Query().Get("code")}, "redirect_uri": {redirect}, "code_verifier": {verifier}}
	req, _ := http.NewRequest(http.MethodPost, s.TokenURL(), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(c.ID, c.Secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("token exchange: %s %v", res.Status, err)
	}
	_, claims := hydratest.DecodeJWT(t, tok.AccessToken)
	if claims["sub"] != "ann" || claimString(claims["scp"]) != "notes:read" || claimString(claims["aud"]) != aud {
		t.Errorf("the token's sub, scp, aud: %v, %v, %v", claims["sub"], claims["scp"], claims["aud"])
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(seen, "/oauth2/auth") || !slices.Contains(seen, "/oauth2/token") {
		t.Errorf("the observer saw %q", seen)
	}
}
