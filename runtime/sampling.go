package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A SampleRequest asks the client's model for a message
// (sampling/createMessage).
type SampleRequest struct {
	// Messages is the conversation so far.
	Messages []SampleMessage
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
	Tools []SampleTool
	// ToolChoice, if set, is MCP's toolChoice object, as JSON.
	ToolChoice json.RawMessage
}

// A SampleMessage is one message of a conversation for sampling.
type SampleMessage struct {
	Role    string // "user" or "assistant"
	Content Content
}

// A SampleTool is a tool the model may call while sampling.
type SampleTool struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of its input, as JSON text.
	InputSchema string
}

// A SampleResult is the client's answer: the model's message.
type SampleResult struct {
	Role       string `json:"role"`
	Model      string `json:"model"`
	StopReason string `json:"stopReason"`
	// Content is the message's content, as JSON: one block, or a list of
	// blocks (text, image, audio, tool_use…).
	Content json.RawMessage `json:"content"`
}

// Text returns the text of the answer: its text block, or the text
// blocks of its list joined. Blocks are read by their exact member names,
// as every answer is: a block {"type":"image","Type":"text",…} is an
// image, whatever a case-insensitive decoder would make of it.
func (r *SampleResult) Text() string {
	content, err := jsonvalue.Parse(r.Content)
	if err != nil {
		return ""
	}
	if content.Kind() == jsonvalue.Object {
		return blockText(content)
	}
	text := ""
	for _, b := range content.Elems() {
		text += blockText(b)
	}
	return text
}

// blockText is the text of a content block of type text, or "".
func blockText(b jsonvalue.Value) string {
	if t := b.Get("type"); t.Kind() != jsonvalue.String || t.Str() != "text" {
		return ""
	}
	return b.Get("text").Str()
}

// A SampleQuestion asks the client's model for a message
// (sampling/createMessage).
type SampleQuestion struct {
	// Key names the question under revision 2026-07-28 (see Ask).
	Key     string
	Request SampleRequest

	// Result is the model's message.
	Result *SampleResult
}

func (q *SampleQuestion) what() string   { return "sampling" }
func (q *SampleQuestion) key() string    { return q.Key }
func (q *SampleQuestion) method() string { return wire.MethodSample }

func (q *SampleQuestion) needs(c *wire.ClientCaps) []byte {
	switch {
	case !c.Sampling:
		return []byte(`{"sampling":{}}`)
	case len(q.Request.Tools) > 0 && !c.SamplingTools:
		return []byte(`{"sampling":{"tools":{}}}`)
	}
	return nil
}

func (q *SampleQuestion) params(bool) ([]byte, error) { return q.Request.appendJSON(nil) }

func (q *SampleQuestion) answer(result jsonvalue.Value) error {
	role, content := result.Get("role"), result.Get("content")
	model, stop := result.Get("model"), result.Get("stopReason")
	if role.Kind() != jsonvalue.String || role.Str() == "" || content.Kind() != jsonvalue.Object && content.Kind() != jsonvalue.Array ||
		model.Exists() && model.Kind() != jsonvalue.String || stop.Exists() && stop.Kind() != jsonvalue.String && stop.Kind() != jsonvalue.Null {
		return fmt.Errorf("the client's answer is malformed: %.200s", result.Raw())
	}
	q.Result = &SampleResult{Role: role.Str(), Model: model.Str(), StopReason: stop.Str(), Content: slices.Clone(content.Raw())}
	return nil
}

// Sample asks the client's model for a message. When req has tools, the
// client must have declared sampling with tools. See Ask for how it
// waits, and for the errors it returns.
func Sample(ctx context.Context, req *SampleRequest) (*SampleResult, error) {
	q := &SampleQuestion{Request: *req}
	if err := Ask(ctx, q); err != nil {
		return nil, err
	}
	return q.Result, nil
}

// appendJSON writes the params of sampling/createMessage.
func (r *SampleRequest) appendJSON(b []byte) ([]byte, error) {
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
