// Package err_names: tool names, duplicates and malformed directives.
//
//mcp:server name=bad.server! verbose
package err_names

//mcp:tool
type NotAFunction struct{}

// Spaces in a name are not allowed.
//
//mcp:tool "has spaces"
func A() (string, error) { return "", nil }

// Too long.
//
//mcp:tool this_tool_name_is_much_longer_than_the_sixty_four_characters_claude_accepts
func B() (string, error) { return "", nil }

// First.
//
//mcp:tool dup
func C() (string, error) { return "", nil }

// Second.
//
//mcp:tool dup
func D() (string, error) { return "", nil }

// Unknown options.
//
//mcp:tool e colour=red timeout=soon readOnly=maybe
func E() (string, error) { return "", nil }

// Unterminated quote.
//
//mcp:tool f title="no end
func F() (string, error) { return "", nil }

// Ambiguous: readOnly is taken as an option, so "extra" is a stray word.
//
//mcp:tool readOnly extra
func G() (string, error) { return "", nil }

// Twice.
//
//mcp:tool h
//mcp:tool h2
func H() (string, error) { return "", nil }

//mcp:tools
func I() (string, error) { return "", nil }

func J() {
	//mcp:tool
}
