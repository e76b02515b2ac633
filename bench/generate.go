package main

// The 200-tool variants of every server (internal/many/..., ts/many.mjs),
// then mcpgen's generated code for the mcpgen packages.
//go:generate go run ./internal/manygen
