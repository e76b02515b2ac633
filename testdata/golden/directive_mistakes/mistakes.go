// Package directive_mistakes: directives that generate something other
// than what was most likely meant. The file is generated; each is a
// warning that says how to write what was meant, or how to keep it.
package directive_mistakes

import "context"

// In names a file.
type In struct {
	Path string `json:"path"`
}

// Remove removes a file. The directive names it "destructve" and gives
// it no destructiveHint.
//
//mcp:tool destructve
func Remove(ctx context.Context, in In) error { return nil }

// Read reads a file.
//
//mcp:tool redOnly
func Read(ctx context.Context, in In) (string, error) { return "", nil }

// Slow takes a while.
//
//mcp:tool timeout
func Slow(ctx context.Context, in In) error { return nil }

// Fetch fetches a URL: a name in camelCase, unlike the default names.
//
//mcp:tool fetchURL
func Fetch(ctx context.Context, in In) (string, error) { return "", nil }

// Keep keeps a name that looks like an option, on purpose: no warning.
//
//mcp:tool name=idempotnt
func Keep(ctx context.Context, in In) error { return nil }

// Kebab has a name in kebab-case, a deliberate style: no warning.
//
//mcp:tool get-item
func Kebab(ctx context.Context, in In) (string, error) { return "", nil }
