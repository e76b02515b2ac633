// Package naming: default names keep Go's initialisms whole, a plural s
// with its initialism, and OAuth, IPv4 and IPv6 as one word.
package naming

import "context"

// In is an empty input.
type In struct{}

// RecentURLs lists recent URLs.
//
//mcp:tool
func RecentURLs(ctx context.Context, in In) (string, error) { return "", nil }

// ListIDs lists IDs.
//
//mcp:tool
func ListIDs(ctx context.Context, in In) (string, error) { return "", nil }

// MyAPIs lists my APIs.
//
//mcp:tool
func MyAPIs(ctx context.Context, in In) (string, error) { return "", nil }

// OAuthLogin logs in.
//
//mcp:tool
func OAuthLogin(ctx context.Context, in In) (string, error) { return "", nil }

// IPv6Lookup looks an address up.
//
//mcp:tool
func IPv6Lookup(ctx context.Context, in In) (string, error) { return "", nil }

// HTMLToPDFs converts pages.
//
//mcp:tool
func HTMLToPDFs(ctx context.Context, in In) (string, error) { return "", nil }

// JSONAPIStatus is the status of the JSON API.
//
//mcp:prompt
func JSONAPIStatus(ctx context.Context) (string, error) { return "", nil }
