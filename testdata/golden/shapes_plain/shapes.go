// Package shapes_plain covers the handler shapes of plain functions:
// context optional, input optional, error-only results.
package shapes_plain

import "context"

type Input struct {
	N int `json:"n"`
}

// WithCtx takes a context and an input.
//
//mcp:tool
func WithCtx(ctx context.Context, in Input) (string, error) { return "", nil }

// NoCtx takes only an input.
//
//mcp:tool
func NoCtx(in Input) (string, error) { return "", nil }

// CtxOnly takes only a context.
//
//mcp:tool
func CtxOnly(ctx context.Context) (string, error) { return "", nil }

// Nothing takes nothing at all.
//
//mcp:tool
func Nothing() (string, error) { return "", nil }

// ErrorOnly returns only an error.
//
//mcp:tool
func ErrorOnly(ctx context.Context, in Input) error { return nil }

// bareError is unexported, takes nothing and returns only an error.
//
//mcp:tool
func bareError() error { return nil }
