package auth

import "time"

// SetClock makes v read the time from now, so that tests can move past a
// token's expiry or the key refresh interval without waiting.
func (v *JWTVerifier) SetClock(now func() time.Time) { v.now = now }

// SetClock makes v read the time from now.
func (v *IntrospectionVerifier) SetClock(now func() time.Time) { v.now = now }

// Timing constants, for tests that move the clock.
const (
	RefreshAfter  = refreshAfter
	MinRefetchGap = minRefetchGap
)

// MaxDocumentSize bounds the documents fetched from the authorization
// server.
const MaxDocumentSize = maxDocumentSize

// CacheLen returns the number of cached introspection answers.
func (v *IntrospectionVerifier) CacheLen() int {
	if v.cache == nil {
		return 0
	}
	return v.cache.len()
}

// SignatureChecks returns how many times v has checked a token in full,
// signature included, rather than found it in its cache.
func (v *JWTVerifier) SignatureChecks() int64 { return v.checks.Load() }

// CacheStats returns the number of tokens v's cache holds and their
// estimated size.
func (v *JWTVerifier) CacheStats() (entries, bytes int) {
	if v.verdicts == nil {
		return 0, 0
	}
	return v.verdicts.stats()
}
