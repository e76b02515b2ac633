// Package client_tools is served to the official Go SDK's client in the
// runtime's tests: it has tools that report progress, log, and wait to be
// cancelled.
//
//mcp:server name=client_tools version=0.1.0
package client_tools

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// EchoInput is what to echo.
type EchoInput struct {
	Text  string `json:"text" jsonschema:"minLength=1"`
	Times int    `json:"times,omitempty" jsonschema:"minimum=1,maximum=3"`
}

// Echo repeats a text.
//
//mcp:tool readOnly
func Echo(ctx context.Context, in EchoInput) (string, error) {
	out := in.Text
	for i := 1; i < in.Times; i++ {
		out += " " + in.Text
	}
	return out, nil
}

// CountInput says how far to count.
type CountInput struct {
	To int `json:"to" jsonschema:"minimum=1,maximum=10"`
}

// Count counts, reporting progress at every step and logging the last.
//
//mcp:tool
func Count(ctx context.Context, in CountInput) (string, error) {
	for i := 1; i <= in.To; i++ {
		runtime.ReportProgress(ctx, float64(i), float64(in.To), fmt.Sprintf("step %d", i))
	}
	runtime.Logger(ctx).Info("counted", "to", in.To)
	return fmt.Sprintf("counted to %d", in.To), nil
}

// Wait waits until the call is cancelled.
//
//mcp:tool
func Wait(ctx context.Context) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}
