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
	// MCPServer names the server of an MCP tool.
	MCPServer *MCPServerRef `json:"mcp_server,omitempty"`
	// DisplayName, Title and Description describe the call for a person
	// (Description is a Bash command's description, or a file's path).
	DisplayName string `json:"display_name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// BlockedPath is the path that triggered the check, for file tools.
	BlockedPath string `json:"blocked_path,omitempty"`
	// DecisionReason explains why the CLI asks, when it says, and
	// DecisionReasonType says what kind of reason it is ("workingDir",
	// "mode", "rule", "hook", …).
	DecisionReason     string `json:"decision_reason,omitempty"`
	DecisionReasonType string `json:"decision_reason_type,omitempty"`
	// AgentID is set when a subagent calls the tool.
	AgentID string `json:"agent_id,omitempty"`
	// Suggestions are rule changes that would stop the CLI asking again
	// for such calls; answer with some of them in
	// PermissionResult.UpdatedPermissions to apply them.
	Suggestions []PermissionUpdate `json:"permission_suggestions,omitempty"`
	// Raw is the request as the CLI sent it.
	Raw json.RawMessage `json:"-"`
}

// A PermissionResult answers a PermissionRequest.
type PermissionResult struct {
	// Allow lets the tool run.
	Allow bool
	// UpdatedInput, if set, replaces the tool's input (only with Allow).
	UpdatedInput json.RawMessage
	// UpdatedPermissions change the CLI's permission rules or mode (only
	// with Allow): say, allow this tool for the rest of the session.
	UpdatedPermissions []PermissionUpdate
	// Message tells the model why the tool was denied.
	Message string
	// Interrupt, with a denial, also stops the current turn.
	Interrupt bool
	// DecisionClassification says how the user decided, for the CLI's
	// records: "user_temporary", "user_permanent" or "user_reject".
	DecisionClassification string
}

// wire writes r as the CLI reads it. For can_use_tool (full), an allow
// always carries updatedInput (the original input when unchanged, as the
// Python SDK sends it; older CLIs require it) and a denial a message.
func (r *PermissionResult) wire(input json.RawMessage, full bool) ([]byte, error) {
	if r.Allow {
		updated := r.UpdatedInput
		if updated == nil && full {
			updated = input
			if updated == nil {
				updated = json.RawMessage("{}")
			}
		}
		return json.Marshal(struct {
			Behavior               string             `json:"behavior"`
			UpdatedInput           json.RawMessage    `json:"updatedInput,omitempty"`
			UpdatedPermissions     []PermissionUpdate `json:"updatedPermissions,omitempty"`
			DecisionClassification string             `json:"decisionClassification,omitempty"`
		}{"allow", updated, r.UpdatedPermissions, r.DecisionClassification})
	}
	msg := r.Message
	if msg == "" && full {
		msg = "The user denied this tool."
	}
	return json.Marshal(struct {
		Behavior               string `json:"behavior"`
		Message                string `json:"message,omitempty"`
		Interrupt              bool   `json:"interrupt,omitempty"`
		DecisionClassification string `json:"decisionClassification,omitempty"`
	}{"deny", msg, r.Interrupt, r.DecisionClassification})
}

// A PermissionUpdate changes the CLI's permission rules, its mode, or the
// folders its tools may use. Type says which fields apply:
//
//   - "addRules", "replaceRules", "removeRules": Rules and Behavior;
//   - "setMode": Mode;
//   - "addDirectories", "removeDirectories": Directories.
//
// Destination says where the change is kept.
type PermissionUpdate struct {
	Type        string           `json:"type"`
	Rules       []PermissionRule `json:"rules,omitempty"`
	Behavior    string           `json:"behavior,omitempty"` // "allow", "deny" or "ask"
	Mode        PermissionMode   `json:"mode,omitempty"`
	Directories []string         `json:"directories,omitempty"`
	// Destination is "session" (this process only), "localSettings"
	// (.claude/settings.local.json), "projectSettings"
	// (.claude/settings.json), "userSettings" (~/.claude/settings.json)
	// or "cliArg".
	Destination string `json:"destination"`
}

// A PermissionRule is a tool, and optionally what it is called with
// ("Bash" with "npm test:*", "Read" with "//etc/**").
type PermissionRule struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

func (cc *controlConn) permission(ctx context.Context, req json.RawMessage) ([]byte, error) {
	if cc.canUseTool == nil {
		return nil, errors.New("canUseTool callback is not provided")
	}
	var pr PermissionRequest
	if err := json.Unmarshal(req, &pr); err != nil {
		return nil, fmt.Errorf("malformed can_use_tool request: %w", err)
	}
	pr.Raw = req
	res, err := callback(cc, "permission", cc.canUseTool, ctx, pr)
	if err != nil {
		return nil, err
	}
	return res.wire(pr.Input, true)
}
