// Package apps shows a ticket board as an MCP App: a tool linked to a
// view whose HTML is an embedded file, a tool only the view calls, a view
// built by a function, tools with icons, and resources served from
// variables.
//
//mcp:server name=board version=1.2.0 surface
package apps

import (
	"context"
	_ "embed"

	"github.com/mcpgen/mcpgen/runtime"
)

// boardView is the board, drawn in the client's frame.
//
//go:embed board.html
//mcp:resource ui://board/view name=board_view connectDomains=https://api.example.com,wss://live.example.com resourceDomains=https://*.cdn.example.com frameDomains=https://www.youtube.com baseUriDomains=https://cdn.example.com permissions=clipboardWrite,camera prefersBorder=true domain=a904794854a047f6.claudemcpcontent.com
var boardView string

// about tells what the board is.
//
//go:embed about.md
//mcp:resource board://about mimeType=text/markdown
var about []byte

// logo is the board's logo.
//
//mcp:resource board://logo.png mimeType=image/png
var logo = []byte{0x89, 'P', 'N', 'G'}

// Stats draws the board's statistics.
//
//mcp:resource ui://board/stats title="Board statistics" prefersBorder=false
func Stats(ctx context.Context) (string, error) {
	return "<!doctype html><p>3 open, 2 closed</p>", nil
}

// ShowInput says which column to show.
type ShowInput struct {
	// Column is a state; all when empty.
	Column string `json:"column,omitempty"`
}

// Board is what the board shows.
type Board struct {
	Tickets []string `json:"tickets"`
}

// ShowBoard shows the board's tickets.
//
//mcp:tool ui=ui://board/view icon=https://example.com/board.png icon="https://example.com/board-dark.svg any dark" readOnly
func ShowBoard(ctx context.Context, in ShowInput) (Board, error) {
	return Board{Tickets: []string{"T-1", "T-2"}}, nil
}

// MoveInput moves one ticket.
type MoveInput struct {
	// Ticket is the ticket's id.
	Ticket string `json:"ticket"`
	// Column is its new state.
	Column string `json:"column"`
}

// MoveTicket moves a ticket to another column: the board's view calls it.
//
//mcp:tool ui=ui://board/view visibility=app
func MoveTicket(ctx context.Context, in MoveInput) (string, error) {
	return in.Ticket + " moved to " + in.Column, nil
}

// ShowStats shows the board's statistics.
//
//mcp:tool ui=ui://board/stats visibility=model,app icon="data:image/png;base64,iVBORw0KGgo= 16x16 32x32"
func ShowStats(ctx context.Context) (*runtime.ToolResult, error) {
	return runtime.TextResult("3 open, 2 closed"), nil
}

// Ping answers pong, with an icon and no view.
//
//mcp:tool icon="https://example.com/ping.webp 48x48 light"
func Ping(ctx context.Context) (string, error) {
	return "pong", nil
}
