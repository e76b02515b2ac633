// Package pointers_nullable: a pointer makes a field optional, not
// nullable; jsonschema:"nullable" asks for null, jsonschema:"required"
// insists.
package pointers_nullable

type Input struct {
	Plain    string  `json:"plain"`
	Optional *string `json:"optional"`
	Nullable *int    `json:"nullable" jsonschema:"nullable"`
	Insisted *bool   `json:"insisted" jsonschema:"required"`
	Both     string  `json:"both,omitempty" jsonschema:"required,nullable"`
	Deep     **int   `json:"deep"`
}

// Pointers takes pointers.
//
//mcp:tool
func Pointers(in Input) (string, error) { return "", nil }
