package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// A PermissionRequest is the CLI asking whether a tool may run.
type PermissionRequest struct {
	// ToolName is the tool as the model calls it, mcp__<server>__<tool>
	// for MCP tools.
	ToolName string `json:"tool_name"`
	// Input is the tool's input as the model wrote it.
	Input json.RawMessage `json:"input"`
	// ToolUseID identifies the model's tool_use block.
	ToolUseID string `json:"tool_use_id"`
	// BlockedPath is the path that triggered the check, for file tools.
	BlockedPath string `json:"blocked_path"`
	// DecisionReason explains why the CLI asks, when it says.
	DecisionReason string `json:"decision_reason"`
	// Suggestions are the CLI's permission_suggestions, as sent.
	Suggestions json.RawMessage `json:"permission_suggestions"`
}

// A PermissionResult answers a PermissionRequest.
type PermissionResult struct {
	// Allow lets the tool run.
	Allow bool
	// UpdatedInput, if set, replaces the tool's input (only with Allow).
	UpdatedInput json.RawMessage
	// Message tells the model why the tool was denied.
	Message string
	// Interrupt, with a denial, also stops the current turn.
	Interrupt bool
}

func (cc *controlConn) permission(ctx context.Context, req json.RawMessage) ([]byte, error) {
	if cc.canUseTool == nil {
		return nil, errors.New("canUseTool callback is not provided")
	}
	var pr PermissionRequest
	if err := json.Unmarshal(req, &pr); err != nil {
		return nil, fmt.Errorf("malformed can_use_tool request: %w", err)
	}
	res, err := cc.callPermission(ctx, pr)
	if err != nil {
		return nil, err
	}
	if res.Allow {
		input := res.UpdatedInput
		if input == nil {
			input = pr.Input // the CLI wants updatedInput even when unchanged
		}
		if input == nil {
			input = json.RawMessage("{}")
		}
		return json.Marshal(struct {
			Behavior     string          `json:"behavior"`
			UpdatedInput json.RawMessage `json:"updatedInput"`
		}{"allow", input})
	}
	msg := res.Message
	if msg == "" {
		msg = "The user denied this tool."
	}
	return json.Marshal(struct {
		Behavior  string `json:"behavior"`
		Message   string `json:"message"`
		Interrupt bool   `json:"interrupt,omitempty"`
	}{"deny", msg, res.Interrupt})
}

// callPermission runs the callback, turning a panic into an error.
func (cc *controlConn) callPermission(ctx context.Context, pr PermissionRequest) (res PermissionResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			cc.logger.Error("claude: permission callback panicked", "panic", p)
			err = fmt.Errorf("permission callback failed: %v", p)
		}
	}()
	return cc.canUseTool(ctx, pr)
}
