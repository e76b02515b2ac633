// Package gosdk defines the benchmark's two tools, greet and create_ticket,
// with the official Go SDK the way its README does: mcp.AddTool with typed
// inputs, descriptions in jsonschema tags, and what the tags cannot say
// (the kind enum, maxItems) set on the inferred schema by hand.
package gosdk

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// GreetInput names the person to greet.
type GreetInput struct {
	Name string `json:"name" jsonschema:"Name of the person to greet."`
}

// Greet greets a person by name.
func Greet(ctx context.Context, req *mcp.CallToolRequest, in GreetInput) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Hello, %s! Welcome.", in.Name)}}}, nil, nil
}

// Kind is the kind of a ticket.
type Kind string

// CreateTicketInput describes a new ticket.
type CreateTicketInput struct {
	Title       string   `json:"title" jsonschema:"Ticket title."`
	Description string   `json:"description" jsonschema:"Ticket description."`
	Kind        Kind     `json:"kind" jsonschema:"Kind is the kind of a ticket."`
	Labels      []string `json:"labels,omitempty" jsonschema:"Up to five labels."`
}

// CreateTicket creates a ticket on the project board.
func CreateTicket(ctx context.Context, req *mcp.CallToolRequest, in CreateTicketInput) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Ticket '%s' created successfully (ID: TKT-42)", in.Title)}}}, nil, nil
}

// NewServer returns a server with greet and create_ticket.
func NewServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	Register(s)
	return s
}

// Register adds greet and create_ticket to s.
func Register(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "Greet greets a person by name."}, Greet)

	ticket, err := jsonschema.For[CreateTicketInput](nil)
	if err != nil {
		panic(err)
	}
	ticket.Properties["kind"].Enum = []any{"bug", "feature", "task"}
	maxLabels := 5
	ticket.Properties["labels"].MaxItems = &maxLabels
	mcp.AddTool(s, &mcp.Tool{Name: "create_ticket", Description: "CreateTicket creates a ticket on the project board.", InputSchema: ticket}, CreateTicket)
}
