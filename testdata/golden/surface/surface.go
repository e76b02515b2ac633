// Package surface asks for the snapshot of what clients see,
// mcp_surface.json: tools (their schemas, annotations, scopes, task
// support, _meta hints), a resource, a template, a prompt, the server's
// name and version, each list sorted by name whatever the order here.
//
//mcp:server name=desk version=2.1.0 title="Help desk" surface
package surface

import (
	"context"
	"time"
)

// Priority is how urgent a ticket is.
type Priority int

const (
	Low  Priority = 1 // Whenever.
	High Priority = 2 // Today.
)

// Status is where a ticket stands.
type Status string

const (
	Open   Status = "open"
	Closed Status = "closed"
)

// Person is someone at the desk.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty" jsonschema:"format=email"`
}

// OpenInput is a new ticket.
type OpenInput struct {
	Title    string            `json:"title" jsonschema:"minLength=1,maxLength=200"`
	Priority Priority          `json:"priority,omitempty"`
	Owner    *Person           `json:"owner,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
}

// Ticket is a ticket as the desk holds it.
type Ticket struct {
	ID      string    `json:"id"`
	Status  Status    `json:"status"`
	Owner   *Person   `json:"owner"`
	Created time.Time `json:"created"`
}

// SearchInput finds tickets.
type SearchInput struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50"`
}

// TicketRef names a ticket.
type TicketRef struct {
	ID string `json:"id"`
}

// Search finds tickets.
//
//mcp:tool readOnly searchHint="find tickets" alwaysLoad scopes=desk:read
func Search(ctx context.Context, in SearchInput) ([]Ticket, error) { return nil, nil }

// OpenTicket opens a ticket.
//
//mcp:tool open_ticket destructive=false idempotent=false scopes="desk:write desk:read" task=optional title="Open a ticket"
func OpenTicket(ctx context.Context, in OpenInput) (*Ticket, error) { return nil, nil }

// Ping answers.
//
//mcp:tool
func Ping(ctx context.Context) error { return nil }

// TicketResource is a ticket, as JSON.
//
//mcp:resource desk://tickets/{id} scopes=desk:read
func TicketResource(ctx context.Context, in TicketRef) (*Ticket, error) { return nil, nil }

// Board lists the open tickets.
//
//mcp:resource desk://board mimeType=text/markdown
func Board(ctx context.Context) (string, error) { return "", nil }

// TriageInput are the arguments of triage.
type TriageInput struct {
	// ID is the ticket.
	ID string `json:"id"`
	// Status filters by status.
	Status Status `json:"status,omitempty"`
	// Days looks back this many days.
	Days int `json:"days,omitempty"`
}

// Triage asks the model to triage a ticket.
//
//mcp:prompt scopes=desk:read
func Triage(ctx context.Context, in TriageInput) (string, error) { return "", nil }
