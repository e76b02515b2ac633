package auth

import (
	"sync"
	"time"
)

// A ttlCache maps keys to values that expire, holding at most max entries.
// When it is full, an insert first drops the expired entries and then, if
// none had expired, one arbitrary entry: the cache only saves round trips,
// so losing an entry costs one more, never a wrong answer.
type ttlCache[V any] struct {
	mu      sync.Mutex
	max     int
	entries map[string]ttlEntry[V]
}

type ttlEntry[V any] struct {
	v       V
	expires time.Time
}

func newTTLCache[V any](max int) *ttlCache[V] {
	return &ttlCache[V]{max: max, entries: make(map[string]ttlEntry[V])}
}

// get returns the value of key if it has not expired at now.
func (c *ttlCache[V]) get(key string, now time.Time) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !now.Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// put stores v under key until expires.
func (c *ttlCache[V]) put(key string, v V, expires, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; !ok && len(c.entries) >= c.max {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= c.max {
			for k := range c.entries {
				delete(c.entries, k)
				break
			}
		}
	}
	c.entries[key] = ttlEntry[V]{v: v, expires: expires}
}

// len returns the number of entries, expired ones included.
func (c *ttlCache[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
