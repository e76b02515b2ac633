// Package enums: the constants of a named string or integer type are its
// enum, in declaration order, wherever they are declared in the package.
package enums

// Color is a color.
type Color string

const (
	Red   Color = "red"
	Green Color = "green"
)

// Blue is declared apart from the others.
const Blue Color = "blue"

// Level is an integer enum built with iota.
type Level int

const (
	Debug Level = iota
	Info
	Warn
	Error
)

// Size has no constants: no enum.
type Size string

type Input struct {
	Color     Color   `json:"color"`
	Level     Level   `json:"level"`
	Size      Size    `json:"size"`
	Colors    []Color `json:"colors"`
	Override  Color   `json:"override" jsonschema:"enum=red,enum=green"`
	Maybe     *Color  `json:"maybe"`
	ByTagOnly string  `json:"byTagOnly" jsonschema:"enum=a,enum=b\\,c"`
}

// Paint paints.
//
//mcp:tool
func Paint(in Input) (string, error) { return "", nil }
