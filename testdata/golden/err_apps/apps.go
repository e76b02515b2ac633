// Package apps has the mistakes an MCP App's directives can hold, each
// reported at generate time: a link to nothing, a view of the wrong MIME
// type, CSP entries that are not origins, and the rest.
package apps

import (
	"context"
	_ "embed"

	"github.com/mcpgen/mcpgen/runtime"
)

// board is the board's view.
//
//go:embed note.txt
//mcp:resource ui://board/view
var board string

// Count is a view that is an int.
//
//mcp:resource ui://board/count
var Count = 3

// Wrong is a view served as plain HTML, which hosts do not render.
//
//mcp:resource ui://board/wrong mimeType=text/html
func Wrong() (string, error) { return "<!doctype html>", nil }

// Origins has CSP entries that are not origins.
//
//mcp:resource ui://board/origins connectDomains=api.example.com resourceDomains=https://cdn.example.com/lib frameDomains="https://a.example https://b.example" baseUriDomains=https://x.example;script-src
func Origins() (string, error) { return "<!doctype html>", nil }

// Features asks for what a view cannot have.
//
//mcp:resource ui://board/features permissions=camera,bluetooth domain=https://x.example prefersBorder=maybe
func Features() (string, error) { return "<!doctype html>", nil }

// Status is no view, yet has a view's options and type.
//
//mcp:resource app://status connectDomains=https://api.example.com
func Status() (string, error) { return "up", nil }

// Page is no view, yet has a view's type.
//
//mcp:resource app://page mimeType=text/html;profile=mcp-app
func Page() (string, error) { return "<!doctype html>", nil }

// TicketRef names a ticket.
type TicketRef struct {
	ID string `json:"id"`
}

// Ticket is a view of one ticket: a view's URI is fixed.
//
//mcp:resource ui://board/tickets/{id}
func Ticket(ctx context.Context, in TicketRef) (string, error) { return "<!doctype html>", nil }

// Data is a view that returns JSON.
//
//mcp:resource ui://board/data
func Data() (map[string]int, error) { return nil, nil }

// ShowBoard links a view that does not exist.
//
//mcp:tool ui=ui://board/veiw
func ShowBoard(ctx context.Context) (string, error) { return "", nil }

// ShowNothing links a view of nowhere.
//
//mcp:tool ui=ui://nowhere
func ShowNothing(ctx context.Context) (string, error) { return "", nil }

// Refresh answers nothing but its view, which clients without apps cannot show.
//
//mcp:tool ui=ui://board/view
func Refresh(ctx context.Context) error { return nil }

// Hidden says who calls it, but has no view.
//
//mcp:tool visibility=app
func Hidden(ctx context.Context) (string, error) { return "", nil }

// Linked links an https page and names someone else.
//
//mcp:tool ui=https://example.com/board visibility=model,user
func Linked(ctx context.Context) (string, error) { return "", nil }

// Iconic has icons clients would not show.
//
//mcp:tool icon=http://example.com/i.png icon=https://example.com/i.gif icon="https://example.com/i.png huge" icon="https://example.com/j.png light dark" icon="data:image/png,abc" icon="data:image/png;base64,no+base64!"
func Iconic(ctx context.Context) (*runtime.ToolResult, error) { return nil, nil }

// Twice has the same icon twice.
//
//mcp:tool icon=https://example.com/i.png icon=https://example.com/i.png
func Twice(ctx context.Context) (string, error) { return "", nil }

// A blank view, which Register could not name.
//
//mcp:resource ui://board/blank
var _ = "<!doctype html>"
