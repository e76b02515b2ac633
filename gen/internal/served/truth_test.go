package served

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/testdata/golden/defaults"
	"github.com/mcpgen/mcpgen/testdata/golden/json_methods"
	"github.com/mcpgen/mcpgen/testdata/golden/map_keys"
)

// toolCall calls a tool over a fresh connection of the newest revision
// and returns its result.
func toolCall(t *testing.T, s *runtime.Server, name, args string) (res struct {
	Content           []struct{ Text string }
	StructuredContent json.RawMessage
	IsError           bool
}) {
	t.Helper()
	c := s.NewConn(nil)
	rev := revisions[1]
	rev.open(t, c)
	if err := json.Unmarshal(call(t, c, rev.request(1, "tools/call", `"name":"`+name+`","arguments":`+args)), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestDefaultsApplied: an optional argument the client leaves out reaches
// the handler as its advertised default (a time.Duration's written 30s),
// inside an object that is sent too; one that is sent keeps its value.
func TestDefaultsApplied(t *testing.T) {
	for _, c := range []struct {
		args string
		want defaults.Input
	}{
		{`{"query":"q"}`, defaults.Input{Query: "q", Page: 1, Timeout: 30 * time.Second}},
		{`{"query":"q","page":3,"timeout":5}`, defaults.Input{Query: "q", Page: 3, Timeout: 5}},
		{`{"query":"q","filter":{}}`, defaults.Input{Query: "q", Page: 1, Timeout: 30 * time.Second,
			Filter: &defaults.Filter{Limit: 20, Order: defaults.Newest, Sizes: []int{9, 18}, Exact: true}}},
		{`{"query":"q","filter":{"limit":5,"exact":false}}`, defaults.Input{Query: "q", Page: 1, Timeout: 30 * time.Second,
			Filter: &defaults.Filter{Limit: 5, Order: defaults.Newest, Sizes: []int{9, 18}}}},
	} {
		res := toolCall(t, defaults.NewServer(), "search", c.args)
		var got defaults.Input
		if err := json.Unmarshal(res.StructuredContent, &got); res.IsError || err != nil {
			t.Fatalf("%s: %+v %v", c.args, res, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: the handler got %+v, want %+v", c.args, got, c.want)
		}
	}
}

// TestRawNull: json.RawMessage given null holds "null", as encoding/json
// gives it, in a field, a map value and a list element.
func TestRawNull(t *testing.T) {
	res := toolCall(t, json_methods.NewServer(), "keep", `{"value":null,"map":{"a":null,"b":1},"list":[null,2]}`)
	if res.IsError {
		t.Fatalf("%+v", res)
	}
	var want json_methods.Raw
	json.Unmarshal([]byte(`{"value":null,"map":{"a":null,"b":1},"list":[null,2]}`), &want)
	if !reflect.DeepEqual(json_methods.LastRaw, want) {
		t.Errorf("the handler got %#v, want %#v (encoding/json's)", json_methods.LastRaw, want)
	}
}

// TestJSONMethods: types read and written through their own methods take
// and give what those methods do: a level's name, a date-time through an
// embedded time.Time, a stated schema; a zero output, written through the
// same methods, passes its own output schema.
func TestJSONMethods(t *testing.T) {
	good := `{"level":"warn","when":"2026-11-27T10:00:00Z","version":"v3","big":123456789012345678901234567890,"ratio":"1.5","slog":"WARN+2","addr":"::1"}`
	for _, tool := range []string{"inspect", "inspect_pointer"} {
		if res := toolCall(t, json_methods.NewServer(), tool, good); res.IsError {
			t.Errorf("%s %s: %+v", tool, good, res)
		}
	}
	for args, want := range map[string]string{
		`{"level":1,"when":"2026-11-27T10:00:00Z","version":"v3"}`:                "level: must be a string",
		`{"level":"warn","when":{},"version":"v3"}`:                               "when: must be a string",
		`{"level":"warn","when":"2026-11-27T10:00:00Z","version":"3"}`:            `version: must match the pattern`,
		`{"level":"warn","when":"2026-11-27T10:00:00Z","version":"v3","big":1.5}`: "big: must be an integer",
	} {
		res := toolCall(t, json_methods.NewServer(), "inspect", args)
		if !res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, want) {
			t.Errorf("inspect %s: %+v, want an error saying %q", args, res, want)
		}
	}
	if res := toolCall(t, json_methods.NewServer(), "current", `{}`); res.IsError || string(res.StructuredContent) != `"1.2"` {
		t.Errorf("current: %+v, want the string \"1.2\"", res)
	}
}

// TestIntegerMapKeys: an object whose names are integers in decimal, as
// strconv reads them, fills a map with integer keys; other names are
// refused before the handler runs.
func TestIntegerMapKeys(t *testing.T) {
	for args, ok := range map[string]bool{
		`{"byID":{"1":"a","-2":"b","+3":"c","04":"d"}}`: true,
		`{"byCount":{"65535":true}}`:                    true,
		`{"byColor":{"red":1}}`:                         true,
		`{"byAddr":{"::1":1,"10.0.0.1":2}}`:             true,
		`{"byID":{"x":"a"}}`:                            false,
		`{"byCount":{"-1":true}}`:                       false,
		`{"byColor":{"green":1}}`:                       false,
	} {
		res := toolCall(t, map_keys.NewServer(), "index", args)
		if res.IsError == ok {
			t.Errorf("index %s: %+v, want accepted %v", args, res, ok)
		}
	}
}
