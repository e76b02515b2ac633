// Package generics: instantiated generic types are named after their type
// arguments.
package generics

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
