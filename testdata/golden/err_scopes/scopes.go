// Package err_scopes: scopes that are not OAuth scopes, a scope twice,
// and scopes= with nothing in it.
package err_scopes

import "context"

// In names a note.
type In struct {
	ID string `json:"id"`
}

// Quoted has a quote in a scope.
//
//mcp:tool scopes=notes:"write"
func Quoted(ctx context.Context, in In) error { return nil }

// Twice lists a scope twice.
//
//mcp:tool scopes=notes:read,notes:read
func Twice(ctx context.Context, in In) error { return nil }

// Empty lists none.
//
//mcp:tool scopes=","
func Empty(ctx context.Context, in In) error { return nil }

// Note has a non-ASCII scope.
//
//mcp:resource notes://{id} scopes=notes:lire,notés
func Note(ctx context.Context, in In) (string, error) { return "", nil }
