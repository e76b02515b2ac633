// Command conformance serves the tools that the official MCP conformance
// suite (@modelcontextprotocol/conformance) calls in its server scenarios,
// each a plain Go function registered by mcpgen. Run it with -http
// 127.0.0.1:0 and point the suite at the URL it logs; .ci/conformance.sh
// does that. With -redis URL its replicas share tasks and notifications
// through Redis, as .ci/balancer.sh runs three of them; it is a module of
// its own so that the Redis client it then links is not a requirement of
// mcpgen's.
//
//mcp:server name=mcpgen-conformance version=1.0.0 surface
package main

import (
	"context"
	"encoding/base64"
	"errors"
	"time"

	"github.com/mcpgen/mcpgen/examples/internal/cli"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/store"
	"github.com/mcpgen/mcpgen/store/redis"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// The media the suite's reference server returns: a 1x1 red PNG and a
// minimal WAV file.
var (
	redPixelPNG = mustDecode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
	minimalWAV  = mustDecode("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")
)

func mustDecode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// SimpleText returns a simple text response for testing.
//
//mcp:tool test_simple_text readOnly
func SimpleText(ctx context.Context) (string, error) {
	return "This is a simple text response for testing.", nil
}

// ImageContent returns a 1x1 red pixel PNG image.
//
//mcp:tool test_image_content readOnly
func ImageContent(ctx context.Context) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{
		runtime.ImageContent{Data: redPixelPNG, MIMEType: "image/png"},
	}}, nil
}

// AudioContent returns a short WAV audio clip.
//
//mcp:tool test_audio_content readOnly
func AudioContent(ctx context.Context) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{
		runtime.AudioContent{Data: minimalWAV, MIMEType: "audio/wav"},
	}}, nil
}

// EmbeddedResource returns a text resource embedded in the result.
//
//mcp:tool test_embedded_resource readOnly
func EmbeddedResource(ctx context.Context) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{
		runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."}},
	}}, nil
}

// MultipleContentTypes returns text, an image and an embedded resource in
// one result.
//
//mcp:tool test_multiple_content_types readOnly
func MultipleContentTypes(ctx context.Context) (*runtime.ToolResult, error) {
	return &runtime.ToolResult{Content: []runtime.Content{
		runtime.TextContent{Text: "Multiple content types test:"},
		runtime.ImageContent{Data: redPixelPNG, MIMEType: "image/png"},
		runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`}},
	}}, nil
}

// ToolWithLogging sends three log messages to the client, 50 ms apart,
// while it runs.
//
//mcp:tool test_tool_with_logging readOnly
func ToolWithLogging(ctx context.Context) (string, error) {
	log := runtime.Logger(ctx)
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		log.Info(msg)
	}
	return "Tool with logging executed successfully", nil
}

// ErrorHandling always fails, to test how errors reach the client.
//
//mcp:tool test_error_handling readOnly
func ErrorHandling(ctx context.Context) (string, error) {
	return "", errors.New("This tool intentionally returns an error for testing")
}

// ToolWithProgress reports progress 0, 50 and 100 out of 100, 50 ms apart,
// when the client asks for progress.
//
//mcp:tool test_tool_with_progress readOnly
func ToolWithProgress(ctx context.Context) (string, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		runtime.ReportProgress(ctx, p, 100, "")
	}
	return "Tool with progress executed successfully", nil
}

// Person is someone with an optional postal address.
type Person struct {
	Name    string   `json:"name,omitempty"`
	Address *address `json:"address,omitempty"`
}

// address is a postal address. Its type name is its $defs name, which the
// suite requires to be "address".
type address struct {
	Street string `json:"street,omitempty"`
	City   string `json:"city,omitempty"`
}

// JSONSchema202012 is a tool with JSON Schema 2020-12 features: its input
// schema has $schema, $defs with $ref, and additionalProperties false.
//
//mcp:tool json_schema_2020_12_tool readOnly
func JSONSchema202012(ctx context.Context, in Person) (string, error) {
	if in.Address != nil {
		return in.Name + " lives at " + in.Address.Street + ", " + in.Address.City, nil
	}
	return "Hello, " + in.Name, nil
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func main() {
	changes := &Changes{}
	s := NewServer(changes)
	s.AddTool(toolWithTask())
	changes.srv = s
	cli.Main(s, cli.WithRedis(func(ctx context.Context, url string) (store.Store, error) {
		return redis.Open(ctx, url, nil)
	}))
}
