package gen

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/invopop/jsonschema"
)

// TestEncodeSchemaMatchesInvopop holds encodeSchema to invopop's own
// serializer: same members, same order, same values.
func TestEncodeSchemaMatchesInvopop(t *testing.T) {
	n := uint64(3)
	props := jsonschema.NewProperties()
	props.Set("a", &jsonschema.Schema{Type: "string", MinLength: &n, Pattern: "^<a&b>$", Enum: []any{"x", "y"}, Default: "x", Examples: []any{"y"}, Description: "Uses <, > & \\u0026."})
	props.Set("b", &jsonschema.Schema{Type: "integer", Minimum: "0", Maximum: "10", MultipleOf: "2", ExclusiveMaximum: "11", Enum: []any{json.Number("1"), json.Number("2")}})
	props.Set("c", &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Ref: "#/$defs/D"}, MinItems: &n, MaxItems: &n, UniqueItems: true, Default: []any{"p", "q"}})
	props.Set("d", &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "boolean", Default: true}, {Type: "null"}}})
	props.Set("e", &jsonschema.Schema{})
	props.Set("f", &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Type: "number"}, Extras: map[string]any{"x-b": []string{"1", "2"}, "x-a": true}})
	props.Set("g", &jsonschema.Schema{Type: "string", Format: "date-time", ContentEncoding: "base64", Title: "G", ReadOnly: true, WriteOnly: true, Deprecated: true})
	s := &jsonschema.Schema{
		Version:              jsonschema.Version,
		Definitions:          jsonschema.Definitions{"D": {Type: "object", Properties: jsonschema.NewProperties(), AdditionalProperties: jsonschema.FalseSchema}, "C": {Type: "string"}},
		Properties:           props,
		AdditionalProperties: jsonschema.FalseSchema,
		Type:                 "object",
		Required:             []string{"a", "b"},
		Description:          "Root.",
	}
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var got, wantCompact []byte
	if got, err = compact(encodeSchema(s)); err != nil {
		t.Fatalf("encodeSchema wrote invalid JSON: %v\n%s", err, encodeSchema(s))
	}
	if wantCompact, err = compact(string(unescapeHTML(want))); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(wantCompact) {
		t.Errorf("encodeSchema:\n%s\ninvopop:\n%s", got, wantCompact)
	}
}

func compact(s string) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unescapeHTML undoes encoding/json's HTML escaping of <, > and & inside
// strings, leaving escaped backslashes alone.
func unescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+5 < len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1]) // any other escape, kept whole
		i++
	}
	return out
}
