// Package mcpgo defines the benchmark's two tools, greet and create_ticket,
// with mark3labs/mcp-go the way its README and its typed_tools example do:
// mcp.NewTool with builder options, and mcp.NewTypedToolHandler.
package mcpgo

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// GreetInput names the person to greet.
type GreetInput struct {
	Name string `json:"name"`
}

// Greet greets a person by name.
func Greet(ctx context.Context, req mcp.CallToolRequest, in GreetInput) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(fmt.Sprintf("Hello, %s! Welcome.", in.Name)), nil
}

// CreateTicketInput describes a new ticket.
type CreateTicketInput struct {
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Kind        string   `json:"kind"`
	Labels      []string `json:"labels,omitempty"`
}

// CreateTicket creates a ticket on the project board.
func CreateTicket(ctx context.Context, req mcp.CallToolRequest, in CreateTicketInput) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(fmt.Sprintf("Ticket '%s' created successfully (ID: TKT-42)", in.Title)), nil
}

// Options are the server options of every mcp-go server in the benchmark:
// the README's, with input validation on and panics recovered.
func Options() []server.ServerOption {
	return []server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithInputSchemaValidation(),
		server.WithRecovery(),
	}
}

// NewServer returns a server with greet and create_ticket.
func NewServer() *server.MCPServer {
	s := server.NewMCPServer("bench", "1.0.0", Options()...)
	Register(s)
	return s
}

// Register adds greet and create_ticket to s.
func Register(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("greet",
		mcp.WithDescription("Greet greets a person by name."),
		mcp.WithString("name", mcp.Required(), mcp.Description("Name of the person to greet.")),
		mcp.WithSchemaAdditionalProperties(false),
	), mcp.NewTypedToolHandler(Greet))
	s.AddTool(mcp.NewTool("create_ticket",
		mcp.WithDescription("CreateTicket creates a ticket on the project board."),
		mcp.WithString("title", mcp.Required(), mcp.Description("Ticket title.")),
		mcp.WithString("description", mcp.Required(), mcp.Description("Ticket description.")),
		mcp.WithString("kind", mcp.Required(), mcp.Enum("bug", "feature", "task"), mcp.Description("Kind is the kind of a ticket.")),
		mcp.WithArray("labels", mcp.WithStringItems(), mcp.MaxItems(5), mcp.Description("Up to five labels.")),
		mcp.WithSchemaAdditionalProperties(false),
	), mcp.NewTypedToolHandler(CreateTicket))
}
