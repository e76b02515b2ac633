// Package embedded: embedded structs are promoted as encoding/json
// promotes them, with its rules for names that collide.
package embedded

// Base is embedded by value.
type Base struct {
	ID      string `json:"id"`
	Shadow  string `json:"shadow"` // Hidden by Input.Shadow.
	Version int    `json:"version,omitempty"`
}

// Extra is embedded by pointer.
type Extra struct {
	Note string `json:"note,omitempty"`
	Tie  string `json:"tie"`
}

// Other collides with Extra on Tie at the same depth: both vanish.
type Other struct {
	Tie string `json:"tie"`
}

// Tagged is embedded with a name, so it is an ordinary field.
type Tagged struct {
	Value int `json:"value"`
}

type hidden struct {
	Visible string `json:"visible"` // Exported field of an unexported embedded type.
}

type Input struct {
	Base
	*Extra
	Other
	hidden
	Tagged `json:"tagged"`
	Shadow string `json:"shadow"` // The shallower field wins.
}

// Embed takes embedded structs.
//
//mcp:tool
func Embed(in Input) (string, error) { return "", nil }

// EmbedPointer takes a pointer to a struct that embeds others: encoding/json
// decodes it, and the generated code compiles.
//
//mcp:tool
func EmbedPointer(in *Input) (string, error) { return "", nil }

// Result embeds a pointer to a struct: when it is nil, json.Marshal writes
// none of its fields, so they are not required.
type Result struct {
	*Extra
	Base
	Count int `json:"count"`
}

// Report returns a Result whose Extra may be nil.
//
//mcp:tool
func Report() (Result, error) { return Result{}, nil }
