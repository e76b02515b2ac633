// Package err_truth: mistakes that would make a schema lie, or a tool
// fail at run time, are reported where they are written.
//
//mcp:schema Missing {"type": "string"}
//mcp:schema Store optional=nme
//mcp:schema Mood optional
//mcp:schema {"type": "string"}
package err_truth

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

type inner struct {
	Hidden string `json:"hidden"`
}

// Mood is a mood.
type Mood string

// Store is a shop.
type Store struct {
	Name string `json:"name"`
}

// Input has one mistake per field.
type Input struct {
	*inner
	Code     string   `json:"code" jsonschema:"pattern=^[A-Z]{3}-[0-9]{4,}$"`
	Count    int      `json:"count" jsonschema:"minimun=1"`
	Name     string   `json:"name" jsonschema:"minItems=1"`
	Quoted   int      `json:"quoted,string" jsonschema:"minimum=1"`
	Page     int      `json:"page" jsonschema:"default=1"`
	Size     int      `json:"size,omitempty" jsonschema:"minimum=1,default=0"`
	Mood     Mood     `json:"mood,omitempty" jsonschema:"enum=happy,enum=sad,default=angry"`
	Sizes    []int    `json:"sizes,omitempty" jsonschema:"default=9,default=nine"`
	internal string   `json:"internal"`
	Store    Store    `json:"store"`
	Tags     []string `json:"tags,omitempty" jsonschema:"example=1,maxItems=2"`
	Level    Level    `json:"level,omitempty" jsonschema:"default=loud"`
	Blob     []byte   `json:"blob,omitempty" jsonschema:"default=not base64!"`
	Twice    string   `json:"twice,omitempty" jsonschema:"default=a,default=b"`
}

// Level reads itself from text: mcpgen cannot check a default against it.
type Level int

// UnmarshalText reads a level.
func (l *Level) UnmarshalText(b []byte) error { return nil }

// Find finds.
//
//mcp:tool pollIntervall=5s scope=notes:read
func Find(ctx context.Context, in Input) (string, error) { return in.internal, nil }

// Shop is a receiver.
type Shop struct{}

// PromptInput is a prompt's input.
type PromptInput struct {
	Topic string `json:"topic"`
}

// Ask asks.
//
//mcp:prompt complete=completeTopic
func (s *Shop) Ask(ctx context.Context, in PromptInput) (string, error) { return "", nil }

// Version states a schema that is not one.
//
//mcp:schema {"type": "strang"}
type Version struct{ Major int }

// Ref states a reference.
//
//mcp:schema {"$ref": "#/$defs/X"}
type Ref struct{}

// Unknown states a keyword mcpgen's model drops.
//
//mcp:schema {"type": "string", "x-unit": "m"}
type Unknown string

var _ = runtime.TextResult
