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

// TestFillDefaults: members left out get their defaults, in objects that
// are there (a nested object left out stays out), through $ref and allOf
// once each; members that are sent, null included, keep their value.
func TestFillDefaults(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","properties":{
		"limit":{"type":"integer","default":10},
		"order":{"type":"string","default":"asc"},
		"tags":{"type":"array","items":{"$ref":"#/$defs/Tag"}},
		"nested":{"$ref":"#/$defs/Tag"},
		"plain":{"type":"string"}
	},"$defs":{"Tag":{"type":"object","properties":{"weight":{"type":"number","default":1.5}},"allOf":[{"properties":{"weight":{"default":1.5},"shown":{"default":true}}}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !s.HasDefaults() {
		t.Fatal("HasDefaults is false")
	}
	for _, c := range []struct{ in, want string }{
		{`{}`, `{"limit":10,"order":"asc"}`},
		{` { } `, `{ "limit":10,"order":"asc"}`},
		{`{"limit":3}`, `{"limit":3,"order":"asc"}`},
		{`{"limit":null,"order":"desc"}`, ``},
		{`{"limit":1,"order":"x","tags":[{},{"weight":2}]}`, `{"limit":1,"order":"x","tags":[{"weight":1.5,"shown":true},{"weight":2,"shown":true}]}`},
		{`{"limit":1,"order":"x","nested":{}}`, `{"limit":1,"order":"x","nested":{"weight":1.5,"shown":true}}`},
		{`{"limit":1,"order":"x"}`, ``},
	} {
		v, err := jsonvalue.Parse([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		got := string(s.FillDefaults(v))
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
		if got != "" {
			if _, err := jsonvalue.Parse([]byte(got)); err != nil {
				t.Errorf("%s: filled %s is not JSON: %v", c.in, got, err)
			}
		}
	}
	plain, _ := Compile([]byte(`{"type":"object","properties":{"a":{"type":"string"}}}`))
	if plain.HasDefaults() {
		t.Error("HasDefaults of a schema without defaults is true")
	}
}

// TestFillDefaultsInPlace: the arguments are a part of a larger message;
// the filled text is theirs alone.
func TestFillDefaultsInPlace(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","properties":{"n":{"type":"integer","default":7}}}`))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := jsonvalue.Parse([]byte(`{"jsonrpc":"2.0","params":{"arguments":{"m":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	args := msg.Get("params").Get("arguments")
	if got := string(s.FillDefaults(args)); got != `{"m":1,"n":7}` {
		t.Errorf("got %s", got)
	}
}

// TestTitledEnum: a oneOf of titled constants (mcpgen's integer enums)
// validates as the enum it is, and its message names the values.
func TestTitledEnum(t *testing.T) {
	s, err := Compile([]byte(`{"type":"integer","oneOf":[{"const":1,"title":"Low"},{"const":2,"title":"High","description":"urgent"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   string
		want string
	}{
		{`1`, ""},
		{`2`, ""},
		{`3`, "must be one of 1 (Low), 2 (High); got 3"},
		{`"1"`, `must be an integer; got "1"`},
	} {
		v, _ := jsonvalue.Parse([]byte(c.in))
		vs := s.Validate(v)
		got := ""
		if len(vs) > 0 {
			got = vs[0].Msg
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.in, got, c.want)
		}
	}
	// Not titled, or not distinct: a oneOf as written.
	for _, text := range []string{
		`{"oneOf":[{"const":1},{"const":2,"title":"B"}]}`,
		`{"oneOf":[{"const":1,"title":"A"},{"const":1,"title":"B"}]}`,
		`{"oneOf":[{"const":1,"title":"A","minimum":0},{"const":2,"title":"B"}]}`,
	} {
		s, err := Compile([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if s.oneOf == nil || s.enumNames != nil {
			t.Errorf("%s compiled as a titled enum", text)
		}
	}
}
