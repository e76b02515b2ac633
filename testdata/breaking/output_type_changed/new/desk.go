// Package new is the new side of a case of mcpgen -breaking.
//
//mcp:server name=desk version=1.0.0
package new

import "context"

// TicketInput opens a ticket.
type TicketInput struct {
	Title string `json:"title"` // The ticket's title.
}

// OpenTicket opens a ticket.
//
//mcp:tool open_ticket
func OpenTicket(ctx context.Context, in TicketInput) (*Ticket, error) { return &Ticket{}, nil }

// Ticket is a ticket as the desk keeps it.
type Ticket struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Number string `json:"number"`
}
