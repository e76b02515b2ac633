package gen

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/internal/surface"
)

// TestEncodeSurface: a snapshot read back with internal/surface's Parse,
// as mcpgen -breaking reads it, is the surface it was written from, its
// schemas meaning the same; and it is indented JSON that keeps <, > and &
// as they are.
func TestEncodeSurface(t *testing.T) {
	yes := true
	s := &surface.Surface{
		Format: surface.Format,
		Server: surface.Server{Name: "desk", Version: "1.2.0", Title: "Desk <beta>", Instructions: "Use \"search\" first.\nThen act."},
		Tools: []*surface.Tool{{
			Name: "search", Description: "Finds & shows.", Annotations: &surface.Annotations{ReadOnlyHint: &yes},
			Scopes: []string{"a", "b"}, TaskSupport: "optional", SearchHint: "find", AlwaysLoad: true,
			Icons:        []surface.Icon{{Src: "https://desk.example/i.png", MIMEType: "image/png", Sizes: []string{"48x48", "any"}, Theme: "dark"}, {Src: "https://desk.example/j.svg"}},
			UI:           &surface.ToolUI{ResourceURI: "ui://desk/board", Visibility: []string{"model", "app"}},
			InputSchema:  "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"q\": {\n      \"type\": \"string\"\n    }\n  }\n}",
			OutputSchema: "{\n  \"type\": \"array\"\n}",
		}},
		Resources: []*surface.Resource{{URI: "desk://board", Name: "board", MIMEType: "text/markdown", Scopes: []string{"r"}}, {
			URI: "ui://desk/board", Name: "view", MIMEType: "text/html;profile=mcp-app",
			UI: &surface.ResourceUI{ConnectDomains: []string{"https://api.desk.example"}, ResourceDomains: []string{"https://*.cdn.example"}, FrameDomains: []string{"https://f.example"}, BaseURIDomains: []string{"https://b.example"}, Permissions: []string{"camera"}, Domain: "x.example", PrefersBorder: &yes},
		}, {URI: "ui://desk/empty", Name: "empty", MIMEType: "text/html;profile=mcp-app", UI: &surface.ResourceUI{}}},
		ResourceTemplates: []*surface.ResourceTemplate{{URITemplate: "desk://t/{id}", Name: "t", Variables: []surface.Argument{{Name: "id", Required: true, Type: "integer"}}}},
		Prompts:           []*surface.Prompt{{Name: "triage", Arguments: []surface.Argument{{Name: "status", Type: "string", Enum: []string{"open", "closed"}}}}},
		Skills:            []*surface.Skill{{Name: "triage", Description: "Triage."}},
	}
	data := encodeSurface(s)
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
	back, err := surface.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Comment != surface.Header {
		t.Errorf("the first member is %q, want the header", back.Comment)
	}
	for _, tool := range append(back.Tools, s.Tools...) {
		tool.InputSchema, tool.OutputSchema = compactSchema(t, tool.InputSchema), compactSchema(t, tool.OutputSchema)
	}
	back.Comment = ""
	if !reflect.DeepEqual(back, s) {
		t.Errorf("parsed back:\n%+v\nwant\n%+v", back, s)
	}
	if _, err := surface.Parse([]byte(`{"format": 2, "server": {"name": "x"}}`)); err == nil {
		t.Error("Parse read a snapshot of a later format")
	}
}

func compactSchema(t *testing.T, s surface.Schema) surface.Schema {
	if s == "" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return surface.Schema(b.String())
}
