// Package shared declares types that another package's tool uses.
package shared

// Priority is how urgent something is.
type Priority string

const (
	Low  Priority = "low"
	High Priority = "high"
)

// Owner is the person responsible.
type Owner struct {
	Name  string `json:"name"`            // Owner's full name.
	Email string `json:"email,omitempty"` // Where to reach them.
}
