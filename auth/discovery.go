package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// serverMetadata is the part of an authorization server's metadata
// (RFC 8414, or OpenID Connect Discovery 1.0) the verifiers use.
type serverMetadata struct {
	Issuer  string `json:"issuer"`
	JWKSURI string `json:"jwks_uri"`
}

// discoveryURLs lists where the metadata of issuer may be, in the order
// the MCP authorization specification has clients try them: for an
// issuer with a path, the RFC 8414 form and the OpenID form with the
// well-known segment inserted before the path, then the OpenID form with
// it appended; for one without, the two well-known documents at the root.
func discoveryURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil, err
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("issuer %q has a query or fragment (RFC 8414 §2)", issuer)
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	origin := u.Scheme + "://" + u.Host
	if path == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + path,
		origin + "/.well-known/openid-configuration" + path,
		origin + path + "/.well-known/openid-configuration",
	}, nil
}

// discover fetches the metadata of issuer from the first of its
// well-known addresses that has it. A 4xx answer means "not here, try the
// next"; anything else that goes wrong ends the search, so an unreachable
// server is reported as such. The document must name exactly the issuer
// it was looked up for (RFC 8414 §3.3, OpenID Discovery §4.3), and a
// jwks_uri that checkURL accepts.
func discover(ctx context.Context, c *http.Client, issuer string) (*serverMetadata, error) {
	urls, err := discoveryURLs(issuer)
	if err != nil {
		return nil, err
	}
	var tried []string
	for _, u := range urls {
		var md serverMetadata
		err := getJSON(ctx, c, u, &md)
		var se *statusError
		if errors.As(err, &se) && se.code >= 400 && se.code < 500 {
			tried = append(tried, fmt.Sprint(se.code, " ", u))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("discovery: %w", err)
		}
		if md.Issuer != issuer {
			return nil, fmt.Errorf("discovery: %s names issuer %q, not %q", u, md.Issuer, issuer)
		}
		if md.JWKSURI == "" {
			return nil, fmt.Errorf("discovery: %s has no jwks_uri", u)
		}
		if err := checkURL("jwks_uri", md.JWKSURI); err != nil {
			return nil, fmt.Errorf("discovery: %s: %w", u, err)
		}
		return &md, nil
	}
	return nil, fmt.Errorf("discovery: no metadata for issuer %q (%s)", issuer, strings.Join(tried, ", "))
}
