package otel

import "sync"

// maxSpanNames bounds the span names kept: one per tool and prompt a
// server has (the middleware asks for no other, see spanName); past it
// (a server of many tools), names are built per request instead.
const maxSpanNames = 1024

// spanNames keeps the span names "{method} {target}", so that a request
// of a tool or prompt already seen builds no string.
type spanNames struct {
	mu    sync.RWMutex
	names map[nameKey]string
}

type nameKey struct{ method, target string }

// of returns the span name of method and target: "{method} {target}", or
// the method alone without a target.
func (n *spanNames) of(method, target string) string {
	if target == "" {
		return method
	}
	k := nameKey{method, target}
	n.mu.RLock()
	name, ok := n.names[k]
	n.mu.RUnlock()
	if ok {
		return name
	}
	name = method + " " + target
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.names) < maxSpanNames {
		if n.names == nil {
			n.names = make(map[nameKey]string)
		}
		// The key shares the name's bytes, not the request's.
		n.names[nameKey{name[:len(method)], name[len(method)+1:]}] = name
	}
	return name
}
