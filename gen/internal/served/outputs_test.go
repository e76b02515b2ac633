// Package served tests generated code as the runtime serves it: what a
// client of each protocol revision sees of a golden case's tools. It has
// only test files, so nothing can import it.
package served

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/testdata/golden/outputs"
)

// A revision is how a client of one era talks to the server.
type revision struct {
	name string
	// open starts the client's connection.
	open func(t *testing.T, c *runtime.Conn)
	// request is a request of this era.
	request func(id int, method, params string) string
}

var revisions = []revision{
	{
		name: "2025-11-25",
		open: func(t *testing.T, c *runtime.Conn) {
			call(t, c, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		},
		request: func(id int, method, params string) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s}}`, id, method, params)
		},
	},
	{
		name: "2026-07-28",
		open: func(*testing.T, *runtime.Conn) {},
		request: func(id int, method, params string) string {
			if params != "" {
				params += ","
			}
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, method, params)
		},
	},
}

// call sends one request and returns its result.
func call(t *testing.T, c *runtime.Conn, req string) json.RawMessage {
	t.Helper()
	var resp struct {
		Result json.RawMessage
		Error  json.RawMessage
	}
	out := c.Handle(context.Background(), []byte(req))
	if err := json.Unmarshal(out, &resp); err != nil || resp.Result == nil {
		t.Fatalf("%s\n→ %s", req, out)
	}
	return resp.Result
}

// TestOutputsByRevision: a tool whose output is not a JSON object (a
// list, a number, a nil pointer) advertises the value's own schema and
// sends the value as it is to a 2026-07-28 client, and both wrapped as
// {"result": …} to a client of an earlier revision, which requires an
// object. For every tool and revision, the structured content validates,
// by an independent JSON Schema validator, against the output schema the
// same client was given.
func TestOutputsByRevision(t *testing.T) {
	want := map[string]map[string]string{ // tool → revision → structuredContent
		"slice":      {"2025-11-25": `{"result":[]}`, "2026-07-28": `[]`},
		"number":     {"2025-11-25": `{"result":0}`, "2026-07-28": `0`},
		"nil_number": {"2025-11-25": `{"result":null}`, "2026-07-28": `null`},
		"struct":     {"2025-11-25": `{"count":0}`, "2026-07-28": `{"count":0}`},
		"map":        {"2025-11-25": `{}`, "2026-07-28": `{}`},
	}
	for _, rev := range revisions {
		t.Run(rev.name, func(t *testing.T) {
			c := outputs.NewServer().NewConn(nil)
			rev.open(t, c)
			var list struct {
				Tools []struct {
					Name         string
					OutputSchema json.RawMessage
				}
			}
			if err := json.Unmarshal(call(t, c, rev.request(1, "tools/list", "")), &list); err != nil {
				t.Fatal(err)
			}
			checked := 0
			for i, tool := range list.Tools {
				if tool.OutputSchema == nil {
					continue
				}
				schema := compile(t, tool.Name, tool.OutputSchema)
				var res struct {
					StructuredContent json.RawMessage
					IsError           bool
				}
				if err := json.Unmarshal(call(t, c, rev.request(2+i, "tools/call", `"name":"`+tool.Name+`"`)), &res); err != nil || res.IsError {
					t.Fatalf("%s: %v, isError %v", tool.Name, err, res.IsError)
				}
				if w, ok := want[tool.Name]; ok && string(res.StructuredContent) != w[rev.name] {
					t.Errorf("%s: structuredContent %s, want %s", tool.Name, res.StructuredContent, w[rev.name])
				}
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(res.StructuredContent))
				if err != nil {
					t.Fatal(err)
				}
				if err := schema.Validate(inst); err != nil {
					t.Errorf("%s: the structured content %s does not match the advertised output schema %s: %v", tool.Name, res.StructuredContent, tool.OutputSchema, err)
				}
				var root struct{ Type any }
				json.Unmarshal(tool.OutputSchema, &root)
				if rev.name != "2026-07-28" && root.Type != "object" {
					t.Errorf("%s: the output schema's root is %v, not an object, for a client of %s: %s", tool.Name, root.Type, rev.name, tool.OutputSchema)
				}
				checked++
			}
			if checked < len(want) {
				t.Errorf("checked %d tools with an output schema, want at least %d", checked, len(want))
			}
		})
	}
}

func compile(t *testing.T, name string, schema json.RawMessage) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("mem:///"+name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///" + name)
	if err != nil {
		t.Fatalf("%s: the advertised output schema does not compile: %v\n%s", name, err, schema)
	}
	return s
}
