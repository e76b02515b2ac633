package mcpimpl

import (
	"encoding/json"
	"strings"
	"testing"
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
