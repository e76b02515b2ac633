// Package board serves a ticket board as an MCP App: show_board answers
// with the board's tickets, as text for every client, and links the
// board's view, which clients that render MCP Apps show in a sandboxed
// frame; the view moves tickets with move_ticket, a tool only views call.
//
//mcp:server name=board version=1.0.0 surface
package board

import (
	"context"
	_ "embed"
	"fmt"
	"slices"
	"sync"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

//docs:begin app

// view is the board, drawn by the client in a frame of its own.
//
//go:embed board.html
//mcp:resource ui://board/view connectDomains=https://api.board.example prefersBorder=true
var view string

// ShowBoard shows the board's tickets, by column.
//
//mcp:tool ui=ui://board/view icon=https://board.example/icon.svg readOnly
func (b *Board) ShowBoard(ctx context.Context) (Tickets, error) { return b.list(), nil }

// MoveTicket moves a ticket to another column.
//
//mcp:tool ui=ui://board/view visibility=app
func (b *Board) MoveTicket(ctx context.Context, in Move) (string, error) { return b.move(in) }

//docs:end app

// A Board holds tickets in columns. Its methods are safe for concurrent use.
type Board struct {
	mu      sync.Mutex
	tickets []Ticket
}

// NewBoard returns a board with three tickets.
func NewBoard() *Board {
	return &Board{tickets: []Ticket{
		{ID: "T-1", Title: "Write the view", Column: Doing},
		{ID: "T-2", Title: "Link it from a tool", Column: Todo},
		{ID: "T-3", Title: "Declare its CSP", Column: Done},
	}}
}

// Column is where a ticket stands.
type Column string

const (
	Todo  Column = "todo"
	Doing Column = "doing"
	Done  Column = "done"
)

// Ticket is one ticket of the board.
type Ticket struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Column Column `json:"column"`
}

// Tickets are the board's tickets, in order.
type Tickets struct {
	Tickets []Ticket `json:"tickets"`
}

// Move moves one ticket.
type Move struct {
	// Ticket is the ticket's id, such as T-1.
	Ticket string `json:"ticket"`
	// Column is where it goes.
	Column Column `json:"column"`
}

// list returns the tickets, in order.
func (b *Board) list() Tickets {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Tickets{Tickets: slices.Clone(b.tickets)}
}

// move moves a ticket, and says so.
func (b *Board) move(in Move) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.tickets {
		if b.tickets[i].ID == in.Ticket {
			b.tickets[i].Column = in.Column
			return fmt.Sprintf("%s moved to %s", in.Ticket, in.Column), nil
		}
	}
	return "", fmt.Errorf("no ticket %s", in.Ticket)
}

// Ticket returns the ticket id, as the board holds it now.
func (b *Board) Ticket(id string) (Ticket, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := slices.IndexFunc(b.tickets, func(t Ticket) bool { return t.ID == id })
	if i < 0 {
		return Ticket{}, false
	}
	return b.tickets[i], true
}
