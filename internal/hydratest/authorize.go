package hydratest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/internal/hydra"
)

// A User plays the person in front of the browser during an authorization
// code flow: Authorize follows Hydra's redirects as a browser would, and
// answers Hydra's login and consent requests through its admin API, as a
// login and consent app would.
type User struct {
	// Subject is who logs in: the sub of the tokens issued.
	Subject string
	// Audience is granted at consent: Hydra implements no RFC 8707
	// resource parameter, and puts in aud only what the consent grants
	// (or a client credentials request asks for with audience).
	Audience []string
	// Scopes, if not nil, are the scopes granted at consent; nil grants
	// every scope the client asked for.
	Scopes []string
}

// maxRedirects bounds the redirects Authorize follows: a flow takes four.
const maxRedirects = 10

// Authorize runs the authorization request authURL (Hydra's authorization
// endpoint with the client's parameters) to its end as u, and returns the
// URL Hydra finally redirects the browser to: the client's redirect URI
// with code and state, or with error and error_description.
func (s *Server) Authorize(ctx context.Context, authURL string, u User) (*url.URL, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	browser := &http.Client{
		Jar:           jar,
		Timeout:       s.api.HTTP.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	next := authURL
	for range maxRedirects {
		loc, err := redirect(ctx, browser, next)
		if err != nil {
			return nil, err
		}
		q := loc.Query()
		switch {
		case strings.HasPrefix(loc.String(), hydra.LoginURL):
			next, err = s.accept(ctx, "login", q.Get("login_challenge"), map[string]any{"subject": u.Subject})
		case strings.HasPrefix(loc.String(), hydra.ConsentURL):
			next, err = s.consent(ctx, q.Get("consent_challenge"), u)
		default:
			return loc, nil // back to the client
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("hydratest: more than %d redirects from %s", maxRedirects, authURL)
}

// redirect gets u and returns where it redirects to.
func redirect(ctx context.Context, c *http.Client, u string) (*url.URL, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	res, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if res.StatusCode/100 != 3 {
		return nil, fmt.Errorf("hydratest: GET %s: %s, not a redirect: %s", u, res.Status, body)
	}
	return res.Location()
}

// consent reads the consent request and accepts it, granting u's scopes
// (or those asked for) and u's audience.
func (s *Server) consent(ctx context.Context, challenge string, u User) (string, error) {
	var req struct {
		RequestedScope []string `json:"requested_scope"`
	}
	q := url.Values{"consent_challenge": {challenge}}.Encode()
	if err := s.api.Do(ctx, http.MethodGet, s.api.Admin+"/admin/oauth2/auth/requests/consent?"+q, "", nil, nil, http.StatusOK, &req); err != nil {
		return "", err
	}
	scopes := u.Scopes
	if scopes == nil {
		scopes = req.RequestedScope
	}
	return s.accept(ctx, "consent", challenge, map[string]any{
		"grant_scope":                 nonNil(scopes),
		"grant_access_token_audience": nonNil(u.Audience),
	})
}

// accept accepts the login or consent request challenge with body and
// returns where Hydra sends the browser next.
func (s *Server) accept(ctx context.Context, flow, challenge string, body map[string]any) (string, error) {
	if challenge == "" {
		return "", fmt.Errorf("hydratest: Hydra's %s redirect has no challenge", flow)
	}
	u := s.api.Admin + "/admin/oauth2/auth/requests/" + flow + "/accept?" + url.Values{flow + "_challenge": {challenge}}.Encode()
	b, err := json.Marshal(body)
	if err != nil {
		return "", err
	}
	var out struct {
		RedirectTo string `json:"redirect_to"`
	}
	if err := s.api.Do(ctx, http.MethodPut, u, "application/json", bytes.NewReader(b), nil, http.StatusOK, &out); err != nil {
		return "", err
	}
	if out.RedirectTo == "" {
		return "", errors.New("hydratest: Hydra accepted the " + flow + " without saying where to go")
	}
	return out.RedirectTo, ctx.Err()
}
