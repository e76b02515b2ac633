// Package old is the old side of a case of mcpgen -breaking.
//
//mcp:server name=desk version=1.0.0
package old

import "context"

// TicketInput opens a ticket.
type TicketInput struct {
	Title string `json:"title"` // The ticket's title.
}

// OpenTicket opens a ticket.
//
//mcp:tool open_ticket
func OpenTicket(ctx context.Context, in TicketInput) (string, error) { return "", nil }

// Board lists the open tickets.
//
//mcp:resource desk://board
func Board(ctx context.Context) (string, error) { return "", nil }
