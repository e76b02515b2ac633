package served

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/testdata/golden/names_taken"
)

// TestNamesTaken serves the golden case whose package declares time,
// json, slog, runtime, mcpimpl, context, errors and strconv, and the
// generated functions' locals, at package level, and imports a package
// named v: its generated file imports those packages under other names,
// and what a client sees goes through each of them (a duration, a raw
// JSON value and a slog.Level decoded by their packages' rules, an
// output with a duration, a template variable of package v's type).
func TestNamesTaken(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev.name, func(t *testing.T) {
			c := names_taken.NewServer().NewConn(nil)
			rev.open(t, c)
			var res struct {
				StructuredContent json.RawMessage
				IsError           bool
			}
			args := `"name":"wait","arguments":{"delay":1500000000,"raw":{"a":[1]},"level":"WARN+1"}`
			if err := json.Unmarshal(call(t, c, rev.request(1, "tools/call", args)), &res); err != nil || res.IsError {
				t.Fatalf("tools/call wait: %v, isError %v", err, res.IsError)
			}
			if want := `{"waited":1500000000,"level":"WARN+1","raw":"{\"a\":[1]}"}`; string(res.StructuredContent) != want {
				t.Errorf("wait: structuredContent %s, want %s", res.StructuredContent, want)
			}

			var read struct {
				Contents []struct{ URI, Text string }
			}
			if err := json.Unmarshal(call(t, c, rev.request(2, "resources/read", `"uri":"echo://loud/2"`)), &read); err != nil {
				t.Fatal(err)
			}
			if len(read.Contents) != 1 || read.Contents[0].Text != "loudloud" {
				t.Errorf("echo://loud/2 reads %+v, want loudloud", read.Contents)
			}
			var refused struct {
				Error *struct{ Message string }
			}
			if err := json.Unmarshal(c.Handle(t.Context(), []byte(rev.request(3, "resources/read", `"uri":"echo://soft/2"`))), &refused); err != nil || refused.Error == nil {
				t.Errorf("echo://soft/2 is read, though soft is not a constant of v.Level (%v)", err)
			}
		})
	}
}
