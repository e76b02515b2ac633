// Package map_keys: encoding/json reads an object into a map whose keys
// are strings, integers, or a type with UnmarshalText, and writes one from
// a map whose keys are strings, integers or a type with MarshalText.
package map_keys

import (
	"net/netip"
	"strings"
)

// Color is a string enum: its constants are the keys a map of it takes.
type Color string

const (
	Red  Color = "red"
	Blue Color = "blue"
)

// Upper reads and writes its text in upper case.
type Upper string

// UnmarshalText reads any text.
func (u *Upper) UnmarshalText(b []byte) error { *u = Upper(strings.ToUpper(string(b))); return nil }

// Input has a map of each kind of key.
type Input struct {
	ByName  map[string]int     `json:"byName,omitempty"`
	ByID    map[int64]string   `json:"byID,omitempty"`
	ByCount map[uint16]bool    `json:"byCount,omitempty"`
	ByColor map[Color]int      `json:"byColor,omitempty"`
	ByAddr  map[netip.Addr]int `json:"byAddr,omitempty"`
	ByUpper map[Upper]int      `json:"byUpper,omitempty"`
}

// Output writes maps of integer keys.
type Output struct {
	ByID    map[int]string     `json:"byID"`
	ByCount map[uint8]int      `json:"byCount"`
	ByAddr  map[netip.Addr]int `json:"byAddr"`
}

// Index indexes.
//
//mcp:tool
func Index(in Input) (Output, error) { return Output{}, nil }
