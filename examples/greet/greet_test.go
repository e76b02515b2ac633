package greet_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/greet"
	"github.com/mcpgen/mcpgen/runtime/runtimetest"
)

//docs:begin test

// TestGreet calls greet in process, as a client would, under both forms
// of the protocol: with its input struct, and without the name its
// schema requires.
func TestGreet(t *testing.T) {
	for _, rev := range []string{runtimetest.SessionRevision, runtimetest.RequestRevision} {
		t.Run(rev, func(t *testing.T) {
			c := runtimetest.NewClient(t, greet.NewServer(), &runtimetest.Options{Revision: rev})
			res, err := c.CallTool(t.Context(), "greet", greet.GreetInput{Name: "Ada"})
			if err != nil || res.IsError || runtimetest.Text(res) != "Hello, Ada! Welcome." {
				t.Errorf("greet: %q, %v", runtimetest.Text(res), err)
			}
			res, err = c.CallTool(t.Context(), "greet", nil)
			if err != nil || !res.IsError || !strings.Contains(runtimetest.Text(res), "name: is required") {
				t.Errorf("greet without a name: %q, %v", runtimetest.Text(res), err)
			}
		})
	}
}

//docs:end test
