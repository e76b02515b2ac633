package mcpimpl

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

type report struct {
	Count int `json:"count"`
}

// TestStructuredNil: a nil map is sent as null, for the runtime to turn
// into {}; a nil pointer is an error that names its type, not an object
// missing its required fields.
func TestStructuredNil(t *testing.T) {
	if res, err := Structured(map[string]int(nil)); err != nil || string(res.StructuredContent.(json.RawMessage)) != "null" {
		t.Errorf("nil map: %v, %v", res, err)
	}
	_, err := Structured((*report)(nil))
	if err == nil || !strings.Contains(err.Error(), "returned a nil *mcpimpl.report and no error") {
		t.Errorf("nil pointer: %v", err)
	}
	res, err := Structured(&report{Count: 2})
	if err != nil || string(res.StructuredContent.(json.RawMessage)) != `{"count":2}` {
		t.Errorf("pointer: %v, %v", res, err)
	}
}

// TestStructuredValue: an output that is not an object is sent as it is,
// a nil pointer as null, with the same JSON in a text block; the runtime,
// not the generated code, wraps it for clients of older revisions.
func TestStructuredValue(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{[]int{2, 3, 5}, `[2,3,5]`},
		{(*int)(nil), `null`},
		{7.5, `7.5`},
		{[]string(nil), `null`},
	} {
		res, err := StructuredValue(c.v)
		if err != nil || string(res.StructuredContent.(json.RawMessage)) != c.want || len(res.Content) != 1 || res.Content[0].(runtime.TextContent).Text != c.want {
			t.Errorf("StructuredValue(%#v) = %+v, %v; want %s", c.v, res, err, c.want)
		}
	}
}
