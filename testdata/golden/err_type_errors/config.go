// Package err_type_errors: a type that does not type-check (here, time is
// not imported) is reported in the type checker's words, as an error, not
// as an "unsupported type invalid type".
package err_type_errors

// Config is the server's configuration.
//
//mcp:config
type Config struct {
	// Wait is how long to wait.
	Wait time.Duration `json:"wait,omitempty"`
}

// Input has a field of an undefined type.
type Input struct {
	Wait time.Duration `json:"wait"`
}

// Sleep sleeps.
//
//mcp:tool
func Sleep(in Input) (string, error) { return "", nil }
