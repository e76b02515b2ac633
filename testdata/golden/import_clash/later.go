package import_clash

import stdtime "time"

// Later holds a value for later.
type Later[T any] struct {
	At T `json:"at"`
}

// LaterInput names durations through a generic type: the file imports
// time under another name, since the package declares time.
type LaterInput struct {
	When Later[[]stdtime.Duration] `json:"when"`
}

// Schedule schedules.
//
//mcp:tool
func Schedule(in LaterInput) (string, error) { return "", nil }
