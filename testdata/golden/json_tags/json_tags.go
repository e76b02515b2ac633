// Package json_tags follows encoding/json's tags: names, "-", omitempty,
// omitzero, ",string", unexported fields.
package json_tags

import "time"

type Input struct {
	Renamed    string `json:"renamed_field"`
	NoTag      string
	Skipped    string    `json:"-"`
	Dash       string    `json:"-,"`
	Omit       string    `json:"omit,omitempty"`
	Zero       time.Time `json:"zero,omitzero"`
	Quoted     int       `json:"quoted,string"`
	QuotedB    bool      `json:"quotedB,string,omitempty"`
	BadName    string    `json:"bad\"name"`
	Schemaless string    `json:"schemaless" jsonschema:"-"`
	private    string
}

// Tags takes tagged fields.
//
//mcp:tool
func Tags(in Input) (string, error) { return in.private, nil }
