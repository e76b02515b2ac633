// Package err_generated_names declares a name that mcpgen generates.
package err_generated_names

// Register is the user's own function.
func Register() {}

// Tool is a tool.
//
//mcp:tool
func Tool() (string, error) { return "", nil }
