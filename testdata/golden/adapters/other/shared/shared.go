// Package shared has the same name as ../../shared, so the generated file
// must import one of them under another name.
package shared

// Move moves a task.
type Move struct {
	To string `json:"to"`
}
