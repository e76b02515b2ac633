// Package err_quoting: a value with spaces that is not quoted, and a
// misspelled option after the name.
//
//mcp:server name=quoting title=Files and folders
package err_quoting

import "context"

// In names a file.
type In struct {
	Path string `json:"path"`
}

// ReadFile reads a file.
//
//mcp:tool read_file title=Read a file readOnly
func ReadFile(ctx context.Context, in In) (string, error) { return "", nil }

// RemoveFile removes a file.
//
//mcp:tool remove_file destructve
func RemoveFile(ctx context.Context, in In) error { return nil }

// Status is the status.
//
//mcp:resource app://status title=Service status
func Status() (string, error) { return "up", nil }

// Summarize summarizes.
//
//mcp:prompt summarize description=Summarize a file
func Summarize(ctx context.Context) (string, error) { return "", nil }
