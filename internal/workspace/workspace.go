// Package workspace checks what the repository says of its own layout:
// that go.work, at its root, lists every module in it (the README's test
// command, go run ./internal/testall, runs go test
// github.com/mcpgen/mcpgen/..., which tests the modules go.work lists, and
// a module it forgets would go untested); and that
// CONTRIBUTING.md's map names every file of every package, so that the
// layout it describes cannot drift from the code.
package workspace
