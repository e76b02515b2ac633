package main

// The Go blocks of docs/claude.md on permissions, hooks, structured
// output, subagents and sessions are regions of this file (and Reply's
// of main.go), woven in by internal/docs/weave, so that they compile here
// as written, in a package with a generated NewServer. They are not run:
// each needs the Claude Code CLI and a model.

import (
	"context"
	"log"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

var (
	_ = docsOptions
	_ = docsStructuredOutput
	_ = docsSessions
)

// docsOptions sets the options the pages show, one region each.
func docsOptions() claude.Options {
	var opts claude.Options
	//docs:begin permissions
	opts.CanUseTool = func(ctx context.Context, req claude.PermissionRequest) (claude.PermissionResult, error) {
		if req.MCPServer == nil || req.MCPServer.Source != "sdk" { // not one of ours
			return claude.PermissionResult{Message: "only our own tools here"}, nil
		}
		// Allow, and write the CLI's suggested rule (e.g. to
		// .claude/settings.local.json): no more questions for this tool.
		return claude.PermissionResult{Allow: true, UpdatedPermissions: req.Suggestions}, nil
	}
	//docs:end permissions

	//docs:begin hooks
	opts.Hooks = map[claude.HookEvent][]claude.HookMatcher{
		claude.HookPreToolUse: {{
			Matcher: "Bash|mcp__cci__.*", // a regular expression for the whole tool name
			Timeout: 10 * time.Second,
			Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
				call := in.(*claude.PreToolUseInput)
				if call.ToolName == "Bash" {
					return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
						PermissionDecision:       claude.HookDeny,
						PermissionDecisionReason: "no shell here", // the model reads this
					}}, nil
				}
				return claude.HookOutput{}, nil
			}},
		}},
		claude.HookPostToolUse: {{Hooks: []claude.HookFunc{func(ctx context.Context, in claude.HookInput) (claude.HookOutput, error) {
			return claude.HookOutput{HookSpecificOutput: &claude.HookSpecificOutput{
				AdditionalContext: "Filed tickets are triaged within a day.",
			}}, nil
		}}}},
	}
	//docs:end hooks

	//docs:begin agents
	opts.Agents = map[string]claude.AgentDefinition{
		"triager": {
			Description: "Files and labels tickets",
			Prompt:      "You file tickets. Label every ticket.",
			Tools:       []string{"mcp__cci__create_ticket"},
			Model:       "haiku",
		},
	}
	//docs:end agents
	return opts
}

// docsStructuredOutput asks for a Reply, the //mcp:output type of main.go.
func docsStructuredOutput(ctx context.Context) Reply {
	//docs:begin structured
	res, err := claude.Query(ctx, "Where is order A-1001?", claude.Options{
		Servers:    map[string]*runtime.Server{"orders": NewServer()},
		OutputType: Reply{},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	var r Reply
	if err := res.DecodeStructuredOutput(&r); err != nil {
		log.Fatal(err) // wraps claude.ErrNoStructuredOutput if the model gave none
	}
	//docs:end structured
	return r
}

// docsSessions resumes a session kept in a SessionStore.
func docsSessions(ctx context.Context, store claude.SessionStore) (*claude.Session, error) {
	//docs:begin sessions
	res, err := claude.Query(ctx, "Where is my order A-1001?", claude.Options{
		Servers:      map[string]*runtime.Server{"orders": NewServer()},
		SessionStore: store, // your SessionStore
	}, nil)
	// … later, anywhere with the same store and Dir:
	s, err := claude.Start(ctx, claude.Options{SessionStore: store, Resume: res.SessionID})
	//docs:end sessions
	return s, err
}
