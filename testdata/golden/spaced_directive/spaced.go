// Package spaced_directive: a directive written with a space after the
// slashes is a plain comment to Go, so mcpgen warns instead of ignoring
// it in silence. A line of prose that names mcp:tools is left alone.
//
// mcp:server name=spaced
package spaced_directive

// Spaced was meant to be a tool.
//
// mcp:tool spaced readOnly
func Spaced() (string, error) { return "", nil }

// Status was meant to be a resource.
//
//	mcp:resource app://status
func Status() (string, error) { return "", nil }

// mcp:tools is not one of mcpgen's directives: this comment is prose.
func Prose() {}
