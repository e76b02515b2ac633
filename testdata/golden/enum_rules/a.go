// Package enum_rules: which constants are an enum's values, in what
// order, and how a list of them is written.
package enum_rules

// Category is declared here, with constants in two files: their order in
// the schema is the files' (by name), then the constants' in each, however
// the files are loaded.
type Category string

const (
	Hardware Category = "hardware"
	// Electronics is untyped: not a Category, and mcpgen says so.
	Electronics = "electronics"
	Garden      = "garden"
	Limit       = 10 // an untyped number beside them is not mistaken for one
)

const Books Category = "books"

// Condition is an iota enum with a sentinel: numConditions counts the
// values, and is not one.
type Condition int

const (
	// New: never used.
	New  Condition = iota
	Used           // Used, in working order.
	Broken
	numConditions
)

// Weekday is a uint8 enum: a list of them is written [1, 5], not base64.
type Weekday uint8

const (
	Monday Weekday = iota + 1
	Tuesday
	Wednesday
)

// Input uses the enums.
type Input struct {
	Category   Category    `json:"category"`
	Categories []Category  `json:"categories,omitempty" jsonschema:"enum=books,enum=garden"`
	Condition  Condition   `json:"condition"`
	Days       []Weekday   `json:"days,omitempty" jsonschema:"minItems=1"`
	Raw        []byte      `json:"raw,omitempty"`
	Counts     [2]Weekday  `json:"counts,omitempty"`
	Limits     []Condition `json:"limits,omitempty"`
}

// Stock counts items.
//
//mcp:tool
func Stock(in Input) (string, error) { return "", nil }

var _ = numConditions
