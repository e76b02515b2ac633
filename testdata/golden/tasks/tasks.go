// Package tasks covers the options of //mcp:tool for tools whose calls run
// as tasks.
package tasks

import "context"

type ExportInput struct {
	Table string `json:"table"`
}

// Export writes a table to a file; it takes minutes.
//
//mcp:tool task=optional pollInterval=5s ttl=2h
func Export(ctx context.Context, in ExportInput) (string, error) { return "", nil }

// Report builds the monthly report.
//
//mcp:tool task=REQUIRED timeout=10m
func Report(ctx context.Context) (string, error) { return "", nil }

// Quick answers at once.
//
//mcp:tool task=forbidden
func Quick(ctx context.Context) (string, error) { return "", nil }
