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

// TriageInput are the arguments of triage.
type TriageInput struct {
	ID string `json:"id"` // The ticket.
}

// Triage asks the model to triage a ticket.
//
//mcp:prompt
func Triage(ctx context.Context, in TriageInput) (string, error) { return "Triage " + in.ID, nil }
