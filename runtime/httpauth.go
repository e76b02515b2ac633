package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
)

// Authorization over Streamable HTTP: the server is an OAuth 2.0
// protected resource, as MCP's authorization specification requires. It
// publishes its Protected Resource Metadata (RFC 9728), which names the
// authorization servers that issue its tokens; it checks the bearer token
// of every request (a TokenVerifier checks the signature and the expiry,
// the runtime the audience and the scopes); and it tells a client what to
// do with WWW-Authenticate challenges: 401 to get a token, 403 to get one
// with more scopes. Stdio and the Claude Code host take no tokens: a
// server run by its user gets its credentials from the environment, as
// the specification says.

// Authorization configures the authorization of a Streamable HTTP
// endpoint (HTTPOptions.Authorization).
type Authorization struct {
	// Verifier checks each request's bearer token. Required. The module
	// github.com/mcpgen/mcpgen/auth has verifiers of JWT access tokens and
	// of opaque tokens (introspection).
	Verifier TokenVerifier
	// Resource is the server's canonical URI (RFC 8707), such as
	// "https://mcp.example.com/mcp": a token must name it among its
	// audiences, the metadata document gives it as its resource, and
	// clients ask for tokens for it. Write it as clients reach the server
	// (behind a proxy, the public URL). Required with HTTPHandler;
	// ListenAndServeHTTP uses http://ADDR/mcp when it is empty.
	Resource string
	// AuthorizationServers are the issuers of the server's tokens, as
	// clients find them (RFC 8414 or OpenID discovery); at least one.
	AuthorizationServers []string
	// Scopes are required of every request, besides those an operation
	// requires itself (Tool.Scopes, Resource.Scopes, Prompt.Scopes…).
	Scopes []string
	// ResourceName and ResourceDocumentation, if set, go into the
	// metadata document: a name for people, and a page about the server.
	ResourceName          string
	ResourceDocumentation string
}

// maxTokenSize bounds a bearer token: a longer one is refused unread.
const maxTokenSize = 16 << 10

// check panics, as AddTool does, on an Authorization no request could
// satisfy.
func (a *Authorization) check() {
	problem := ""
	u, err := url.Parse(a.Resource)
	switch {
	case a.Verifier == nil:
		problem = "no Verifier"
	case len(a.AuthorizationServers) == 0:
		problem = "no AuthorizationServers"
	case err != nil || u.Scheme == "" || u.Host == "" || u.Fragment != "" || u.RawQuery != "":
		problem = fmt.Sprintf("Resource %q is not an absolute URI without query or fragment", a.Resource)
	}
	if problem != "" {
		panic("runtime: HTTPHandler: Authorization has " + problem)
	}
}

// MetadataURL returns the URL of the Protected Resource Metadata document
// of a.Resource: its path-suffixed well-known URL (RFC 9728), which the
// 401 challenges name.
func (a *Authorization) MetadataURL() string {
	u, err := url.Parse(a.Resource)
	if err != nil {
		return ""
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	return u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource" + path
}

// ProtectedResourceMetadataHandler returns a handler that serves the
// server's Protected Resource Metadata (RFC 9728) for a: its resource, its
// authorization servers, the scopes it supports (a's and those of every
// tool, resource, template and prompt), and the bearer methods it takes.
// ListenAndServeHTTP mounts it at the path-suffixed and the root
// well-known URLs; a program that mounts HTTPHandler itself mounts this
// at a.MetadataURL()'s path too.
func (s *Server) ProtectedResourceMetadataHandler(a *Authorization) http.Handler {
	a.check()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodOptions:
			w.Header().Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			w.Header().Set("Allow", "GET, HEAD, OPTIONS")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		doc := struct {
			Resource              string   `json:"resource"`
			AuthorizationServers  []string `json:"authorization_servers"`
			ScopesSupported       []string `json:"scopes_supported,omitempty"`
			BearerMethods         []string `json:"bearer_methods_supported"`
			ResourceName          string   `json:"resource_name,omitempty"`
			ResourceDocumentation string   `json:"resource_documentation,omitempty"`
		}{a.Resource, a.AuthorizationServers, s.scopesSupported(a), []string{"header"}, a.ResourceName, a.ResourceDocumentation}
		body, err := json.Marshal(doc)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		writeJSON(w, http.StatusOK, body)
	})
}

// scopesSupported lists a's scopes, then those of every tool, resource,
// template and prompt, each once; never offline_access, which the
// specification says a resource should not list.
func (s *Server) scopesSupported(a *Authorization) []string {
	var out []string
	add := func(scopes []string) {
		for _, sc := range scopes {
			if sc != "offline_access" && !slices.Contains(out, sc) {
				out = append(out, sc)
			}
		}
	}
	add(a.Scopes)
	for _, t := range s.tools.All() {
		add(t.Scopes)
	}
	for _, r := range s.resources.All() {
		add(r.Scopes)
	}
	for _, t := range s.templates.All() {
		add(t.Scopes)
	}
	for _, p := range s.prompts.All() {
		add(p.Scopes)
	}
	return out
}

// authorize checks the request's bearer token. It returns the context of
// the request, carrying the token's TokenInfo; when it reports false it
// has answered the request: 401 with a challenge that names the metadata
// for a missing or invalid token, 400 for a malformed Authorization
// header, 403 for a token without the server-wide scopes, 503 when the
// verifier could not decide.
func (h *httpHandler) authorize(ctx context.Context, w http.ResponseWriter, r *http.Request) (context.Context, bool) {
	a := h.opts.Authorization
	values := r.Header.Values("Authorization")
	if len(values) == 0 {
		h.challenge(w, r, http.StatusUnauthorized, "", "", a.Scopes, "unauthorized: this server needs a bearer token; its metadata names where to get one")
		return nil, false
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	token = strings.TrimLeft(token, " ")
	switch {
	case len(values) > 1:
		h.challenge(w, r, http.StatusBadRequest, "invalid_request", "more than one Authorization header", nil, "")
		return nil, false
	case !strings.EqualFold(scheme, "Bearer"):
		h.challenge(w, r, http.StatusUnauthorized, "", "", a.Scopes, "unauthorized: send Authorization: Bearer <token>")
		return nil, false
	case len(token) > maxTokenSize:
		h.challenge(w, r, http.StatusBadRequest, "invalid_request", fmt.Sprintf("the token takes more than %d bytes", maxTokenSize), nil, "")
		return nil, false
	case !isBearerToken(token):
		h.challenge(w, r, http.StatusBadRequest, "invalid_request", "the bearer token is not a token (RFC 6750 b64token)", nil, "")
		return nil, false
	}
	ti, err := a.Verifier.VerifyToken(ctx, token)
	switch {
	case err != nil && !errors.Is(err, ErrInvalidToken):
		h.srv.logger().Warn("the token could not be verified", "transport", "http", "remote", r.RemoteAddr, "err", err)
		w.Header().Set("Retry-After", "5")
		h.reject(w, r, http.StatusServiceUnavailable, jsonrpc.InternalError, "the token could not be verified now; retry later")
		return nil, false
	case err != nil || ti == nil:
		h.srv.logger().Info("bearer token refused", "transport", "http", "remote", r.RemoteAddr, "err", err)
		h.challenge(w, r, http.StatusUnauthorized, "invalid_token", refusalDescription(err), nil, "")
		return nil, false
	case !ti.Expiry.IsZero() && h.now().After(ti.Expiry):
		h.challenge(w, r, http.StatusUnauthorized, "invalid_token", refusalDescription(ErrTokenExpired), nil, "")
		return nil, false
	case !slices.ContainsFunc(ti.Audience, func(aud string) bool { return sameResource(aud, a.Resource) }):
		h.srv.logger().Info("a token for another resource was refused", "transport", "http", "remote", r.RemoteAddr, "audience", ti.Audience)
		h.challenge(w, r, http.StatusUnauthorized, "invalid_token", refusalDescription(ErrTokenInvalidAudience), nil, "")
		return nil, false
	}
	if missing := missingScopes(ti, a.Scopes); len(missing) > 0 {
		h.challenge(w, r, http.StatusForbidden, "insufficient_scope", "the token lacks "+strings.Join(missing, " "), h.neededScopes(ti, nil), "")
		return nil, false
	}
	return context.WithValue(ctx, tokenKey{}, ti), true
}

// challenge answers a request that fails authorization with status and a
// Bearer challenge (RFC 6750 §3): the error and its description when set,
// the scopes when set, and always the metadata document's URL. The body
// is a JSON-RPC error with a null id, saying msg (or the description).
func (h *httpHandler) challenge(w http.ResponseWriter, r *http.Request, status int, errCode, desc string, scopes []string, msg string) {
	w.Header().Set("WWW-Authenticate", h.challengeValue(errCode, desc, scopes))
	if msg == "" {
		msg = "unauthorized: " + desc
	}
	h.reject(w, r, status, jsonrpc.InvalidRequest, msg)
}

// challengeValue is the value of a WWW-Authenticate header.
func (h *httpHandler) challengeValue(errCode, desc string, scopes []string) string {
	var b strings.Builder
	b.WriteString("Bearer ")
	param := func(name, value string) {
		if b.Len() > len("Bearer ") {
			b.WriteString(", ")
		}
		b.WriteString(name + `="`)
		b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value))
		b.WriteByte('"')
	}
	if errCode != "" {
		param("error", errCode)
		param("error_description", desc)
	}
	if len(scopes) > 0 {
		param("scope", strings.Join(scopes, " "))
	}
	param("resource_metadata", h.opts.Authorization.MetadataURL())
	return b.String()
}

// neededScopes are the scopes a 403 asks for: those the token holds that
// the server knows of (so that a client asking again loses none of
// them), those every request needs, and those of the operation.
func (h *httpHandler) neededScopes(ti *TokenInfo, op []string) []string {
	a := h.opts.Authorization
	supported := h.srv.scopesSupported(a)
	var out []string
	for _, list := range [][]string{ti.Scopes, a.Scopes, op} {
		for _, sc := range list {
			if (slices.Contains(supported, sc) || slices.Contains(op, sc)) && !slices.Contains(out, sc) {
				out = append(out, sc)
			}
		}
	}
	return out
}

// sameResource reports whether an audience names the resource: the same
// URI, with the scheme and host in any case and without regard to a
// trailing slash, as the specification's canonical URIs allow.
func sameResource(aud, resource string) bool {
	if aud == resource {
		return true // the usual case, without parsing either
	}
	a, err1 := url.Parse(aud)
	b, err2 := url.Parse(resource)
	if err1 != nil || err2 != nil || a.Opaque != "" || b.Opaque != "" {
		return aud == resource
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host) &&
		strings.TrimSuffix(a.EscapedPath(), "/") == strings.TrimSuffix(b.EscapedPath(), "/") &&
		a.RawQuery == b.RawQuery && a.Fragment == b.Fragment
}

// isBearerToken reports whether s is a b64token (RFC 6750 §2.1): letters,
// digits and -._~+/, then any number of =.
func isBearerToken(s string) bool {
	s = strings.TrimRight(s, "=")
	if s == "" {
		return false
	}
	// A kilobyte's token is checked without a branch a byte: the bytes'
	// marks are ORed together, eight at a time, and tested once
	// (BenchmarkIsBearerToken: 260 ns, against 650 ns for a lookup and a
	// test a byte).
	var bad uint8
	for len(s) >= 8 {
		bad |= notB64token[s[0]] | notB64token[s[1]] | notB64token[s[2]] | notB64token[s[3]] |
			notB64token[s[4]] | notB64token[s[5]] | notB64token[s[6]] | notB64token[s[7]]
		s = s[8:]
	}
	for i := range len(s) {
		bad |= notB64token[s[i]]
	}
	return bad == 0
}

// notB64token is 1 for the bytes that cannot be in a b64token but its
// trailing =, and 0 for those that can.
var notB64token = func() (t [256]uint8) {
	for c := range 256 {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/", byte(c)) >= 0) {
			t[c] = 1
		}
	}
	return t
}()
