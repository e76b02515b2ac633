// Package import_clash declares names that the generated file would
// otherwise import as packages: runtime, mcpimpl, context and time.
package import_clash

// runtime is the user's own.
type runtime struct{ started string }

var mcpimpl = runtime{started: "at dawn"}

var (
	context = "the user's context"
	time    = 3
)

// Input waits.
type Input struct {
	// For how long, in seconds.
	Seconds int `json:"seconds"`
}

// Wait waits for a while.
//
//mcp:tool timeout=2m
func Wait(in Input) (string, error) {
	return mcpimpl.started + context, nil
}

// Status is the status.
//
//mcp:resource app://status
func Status() (string, error) { return "up", nil }
