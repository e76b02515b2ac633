package auth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Defaults of the introspection cache.
const (
	// DefaultIntrospectionCacheTTL is how long a positive answer is
	// reused: a revoked token keeps working at most this long, and a
	// client that makes many calls in a row costs one round trip to the
	// authorization server per this interval instead of one per call.
	DefaultIntrospectionCacheTTL = 10 * time.Second
	// DefaultIntrospectionCacheSize bounds the cached answers (each a
	// TokenInfo of about a kilobyte).
	DefaultIntrospectionCacheSize = 1000
	// MaxCachedAnswerSize bounds the answer, as the authorization server
	// sent it, that the cache keeps: a larger one is used, but asked for
	// again on the next request, so that the cache holds at most
	// CacheSize times this much. As large as the largest token.
	MaxCachedAnswerSize = MaxTokenSize
)

// An IntrospectionConfig configures an IntrospectionVerifier.
type IntrospectionConfig struct {
	// Endpoint is the authorization server's token introspection
	// endpoint (RFC 7662), its introspection_endpoint metadata. It must be
	// an https URL, or http on a loopback address.
	Endpoint string

	// ClientID and ClientSecret authenticate this resource server to the
	// endpoint, as RFC 7662 §2.1 requires.
	ClientID, ClientSecret string

	// ClientAuthMethod is how: "client_secret_basic" (the default: HTTP
	// Basic authentication, RFC 6749 §2.3.1) or "client_secret_post" (in
	// the form).
	ClientAuthMethod string

	// Issuer, if set, must equal the iss member of every active answer
	// that has one.
	Issuer string

	// CacheTTL is how long an active answer is reused, never past the
	// token's exp: zero means DefaultIntrospectionCacheTTL, a negative
	// value turns the cache off. Inactive answers are never cached.
	CacheTTL time.Duration

	// CacheSize bounds the number of cached answers: zero means
	// DefaultIntrospectionCacheSize. An answer of more than
	// MaxCachedAnswerSize bytes is not cached.
	CacheSize int

	// ClockSkew is the tolerance applied to the exp and nbf members of an
	// answer: zero means DefaultClockSkew, a negative value none at all.
	ClockSkew time.Duration

	// HTTPClient calls the endpoint. The default has a 10-second timeout
	// and follows no redirects; answers are bounded by 1 MiB whatever the
	// client.
	HTTPClient *http.Client
}

// An IntrospectionVerifier verifies opaque access tokens by asking the
// authorization server about each (RFC 7662 token introspection). It
// implements runtime.TokenVerifier and is safe for concurrent use.
//
// A token is valid when the answer says "active": true, and, if the answer
// carries them, exp is not passed, nbf not in the future, iss is the
// configured Issuer, and token_use is access_token (Hydra marks refresh
// tokens so). Active answers are cached for CacheTTL, keyed by the token's
// SHA-256, so that revocation takes effect within CacheTTL.
type IntrospectionVerifier struct {
	cfg    IntrospectionConfig
	client *http.Client
	skew   time.Duration
	cache  *ttlCache[*runtime.TokenInfo] // nil when off
	now    func() time.Time              // the clock; tests move it
}

var _ runtime.TokenVerifier = (*IntrospectionVerifier)(nil)

// NewIntrospectionVerifier checks cfg and returns a verifier that uses its
// endpoint.
func NewIntrospectionVerifier(cfg IntrospectionConfig) (*IntrospectionVerifier, error) {
	if err := checkURL("introspection endpoint", cfg.Endpoint); err != nil {
		return nil, fmt.Errorf("auth: %w", err)
	}
	if cfg.ClientID == "" {
		return nil, errors.New("auth: IntrospectionConfig.ClientID is empty: RFC 7662 requires the resource server to authenticate")
	}
	switch cfg.ClientAuthMethod {
	case "":
		cfg.ClientAuthMethod = "client_secret_basic"
	case "client_secret_basic", "client_secret_post":
	default:
		return nil, fmt.Errorf("auth: unknown ClientAuthMethod %q (client_secret_basic or client_secret_post)", cfg.ClientAuthMethod)
	}
	v := &IntrospectionVerifier{cfg: cfg, client: cfg.HTTPClient, skew: cfg.ClockSkew, now: time.Now}
	if v.client == nil {
		v.client = defaultHTTPClient()
	}
	switch {
	case v.skew == 0:
		v.skew = DefaultClockSkew
	case v.skew < 0:
		v.skew = 0
	}
	if cfg.CacheTTL == 0 {
		v.cfg.CacheTTL = DefaultIntrospectionCacheTTL
	}
	if cfg.CacheSize <= 0 {
		v.cfg.CacheSize = DefaultIntrospectionCacheSize
	}
	if v.cfg.CacheTTL > 0 {
		v.cache = newTTLCache[*runtime.TokenInfo](v.cfg.CacheSize)
	}
	return v, nil
}

// VerifyToken asks the authorization server about token (or finds its
// recent answer in the cache). An inactive or otherwise invalid token is
// an error wrapping runtime.ErrInvalidToken; any other error means the
// endpoint could not be asked or gave no usable answer.
func (v *IntrospectionVerifier) VerifyToken(ctx context.Context, token string) (*runtime.TokenInfo, error) {
	if len(token) > MaxTokenSize {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", runtime.ErrInvalidToken, len(token), MaxTokenSize)
	}
	if token == "" {
		return nil, fmt.Errorf("%w: empty", runtime.ErrInvalidToken)
	}
	sum := sha256.Sum256([]byte(token))
	key := string(sum[:])
	if v.cache != nil {
		if ti, ok := v.cache.get(key, v.now()); ok {
			return clone(ti), nil
		}
	}
	answer, size, err := v.introspect(ctx, token)
	if err != nil {
		return nil, err
	}
	ti, err := v.check(answer)
	if err != nil {
		return nil, err
	}
	if v.cache != nil && size <= MaxCachedAnswerSize {
		now := v.now()
		until := now.Add(v.cfg.CacheTTL)
		if !ti.Expiry.IsZero() && ti.Expiry.Before(until) {
			until = ti.Expiry
		}
		v.cache.put(key, ti, until, now)
	}
	return clone(ti), nil
}

// introspect posts token to the endpoint and returns the decoded answer,
// and its size as sent. The exchange is bounded by fetchTimeout, whatever
// the HTTP client.
func (v *IntrospectionVerifier) introspect(ctx context.Context, token string) (map[string]any, int, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	if v.cfg.ClientAuthMethod == "client_secret_post" {
		form.Set("client_id", v.cfg.ClientID)
		form.Set("client_secret", v.cfg.ClientSecret)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.cfg.Endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, 0, fmt.Errorf("auth: introspection: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if v.cfg.ClientAuthMethod == "client_secret_basic" {
		// RFC 6749 §2.3.1: the id and secret are form-encoded first.
		req.SetBasicAuth(url.QueryEscape(v.cfg.ClientID), url.QueryEscape(v.cfg.ClientSecret))
	}
	var raw json.RawMessage
	if err := doJSON(v.client, req, &raw); err != nil {
		return nil, 0, fmt.Errorf("auth: introspection: %w", err)
	}
	var answer map[string]any
	if err := json.Unmarshal(raw, &answer); err != nil || answer == nil {
		return nil, 0, errors.New("auth: introspection: the answer is not a JSON object")
	}
	return answer, len(raw), nil
}

// check turns an introspection answer into a TokenInfo, or says why the
// token is not valid.
func (v *IntrospectionVerifier) check(answer map[string]any) (*runtime.TokenInfo, error) {
	active, ok := answer["active"].(bool)
	if !ok {
		return nil, errors.New(`auth: introspection: the answer has no boolean "active"`)
	}
	if !active {
		return nil, fmt.Errorf("%w: the authorization server says it is not active", runtime.ErrTokenInactive)
	}
	ti, err := tokenInfo(answer)
	if err != nil {
		return nil, err
	}
	now := v.now()
	if !ti.Expiry.IsZero() && !now.Before(ti.Expiry.Add(v.skew)) {
		return nil, fmt.Errorf("%w: expired at %v", runtime.ErrTokenExpired, ti.Expiry)
	}
	if nbf, ok := answer["nbf"].(float64); ok && now.Add(v.skew).Before(time.Unix(int64(nbf), 0)) {
		return nil, fmt.Errorf("%w: not valid before %v", runtime.ErrTokenNotValidYet, time.Unix(int64(nbf), 0))
	}
	if v.cfg.Issuer != "" && ti.Issuer != "" && ti.Issuer != v.cfg.Issuer {
		return nil, fmt.Errorf("%w: issued by %q, not %q", runtime.ErrTokenInvalidIssuer, ti.Issuer, v.cfg.Issuer)
	}
	if use, ok := answer["token_use"].(string); ok && use != "access_token" {
		return nil, fmt.Errorf("%w: a %s, not an access token", runtime.ErrInvalidToken, use)
	}
	return ti, nil
}

// clone copies ti so that a caller who changes its lists or claims does
// not change the cached answer (the claims' nested values are shared).
func clone(ti *runtime.TokenInfo) *runtime.TokenInfo {
	c := *ti
	c.Audience = slices.Clone(ti.Audience)
	c.Scopes = slices.Clone(ti.Scopes)
	c.Claims = maps.Clone(ti.Claims)
	return &c
}
