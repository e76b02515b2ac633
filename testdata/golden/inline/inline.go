// Package inline asks for schemas without $ref, for clients that cannot
// resolve references; only recursion still needs $defs.
//
//mcp:server inline
package inline

// Address is a postal address.
type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
}

// Node is recursive, so it keeps a $defs entry even here.
type Node struct {
	Value    string  `json:"value"`
	Children []*Node `json:"children,omitempty"`
}

type Input struct {
	Home Address  `json:"home"`
	Work *Address `json:"work,omitempty"`
	Tree *Node    `json:"tree,omitempty"`
}

// Save saves.
//
//mcp:tool
func Save(in Input) (string, error) { return "", nil }
