// Package warnings: problems that still let mcpgen generate the file.
//
//mcp:server name=a_server_name_that_is_rather_long
package warnings

import "encoding/json"

// Custom decodes itself.
type Custom struct {
	V int `json:"v"`
}

// UnmarshalJSON makes Custom's JSON form unknowable at generate time.
func (c *Custom) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &c.V) }

type Input struct {
	C Custom `json:"c"`
}

//mcp:tool
func Undocumented(in Input) (string, error) { return "", nil }

// Long has a description longer than Claude Code shows. Long has a descr
// iption longer than Claude Code shows. Long has a description longer th
// an Claude Code shows. Long has a description longer than Claude Code s
// hows. Long has a description longer than Claude Code shows. Long has a
//
//	description longer than Claude Code shows. Long has a description lon
//
// ger than Claude Code shows. Long has a description longer than Claude
// Code shows. Long has a description longer than Claude Code shows. Long
//
//	has a description longer than Claude Code shows. Long has a descripti
//
// on longer than Claude Code shows. Long has a description longer than C
// laude Code shows. Long has a description longer than Claude Code shows
// . Long has a description longer than Claude Code shows. Long has a des
// cription longer than Claude Code shows. Long has a description longer
// than Claude Code shows. Long has a description longer than Claude Code
//
//	shows. Long has a description longer than Claude Code shows. Long has
//	a description longer than Claude Code shows. Long has a description l
//
// onger than Claude Code shows. Long has a description longer than Claud
// e Code shows. Long has a description longer than Claude Code shows. Lo
// ng has a description longer than Claude Code shows. Long has a descrip
// tion longer than Claude Code shows. Long has a description longer than
//
//	Claude Code shows. Long has a description longer than Claude Code sho
//
// ws. Long has a description longer than Claude Code shows. Long has a d
// escription longer than Claude Code shows. Long has a description longe
// r than Claude Code shows. Long has a description longer than Claude Co
// de shows. Long has a description longer than Claude Code shows. Long h
// as a description longer than Claude Code shows. Long has a description
//
//	longer than Claude Code shows. Long has a description longer than Cla
//
// ude Code shows. Long has a description longer than Claude Code shows.
// Long has a description longer than Claude Code shows. Long has a descr
// iption longer than Claude Code shows. Long has a description longer th
// an Claude Code shows. Long has a description longer than Claude Code s
// hows. Long has a description longer than Claude Code shows.
//
//mcp:tool
func Long() (string, error) { return "", nil }

// AVeryLongToolNameThatMakesTheQualifiedNameTooLong has a long name.
//
//mcp:tool
func AVeryLongToolNameThatMakesTheQualifiedNameTooLong() (string, error) { return "", nil }
