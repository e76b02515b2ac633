package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/runtimetest"
)

// client connects runtimetest's client of revision rev to a new server;
// the functions of opts answer the server's questions.
func client(t *testing.T, rev string, opts runtimetest.Options) *runtimetest.Client {
	opts.Revision = rev
	return runtimetest.NewClient(t, NewServer(&Changes{}), &opts)
}

// accept returns a function that accepts a form with content, and records
// the question in asked.
func accept(content string, asked *runtime.ElicitQuestion) func(context.Context, *runtime.ElicitQuestion) error {
	return func(_ context.Context, q *runtime.ElicitQuestion) error {
		*asked = *q
		q.Action, q.Content = runtime.ElicitAccept, json.RawMessage(content)
		return nil
	}
}

// TestAsk: the tools and the prompt that ask the client work the same
// under both forms of the protocol, the forms of //mcp:form types
// included; only the keys of the questions, which revision 2026-07-28
// alone sends, differ.
func TestAsk(t *testing.T) {
	for _, rev := range []string{runtimetest.SessionRevision, runtimetest.RequestRevision} {
		t.Run(rev, func(t *testing.T) {
			ctx := t.Context()
			key := func(k string) string {
				if rev == runtimetest.SessionRevision {
					return ""
				}
				return k
			}

			var asked runtime.ElicitQuestion
			c := client(t, rev, runtimetest.Options{Elicit: accept(`{"username":"ada","email":"ada@example.com"}`, &asked)})
			res, err := c.CallTool(ctx, "test_elicitation", ElicitationInput{Message: "Who are you?"})
			if want := `User response: action=accept, content={"username":"ada","email":"ada@example.com"}`; err != nil || runtimetest.Text(res) != want {
				t.Errorf("test_elicitation: %q, %v; want %s", runtimetest.Text(res), err, want)
			}
			// The form is UserInfo's, as mcpgen generated it; the runtime
			// sends it without spaces.
			var form bytes.Buffer
			json.Compact(&form, []byte((*UserInfo)(nil).MCPSchema()))
			if want := (runtime.ElicitQuestion{Key: key("elicitation-1"), Message: "Who are you?", Schema: form.String()}); !reflect.DeepEqual(asked, want) {
				t.Errorf("test_elicitation asked %+v, want %+v", asked, want)
			}
			c = client(t, rev, runtimetest.Options{Elicit: func(_ context.Context, q *runtime.ElicitQuestion) error {
				q.Action = runtime.ElicitDecline
				return nil
			}})
			res, err = c.CallTool(ctx, "test_elicitation", ElicitationInput{Message: "Who are you?"})
			if err != nil || runtimetest.Text(res) != "User response: action=decline, content=" {
				t.Errorf("test_elicitation declined: %q, %v", runtimetest.Text(res), err)
			}

			var sampled runtime.SampleQuestion
			c = client(t, rev, runtimetest.Options{Sample: func(_ context.Context, q *runtime.SampleQuestion) error {
				sampled = *q
				q.Result = runtimetest.SampleText("m1", "Paris")
				return nil
			}})
			res, err = c.CallTool(ctx, "test_sampling", SamplingInput{Prompt: "Capital of France?"})
			if err != nil || runtimetest.Text(res) != "LLM response: Paris" {
				t.Errorf("test_sampling: %q, %v", runtimetest.Text(res), err)
			}
			if m := sampled.Request.Messages; len(m) != 1 || m[0].Content != (runtime.TextContent{Text: "Capital of France?"}) || sampled.Request.MaxTokens != 100 {
				t.Errorf("test_sampling asked %+v", sampled)
			}

			var keys []string
			c = client(t, rev, runtimetest.Options{Elicit: func(_ context.Context, q *runtime.ElicitQuestion) error {
				keys = append(keys, q.Key)
				q.Action, q.Content = runtime.ElicitAccept, json.RawMessage(map[string]string{
					"Step 1: What is your name?":           `{"name":"Ada"}`,
					"Step 2: What is your favorite color?": `{"color":"blue"}`,
				}[q.Message])
				return nil
			}})
			res, err = c.CallTool(ctx, "test_input_required_result_multi_round", nil)
			if err != nil || runtimetest.Text(res) != "Multi-round complete for Ada who likes blue" {
				t.Errorf("test_input_required_result_multi_round: %q, %v", runtimetest.Text(res), err)
			}
			if want := []string{key("step1"), key("step2")}; strings.Join(keys, ",") != strings.Join(want, ",") {
				t.Errorf("the questions' keys: %q, want %q", keys, want)
			}

			c = client(t, rev, runtimetest.Options{Elicit: accept(`{"context":"the weekly report"}`, &asked)})
			prompt, err := c.GetPrompt(ctx, "test_input_required_result_prompt", nil)
			if err != nil || len(prompt.Messages) != 1 || prompt.Messages[0].Content != (runtime.TextContent{Text: "Prompt with context: the weekly report"}) {
				t.Errorf("test_input_required_result_prompt: %+v, %v", prompt, err)
			}

			// A client that cannot elicit is asked the other question; one
			// that cannot sample either is refused, in each revision's way.
			c = client(t, rev, runtimetest.Options{Sample: func(_ context.Context, q *runtime.SampleQuestion) error {
				q.Result = runtimetest.SampleText("m1", "42")
				return nil
			}})
			res, err = c.CallTool(ctx, "test_input_required_result_capabilities", nil)
			if err != nil || runtimetest.Text(res) != "sampled: 42" {
				t.Errorf("test_input_required_result_capabilities: %q, %v", runtimetest.Text(res), err)
			}
			c = client(t, rev, runtimetest.Options{})
			res, err = c.CallTool(ctx, "test_missing_capability", nil)
			var pe *runtime.ProtocolError
			switch {
			case rev == runtimetest.SessionRevision && (err != nil || !res.IsError || !strings.Contains(runtimetest.Text(res), "sampling: not supported by this client")):
				t.Errorf("test_missing_capability: %q, %v", runtimetest.Text(res), err)
			case rev == runtimetest.RequestRevision && (!errors.As(err, &pe) || pe.Code != -32021):
				t.Errorf("test_missing_capability: %v", err)
			}
		})
	}
}
