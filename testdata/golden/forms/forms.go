// Package forms shows //mcp:form, a struct a tool asks the user to fill
// (runtime.ElicitForm), and //mcp:output, a type whose JSON Schema a
// Claude Code host asks the model's answer to follow.
package forms

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

// Size is a T-shirt size.
type Size string

const (
	Small  Size = "S"
	Medium Size = "M"
	Large  Size = "L"
)

// Contact is what the user tells about themselves.
//
//mcp:form
type Contact struct {
	// Name is how to address the user.
	Name  string `json:"name" jsonschema:"title=Your name,minLength=1,maxLength=50"`
	Email string `json:"email" jsonschema:"format=email"`
	// Age in years.
	Age  int  `json:"age,omitempty" jsonschema:"minimum=0,maximum=150,default=30"`
	News bool `json:"news,omitempty" jsonschema:"default=false"` // Send the newsletter.
	Size Size `json:"size"`
	// Colors are the colors the user likes.
	Colors []string `json:"colors,omitempty" jsonschema:"enum=red,enum=green,enum=blue"`
}

// Reply is the answer a host wants from the model.
//
//mcp:output
type Reply struct {
	// Summary in one sentence.
	Summary string   `json:"summary"`
	Tags    []string `json:"tags"`
}

// Register asks the user for their contact details.
//
//mcp:tool
func Signup(ctx context.Context) (string, error) {
	var c Contact
	action, err := runtime.ElicitForm(ctx, "Who are you?", &c)
	if err != nil || action != runtime.ElicitAccept {
		return string(action), err
	}
	return "Welcome, " + c.Name, nil
}
