package auth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/golang-jwt/jwt/v5"

	"github.com/mcpgen/mcpgen/runtime"
)

// MaxTokenSize is the length in bytes of the longest token the verifiers
// accept; a longer one is refused before anything is decoded. Access
// tokens are one or two kilobytes (Hydra's are 1.1 KB); identity providers
// that pack group lists into them stay under 8 KB; 16 KiB leaves room and
// keeps the cost of a refused token negligible.
const MaxTokenSize = 16 << 10

// DefaultClockSkew is the tolerance applied to exp, nbf and iat unless the
// configuration says otherwise. Servers synchronised by NTP disagree by
// well under a second, virtual machines after a pause by a few seconds; 30
// seconds covers that while lengthening a token's life by under 1% of the
// usual 5 to 60 minutes. RFC 7519 asks for "a few minutes" at most.
const DefaultClockSkew = 30 * time.Second

// A JWTConfig configures a JWTVerifier.
type JWTConfig struct {
	// Issuer is the authorization server's issuer identifier, compared
	// exactly with each token's iss claim. Unless JWKSURL is set, the
	// issuer's signing keys are found through its metadata: RFC 8414
	// /.well-known/oauth-authorization-server or OpenID Connect
	// /.well-known/openid-configuration, whose issuer must be this same
	// string. It must be an https URL, or http on a loopback address.
	Issuer string

	// JWKSURL, if set, is where the issuer publishes its JWK set, and no
	// discovery takes place.
	JWKSURL string

	// Audience, if set, must be among the token's aud values. The runtime
	// checks the audience against the server's resource URI in any case;
	// this is for servers that use the verifier on their own.
	Audience string

	// ClockSkew is the tolerance for exp, nbf and iat: zero means
	// DefaultClockSkew, a negative value none at all.
	ClockSkew time.Duration

	// HTTPClient fetches the discovery document and the keys. The default
	// has a 10-second timeout and follows no redirects. Whatever the
	// client, one refresh of the keys is bounded by 10 seconds and each
	// document by 1 MiB.
	HTTPClient *http.Client

	// Logger receives the verifier's diagnostics (a failed key refresh).
	// The default writes text to standard error.
	Logger *slog.Logger

	// CacheTTL is the longest a token verified once is accepted again
	// without its signature being checked (never past its exp): zero means
	// DefaultJWTCacheTTL, a negative value turns the cache off, so that
	// every request checks its token's signature. See JWTVerifier.
	CacheTTL time.Duration

	// CacheSize bounds the number of tokens remembered: zero means
	// DefaultJWTCacheSize.
	CacheSize int

	// CacheBytes bounds the memory they take, as estimated from their
	// claims: zero means DefaultJWTCacheBytes.
	CacheBytes int
}

// A JWTVerifier verifies JWT access tokens (RFC 9068) signed by one
// issuer with one of the asymmetric keys of its JWK set. It implements
// runtime.TokenVerifier and is safe for concurrent use.
//
// It accepts a token when its signature verifies with the issuer's key
// that the kid header names (a token without kid only when the set has a
// single key), the key's type and alg admit the token's alg (RS*, PS*,
// ES*, EdDSA: never none or HS*), iss equals the issuer, exp is present
// and not passed, nbf and iat are not in the future (each with the clock
// skew), and, if configured, aud includes the audience.
//
// The keys are fetched on first use, refetched after 15 minutes, and
// refetched when a token names a kid the set lacks; fetches start at most
// once every 10 seconds, failed ones included, one at a time, each within
// 10 seconds. A token whose key is held never waits for a fetch: keys 15
// minutes old go on answering while a goroutine refreshes them, and only
// the first token, and one whose kid the set lacks, wait for the issuer.
// When a refetch fails the keys fetched before stay in use. When there
// are none, VerifyToken returns an error that does not wrap
// ErrInvalidToken: the runtime then answers 503 instead of sending the
// client back to the authorization server.
//
// A token it accepted is accepted again without its signature being
// checked, until the earliest of its exp, CacheTTL after its verification
// (5 minutes by default), the issuer's withdrawal of the key that signed
// it (once the verifier has fetched the set without it), or its eviction
// from the cache (see JWTConfig.CacheSize and CacheBytes). Every use
// checks the claims again against the clock: exp, nbf and iat (with the
// clock skew), the issuer, the audience. The cache is keyed by the
// SHA-256 of the whole token and does not hold the token; a refused token
// is never remembered. This changes nothing a token can do: a JWT cannot
// be revoked at the resource server, cache or not, and is accepted until
// it expires; only a signing key's withdrawal ends it sooner, and the
// cache keeps that. Tokens that must stop working when revoked need
// IntrospectionVerifier.
type JWTVerifier struct {
	parser   *jwt.Parser
	keys     *keyCache
	verdicts *verdictCache    // nil when off
	now      func() time.Time // the clock; tests move it
	issuer   string
	checks   atomic.Int64 // signatures checked, for tests
}

var _ runtime.TokenVerifier = (*JWTVerifier)(nil)

// NewJWTVerifier checks cfg and returns a verifier for its issuer. It
// does not contact the issuer: the first token does.
func NewJWTVerifier(cfg JWTConfig) (*JWTVerifier, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("auth: JWTConfig.Issuer is empty")
	}
	if err := checkURL("issuer", cfg.Issuer); err != nil {
		return nil, fmt.Errorf("auth: %w", err)
	}
	if _, err := discoveryURLs(cfg.Issuer); err != nil {
		return nil, fmt.Errorf("auth: %w", err)
	}
	if cfg.JWKSURL != "" {
		if err := checkURL("JWKS URL", cfg.JWKSURL); err != nil {
			return nil, fmt.Errorf("auth: %w", err)
		}
	}
	skew := cfg.ClockSkew
	switch {
	case skew == 0:
		skew = DefaultClockSkew
	case skew < 0:
		skew = 0
	}
	client := cfg.HTTPClient
	if client == nil {
		client = defaultHTTPClient()
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}

	v := &JWTVerifier{now: time.Now, issuer: cfg.Issuer}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods(asymmetricAlgs),
		jwt.WithIssuer(cfg.Issuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(skew),
		jwt.WithTimeFunc(func() time.Time { return v.now() }),
		// One encoding per signature: a token that differs in the unused
		// bits of its last base64 character is not the same token.
		jwt.WithStrictDecoding(),
	}
	if cfg.Audience != "" {
		opts = append(opts, jwt.WithAudience(cfg.Audience))
	}
	v.parser = jwt.NewParser(opts...)
	if cfg.CacheTTL >= 0 {
		ttl, size, bytes := cfg.CacheTTL, cfg.CacheSize, cfg.CacheBytes
		if ttl == 0 {
			ttl = DefaultJWTCacheTTL
		}
		if size <= 0 {
			size = DefaultJWTCacheSize
		}
		if bytes <= 0 {
			bytes = DefaultJWTCacheBytes
		}
		v.verdicts = newVerdictCache(ttl, skew, size, bytes)
	}
	v.keys = &keyCache{
		fetch: func(ctx context.Context) ([]*publicKey, error) {
			return fetchKeys(ctx, client, cfg.Issuer, cfg.JWKSURL)
		},
		now: func() time.Time { return v.now() },
		log: log,
	}
	return v, nil
}

// fetchKeys reads the issuer's JWK set, from jwksURL or else from the
// jwks_uri of its metadata (looked up anew each time, in case it moved).
func fetchKeys(ctx context.Context, c *http.Client, issuer, jwksURL string) ([]*publicKey, error) {
	if jwksURL == "" {
		md, err := discover(ctx, c, issuer)
		if err != nil {
			return nil, err
		}
		jwksURL = md.JWKSURI
	}
	var set json.RawMessage
	if err := getJSON(ctx, c, jwksURL, &set); err != nil {
		return nil, err
	}
	keys, err := parseJWKS(set)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", jwksURL, err)
	}
	return keys, nil
}

// errUnknownKey is the error of a token whose kid and alg name no key of
// the issuer's set.
var errUnknownKey = errors.New("no such key")

// VerifyToken verifies token and returns what it says. An invalid token
// is an error wrapping runtime.ErrInvalidToken; any other error means the
// issuer's keys could not be fetched.
func (v *JWTVerifier) VerifyToken(ctx context.Context, token string) (*runtime.TokenInfo, error) {
	if len(token) > MaxTokenSize {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", runtime.ErrInvalidToken, len(token), MaxTokenSize)
	}
	if v.verdicts == nil {
		ti, _, err := v.verify(ctx, token)
		return ti, err
	}
	sum := hashToken(token)
	if ti := v.cached(ctx, sum); ti != nil {
		return ti, nil
	}
	ti, key, err := v.verify(ctx, token)
	if err != nil {
		return nil, err
	}
	v.verdicts.put(sum, ti, key, validityOf(ti.Claims), v.now())
	return share(ti), nil
}

// hashToken returns the SHA-256 of token, read in place: the hash only
// reads its input, so the token's bytes need no copy (a kilobyte, on
// every request).
func hashToken(token string) [sha256.Size]byte {
	return sha256.Sum256(unsafe.Slice(unsafe.StringData(token), len(token)))
}

// share returns a copy of a cached TokenInfo for one request: its own
// struct and lists, which the runtime checks and a handler may change,
// and the cache's map of claims, which runtime.TokenInfo.Claims says is
// read only (copying it was half the cost of a cached token).
func share(ti *runtime.TokenInfo) *runtime.TokenInfo {
	c := *ti
	c.Audience = slices.Clone(ti.Audience)
	c.Scopes = slices.Clone(ti.Scopes)
	return &c
}

// cached returns a copy of the TokenInfo of the token whose SHA-256 is
// sum if the cache holds it, its claims still pass at the clock's time,
// and the key that checked its signature is still the issuer's; nil
// otherwise, and then the token is checked in full.
func (v *JWTVerifier) cached(ctx context.Context, sum [sha256.Size]byte) *runtime.TokenInfo {
	now := v.now()
	ti, key := v.verdicts.get(sum, now)
	if ti == nil {
		return nil
	}
	if !v.keys.holds(ctx, key, now) {
		v.verdicts.drop(sum)
		return nil
	}
	return share(ti)
}

// validityOf reads the times of claims that the parser has accepted, as
// its Validator reads them.
func validityOf(claims map[string]any) validity {
	var w validity
	mc := jwt.MapClaims(claims)
	if t, err := mc.GetExpirationTime(); err == nil && t != nil {
		w.exp = t.Time
	}
	if t, err := mc.GetNotBefore(); err == nil && t != nil {
		w.nbf = t.Time
	}
	if t, err := mc.GetIssuedAt(); err == nil && t != nil {
		w.iat = t.Time
	}
	return w
}

// verify checks token's signature and claims, and returns what it says
// and the key that checked the signature.
func (v *JWTVerifier) verify(ctx context.Context, token string) (*runtime.TokenInfo, *publicKey, error) {
	v.checks.Add(1)
	var (
		undecided error
		key       *publicKey
	)
	claims := jwt.MapClaims{}
	_, err := v.parser.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		// RFC 7515 §4.1.11: extensions the recipient does not know of
		// must make it refuse the token; this verifier knows of none.
		if _, ok := t.Header["crit"]; ok {
			return nil, errors.New(`header "crit" names extensions this verifier does not implement`)
		}
		kid, ok := t.Header["kid"].(string)
		if !ok && t.Header["kid"] != nil {
			return nil, errors.New(`header "kid" is not a string`)
		}
		alg := t.Method.Alg()
		k, err := v.keys.lookup(ctx, kid, alg)
		if err != nil {
			undecided = err
			return nil, err
		}
		if k == nil {
			if kid == "" {
				return nil, fmt.Errorf("%w: no kid, and the issuer does not have exactly one key for %s", errUnknownKey, alg)
			}
			return nil, fmt.Errorf("%w: the issuer has no key %q for %s", errUnknownKey, kid, alg)
		}
		key = k
		return k.key, nil
	})
	if undecided != nil {
		return nil, nil, fmt.Errorf("auth: the keys of %s: %w", v.issuer, undecided)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", refusal(err), err)
	}
	ti, err := tokenInfo(claims)
	return ti, key, err
}

// refusal is the reason, of those a client is told (runtime.ErrTokenExpired
// and the others), for which golang-jwt's parser refused a token with
// err; runtime.ErrInvalidToken when none fits. The first that fits wins:
// a token that is both expired and for another audience is told it has
// expired.
func refusal(err error) error {
	for _, r := range []struct{ jwt, runtime error }{
		{jwt.ErrTokenMalformed, runtime.ErrTokenMalformed},
		{errUnknownKey, runtime.ErrTokenUnknownKey},
		{jwt.ErrTokenSignatureInvalid, runtime.ErrTokenSignatureInvalid},
		{jwt.ErrTokenExpired, runtime.ErrTokenExpired},
		{jwt.ErrTokenNotValidYet, runtime.ErrTokenNotValidYet},
		{jwt.ErrTokenUsedBeforeIssued, runtime.ErrTokenNotValidYet},
		{jwt.ErrTokenInvalidIssuer, runtime.ErrTokenInvalidIssuer},
		{jwt.ErrTokenInvalidAudience, runtime.ErrTokenInvalidAudience},
	} {
		if errors.Is(err, r.jwt) {
			return r.runtime
		}
	}
	return runtime.ErrInvalidToken
}
