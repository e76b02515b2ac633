// Package shapes_methods has tools that are methods: Register takes the
// receivers, as a pointer when any method needs one.
package shapes_methods

import (
	"context"
	"database/sql"
)

// Store holds a database handle.
type Store struct {
	DB *sql.DB
}

type GetInput struct {
	ID string `json:"id"`
}

// Get reads a row.
//
//mcp:tool
func (s *Store) Get(ctx context.Context, in GetInput) (string, error) { return in.ID, nil }

// Count counts rows; its receiver is a value, but Store is still passed by
// pointer because Get needs one.
//
//mcp:tool
func (s Store) Count(ctx context.Context) (int, error) { return 0, nil }

// Clock tells the time.
type Clock struct{ Zone string }

// Now tells the time in the clock's zone.
//
//mcp:tool
func (c Clock) Now() (string, error) { return c.Zone, nil }

// Version is a plain function next to the methods.
//
//mcp:tool
func Version() (string, error) { return "1", nil }
