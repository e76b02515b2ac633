package err_resources

import "context"

type Ref struct {
	ID    string   `json:"id"`
	Extra string   `json:"extra"`
	Tags  []string `json:"tags,omitempty"`
}

// NoVariable has a variable without a field, a required field without a
// variable and a field a URI cannot carry.
//
//mcp:resource items://{id}/{missing}
func NoVariable(ctx context.Context, in Ref) (string, error) { return "", nil }

// Fixed takes an input but its URI has no variables.
//
//mcp:resource items://all
func Fixed(ctx context.Context, in Ref) (string, error) { return "", nil }

// Template has variables but no input.
//
//mcp:resource items://{id}/raw
func Template(ctx context.Context) (string, error) { return "", nil }

// BadTemplate uses an expression the runtime does not serve.
//
//mcp:resource items://{?q}
func BadTemplate(ctx context.Context) (string, error) { return "", nil }

// NoContents returns only an error.
//
//mcp:resource items://none
func NoContents(ctx context.Context) error { return nil }

// NoURI has no URI.
//
//mcp:resource name=x
func NoURI(ctx context.Context) (string, error) { return "", nil }

// Good is a resource.
//
//mcp:resource items://good
func Good(ctx context.Context) (string, error) { return "", nil }

// Duplicate repeats a URI.
//
//mcp:resource items://good
func Duplicate(ctx context.Context) (string, error) { return "", nil }

// BadOptions has options out of range.
//
//mcp:resource items://opts priority=2 audience=robots size=-1 color=red
func BadOptions(ctx context.Context) (string, error) { return "", nil }

// CompleteFixed names a completer for a URI without variables.
//
//mcp:resource items://complete complete=NotAFunc
func CompleteFixed(ctx context.Context) (string, error) { return "", nil }

type Args struct {
	Nested struct{ A string } `json:"nested"`
}

// Prompt has an argument a string cannot carry.
//
//mcp:prompt
func Prompt(ctx context.Context, in Args) (string, error) { return "", nil }

// WrongCompleter names a function of another type.
//
//mcp:prompt complete=Wrong
func WrongCompleter(ctx context.Context) (string, error) { return "", nil }

func Wrong(s string) []string { return nil }

// Number returns what a prompt cannot.
//
//mcp:prompt
func Number(ctx context.Context) (int, error) { return 0, nil }

// BadName has a name Claude Code cannot offer as a slash command.
//
//mcp:prompt "bad name"
func BadName(ctx context.Context) (string, error) { return "", nil }

// Again repeats a prompt name.
//
//mcp:prompt wrong_completer
func Again(ctx context.Context) (string, error) { return "", nil }

// Both is a tool and a prompt.
//
//mcp:tool
//mcp:prompt
func Both(ctx context.Context) (string, error) { return "", nil }
