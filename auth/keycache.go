package auth

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Key refresh timing. A key set is refetched when it is older than
// refreshAfter, so that keys the issuer withdrew stop being trusted within
// that time; and when a token names a key id the set does not have (the
// issuer rotated), but at most once per minRefetchGap, so that tokens with
// made-up key ids cannot make the server hammer the issuer: the gap is
// also the longest a rotated-in key can be refused.
const (
	refreshAfter  = 15 * time.Minute
	minRefetchGap = 10 * time.Second
)

// A keyCache holds an issuer's verification keys and refetches them when
// they are stale or a token names an unknown key. One fetch runs at a
// time, within fetchTimeout. Keys that are only stale are refreshed on a
// goroutine of the fetch's own while they go on answering: a token whose
// key is held never waits for the issuer, which costs only the tokens
// that cannot be decided without it (the first, or one whose kid the set
// lacks), which wait for the fetch under way. If a refetch fails the keys
// already held stay in use (the failure is logged), so an outage of the
// issuer does not lock every user out.
type keyCache struct {
	fetch func(context.Context) ([]*publicKey, error)
	now   func() time.Time
	log   *slog.Logger

	mu       sync.Mutex
	keys     []*publicKey
	fetched  time.Time     // when keys were fetched
	tried    time.Time     // when the last fetch started
	lastErr  error         // the last fetch's error, nil after a success
	inflight chan struct{} // closed when the running fetch ends; nil when none runs
}

// lookup returns the key for a token whose header names kid and alg. A
// nil key with a nil error means no key of the issuer fits the token; an
// error means the keys could not be had at all.
func (c *keyCache) lookup(ctx context.Context, kid, alg string) (*publicKey, error) {
	keys, err := c.get(ctx, false)
	if err != nil {
		return nil, err
	}
	if k := pick(keys, kid, alg); k != nil || kid == "" {
		return k, nil
	}
	// An unknown key id: the issuer may have rotated since the last fetch.
	keys, err = c.get(ctx, true)
	if err != nil {
		return nil, err
	}
	return pick(keys, kid, alg), nil
}

// pick chooses the key for kid and alg. A token without a kid can only be
// matched when the set has a single key: guessing among several would let
// a token choose the key.
func pick(keys []*publicKey, kid, alg string) *publicKey {
	if kid == "" {
		if len(keys) == 1 && keys[0].fits(alg) {
			return keys[0]
		}
		return nil
	}
	for _, k := range keys {
		if k.kid == kid && k.fits(alg) {
			return k
		}
	}
	return nil
}

// get returns the keys, fetching them first when there are none, or when
// force says a token wants a newer set; keys that are stale it returns at
// once, and has them refreshed in the background. A fetch starts only if
// the last one started minRefetchGap ago or more.
func (c *keyCache) get(ctx context.Context, force bool) ([]*publicKey, error) {
	c.mu.Lock()
	now := c.now()
	if c.keys != nil && !force {
		keys := c.keys
		c.refreshIfStale(ctx, now)
		c.mu.Unlock()
		return keys, nil
	}
	done := c.inflight
	if done == nil && now.Sub(c.tried) < minRefetchGap {
		keys, err := c.keys, c.lastErr
		c.mu.Unlock()
		if keys != nil {
			return keys, nil
		}
		return nil, err
	}
	if done == nil {
		done = make(chan struct{})
		c.inflight = done
		c.tried = now
		c.mu.Unlock()
		c.run(ctx, done)
	} else {
		c.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.keys != nil {
		return c.keys, nil
	}
	return nil, c.lastErr
}

// refreshIfStale starts a refresh of keys older than refreshAfter on a
// goroutine of its own, unless one runs or started less than
// minRefetchGap ago. c.mu is held.
func (c *keyCache) refreshIfStale(ctx context.Context, now time.Time) {
	if now.Sub(c.fetched) >= refreshAfter && c.inflight == nil && now.Sub(c.tried) >= minRefetchGap {
		done := make(chan struct{})
		c.inflight, c.tried = done, now
		go c.run(ctx, done)
	}
}

// run fetches the keys and publishes the result. The fetch does not end
// with the caller's request, since other callers may be waiting for it,
// but fetchTimeout bounds it whatever the HTTP client.
func (c *keyCache) run(ctx context.Context, done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
	defer cancel()
	keys, err := c.fetch(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.lastErr = err
		if c.keys != nil {
			c.log.Warn("auth: refreshing the issuer's keys failed; keeping the keys fetched before", "fetched", c.fetched, "err", err)
		}
	} else {
		c.keys, c.fetched, c.lastErr = carryOver(c.keys, keys), c.now(), nil
	}
	c.inflight = nil
	close(done)
}

// holds reports whether k is among the keys held: a verdict that k
// checked stands only while the issuer publishes k. Like get, it has
// stale keys refreshed, so that a withdrawn key is found out as soon
// with verdicts cached as without.
func (c *keyCache) holds(ctx context.Context, k *publicKey, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refreshIfStale(ctx, now)
	for _, h := range c.keys {
		if h == k {
			return true
		}
	}
	return false
}

// carryOver returns the fetched keys, each replaced by the key held
// before if that one is the same (its kid, its algorithms and the key
// itself): a key stays the same *publicKey across refetches for as long
// as the issuer publishes it, so that holds can compare pointers.
func carryOver(held, fetched []*publicKey) []*publicKey {
	for i, k := range fetched {
		for _, h := range held {
			if h.same(k) {
				fetched[i] = h
				break
			}
		}
	}
	return fetched
}
