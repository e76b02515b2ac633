// Package old is the old side of a case of mcpgen -breaking.
//
//mcp:server name=desk version=1.0.0
package old

import "context"

// TicketInput opens a ticket.
type TicketInput struct {
	Title string `json:"title"`          // The ticket's title.
	Body  string `json:"body,omitempty"` // What is wrong.
}

// OpenTicket opens a ticket.
//
//mcp:tool open_ticket
func OpenTicket(ctx context.Context, in TicketInput) (string, error) { return "", nil }
