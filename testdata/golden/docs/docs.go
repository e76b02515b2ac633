// Package docs: doc comments and line comments become descriptions.
package docs

// Input is described by this comment,
// which spans two lines.
type Input struct {
	// Above is documented by the comment above it.
	Above  string `json:"above"`
	Beside string `json:"beside"` // Beside is documented on its line.
	// Both prefers the doc comment over the line comment.
	Both   string `json:"both"`                                          // not this one
	Tagged string `json:"tagged" jsonschema:"description=The tag wins."` // not this one
	Legacy string `json:"legacy" jsonschema_description:"jsonschema_description works too."`
	Level  Level  `json:"level"` // The field's own comment wins over the type's.
	Mode   Mode   `json:"mode"`
	Plain  string `json:"plain"`
}

// Level is how loud to be.
type Level string

// Mode falls back to the type's comment when the field has none.
type Mode string

// Document has a description of several paragraphs.
//
// The second paragraph explains more, with <angle brackets> & ampersands
// left as they are.
//
//mcp:tool
func Document(in Input) (string, error) { return "", nil }
