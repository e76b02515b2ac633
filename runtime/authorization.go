package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
)

// A verified token and what it allows: a transport that takes bearer
// tokens (Streamable HTTP with Authorization; see httpauth.go) verifies
// each request's with a TokenVerifier, and the methods then check, for a
// call that carries one, the scopes of what it serves (allow).

// ErrInvalidToken is the error a TokenVerifier wraps for a token that is
// malformed, expired, not yet valid, revoked, or not signed by a key it
// trusts.
var ErrInvalidToken = errors.New("invalid token")

// A TokenVerifier checks the bearer token of a request over Streamable
// HTTP: that it is well formed, signed or vouched for by the authorization
// server, and not expired. It returns what the token says about its
// holder; the runtime itself then checks the audience against
// Authorization.Resource and the scopes against what each operation
// needs, so that a verifier cannot forget them.
//
// A token that is not valid is an error wrapping ErrInvalidToken (the
// client gets 401 and starts over with the authorization server). Any
// other error means the verifier could not decide (its authorization
// server is unreachable, say): the client gets 503 and retries later,
// keeping its token.
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (*TokenInfo, error)
}

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
	// introspection response, as decoded JSON. A verifier may share it
	// between the requests that carry the same token: read it, do not
	// change it.
	Claims map[string]any
}

// tokenKey is the context key of a request's *TokenInfo.
type tokenKey struct{}

// TokenInfoFromContext returns the verified token of the request ctx
// serves, or nil when the request carried none (stdio, the Claude host,
// or an HTTP endpoint without Authorization).
func TokenInfoFromContext(ctx context.Context) *TokenInfo {
	ti, _ := ctx.Value(tokenKey{}).(*TokenInfo)
	return ti
}

// missingScopes returns the scopes of need that ti lacks.
func missingScopes(ti *TokenInfo, need []string) []string {
	var out []string
	for _, sc := range need {
		if !slices.Contains(ti.Scopes, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// allow checks that the token of c holds the scopes the operation needs;
// it answers the request instead when it does not (Streamable HTTP then
// answers 403 with a challenge that names them). Methods call it only for
// a call with a token (c.tokenInfo): requests without one (stdio, a Conn,
// HTTP without Authorization) need no scopes, and pay nothing for the
// check. The operation is named by kind and name apart, so that a call
// allowed builds no string.
func (c *call) allow(kind, name string, scopes []string) (response, bool) {
	if len(scopes) == 0 || c.tokenInfo == nil {
		return response{}, true
	}
	missing := missingScopes(c.tokenInfo, scopes)
	if len(missing) == 0 {
		return response{}, true
	}
	return response{err: &rpcError{
		code:    jsonrpc.InvalidRequest,
		message: fmt.Sprintf("insufficient scope: %s %s needs the scopes %s; ask the authorization server for a token with them", kind, name, strings.Join(scopes, " ")),
		scopes:  scopes,
	}}, false
}
