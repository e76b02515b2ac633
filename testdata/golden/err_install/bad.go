// Package bad has the install mistakes: a configuration field of a type
// that an environment variable cannot carry, a secret with a default, a
// version that is not semantic, and unknown or doubled options.
//
//mcp:server version=1.0
//mcp:install oci=ghcr.io/mcpgen/bad:latest mcpb=https://example.com/bad.zip remote=ftp://bad.example.com
//mcp:install icon=http://example.com/bad.png descripton="typo" oci=ghcr.io/mcpgen/bad
package bad

import (
	"context"
	"time"
)

// Config is the server's configuration.
//
//mcp:config
type Config struct {
	Hosts   []string          `json:"hosts"`                                                 // A list.
	Limits  map[string]int    `json:"limits,omitempty"`                                      // A map.
	Timeout time.Duration     `json:"timeout,omitempty"`                                     // A duration is an integer.
	Token   string            `json:"token,omitempty" mcp:"secret" jsonschema:"default=abc"` // A secret with a default.
	Count   int               `json:"count,omitempty" mcp:"directory"`                       // Not a path.
	Name    string            `json:"name,omitempty" mcp:"env=1BAD,fancy"`                   // Bad words.
	Ptr     *string           `json:"ptr,omitempty"`                                         // A pointer.
	Nested  struct{ A int }   `json:"nested,omitempty"`                                      // A struct.
	Other   map[string]string `json:"-"`
}

// Other is a second configuration.
//
//mcp:config
type Other struct {
	A string `json:"a"` // A.
}

// Ping answers.
//
//mcp:tool
func Ping(ctx context.Context) (string, error) { return "pong", nil }
