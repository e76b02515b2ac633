package runtime

import (
	"context"
	"strings"
)

// A CompleteHandler proposes values for an argument of a prompt or a
// variable of a resource template, as the user types (completion/complete).
type CompleteHandler func(ctx context.Context, req *CompleteRequest) (*CompleteResult, error)

// A CompleteRequest asks for values of one argument.
type CompleteRequest struct {
	// Argument is the name of the argument or template variable.
	Argument string
	// Value is what the user has typed so far.
	Value string
	// Context holds the arguments already filled, by name.
	Context map[string]string
}

// A CompleteResult proposes values. MCP sends at most 100 of them; the
// runtime cuts a longer list and sets HasMore.
type CompleteResult struct {
	Values []string
	// Total is the number of matching values, if known (0: unknown).
	Total int
	// HasMore says that there are more values than Values holds.
	HasMore bool
}

// maxCompletions is the most values completion/complete may send.
const maxCompletions = 100

// CompletePrefix returns the values that begin with prefix, in order: a
// completion of an argument with a fixed set of values.
func CompletePrefix(values []string, prefix string) *CompleteResult {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return &CompleteResult{Values: out, Total: len(out)}
}
