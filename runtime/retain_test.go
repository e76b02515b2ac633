package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// keptInput is what a handler keeps after it returns.
type keptInput struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
	Tags   []string          `json:"tags"`
}

// decodeKeptInput is keptInput's decoder as mcpgen generates it.
func decodeKeptInput(v mcpimpl.Value, in *keptInput) error {
	for name, f := range v.Members() {
		if f.IsNull() {
			continue
		}
		var err error
		switch name {
		case "name":
			err = mcpimpl.DecodeString(f, &in.Name)
		case "labels":
			err = mcpimpl.DecodeMap(f, &in.Labels, mcpimpl.DecodeString)
		case "tags":
			err = mcpimpl.DecodeSlice(f, &in.Tags, mcpimpl.DecodeString)
		}
		if err != nil {
			return mcpimpl.FieldError(name, err)
		}
	}
	return nil
}

// TestHandlerKeepsItsInput: what a handler receives (its decoded input,
// map keys included, and the request's raw arguments and _meta) does not
// change when later requests arrive, although the runtime parses each
// request in place and decodes without copying where it can. Later
// requests have the same length and shape, so that a reused buffer would
// show.
func TestHandlerKeepsItsInput(t *testing.T) {
	type kept struct {
		in         keptInput
		args, meta string
		argsBytes  json.RawMessage
		metaBytes  json.RawMessage
	}
	var mu sync.Mutex
	var all []kept
	// The generated-style handler, wrapped to also keep the raw request.
	s := &runtime.Server{Name: "keep"}
	s.AddTool(&runtime.Tool{
		Name:        "keep",
		InputSchema: `{"type":"object","properties":{"name":{"type":"string"},"labels":{"type":"object","additionalProperties":{"type":"string"}},"tags":{"type":"array","items":{"type":"string"}}},"additionalProperties":false}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			var in keptInput
			res, err := mcpimpl.Handle(func(ctx context.Context, v keptInput) (string, error) {
				in = v
				return "kept", nil
			}, decodeKeptInput, mcpimpl.Text)(ctx, req)
			mu.Lock()
			all = append(all, kept{in: in, args: string(req.Arguments), meta: string(req.Meta), argsBytes: req.Arguments, metaBytes: req.Meta})
			mu.Unlock()
			return res, err
		},
	})
	p := serveStdio(t, s)
	const n = 50
	for i := range n {
		c := 'a' + rune(i%26)
		word := strings.Repeat(string(c), 8)
		p.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"keep","arguments":{"name":"%s","labels":{"%s":"%s"},"tags":["%s"]},"_meta":{"k":"%s"}}}`,
			i, word, word, word, word, word))
		reply(p, fmt.Sprint(i))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(all) != n {
		t.Fatalf("%d calls kept, want %d", len(all), n)
	}
	for i, k := range all {
		word := strings.Repeat(string('a'+rune(i%26)), 8)
		want := keptInput{Name: word, Labels: map[string]string{word: word}, Tags: []string{word}}
		for key, v := range k.in.Labels {
			if key != word || v != word {
				t.Errorf("call %d: labels %q, want %q", i, k.in.Labels, want.Labels)
			}
		}
		if k.in.Name != word || len(k.in.Labels) != 1 || len(k.in.Tags) != 1 || k.in.Tags[0] != word {
			t.Errorf("call %d: input became %+v, want %+v", i, k.in, want)
		}
		if string(k.argsBytes) != k.args || string(k.metaBytes) != k.meta || !strings.Contains(k.args, word) || !strings.Contains(k.meta, word) {
			t.Errorf("call %d: arguments %s and _meta %s became %s and %s", i, k.args, k.meta, k.argsBytes, k.metaBytes)
		}
	}
}
