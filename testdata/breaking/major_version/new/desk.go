// Package new is the new side of a case of mcpgen -breaking.
//
//mcp:server name=desk version=2.0.0
package new

import "context"

// TicketInput opens a ticket.
type TicketInput struct {
	Title string `json:"title"` // The ticket's title.
}

// OpenTicket opens a ticket.
//
//mcp:tool open_ticket
func OpenTicket(ctx context.Context, in TicketInput) (string, error) { return "", nil }

// Ping answers.
//
//mcp:tool health
func Ping(ctx context.Context) (string, error) { return "pong", nil }
