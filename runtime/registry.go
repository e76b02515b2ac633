package runtime

import (
	"fmt"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
)

// A registry holds the items of one kind that a server offers (its tools,
// prompts, resources or resource templates), in the order they were
// added, each under its key (a name, a URI, a URI template). Every list
// method and every "unknown …" error reads it the same way.
type registry[T any] struct {
	mu    sync.RWMutex
	items []T
	byKey map[string]T
	keys  []string // in items' order
	// encoded caches what a list method made of items, per variant (see
	// list); it is dropped on every change.
	encoded [listVariants][]byte
}

// kind names what the registry holds, for errors.
func (r *registry[T]) kind() string {
	switch any(*new(T)).(type) {
	case *Tool:
		return "tool"
	case *Prompt:
		return "prompt"
	case *Resource:
		return "resource"
	case *ResourceTemplate:
		return "resource template"
	}
	return fmt.Sprintf("%T", *new(T))
}

// add registers item under key, unless the key is taken.
func (r *registry[T]) add(key string, item T) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byKey[key]; dup {
		return fmt.Errorf("duplicate %s %q", r.kind(), key)
	}
	if r.byKey == nil {
		r.byKey = make(map[string]T)
	}
	r.byKey[key] = item
	r.items = append(r.items, item)
	r.keys = append(r.keys, key)
	r.encoded = [listVariants][]byte{}
	return nil
}

// remove removes the item under key, and reports whether there was one.
func (r *registry[T]) remove(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byKey[key]; !ok {
		return false
	}
	delete(r.byKey, key)
	for i, k := range r.keys {
		if k == key {
			// A new backing array: snapshots taken by all keep theirs.
			r.keys = append(r.keys[:i:i], r.keys[i+1:]...)
			r.items = append(r.items[:i:i], r.items[i+1:]...)
			break
		}
	}
	r.encoded = [listVariants][]byte{}
	return true
}

// get returns the item under key.
func (r *registry[T]) get(key string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	item, ok := r.byKey[key]
	return item, ok
}

// getBytes is get for a key held as bytes, without converting them to a
// string (a map index with string(key) does not allocate).
func (r *registry[T]) getBytes(key []byte) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	item, ok := r.byKey[string(key)]
	return item, ok
}

// all returns the items, in order; the caller must not change the slice.
func (r *registry[T]) all() []T {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.items[:len(r.items):len(r.items)]
}

// len returns the number of items.
func (r *registry[T]) len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.items)
}

// listVariants is the number of variants of a list: tools/list differs
// by the request's revision (per request or not) and by whether the
// client renders MCP Apps.
const listVariants = 4

// list returns the encoded list of variant (0 to listVariants-1), encoding
// it with encode once per set of items.
func (r *registry[T]) list(variant int, encode func(items []T) ([]byte, error)) ([]byte, error) {
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

// listResult answers a list method with the items of r as the array
// member, each written by entry, which writes nothing for an item the
// client is not shown; variant tells lists that differ by the request
// apart (see list).
func listResult[T any](r *registry[T], variant int, member string, entry func(b []byte, item T) ([]byte, error)) response {
	list, err := r.list(variant, func(items []T) ([]byte, error) {
		b := append([]byte{'"'}, member...)
		b = append(b, `":[`...)
		first := len(b)
		for _, item := range items {
			var err error
			if b, err = appendItem(b, first, item, entry); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	})
	if err != nil {
		return errorResponse(jsonrpc.InternalError, "listing %ss: %v", r.kind(), err)
	}
	return rawResult(list)
}

// appendItem writes item with entry after the items of a list written
// since start, with a comma between two; an entry that writes nothing
// leaves the item out (a tool the client is not shown), comma and all.
func appendItem[T any](b []byte, start int, item T, entry func(b []byte, item T) ([]byte, error)) ([]byte, error) {
	at := len(b)
	if at > start {
		b = append(b, ',')
	}
	n := len(b)
	b, err := entry(b, item)
	if err == nil && len(b) == n {
		b = b[:at]
	}
	return b, err
}

// maxNamedInError bounds the keys an "unknown …" error lists.
const maxNamedInError = 32

// unknown is the message for a key that names no item: what is there, in
// order, the first maxNamedInError of them.
func (r *registry[T]) unknown(key string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var b strings.Builder
	fmt.Fprintf(&b, "unknown %s %q; ", r.kind(), key)
	if len(r.keys) == 0 {
		fmt.Fprintf(&b, "this server has no %ss", r.kind())
		return b.String()
	}
	fmt.Fprintf(&b, "available %ss: ", r.kind())
	for i, k := range r.keys {
		if i == maxNamedInError {
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
