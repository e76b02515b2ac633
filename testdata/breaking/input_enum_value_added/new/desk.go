// Package new is the new side of a case of mcpgen -breaking.
//
//mcp:server name=desk version=1.0.0
package new

import "context"

// TicketInput opens a ticket.
type TicketInput struct {
	Title    string   `json:"title"` // The ticket's title.
	Kind     Kind     `json:"kind"`
	Priority Priority `json:"priority,omitempty"`
}

// OpenTicket opens a ticket.
//
//mcp:tool open_ticket
func OpenTicket(ctx context.Context, in TicketInput) (string, error) { return "", nil }

// Kind is the kind of a ticket.
type Kind string

const (
	Bug     Kind = "bug"
	Feature Kind = "feature"
	Task    Kind = "task"
)

// Priority is how urgent a ticket is.
type Priority int

const (
	Low    Priority = 1 // Whenever.
	Normal Priority = 2 // This week.
	High   Priority = 3 // Today.
)
