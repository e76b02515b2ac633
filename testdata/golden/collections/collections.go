// Package collections covers slices, arrays and maps.
package collections

type Input struct {
	Tags     []string            `json:"tags"`
	Matrix   [][]float64         `json:"matrix"`
	Pair     [2]int              `json:"pair"`
	Counts   map[string]int      `json:"counts"`
	Anything map[string]any      `json:"anything"`
	Nested   map[string][]string `json:"nested"`
	Keyed    map[Key]bool        `json:"keyed"`
	Points   []struct {
		X int `json:"x"`
		Y int `json:"y"`
	} `json:"points"`
	Named Names `json:"named"`
}

// Key is a named string, allowed as a map key.
type Key string

// Names is a named slice; it is inlined.
type Names []string

// Collect takes collections.
//
//mcp:tool
func Collect(in Input) (string, error) { return "", nil }
