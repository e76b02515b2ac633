// Command host is a support desk with Claude in it. It hosts its own
// tool, lookup_order, in-process in a Claude Code session; a hook audits
// every tool call and refuses the tools that are not the desk's; and the
// answer comes back as a Go struct, Reply, not as text.
//
//	go run ./examples/host -prompt "Where is my order A-1001?"
//
//mcp:server name=orders version=1.0.0 surface
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen

// LookupOrderInput names an order.
type LookupOrderInput struct {
	OrderID string `json:"order_id"` // The order's id, such as A-1001.
}

// LookupOrder returns where an order is.
//
//mcp:tool lookup_order
func LookupOrder(ctx context.Context, in LookupOrderInput) (string, error) {
	switch in.OrderID {
	case "A-1001":
		return "Order A-1001 shipped on Monday with tracking number 1Z999; it arrives on Thursday.", nil
	case "A-1002":
		return "Order A-1002 is waiting for stock.", nil
	}
	return "", fmt.Errorf("there is no order %q", in.OrderID)
}

// OrderStatus is where an order is.
type OrderStatus string

const (
	Shipped OrderStatus = "shipped"
	Waiting OrderStatus = "waiting"
	Unknown OrderStatus = "unknown"
)

//docs:begin reply

// Reply is the desk's answer to a customer: the model's answer must fit
// its JSON Schema, which mcpgen generates as Reply's MCPSchema method.
//
//mcp:output
type Reply struct {
	OrderID string      `json:"order_id"` // The order the customer asked about.
	Status  OrderStatus `json:"status"`
	Message string      `json:"message"` // The answer for the customer.
}

//docs:end reply

// audit is a PreToolUse hook: it logs every tool call and denies all
// but the desk's own, with a reason the model reads. StructuredOutput is
// the tool the model gives its Reply with.
func audit(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
	call := in.(*claude.PreToolUseInput)
	fmt.Printf("audit: %s %s\n", call.ToolName, call.ToolInput)
	if !strings.HasPrefix(call.ToolName, "mcp__orders__") && call.ToolName != "StructuredOutput" {
		return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
			PermissionDecision:       claude.HookDeny,
			PermissionDecisionReason: "The support desk only looks up orders.",
		}}, nil
	}
	return claude.HookOutput{}, nil
}

func main() {
	claudePath := flag.String("claude", "", "`path` of the Claude Code CLI (default: claude in PATH)")
	prompt := flag.String("prompt", "Where is my order A-1001?", "the customer's `question`")
	timeout := flag.Duration("timeout", 5*time.Minute, "give up after this `long` (the CLI retries a failing API for minutes)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	res, err := claude.Query(ctx, *prompt, claude.Options{
		Path:         *claudePath,
		Servers:      map[string]*runtime.Server{"orders": NewServer()},
		AllowedTools: []string{"mcp__orders__lookup_order"},
		Hooks: map[claude.HookEvent][]claude.HookMatcher{
			claude.HookPreToolUse: {{Hooks: []claude.HookFunc{audit}}},
		},
		OutputType:         Reply{},
		AppendSystemPrompt: "You answer customers of a web shop about their orders.",
		Logger:             slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}, nil)
	if err != nil {
		// The CLI is missing or failed, or the run took too long.
		fmt.Fprintln(os.Stderr, "host:", err)
		os.Exit(1)
	}
	if err := res.Err(); err != nil {
		// The run failed, and the CLI says why: "Not logged in · Please
		// run /login", an API error, too many turns, …
		fmt.Fprintln(os.Stderr, "host:", err)
		os.Exit(1)
	}
	var r Reply
	if err := res.DecodeStructuredOutput(&r); err != nil {
		fmt.Fprintln(os.Stderr, "host:", err)
		os.Exit(1)
	}
	fmt.Printf("order:   %s\nstatus:  %s\nmessage: %s\n", r.OrderID, r.Status, r.Message)
}
