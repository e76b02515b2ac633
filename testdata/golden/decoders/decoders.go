// Package decoders exercises the generated argument decoders: its tool
// keeps what it received, so a test can compare it with what
// encoding/json makes of the same arguments.
package decoders

import (
	"encoding/json"
	"strings"
	"time"
)

// Last is the input of the most recent call of Keep.
var Last Input

// Level is an enum.
type Level string

const (
	Low  Level = "low"
	High Level = "high"
)

// Inner is nested.
type Inner struct {
	Name  string   `json:"name"`
	Score float32  `json:"score,omitempty"`
	Next  *Inner   `json:"next,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

// Page is generic.
type Page[T any] struct {
	Items []T `json:"items"`
}

// Custom decodes itself; the generated decoder leaves it to encoding/json,
// which calls UnmarshalJSON.
type Custom struct{ V string }

func (c *Custom) UnmarshalJSON(b []byte) error {
	var v struct{ V string }
	err := json.Unmarshal(b, &v)
	c.V = "custom:" + v.V
	return err
}

// Upper decodes itself from text, upper-cased: as a map key, encoding/json
// (and so the generated decoder) calls its UnmarshalText.
type Upper string

func (u *Upper) UnmarshalText(b []byte) error {
	*u = Upper(strings.ToUpper(string(b)))
	return nil
}

// Input has one field of every kind the decoders handle, and some they
// leave to encoding/json.
type Input struct {
	S       string            `json:"s,omitempty"`
	B       bool              `json:"b,omitempty"`
	I       int               `json:"i,omitempty"`
	I8      int8              `json:"i8,omitempty"`
	I64     int64             `json:"i64,omitempty"`
	U16     uint16            `json:"u16,omitempty"`
	U64     uint64            `json:"u64,omitempty"`
	F32     float32           `json:"f32,omitempty"`
	F64     float64           `json:"f64,omitempty"`
	Level   Level             `json:"level,omitempty"`
	PS      *string           `json:"ps,omitempty"`
	PI      *int              `json:"pi,omitempty" jsonschema:"nullable"`
	Inner   Inner             `json:"inner,omitzero"`
	PInner  *Inner            `json:"pinner,omitempty"`
	Inners  []Inner           `json:"inners,omitempty"`
	Ints    []int             `json:"ints,omitempty"`
	Counts  map[string]int    `json:"counts,omitempty"`
	ByName  map[string]*Inner `json:"byName,omitempty"`
	Upper   map[Upper]int     `json:"upper,omitempty"`
	Page    Page[Inner]       `json:"page,omitzero"`
	When    time.Time         `json:"when,omitzero"`
	Raw     json.RawMessage   `json:"raw,omitempty"`
	Any     any               `json:"any,omitempty"`
	Custom  Custom            `json:"custom,omitzero"`
	Bytes   []byte            `json:"bytes,omitempty"`
	Matrix  [][]float64       `json:"matrix,omitempty"`
	Skipped string            `json:"-"`
}

// Keep keeps its input in Last.
//
//mcp:tool
func Keep(in Input) (string, error) {
	Last = in
	return "kept", nil
}
