package schema

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

func TestFillNulls(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","properties":{
		"tags":{"type":"array","items":{"type":"string"}},
		"counts":{"type":"object","additionalProperties":{"type":"integer"}},
		"maybe":{"type":["array","null"]},
		"any":true,
		"either":{"anyOf":[{"type":"array"},{"type":"object"}]},
		"items":{"type":"array","items":{"$ref":"#/$defs/Item"}},
		"byName":{"type":"object","additionalProperties":{"$ref":"#/$defs/Item"}}
	},"$defs":{"Item":{"type":"object","properties":{"subs":{"type":"array"}},"allOf":[{"properties":{"subs":{"type":"array"}}}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"tags":null,"counts":null}`, `{"tags":[],"counts":{}}`},
		{`{"maybe":null,"any":null,"either":null}`, `{"maybe":null,"any":null,"either":null}`},
		{`{"items":[{"subs":null},{"subs":[null]}],"byName":{"a":{"subs":null}}}`, `{"items":[{"subs":[]},{"subs":[null]}],"byName":{"a":{"subs":[]}}}`},
		{`{"tags":["a"]}`, `{"tags":["a"]}`},
	} {
		v, err := jsonvalue.Parse([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		got := string(s.FillNulls(v, []byte(c.in)))
		if got == "" {
			got = c.in
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}
