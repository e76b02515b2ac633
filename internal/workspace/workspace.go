// Package workspace checks that go.work, at the root of the repository,
// lists every module in it: the README's test command,
// go test github.com/mcpgen/mcpgen/..., tests the modules go.work lists,
// and a module it forgets would go untested.
package workspace
