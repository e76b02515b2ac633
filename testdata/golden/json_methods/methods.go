// Package json_methods: a type that encoding/json reads or writes through
// its own methods has the schema of what those methods read and write,
// found through the method set encoding/json uses (the pointer's when
// reading; when writing, the value's, and the pointer's for a value that
// can be addressed), promoted methods included.
package json_methods

import (
	"encoding/json"
	"errors"
	"log/slog"
	"math/big"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Level is an int8 that reads and writes its name, as zapcore.Level does:
// a JSON string, not a number.
type Level int8

const (
	DebugLevel Level = iota - 1
	InfoLevel
	WarnLevel
)

// MarshalText writes the level's name.
func (l Level) MarshalText() ([]byte, error) {
	return []byte([]string{"debug", "info", "warn"}[l+1]), nil
}

// UnmarshalText reads a level's name.
func (l *Level) UnmarshalText(b []byte) error {
	switch string(b) {
	case "debug":
		*l = DebugLevel
	case "info":
		*l = InfoLevel
	case "warn":
		*l = WarnLevel
	default:
		return errors.New("unknown level")
	}
	return nil
}

// Stamp embeds time.Time, whose methods it has: a date-time.
type Stamp struct{ time.Time }

// Code is written as text (it has MarshalText and no way to read it): a
// string in an output.
type Code struct{ Major, Minor int }

// MarshalText writes 1.2.
func (c Code) MarshalText() ([]byte, error) {
	return []byte(strconv.Itoa(c.Major) + "." + strconv.Itoa(c.Minor)), nil
}

// Blob writes its own JSON, and says nothing of what: any value.
type Blob struct{ N int }

// MarshalJSON writes the number alone.
func (b Blob) MarshalJSON() ([]byte, error) { return json.Marshal(b.N) }

// Version reads and writes "v1", and says so.
//
//mcp:schema {"type": "string", "pattern": "^v[0-9]+$"}
type Version struct{ Major int }

// MarshalJSON writes "v1".
func (v Version) MarshalJSON() ([]byte, error) { return json.Marshal("v" + strconv.Itoa(v.Major)) }

// UnmarshalJSON reads "v1".
func (v *Version) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "v"))
	v.Major = n
	return err
}

// Tag writes itself as text only through a pointer: a value reached
// through a pointer or a slice is a string, one held directly its fields.
type Tag struct{ Name string }

// MarshalText writes the name.
func (t *Tag) MarshalText() ([]byte, error) { return []byte(t.Name), nil }

// Input holds types read through their methods.
type Input struct {
	Level   Level           `json:"level"`
	When    Stamp           `json:"when"`
	Version Version         `json:"version"`
	Big     *big.Int        `json:"big,omitempty"`
	Ratio   *big.Float      `json:"ratio,omitempty"`
	Slog    slog.Level      `json:"slog,omitempty"`
	Addr    netip.Addr      `json:"addr,omitempty"`
	Raw     json.RawMessage `json:"raw,omitempty"`
	Wait    time.Duration   `json:"wait,omitempty"` // How long to wait.
}

// Output holds types written through their methods.
type Output struct {
	Level   Level   `json:"level"`
	When    Stamp   `json:"when"`
	Code    Code    `json:"code"`
	Blob    Blob    `json:"blob"`
	Version Version `json:"version"`
	Tag     Tag     `json:"tag"`
	Tags    []Tag   `json:"tags"`
}

// Inspect reads everything and writes everything back.
//
//mcp:tool
func Inspect(in Input) (Output, error) { return Output{}, nil }

// InspectPointer returns a pointer: what it points to can be addressed.
//
//mcp:tool
func InspectPointer(in *Input) (*Output, error) { return &Output{}, nil }

// Current returns a Code, which is written as a string: a structured
// value, not an object.
//
//mcp:tool
func Current() (Code, error) { return Code{1, 2}, nil }

// Raw holds JSON kept as it was sent, null included.
type Raw struct {
	Value json.RawMessage            `json:"value"`
	Map   map[string]json.RawMessage `json:"map,omitempty"`
	List  []json.RawMessage          `json:"list,omitempty"`
}

// LastRaw is the input Keep was last called with, for tests to read.
var LastRaw Raw

// Keep keeps raw JSON.
//
//mcp:tool
func Keep(in Raw) (string, error) {
	LastRaw = in
	return "kept", nil
}
