// Package runtime serves MCP tools: it holds the tools that mcpgen's
// generated code registers, validates every call's arguments against the
// schema the tool advertises, runs the handlers, and answers over stdio
// (Server.Serve), Streamable HTTP, or in-process to the Claude Code CLI.
//
// The package imports the standard library only, so a tool server built
// with mcpgen pulls in nothing else.
//
// A minimal server written by hand (mcpgen writes this registration for
// you from an annotated function):
//
//	s := &runtime.Server{Name: "demo", Version: "1.0.0"}
//	s.AddTool(&runtime.Tool{
//		Name:        "greet",
//		Description: "Greet a person by name.",
//		InputSchema: `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`,
//		Handler: func(ctx context.Context, req *runtime.Request) (*runtime.Result, error) {
//			var in struct{ Name string }
//			if err := req.Bind(&in); err != nil {
//				return nil, err
//			}
//			return runtime.TextResult("Hello, " + in.Name + "!"), nil
//		},
//	})
//	err := s.ServeStdio(ctx)
package runtime
