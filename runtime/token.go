package runtime

import (
	"context"
	"errors"
	"time"
)

// A TokenVerifier checks the bearer token of a request over Streamable
// HTTP: that it is well formed, signed or vouched for by the authorization
// server, and not expired. It returns what the token says about its
// holder; the runtime itself then checks the audience against the
// server's resource URI and the scopes against what each operation needs,
// so that a verifier cannot forget them.
//
// A token that is not valid is an error wrapping ErrInvalidToken (the
// client gets 401 and starts over with the authorization server). Any
// other error means the verifier could not decide (its authorization
// server is unreachable, say): the client gets 503 and retries later,
// keeping its token.
//
// The module github.com/mcpgen/mcpgen/auth has verifiers for JWT access
// tokens (keys from the issuer's JWKS) and for opaque tokens (RFC 7662
// introspection).
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (*TokenInfo, error)
}

// ErrInvalidToken is the error a TokenVerifier wraps for a token that is
// malformed, expired, not yet valid, revoked, or not signed by a key it
// trusts.
var ErrInvalidToken = errors.New("invalid token")

// A TokenInfo is what a verified access token says about its holder. A
// handler finds it with TokenInfoFromContext.
type TokenInfo struct {
	// Subject identifies the user (or the client, for a token of its
	// own): the token's sub claim.
	Subject string
	// ClientID is the OAuth client the token was issued to (client_id, or
	// azp), if known.
	ClientID string
	// Issuer is the authorization server that issued the token (iss).
	Issuer string
	// Audience lists the resources the token was issued for (aud, or the
	// RFC 8707 resource): the server's resource URI must be among them.
	Audience []string
	// Scopes are the token's scopes (scope, or scp).
	Scopes []string
	// Expiry is when the token expires; zero means it does not say.
	Expiry time.Time
	// Claims holds every claim of the token, or every member of its
	// introspection response, as decoded JSON.
	Claims map[string]any
}

// tokenKey is the context key of a request's *TokenInfo.
type tokenKey struct{}

// TokenInfoFromContext returns the verified token of the request ctx
// serves, or nil when the request carried none (stdio, the Claude host,
// or an HTTP server without authorization).
func TokenInfoFromContext(ctx context.Context) *TokenInfo {
	ti, _ := ctx.Value(tokenKey{}).(*TokenInfo)
	return ti
}
