package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/testdata/golden/outputs"
)

// toolCallResult is a tools/call result as a client reads it.
type toolCallResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// callResult calls tool on s and returns its result.
func callResult(t *testing.T, s *runtime.Server, tool string) toolCallResult {
	t.Helper()
	resp := s.NewConn(nil).Handle(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`"}}`))
	var r struct {
		Result *toolCallResult `json:"result"`
	}
	if err := json.Unmarshal(resp, &r); err != nil || r.Result == nil {
		t.Fatalf("%s: %s (%v)", tool, resp, err)
	}
	return *r.Result
}

// TestStructuredResultsHonourOutputSchema: a nil map or slice, which
// encoding/json writes as null, goes out as {} or [] as the advertised
// output schema says, in structuredContent and in its text block.
func TestStructuredResultsHonourOutputSchema(t *testing.T) {
	s := outputs.NewServer()
	for tool, want := range map[string]struct{ structured, text string }{
		"map":    {`{}`, `{}`},
		"slice":  {`{"result":[]}`, `[]`}, // wrapped for this legacy client; the text block is the value
		"struct": {`{"count":0}`, `{"count":0}`},
	} {
		r := callResult(t, s, tool)
		if r.IsError || string(r.StructuredContent) != want.structured || len(r.Content) != 1 || r.Content[0].Text != want.text {
			t.Errorf("%s: structuredContent %s, content %+v, isError %v; want %s and text %s", tool, r.StructuredContent, r.Content, r.IsError, want.structured, want.text)
		}
	}
}

// TestNilPointersHonourOutputSchema: encoding/json writes a nil pointer
// or []byte as null, and the output schema mcpgen generated allows it, so
// the result goes out as it is instead of as an error.
func TestNilPointersHonourOutputSchema(t *testing.T) {
	s := outputs.NewServer()
	for tool, want := range map[string]string{
		"nils":       `{"note":null,"report":null,"deep":null,"reports":[null],"byName":{"none":null},"data":null,"any":null,"tagged":null}`,
		"nil_number": `{"result":null}`,
	} {
		r := callResult(t, s, tool)
		if r.IsError || string(r.StructuredContent) != want {
			t.Errorf("%s: structuredContent %s, content %+v, isError %v; want %s", tool, r.StructuredContent, r.Content, r.IsError, want)
		}
	}
}

// TestStructuredResultBreakingItsSchema: a result that does not match the
// tool's output schema is never sent; the client gets an error result
// saying why, and that the tool ran (its effects stand, so the model must
// not retry the call).
func TestStructuredResultBreakingItsSchema(t *testing.T) {
	s := &runtime.Server{Name: "s", Logger: linepeer.DiscardLogger()}
	s.AddTool(&runtime.Tool{
		Name:         "bad",
		OutputSchema: `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return &runtime.ToolResult{StructuredContent: map[string]any{"n": "seven"}}, nil
		},
	})
	r := callResult(t, s, "bad")
	if !r.IsError || r.StructuredContent != nil || !strings.Contains(r.Content[0].Text, "does not match its output schema:\n- n: must be an integer; got \"seven\"") ||
		!strings.HasPrefix(r.Content[0].Text, "tool bad ran, and what it did stands (do not call it again to retry)") {
		t.Errorf("%+v", r)
	}
}
