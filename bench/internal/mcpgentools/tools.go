// Package mcpgentools holds the two benchmark tools, greet and
// create_ticket, exactly as examples/greet and examples/tickets define
// them (those are package main, so they are copied here), registered into
// one runtime.Server by the generated mcp_gen.go.
//
//mcp:server name=bench version=1.0.0
package mcpgentools

import (
	"context"
	"fmt"
)

//go:generate go tool mcpgen

// GreetInput names the person to greet.
type GreetInput struct {
	Name string `json:"name"` // Name of the person to greet.
}

// Greet greets a person by name.
//
//mcp:tool
func Greet(ctx context.Context, in GreetInput) (string, error) {
	return fmt.Sprintf("Hello, %s! Welcome.", in.Name), nil
}

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
