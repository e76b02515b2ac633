package auth

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Defaults of the JWT verdict cache (JWTConfig.CacheTTL, CacheSize and
// CacheBytes).
const (
	// DefaultJWTCacheTTL is the longest a token verified once is accepted
	// again without its signature being checked: a client sends the same
	// token with every request for the token's life, and checking an RS256
	// signature costs far more than the rest of a call.
	DefaultJWTCacheTTL = 5 * time.Minute
	// DefaultJWTCacheSize bounds the tokens remembered: one or two per
	// active client.
	DefaultJWTCacheSize = 10000
	// DefaultJWTCacheBytes bounds the memory they take, estimated (see
	// verdictSize): a token of a kilobyte takes about three.
	DefaultJWTCacheBytes = 32 << 20
)

// A verdictCache remembers the tokens a JWTVerifier accepted, so that the
// same token is accepted again without its signature being checked. It
// is keyed by the SHA-256 of the whole token, and never holds the token.
// An entry lasts until the earliest of: its deadline (its verification
// plus the TTL, and never past the token's exp), the key that checked its
// signature leaving the issuer's set, or its eviction, least recently used
// first, when maxEntries or maxBytes would be passed. Only accepted tokens
// enter it: tokens that fail, however many, cannot evict those that pass.
//
// What it skips is the signature and the key lookup alone: every use
// checks the claims that the clock decides (exp, nbf, iat) again, and the
// caller that the key is still the issuer's.
type verdictCache struct {
	ttl        time.Duration
	skew       time.Duration // the verifier's clock skew
	maxEntries int
	maxBytes   int

	mu      sync.Mutex
	entries map[[sha256.Size]byte]*verdict
	bytes   int
	recent  verdict // sentinel of the list of entries, most recently used first
}

// A verdict is one accepted token.
type verdict struct {
	sum        [sha256.Size]byte
	ti         *runtime.TokenInfo // never handed out: callers get a clone
	key        *publicKey         // the key that checked the signature
	times      validity
	until      time.Time
	size       int
	prev, next *verdict
}

// validity holds the claims of a token that the clock decides: exp, and
// nbf and iat if present (zero if not), as golang-jwt read them.
type validity struct {
	exp, nbf, iat time.Time
}

// at reports whether the token passes, at now and with the clock skew,
// the checks of golang-jwt's Validator that depend on the time: exp
// (required, as the parser is told) is after now-skew, nbf and iat are
// not after now+skew. The comparisons are the Validator's own, so that a
// cached token is accepted at exactly the times a checked one would be;
// the other claims (iss, aud) do not change with the time.
func (w validity) at(now time.Time, skew time.Duration) bool {
	return now.Before(w.exp.Add(skew)) &&
		(w.nbf.IsZero() || !now.Before(w.nbf.Add(-skew))) &&
		(w.iat.IsZero() || !now.Before(w.iat.Add(-skew)))
}

func newVerdictCache(ttl, skew time.Duration, maxEntries, maxBytes int) *verdictCache {
	c := &verdictCache{ttl: ttl, skew: skew, maxEntries: maxEntries, maxBytes: maxBytes, entries: make(map[[sha256.Size]byte]*verdict)}
	c.recent.prev, c.recent.next = &c.recent, &c.recent
	return c
}

// get returns the accepted token whose hash is sum, and the key that
// checked it, if it is held, its deadline has not passed at now, and its
// claims still pass at now (see validity.at); an entry that fails is
// dropped. The TokenInfo is the cache's own: the caller must not change
// it.
func (c *verdictCache) get(sum [sha256.Size]byte, now time.Time) (*runtime.TokenInfo, *publicKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[sum]
	if e == nil {
		return nil, nil
	}
	if !now.Before(e.until) || !e.times.at(now, c.skew) {
		c.remove(e)
		return nil, nil
	}
	c.unlink(e)
	c.pushFront(e)
	return e.ti, e.key
}

// drop forgets the token whose hash is sum: its claims no longer pass, or
// its key left the issuer's set.
func (c *verdictCache) drop(sum [sha256.Size]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[sum]; e != nil {
		c.remove(e)
	}
}

// put remembers that the token whose hash is sum was accepted at now,
// its signature checked by key, its claims valid at the times w says. An
// entry larger than the whole budget is not kept.
func (c *verdictCache) put(sum [sha256.Size]byte, ti *runtime.TokenInfo, key *publicKey, w validity, now time.Time) {
	until := now.Add(c.ttl)
	if !ti.Expiry.IsZero() && ti.Expiry.Before(until) {
		until = ti.Expiry
	}
	size := verdictSize(ti)
	if size > c.maxBytes || !now.Before(until) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.entries[sum]; old != nil {
		c.remove(old)
	}
	// The list is not empty while either bound is reached: maxEntries is
	// at least 1, and size at most maxBytes.
	for len(c.entries) >= c.maxEntries || c.bytes+size > c.maxBytes {
		c.remove(c.recent.prev) // the least recently used
	}
	e := &verdict{sum: sum, ti: ti, key: key, times: w, until: until, size: size}
	c.entries[sum] = e
	c.bytes += size
	c.pushFront(e)
}

// remove takes e out of the cache; c.mu is held.
func (c *verdictCache) remove(e *verdict) {
	c.unlink(e)
	delete(c.entries, e.sum)
	c.bytes -= e.size
}

func (c *verdictCache) unlink(e *verdict) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

func (c *verdictCache) pushFront(e *verdict) {
	e.prev, e.next = &c.recent, c.recent.next
	e.prev.next, e.next.prev = e, e
}

// stats returns the number of entries and their estimated size.
func (c *verdictCache) stats() (entries, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.bytes
}

// Estimates of the memory held, for verdictSize: an entry with its map
// slot and TokenInfo; a string's or an interface's header; a map member's
// share of its map besides its key and value.
const (
	verdictOverhead = 256
	headerSize      = 16
	memberOverhead  = 48
)

// verdictSize estimates the bytes an entry holds: its own, the TokenInfo's
// lists, and the claims as decoded JSON (the TokenInfo's strings are the
// claims' own). It need not be exact, only proportional to what a token
// can make the cache hold, so that maxBytes bounds it.
func verdictSize(ti *runtime.TokenInfo) int {
	n := verdictOverhead + headerSize*(len(ti.Audience)+len(ti.Scopes))
	for k, v := range ti.Claims {
		n += memberOverhead + len(k) + valueSize(v)
	}
	return n
}

// valueSize estimates the bytes a value decoded by encoding/json holds,
// its interface header included.
func valueSize(v any) int {
	switch v := v.(type) {
	case string:
		return 2*headerSize + len(v)
	case []any:
		n := 2*headerSize + 8
		for _, e := range v {
			n += valueSize(e)
		}
		return n
	case map[string]any:
		n := 2*headerSize + memberOverhead
		for k, e := range v {
			n += memberOverhead + len(k) + valueSize(e)
		}
		return n
	default: // float64, bool, nil, json.Number
		return 2 * headerSize
	}
}
