// Package err_rounds: every mistake is reported in one run, those inside
// the input of a tool whose directive or signature is wrong as well, and
// those of valid tools in a package with errors.
package err_rounds

type Input struct {
	N int      `json:"n" jsonschema:"minimum=one"`
	C chan int `json:"c"`
}

// Bad has a bad name and a bad result.
//
//mcp:tool bad.name
func Bad(in Input) int { return 0 }

type GoodInput struct {
	S string `json:"s" jsonschema:"minLength=x"`
}

// Good is a valid tool whose input has a bad tag.
//
//mcp:tool
func Good(in *GoodInput) (string, error) { return "", nil }

type DupInput struct {
	F func() `json:"f"`
}

// Dup has the name of Good, and an input with a function.
//
//mcp:tool good
func Dup(in DupInput) (string, error) { return "", nil }

type OutOutput struct {
	C chan string `json:"c"`
}

// Out has a bad option, and a result with a channel.
//
//mcp:tool colour=red
func Out() (OutOutput, error) { return OutOutput{}, nil }

// NotStruct's input cannot be described: it is not a struct.
//
//mcp:tool
func NotStruct(n int) (string, error) { return "", nil }
