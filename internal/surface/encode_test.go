package surface

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestEncodeParse: a surface encoded and parsed back is the same surface,
// its schemas meaning the same, and the encoding is indented JSON that
// keeps <, > and & as they are.
func TestEncodeParse(t *testing.T) {
	yes := true
	s := &Surface{
		Format: Format,
		Server: Server{Name: "desk", Version: "1.2.0", Title: "Desk <beta>", Instructions: "Use \"search\" first.\nThen act."},
		Tools: []*Tool{{
			Name: "search", Description: "Finds & shows.", Annotations: &Annotations{ReadOnlyHint: &yes},
			Scopes: []string{"a", "b"}, TaskSupport: "optional", SearchHint: "find", AlwaysLoad: true,
			InputSchema:  Schema("{\n  \"type\": \"object\",\n  \"properties\": {\n    \"q\": {\n      \"type\": \"string\"\n    }\n  }\n}"),
			OutputSchema: Schema("{\n  \"type\": \"array\"\n}"),
		}},
		Resources:         []*Resource{{URI: "desk://board", Name: "board", MIMEType: "text/markdown", Scopes: []string{"r"}}},
		ResourceTemplates: []*ResourceTemplate{{URITemplate: "desk://t/{id}", Name: "t", Variables: []Argument{{Name: "id", Required: true, Type: "integer"}}}},
		Prompts:           []*Prompt{{Name: "triage", Arguments: []Argument{{Name: "status", Type: "string", Enum: []string{"open", "closed"}}}}},
		Skills:            []*Skill{{Name: "triage", Description: "Triage."}},
	}
	data := Encode(s)
	var indented bytes.Buffer
	if err := json.Indent(&indented, data, "", "  "); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	if !bytes.Contains(data, []byte(`"Desk <beta>"`)) || !bytes.Contains(data, []byte(`"Finds & shows."`)) {
		t.Errorf("<, > or & escaped:\n%s", data)
	}
	if !bytes.Contains(data, []byte("\n          \"q\": {\n")) {
		t.Errorf("the schema is not indented to its place:\n%s", data)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Comment != Header {
		t.Errorf("the first member is %q, want the header", back.Comment)
	}
	for _, tool := range append(back.Tools, s.Tools...) {
		tool.InputSchema, tool.OutputSchema = compact(t, tool.InputSchema), compact(t, tool.OutputSchema)
	}
	back.Comment = ""
	if !reflect.DeepEqual(back, s) {
		t.Errorf("parsed back:\n%+v\nwant\n%+v", back, s)
	}
	if _, err := Parse([]byte(`{"format": 2, "server": {"name": "x"}}`)); err == nil {
		t.Error("Parse read a snapshot of a later format")
	}
}

func compact(t *testing.T, raw Schema) Schema {
	if raw == "" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	return Schema(b.String())
}
