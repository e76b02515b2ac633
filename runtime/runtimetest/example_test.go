package runtimetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/runtimetest"
)

// greetServer has one tool, greet, written by hand (mcpgen generates
// this registration from an annotated function): it greets the person
// its arguments name, and asks the user for a name when they name none.
func greetServer() *runtime.Server {
	s := &runtime.Server{Name: "demo", Version: "1.0.0"}
	s.AddTool(&runtime.Tool{
		Name:        "greet",
		Description: "Greet a person by name.",
		InputSchema: `{"type":"object","properties":{"name":{"type":"string"}},"additionalProperties":false}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			var in struct{ Name string }
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			if in.Name == "" {
				action, content, err := runtime.Elicit(ctx, "Whom should I greet?", `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)
				if err != nil {
					return nil, err
				}
				if action != runtime.ElicitAccept {
					return runtime.TextResult("Hello, whoever you are!"), nil
				}
				if err := json.Unmarshal(content, &in); err != nil {
					return nil, err
				}
			}
			return runtime.TextResult("Hello, " + in.Name + "!"), nil
		},
	})
	return s
}

// A test calls a tool as a client would, and reads the runtime's own
// result. In a test, NewClient(t, srv, nil) connects and fails the test
// instead of returning an error, and closes the client when the test
// ends.
func Example() {
	ctx := context.Background()
	c, err := runtimetest.Connect(ctx, greetServer(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.CallTool(ctx, "greet", map[string]string{"name": "Ada"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(runtimetest.Text(res))

	// Arguments that do not fit the tool's schema are a failed result,
	// which the model reads.
	res, err = c.CallTool(ctx, "greet", map[string]any{"name": 42})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError, runtimetest.Text(res))

	// An unknown tool is an error of the protocol.
	_, err = c.CallTool(ctx, "wave", nil)
	var pe *runtime.ProtocolError
	fmt.Println(errors.As(err, &pe), pe.Code)
	// Output:
	// Hello, Ada!
	// true invalid arguments for tool greet:
	// - name: must be a string; got 42
	// true -32602
}

// A handler that asks the client gets its answer from the test, with the
// same code under both forms of the protocol: here the client accepts the
// form with a name.
func ExampleOptions() {
	ctx := context.Background()
	srv := greetServer()
	for _, rev := range []string{runtimetest.SessionRevision, runtimetest.RequestRevision} {
		c, err := runtimetest.Connect(ctx, srv, &runtimetest.Options{
			Revision: rev,
			Elicit: func(ctx context.Context, q *runtime.ElicitQuestion) error {
				fmt.Printf("%s: the server asks %q\n", rev, q.Message)
				q.Action, q.Content = runtime.ElicitAccept, json.RawMessage(`{"name":"Grace"}`)
				return nil
			},
		})
		if err != nil {
			log.Fatal(err)
		}
		res, err := c.CallTool(ctx, "greet", nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s\n", rev, runtimetest.Text(res))
		c.Close()
	}
	// Output:
	// 2025-11-25: the server asks "Whom should I greet?"
	// 2025-11-25: Hello, Grace!
	// 2026-07-28: the server asks "Whom should I greet?"
	// 2026-07-28: Hello, Grace!
}
