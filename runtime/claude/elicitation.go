package claude

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// ElicitationRequest is a question an MCP server that the CLI connects to
// (Options.MCPServers) asks the user.
type ElicitationRequest struct {
	// ServerName is the server that asks.
	ServerName string `json:"mcp_server_name"`
	Message    string `json:"message"`
	// Mode is "form" (fill RequestedSchema) or "url" (go to URL).
	Mode            string          `json:"mode,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitation_id,omitempty"`
	RequestedSchema json.RawMessage `json:"requested_schema,omitempty"`
	// PropertyOrder is the order of the form's fields.
	PropertyOrder []string `json:"property_order,omitempty"`
	Title         string   `json:"title,omitempty"`
	DisplayName   string   `json:"display_name,omitempty"`
	Description   string   `json:"description,omitempty"`
}

// ElicitationResult answers an ElicitationRequest: Action, and with
// runtime.ElicitAccept the form's Content (a JSON object). An empty
// Action declines.
type ElicitationResult struct {
	Action  runtime.ElicitAction `json:"action"`
	Content json.RawMessage      `json:"content,omitempty"`
}

// elicitation answers an elicitation control request. Without a
// callback it declines, as the TypeScript SDK does.
func (cc *controlConn) elicitation(ctx context.Context, raw json.RawMessage) ([]byte, error) {
	if cc.onElicitation == nil {
		return []byte(`{"action":"decline"}`), nil
	}
	var req ElicitationRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("malformed elicitation request: %w", err)
	}
	res, err := callback(cc, "elicitation", cc.onElicitation, ctx, req)
	if err != nil {
		return nil, err
	}
	if res.Action == "" {
		res.Action = runtime.ElicitDecline
	}
	if res.Action != runtime.ElicitAccept {
		res.Content = nil
	}
	return json.Marshal(res)
}
