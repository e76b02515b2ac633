// Package registry holds the items of one kind that a server offers (its
// tools, prompts, resources or resource templates), in the order they
// were added, each under its key (a name, a URI, a URI template): a
// lookup takes a read lock and a map index, and every list method and
// every "unknown …" error reads the same registry the same way.
package registry

import (
	"fmt"
	"strings"
	"sync"
)

// A Registry holds items of type T. Its zero value is empty and ready; it
// may be used from many goroutines at once.
type Registry[T any] struct {
	mu    sync.RWMutex
	items []T
	byKey map[string]T
	keys  []string // in items' order
	// encoded caches what List made of items, per variant; it is dropped
	// on every change.
	encoded [Variants][]byte
}

// Add registers item under key, and reports false, changing nothing,
// when the key is taken.
func (r *Registry[T]) Add(key string, item T) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byKey[key]; dup {
		return false
	}
	if r.byKey == nil {
		r.byKey = make(map[string]T)
	}
	r.byKey[key] = item
	r.items = append(r.items, item)
	r.keys = append(r.keys, key)
	r.encoded = [Variants][]byte{}
	return true
}

// Remove removes the item under key, and reports whether there was one.
func (r *Registry[T]) Remove(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byKey[key]; !ok {
		return false
	}
	delete(r.byKey, key)
	for i, k := range r.keys {
		if k == key {
			// A new backing array: the slices All returned keep theirs.
			r.keys = append(r.keys[:i:i], r.keys[i+1:]...)
			r.items = append(r.items[:i:i], r.items[i+1:]...)
			break
		}
	}
	r.encoded = [Variants][]byte{}
	return true
}

// Get returns the item under key.
func (r *Registry[T]) Get(key string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	item, ok := r.byKey[key]
	return item, ok
}

// GetBytes is Get for a key held as bytes, without converting them to a
// string (a map index with string(key) does not allocate).
func (r *Registry[T]) GetBytes(key []byte) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	item, ok := r.byKey[string(key)]
	return item, ok
}

// All returns the items, in order; the caller must not change the slice.
func (r *Registry[T]) All() []T {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.items[:len(r.items):len(r.items)]
}

// Len returns the number of items.
func (r *Registry[T]) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.items)
}

// Variants is the number of variants of a list that List keeps:
// tools/list differs by the request's revision (per request or not) and by
// whether the client renders MCP Apps.
const Variants = 4

// List returns the encoded list of variant (0 to Variants-1: lists that
// differ by what the client is), encoding it with encode once per set of
// items.
func (r *Registry[T]) List(variant int, encode func(items []T) ([]byte, error)) ([]byte, error) {
	r.mu.RLock()
	b := r.encoded[variant]
	r.mu.RUnlock()
	if b != nil {
		return b, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if b := r.encoded[variant]; b != nil {
		return b, nil
	}
	b, err := encode(r.items)
	if err != nil {
		return nil, err
	}
	r.encoded[variant] = b
	return b, nil
}

// MaxNamedInError bounds the keys an "unknown …" message lists (the
// runtime's of skills too).
const MaxNamedInError = 32

// Unknown is the message for a key that names no item of the kind (such
// as "tool"): what is there, in order, the first MaxNamedInError of them.
func (r *Registry[T]) Unknown(kind, key string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var b strings.Builder
	fmt.Fprintf(&b, "unknown %s %q; ", kind, key)
	if len(r.keys) == 0 {
		fmt.Fprintf(&b, "this server has no %ss", kind)
		return b.String()
	}
	fmt.Fprintf(&b, "available %ss: ", kind)
	for i, k := range r.keys {
		if i == MaxNamedInError {
			fmt.Fprintf(&b, " and %d more", len(r.keys)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
	}
	return b.String()
}
