package runtime

import (
	"context"
	"encoding/json"
	"fmt"
)

// A SamplingRequest asks the client's model for a message
// (sampling/createMessage).
type SamplingRequest struct {
	// Messages is the conversation so far.
	Messages []SamplingMessage
	// SystemPrompt, if set, is the system prompt the server asks for; the
	// client may change or ignore it.
	SystemPrompt string
	// MaxTokens bounds the answer; required by MCP.
	MaxTokens   int
	Temperature *float64
	// StopSequences end the answer early.
	StopSequences []string
	// ModelPreferences, if set, is MCP's modelPreferences object (hints,
	// costPriority, speedPriority, intelligencePriority), as JSON.
	ModelPreferences json.RawMessage
	// Tools the model may call in its answer; the client must have
	// declared that it supports them.
	Tools []SamplingTool
	// ToolChoice, if set, is MCP's toolChoice object, as JSON.
	ToolChoice json.RawMessage
}

// A SamplingMessage is one message of a conversation for sampling.
type SamplingMessage struct {
	Role    string // "user" or "assistant"
	Content Content
}

// A SamplingTool is a tool the model may call while sampling.
type SamplingTool struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of its input, as JSON text.
	InputSchema string
}

// A SamplingResult is the client's answer: the model's message.
type SamplingResult struct {
	Role       string `json:"role"`
	Model      string `json:"model"`
	StopReason string `json:"stopReason"`
	// Content is the message's content, as JSON: one block, or a list of
	// blocks (text, image, audio, tool_use…).
	Content json.RawMessage `json:"content"`
}

// Text returns the text of the answer: its text block, or the text
// blocks of its list joined.
func (r *SamplingResult) Text() string {
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var one block
	if json.Unmarshal(r.Content, &one) == nil && one.Type == "text" {
		return one.Text
	}
	var list []block
	json.Unmarshal(r.Content, &list)
	text := ""
	for _, b := range list {
		if b.Type == "text" {
			text += b.Text
		}
	}
	return text
}

// Sample asks the client's model for a message. It fails at once with
// ErrNotSupported when the client did not declare sampling (or sampling
// with tools, when req has tools), and after Server.AskTimeout if the
// client never answers. Cancelling ctx withdraws the question.
func Sample(ctx context.Context, req *SamplingRequest) (*SamplingResult, error) {
	ss, ci, err := asked(ctx, "sampling", func(c clientCaps) bool { return c.sampling && (len(req.Tools) == 0 || c.samplingTools) })
	if err != nil {
		return nil, err
	}
	params, err := req.appendJSON(nil)
	if err != nil {
		return nil, fmt.Errorf("sampling: %w", err)
	}
	res, err := ss.ask(ctx, ci.Notify, "sampling/createMessage", params)
	if err != nil {
		return nil, err
	}
	var out SamplingResult
	if err := json.Unmarshal(res, &out); err != nil || out.Role == "" || len(out.Content) == 0 {
		return nil, fmt.Errorf("sampling: the client's answer is malformed: %.200s", res)
	}
	return &out, nil
}

// appendJSON writes the params of sampling/createMessage.
func (r *SamplingRequest) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"messages":[`...)
	for i, m := range r.Messages {
		if m.Role != "user" && m.Role != "assistant" || m.Content == nil {
			return nil, fmt.Errorf("message %d needs the role user or assistant, and content", i)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":"`+m.Role+`","content":`...)
		b = append(m.Content.appendJSON(b), '}')
	}
	b = append(b, ']')
	b = fmt.Appendf(b, `,"maxTokens":%d`, r.MaxTokens)
	b = appendField(b, "systemPrompt", r.SystemPrompt)
	rest := map[string]any{}
	if r.Temperature != nil {
		rest["temperature"] = *r.Temperature
	}
	if len(r.StopSequences) > 0 {
		rest["stopSequences"] = r.StopSequences
	}
	if r.ModelPreferences != nil {
		rest["modelPreferences"] = r.ModelPreferences
	}
	if r.ToolChoice != nil {
		rest["toolChoice"] = r.ToolChoice
	}
	if len(r.Tools) > 0 {
		type tool struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		tools := make([]tool, len(r.Tools))
		for i, t := range r.Tools {
			tools[i] = tool{t.Name, t.Description, json.RawMessage(compact(t.InputSchema))}
			if len(tools[i].InputSchema) == 0 {
				return nil, fmt.Errorf("tool %s: the input schema is not JSON", t.Name)
			}
		}
		rest["tools"] = tools
	}
	if len(rest) > 0 {
		data, err := json.Marshal(rest)
		if err != nil {
			return nil, err
		}
		b = append(append(b, ','), data[1:len(data)-1]...)
	}
	return append(b, '}'), nil
}
