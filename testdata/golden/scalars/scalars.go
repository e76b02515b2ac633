// Package scalars maps every scalar Go type to its schema.
package scalars

import (
	"encoding/json"
	"net"
	"time"
)

type Input struct {
	Bool     bool            `json:"bool"`
	Int      int             `json:"int"`
	Int8     int8            `json:"int8"`
	Int16    int16           `json:"int16"`
	Int32    int32           `json:"int32"`
	Int64    int64           `json:"int64"`
	Uint     uint            `json:"uint"`
	Uint8    uint8           `json:"uint8"`
	Uint16   uint16          `json:"uint16"`
	Uint32   uint32          `json:"uint32"`
	Uint64   uint64          `json:"uint64"`
	Float32  float32         `json:"float32"`
	Float64  float64         `json:"float64"`
	String   string          `json:"string"`
	Bytes    []byte          `json:"bytes"`
	Time     time.Time       `json:"time"`
	Duration time.Duration   `json:"duration"`
	Raw      json.RawMessage `json:"raw"`
	Any      any             `json:"any"`
	Number   json.Number     `json:"number"`
	Rune     rune            `json:"rune"`
	IP       net.IP          `json:"ip,omitempty"`
}

// Scalars takes one of everything.
//
//mcp:tool
func Scalars(in Input) (string, error) { return "", nil }
