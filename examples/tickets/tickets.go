// Package tickets is seed 000's cci server: create_ticket, the
// project-board tool of the Claude Agent SDK's in-process MCP server
// example, with an enum found in a const block. Its command, cmd/tickets,
// serves it.
//
//mcp:server name=cci version=1.0.0 surface
package tickets

import (
	"context"
	"fmt"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// Kind is the kind of a ticket.
type Kind string

const (
	Bug     Kind = "bug"
	Feature Kind = "feature"
	Task    Kind = "task"
)

// CreateTicketInput describes a new ticket.
type CreateTicketInput struct {
	Title       string   `json:"title"`       // Ticket title.
	Description string   `json:"description"` // Ticket description.
	Kind        Kind     `json:"kind"`
	Labels      []string `json:"labels,omitempty" jsonschema:"maxItems=5"` // Up to five labels.
}

// CreateTicket creates a ticket on the project board.
//
//mcp:tool create_ticket
func CreateTicket(ctx context.Context, in CreateTicketInput) (string, error) {
	return fmt.Sprintf("Ticket '%s' created successfully (ID: TKT-42)", in.Title), nil
}
