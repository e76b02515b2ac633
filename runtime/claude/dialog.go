package claude

import (
	"context"
	"encoding/json"
	"fmt"
)

// A UserDialogRequest is the CLI asking the host to show the user a
// dialog (a request_user_dialog control request), of a kind the host
// declared in Options.SupportedDialogKinds.
type UserDialogRequest struct {
	// DialogKind says which dialog, such as "refusal_fallback_prompt".
	DialogKind string `json:"dialog_kind"`
	// Payload is the dialog's data, whose shape depends on DialogKind.
	Payload json.RawMessage `json:"payload"`
	// ToolUseID is the tool call the dialog is about, if any.
	ToolUseID string `json:"tool_use_id,omitempty"`
}

// A UserDialogResult answers a UserDialogRequest: the user's choice,
// whose shape depends on the dialog's kind, or, when Cancelled, none (the
// CLI then does what the dialog does by default). Answer a kind you do
// not know with Cancelled.
type UserDialogResult struct {
	Cancelled bool
	Result    json.RawMessage
}

// wire writes r as the CLI reads it.
func (r UserDialogResult) wire() ([]byte, error) {
	if r.Cancelled {
		return []byte(`{"behavior":"cancelled"}`), nil
	}
	result := r.Result
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	return json.Marshal(struct {
		Behavior string          `json:"behavior"`
		Result   json.RawMessage `json:"result"`
	}{"completed", result})
}

// userDialog answers a request_user_dialog control request. Without a
// callback the host refuses it: the CLI discards a refusal and leaves the
// dialog to its deadline, as when the TypeScript SDK stays silent.
func (cc *controlConn) userDialog(ctx context.Context, raw json.RawMessage) ([]byte, error) {
	if cc.onUserDialog == nil {
		return nil, &ControlError{Message: "Unsupported control request subtype: request_user_dialog", Code: unsupportedCode}
	}
	var req UserDialogRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("malformed request_user_dialog request: %w", err)
	}
	res, err := callback(cc, "user dialog", cc.onUserDialog, ctx, req)
	if err != nil {
		return nil, err
	}
	return res.wire()
}
