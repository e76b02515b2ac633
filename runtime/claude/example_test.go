package claude_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/mcpgen/mcpgen/examples/tickets"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// Query runs one prompt through the Claude Code CLI with the tools of a
// server hosted in this process: the model sees them as
// mcp__cci__create_ticket. The example needs the CLI (claude in PATH) and
// its login, so it is compiled but not run here; the host example of
// docs/claude.md, the same code, runs against the real CLI in the tests.
func ExampleQuery() {
	ctx := context.Background()
	res, err := claude.Query(ctx, "Create a ticket for the login crash", claude.Options{
		Servers:      map[string]*runtime.Server{"cci": tickets.NewServer()},
		AllowedTools: []string{"mcp__cci__create_ticket"},
	}, func(m claude.Message) {
		if a, ok := m.(*claude.AssistantMessage); ok {
			for _, b := range a.Message.Content {
				if b.Type == "tool_use" {
					fmt.Printf("calls %s %s\n", b.Name, b.Input)
				}
			}
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Result)
}

// CanUseTool decides, for every tool call that AllowedTools does not
// already allow, whether it may run, possibly with changed input. Here
// tickets may be filed only with the "triage" label added.
func ExampleOptions_canUseTool() {
	opts := claude.Options{
		Servers: map[string]*runtime.Server{"cci": tickets.NewServer()},
		CanUseTool: func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
			if req.ToolName != "mcp__cci__create_ticket" {
				return claude.PermissionResult{Message: "only tickets may be filed here"}, nil
			}
			var in map[string]any
			if err := json.Unmarshal(req.Input, &in); err != nil {
				return claude.PermissionResult{}, err
			}
			labels, _ := in["labels"].([]any)
			in["labels"] = append(labels, "triage")
			changed, err := json.Marshal(in)
			if err != nil {
				return claude.PermissionResult{}, err
			}
			return claude.PermissionResult{Allow: true, UpdatedInput: changed}, nil
		},
	}
	s, err := claude.Start(context.Background(), opts)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Send(ctx, "File a bug: the app crashes on save"); err != nil {
		log.Fatal(err)
	}
	for m, err := range s.Messages(ctx) {
		if err != nil {
			log.Fatal(err)
		}
		if r, ok := m.(*claude.ResultMessage); ok {
			fmt.Println(strings.TrimSpace(r.Result))
			break
		}
	}
}
