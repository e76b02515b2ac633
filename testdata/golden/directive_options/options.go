// Package directive_options covers every option of //mcp:tool.
package directive_options

import "context"

type Input struct {
	Path string `json:"path"`
}

// Read reads a file.
//
//mcp:tool read_file title="Read a file" readOnly idempotent openWorld=false
func Read(ctx context.Context, in Input) (string, error) { return "", nil }

// Remove removes a file.
//
//mcp:tool name=remove-file destructive=true idempotent=true timeout=30s searchHint="delete rm unlink" alwaysLoad
func Remove(ctx context.Context, in Input) error { return nil }

// Slow takes its time.
//
//mcp:tool timeout=1500ms ALWAYSLOAD=false readonly=false
func Slow(ctx context.Context) (string, error) { return "", nil }
