// Package generics: instantiated generic types are named after their type
// arguments.
package generics

import "time"

// Page is one page of results.
type Page[T any] struct {
	Items []T    `json:"items"`
	Next  string `json:"next,omitempty"`
}

// Item is a result.
type Item struct {
	ID string `json:"id"`
}

type Input struct {
	Page Page[Item] `json:"page"`
}

// Browse returns a page.
//
//mcp:tool
func Browse(in Input) (Page[Item], error) { return in.Page, nil }

// Box holds one value.
type Box[T any] struct {
	V T `json:"v"`
}

// Counted holds a count and a label, each in a box of its own type: the
// two instantiations of Box have a $defs entry each.
type Counted struct {
	Count Box[int]    `json:"count"`
	Label Box[string] `json:"label"`
}

// Count boxes a count and a label, in its input and its output.
//
//mcp:tool
func Count(in Counted) (Counted, error) { return in, nil }

// Delays holds durations in a box: the decoder of Box[[]time.Duration]
// names package time, which the generated file must import.
type Delays struct {
	Delays Box[[]time.Duration] `json:"delays"`
}

// Wait waits.
//
//mcp:tool
func Wait(in Delays) (string, error) { return "", nil }

// Tagged boxes an anonymous struct whose tags hold what a Go identifier
// cannot (a dash, quotes): its decoder's name is still one.
type Tagged struct {
	Box Box[struct {
		Name string `json:"first-name"`
	}] `json:"box"`
}

// Label labels.
//
//mcp:tool
func Label(in Tagged) (string, error) { return in.Box.V.Name, nil }
