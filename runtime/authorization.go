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

// The reasons a token is invalid that a client may be told. Each wraps
// ErrInvalidToken; a TokenVerifier wraps the one that fits, with details
// for the server's log (fmt.Errorf("%w: expired at %v", ErrTokenExpired,
// exp)). The client gets a description the runtime writes for the reason
// in the challenge's error_description (RFC 6750 §3), never the error's
// text: a verifier's details stay in the log. Any other error wrapping
// ErrInvalidToken is described as "the token is not valid".
var (
	// ErrTokenMalformed: the token cannot be read (not a JWT, bad JSON).
	ErrTokenMalformed error = &refusal{"malformed", "the token is malformed"}
	// ErrTokenExpired: its expiry has passed.
	ErrTokenExpired error = &refusal{"expired", "the token has expired"}
	// ErrTokenNotValidYet: it is not valid before a later time (nbf), or
	// says it was issued in the future (iat).
	ErrTokenNotValidYet error = &refusal{"not valid yet", "the token is not valid yet"}
	// ErrTokenInvalidAudience: it was issued for another resource.
	ErrTokenInvalidAudience error = &refusal{"wrong audience", "the token was not issued for this server"}
	// ErrTokenInvalidIssuer: another authorization server issued it.
	ErrTokenInvalidIssuer error = &refusal{"wrong issuer", "the token was not issued by this server's authorization server"}
	// ErrTokenUnknownKey: it names a signing key (or an algorithm) the
	// issuer does not publish.
	ErrTokenUnknownKey error = &refusal{"unknown key", "the token is not signed by a key of its issuer"}
	// ErrTokenSignatureInvalid: its signature does not verify.
	ErrTokenSignatureInvalid error = &refusal{"bad signature", "the token's signature does not verify"}
	// ErrTokenInactive: the authorization server says it is not active
	// (revoked, or unknown to it).
	ErrTokenInactive error = &refusal{"inactive", "the authorization server says the token is not active"}
)

// A refusal is a reason a token is invalid that a client may read. Only
// the sentinels above are refusals: the description a client gets is
// always one of theirs, written here in the characters RFC 6750 §3
// allows, so nothing a verifier or a token says reaches the header.
type refusal struct{ reason, description string }

func (e *refusal) Error() string { return "invalid token: " + e.reason }

// Is makes each refusal wrap ErrInvalidToken without a chain, so that a
// verifier that tests errors.Is(err, ErrInvalidToken) keeps working.
func (e *refusal) Is(target error) bool { return target == ErrInvalidToken }

// refusalDescription is what a client is told of the invalid token err
// refused: the description of the first refusal err wraps, or a generic
// one.
func refusalDescription(err error) string {
	if r, ok := errors.AsType[*refusal](err); ok {
		return r.description
	}
	return "the token is not valid"
}

// A TokenVerifier checks the bearer token of a request over Streamable
// HTTP: that it is well formed, signed or vouched for by the authorization
// server, and not expired. It returns what the token says about its
// holder; the runtime itself then checks the audience against
// Authorization.Resource and the scopes against what each operation
// needs, so that a verifier cannot forget them.
//
// A token that is not valid is an error wrapping ErrInvalidToken (the
// client gets 401 and starts over with the authorization server), or one
// of the reasons that wrap it, such as ErrTokenExpired (the client is
// told the reason, not the error's text). Any
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
	need := strings.Join(scopes, " ")
	msg := fmt.Sprintf("insufficient scope: %s %s needs the scopes %s; ask the authorization server for a token with them", kind, name, need)
	return response{err: &rpcError{
		code:      jsonrpc.InvalidRequest,
		message:   msg,
		scopes:    scopes,
		challenge: scopeChallenge(kind, msg, need),
	}}, false
}

// scopeChallenge is the error_description of the challenge that refuses an
// operation of the kind for want of the scopes need: msg, which names it,
// when its name is the server's own (a tool's, a prompt's); a resource is
// named by the URI the client sent, which goes in the JSON-RPC error only,
// so that a header holds nothing of the client's choosing (a URI may be
// as long as a message, and hold what RFC 6750 keeps out of a header).
func scopeChallenge(kind, msg, need string) string {
	switch kind {
	case "tool", "prompt":
		return msg
	}
	return fmt.Sprintf("insufficient scope: this %s needs the scopes %s; ask the authorization server for a token with them", kind, need)
}
