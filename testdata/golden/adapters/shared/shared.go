// Package shared declares an input struct outside the package of its tool.
package shared

// Task is work to hand out.
type Task struct {
	Title string `json:"title"`
}
