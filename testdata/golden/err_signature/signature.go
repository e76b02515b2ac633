// Package err_signature: every way a tool function's signature can be
// wrong, all reported in one run.
package err_signature

import "context"

type In struct{ A string }

//mcp:tool
func TooMany(ctx context.Context, a In, b In) (string, error) { return "", nil }

//mcp:tool
func CtxSecond(in In, ctx context.Context) (string, error) { return "", nil }

//mcp:tool
func NotStruct(ctx context.Context, n int) (string, error) { return "", nil }

//mcp:tool
func Anonymous(in struct{ A int }) (string, error) { return "", nil }

//mcp:tool
func NoError(in In) string { return "" }

//mcp:tool
func NoResults(in In) {}

//mcp:tool
func ThreeResults(in In) (string, int, error) { return "", 0, nil }

//mcp:tool
func Variadic(ctx context.Context, ins ...In) (string, error) { return "", nil }

//mcp:tool
func Generic[T any](in In) (string, error) { return "", nil }

//mcp:tool
func InterfaceOut(in In) (any, error) { return nil, nil }

// Box is generic.
type Box[T any] struct{}

//mcp:tool
func (b *Box[T]) Method(in In) (string, error) { return "", nil }
