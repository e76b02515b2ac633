// Package err_tasks has mistakes in the task options of //mcp:tool.
package err_tasks

import "context"

// Sometimes is not a task support.
//
//mcp:tool task=sometimes
func Sometimes(ctx context.Context) (string, error) { return "", nil }

// Poll polls, but is no task tool.
//
//mcp:tool pollInterval=5s
func Poll(ctx context.Context) (string, error) { return "", nil }

// Short has durations that are not.
//
//mcp:tool task=optional ttl=-1h pollInterval=often
func Short(ctx context.Context) (string, error) { return "", nil }
