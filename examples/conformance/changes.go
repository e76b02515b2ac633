package main

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

// The tools of the suite's scenarios of revision 2026-07-28 that check
// what a request may and may not receive besides its answer.

// LoggingTool logs a message: a request of revision 2026-07-28 gets it
// only if it asked for a log level.
//
//mcp:tool test_logging_tool
func LoggingTool(ctx context.Context) (string, error) {
	runtime.Logger(ctx).Info("test_logging_tool ran")
	return "Logged a message", nil
}

// HeaderInput has arguments that a client of revision 2026-07-28 repeats
// in HTTP headers, for proxies to route on.
type HeaderInput struct {
	// Region is repeated in the Mcp-Param-Region header.
	Region string `json:"region,omitempty" jsonschema_extras:"x-mcp-header=Region"`
	// Level is not repeated.
	Level int `json:"level,omitempty"`
}

// XMCPHeader echoes its region, which the client repeats in a header.
//
//mcp:tool test_x_mcp_header
func XMCPHeader(ctx context.Context, in HeaderInput) (string, error) {
	return "region " + in.Region, nil
}

// Changes changes the server's tools and prompts while it serves, so that
// clients get list_changed notifications.
type Changes struct {
	srv *runtime.Server
}

// TriggerToolChange adds a tool and removes it again.
//
//mcp:tool test_trigger_tool_change
func (c *Changes) TriggerToolChange(ctx context.Context) (string, error) {
	c.srv.AddTool(&runtime.Tool{Name: "transient_tool", Description: "Exists for an instant.",
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return runtime.TextResult(""), nil
		}})
	c.srv.RemoveTool("transient_tool")
	return "The tool list changed", nil
}

// TriggerPromptChange adds a prompt and removes it again.
//
//mcp:tool test_trigger_prompt_change
func (c *Changes) TriggerPromptChange(ctx context.Context) (string, error) {
	c.srv.AddPrompt(&runtime.Prompt{Name: "transient_prompt", Description: "Exists for an instant.",
		Handler: func(ctx context.Context, req *runtime.PromptRequest) (*runtime.PromptResult, error) {
			return runtime.UserPrompt(""), nil
		}})
	c.srv.RemovePrompt("transient_prompt")
	return "The prompt list changed", nil
}
