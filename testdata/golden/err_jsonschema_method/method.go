// Package err_jsonschema_method: a type with its own JSONSchema method
// cannot be honoured yet, and mcpgen says so.
package err_jsonschema_method

import "github.com/invopop/jsonschema"

// Custom has its own schema.
type Custom struct{ V int }

// JSONSchema is invopop's hook.
func (Custom) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer"} }

type Input struct {
	C Custom `json:"c"`
}

// Use uses it.
//
//mcp:tool
func Use(in Input) (string, error) { return "", nil }
