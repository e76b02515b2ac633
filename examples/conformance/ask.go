package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// The tools of the suite's scenarios that ask the client something. Each
// works the same under 2025-11-25, where the runtime sends the client a
// request and waits, and under 2026-07-28, where the call answers
// input_required and runs again with the answers.

// SamplingInput is the prompt to send to the client's model.
type SamplingInput struct {
	// Prompt is the text to send.
	Prompt string `json:"prompt"`
}

// Sampling asks the client's model to answer a prompt.
//
//mcp:tool test_sampling
func Sampling(ctx context.Context, in SamplingInput) (string, error) {
	r, err := runtime.Sample(ctx, &runtime.SampleRequest{
		MaxTokens: 100,
		Messages:  []runtime.SampleMessage{{Role: "user", Content: runtime.TextContent{Text: in.Prompt}}},
	})
	if err != nil {
		return "", err
	}
	return "LLM response: " + r.Text(), nil
}

// ElicitationInput is what to ask the user.
type ElicitationInput struct {
	// Message is the text shown to the user.
	Message string `json:"message"`
}

//docs:begin form

// UserInfo is the form test_elicitation asks the user to fill.
//
//mcp:form
type UserInfo struct {
	Username string `json:"username"` // User's response
	Email    string `json:"email"`    // User's email address
}

// Elicitation asks the user for their name and email address.
//
//mcp:tool test_elicitation
func Elicitation(ctx context.Context, in ElicitationInput) (string, error) {
	var info UserInfo
	action, err := runtime.ElicitForm(ctx, in.Message, &info)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("User response: action=%s, content=%s", action, answer(action, info)), nil
}

//docs:end form

// Status is a user's status.
type Status string

const (
	Active   Status = "active"
	Inactive Status = "inactive"
	Pending  Status = "pending"
)

// Profile is a form with a default for every kind of field (SEP-1034).
//
//mcp:form
type Profile struct {
	Name     string  `json:"name,omitempty" jsonschema:"default=John Doe"` // User name
	Age      int     `json:"age,omitempty" jsonschema:"default=30"`        // User age
	Score    float64 `json:"score,omitempty" jsonschema:"default=95.5"`    // User score
	Status   Status  `json:"status,omitempty" jsonschema:"default=active"` // User status
	Verified bool    `json:"verified,omitempty" jsonschema:"default=true"` // Verification status
}

// ElicitationDefaults asks the user to review a form whose fields have
// defaults.
//
//mcp:tool test_elicitation_sep1034_defaults
func ElicitationDefaults(ctx context.Context) (string, error) {
	var p Profile
	action, err := runtime.ElicitForm(ctx, "Please review and update the form fields with defaults", &p)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Elicitation completed: action=%s, content=%s", action, answer(action, p)), nil
}

// answer is the JSON of a form the user accepted, or "" for a declined or
// cancelled one.
func answer(action runtime.ElicitAction, form any) string {
	if action != runtime.ElicitAccept {
		return ""
	}
	b, _ := json.Marshal(form) // a form is strings, numbers and booleans
	return string(b)
}

// enumsForm has every kind of enum field (SEP-1330).
const enumsForm = `{"type":"object","properties":{
	"untitledSingle":{"type":"string","description":"Choose an option","enum":["option1","option2","option3"]},
	"titledSingle":{"type":"string","description":"Choose a titled option","oneOf":[
		{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},
	"legacyEnum":{"type":"string","description":"Choose a legacy option","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},
	"untitledMulti":{"type":"array","description":"Choose options","minItems":1,"maxItems":3,"items":{"type":"string","enum":["option1","option2","option3"]}},
	"titledMulti":{"type":"array","description":"Choose titled options","minItems":1,"maxItems":3,"items":{"anyOf":[
		{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},{"const":"value3","title":"Third Choice"}]}}}}`

// ElicitationEnums asks the user to choose from enums of every kind.
//
//mcp:tool test_elicitation_sep1330_enums
func ElicitationEnums(ctx context.Context) (string, error) {
	action, content, err := runtime.Elicit(ctx, "Please choose from the options", enumsForm)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Elicitation completed: action=%s, content=%s", action, content), nil
}

// nameForm asks for a name.
const nameForm = `{"type":"object","properties":{"name":{"type":"string","description":"Your name"}},"required":["name"]}`

// field returns the string field name of a form's content.
func field(content json.RawMessage, name string) string {
	var m map[string]any
	json.Unmarshal(content, &m)
	s, _ := m[name].(string)
	return s
}

// InputRequiredElicitation asks the user's name and greets them.
//
//mcp:tool test_input_required_result_elicitation
func InputRequiredElicitation(ctx context.Context) (string, error) {
	q := &runtime.ElicitQuestion{Key: "user_name", Message: "What is your name?", Schema: nameForm}
	if err := runtime.Ask(ctx, q); err != nil {
		return "", err
	}
	return "Hello, " + field(q.Content, "name") + "!", nil
}

// capitalQuestion asks the client's model for the capital of France.
func capitalQuestion() *runtime.SampleQuestion {
	return &runtime.SampleQuestion{Key: "capital_question", Request: runtime.SampleRequest{
		MaxTokens: 100,
		Messages:  []runtime.SampleMessage{{Role: "user", Content: runtime.TextContent{Text: "What is the capital of France?"}}},
	}}
}

// InputRequiredSampling asks the client's model a question.
//
//mcp:tool test_input_required_result_sampling
func InputRequiredSampling(ctx context.Context) (string, error) {
	q := capitalQuestion()
	if err := runtime.Ask(ctx, q); err != nil {
		return "", err
	}
	return "The model says: " + q.Result.Text(), nil
}

// InputRequiredRoots asks the client for its roots.
//
//mcp:tool test_input_required_result_list_roots
func InputRequiredRoots(ctx context.Context) (string, error) {
	q := &runtime.RootsQuestion{Key: "client_roots"}
	if err := runtime.Ask(ctx, q); err != nil {
		return "", err
	}
	return fmt.Sprintf("The client has %d root(s): %v", len(q.Roots), q.Roots), nil
}

// InputRequiredState asks for a confirmation; the call's state, sealed by
// the server, travels with the retry.
//
//mcp:tool test_input_required_result_request_state
func InputRequiredState(ctx context.Context) (string, error) {
	q := &runtime.ElicitQuestion{Key: "confirm", Message: "Please confirm", Schema: `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`}
	if err := runtime.Ask(ctx, q); err != nil {
		return "", err
	}
	return "state-ok: " + string(q.Action), nil
}

// InputRequiredTampered asks for a confirmation, like
// test_input_required_result_request_state: the suite then changes the
// state it echoes, which the server must refuse.
//
//mcp:tool test_input_required_result_tampered_state
func InputRequiredTampered(ctx context.Context) (string, error) {
	return InputRequiredState(ctx)
}

// InputRequiredMultiple asks the user, the model and the client at once.
//
//mcp:tool test_input_required_result_multiple_inputs
func InputRequiredMultiple(ctx context.Context) (string, error) {
	name := &runtime.ElicitQuestion{Key: "user_name", Message: "What is your name?", Schema: nameForm}
	greeting := &runtime.SampleQuestion{Key: "greeting", Request: runtime.SampleRequest{
		MaxTokens: 50,
		Messages:  []runtime.SampleMessage{{Role: "user", Content: runtime.TextContent{Text: "Generate a greeting"}}},
	}}
	roots := &runtime.RootsQuestion{Key: "client_roots"}
	if err := runtime.Ask(ctx, name, greeting, roots); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s, %s (%d roots)", greeting.Result.Text(), field(name.Content, "name"), len(roots.Roots)), nil
}

// InputRequiredRounds asks two questions, the second only once the first
// is answered.
//
//mcp:tool test_input_required_result_multi_round
func InputRequiredRounds(ctx context.Context) (string, error) {
	step1 := &runtime.ElicitQuestion{Key: "step1", Message: "Step 1: What is your name?", Schema: nameForm}
	if err := runtime.Ask(ctx, step1); err != nil {
		return "", err
	}
	step2 := &runtime.ElicitQuestion{Key: "step2", Message: "Step 2: What is your favorite color?",
		Schema: `{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`}
	if err := runtime.Ask(ctx, step2); err != nil {
		return "", err
	}
	return fmt.Sprintf("Multi-round complete for %s who likes %s", field(step1.Content, "name"), field(step2.Content, "color")), nil
}

// InputRequiredCapabilities asks only what the client can answer: the
// user if it can elicit, else its model.
//
//mcp:tool test_input_required_result_capabilities
func InputRequiredCapabilities(ctx context.Context) (string, error) {
	form := &runtime.ElicitQuestion{Key: "elicit_input", Message: "Elicitation input", Schema: `{"type":"object","properties":{"value":{"type":"string"}}}`}
	err := runtime.Ask(ctx, form)
	if errors.Is(err, runtime.ErrNotSupported) {
		q := &runtime.SampleQuestion{Key: "sample_input", Request: runtime.SampleRequest{
			MaxTokens: 50,
			Messages:  []runtime.SampleMessage{{Role: "user", Content: runtime.TextContent{Text: "Sample request"}}},
		}}
		if err := runtime.Ask(ctx, q); err != nil {
			return "", err
		}
		return "sampled: " + q.Result.Text(), nil
	}
	if err != nil {
		return "", err
	}
	return "elicited: " + string(form.Content), nil
}

// MissingCapability asks the client's model, which a client that did not
// declare sampling cannot answer: under 2026-07-28 the call then fails
// with the protocol's missing-capability error.
//
//mcp:tool test_missing_capability
func MissingCapability(ctx context.Context) (string, error) {
	q := capitalQuestion()
	if err := runtime.Ask(ctx, q); err != nil {
		return "", err
	}
	return q.Result.Text(), nil
}

// StreamingElicitation asks the user a question; the answer never comes
// as a request on the call's stream under 2026-07-28.
//
//mcp:tool test_streaming_elicitation
func StreamingElicitation(ctx context.Context) (string, error) {
	action, content, err := runtime.Elicit(ctx, "Anything to add?", `{"type":"object","properties":{"note":{"type":"string"}}}`)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %s", action, content), nil
}
