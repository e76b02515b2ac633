// Package err_elicit_form: runtime.ElicitForm with a destination that is
// not a pointer to a form fails at run time; mcpgen reports the call.
package err_elicit_form

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

// Approval is a form.
//
//mcp:form
type Approval struct {
	Reason string `json:"reason"`
}

// Plain is not a form.
type Plain struct {
	Reason string `json:"reason"`
}

// In is empty.
type In struct{}

// Deploy asks four times.
//
//mcp:tool
func Deploy(ctx context.Context, in In) (string, error) {
	var a Approval
	if _, err := runtime.ElicitForm(ctx, "Deploy?", &a); err != nil { // a form: fine
		return "", err
	}
	var p Plain
	if _, err := runtime.ElicitForm(ctx, "Deploy?", &p); err != nil { // not a form
		return "", err
	}
	if _, err := runtime.ElicitForm(ctx, "Deploy?", a); err != nil { // a copy
		return "", err
	}
	var unknown any = &a
	if _, err := runtime.ElicitForm(ctx, "Deploy?", unknown); err != nil { // known at run time only
		return "", err
	}
	_, err := runtime.ElicitForm(ctx, "Deploy?", "text")
	return "", err
}
