// Package backtick_doc: a schema containing a backquote cannot be a raw
// string literal; it is written as quoted lines instead.
package backtick_doc

type Input struct {
	Cmd string `json:"cmd"` // A command such as `ls -l`.
}

// Run runs a `shell` command.
//
//mcp:tool
func Run(in Input) (string, error) { return "", nil }
