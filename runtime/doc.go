// Package runtime serves MCP tools. It holds the tools that a program
// registers (mcpgen's generated Register does it for annotated
// functions), validates every call's arguments against the schema the tool
// advertises, runs the handlers, and answers over stdio (Server.Serve,
// Server.ServeStdio), over Streamable HTTP (Server.HTTPHandler,
// Server.ListenAndServeHTTP), or over a transport of your own (Conn).
//
// A handler learns about its call from its context: ReportProgress sends
// progress to a client that asked for it, and Logger returns a
// *slog.Logger whose records go to the client as log messages.
//
// Two packages sit beside this one. runtime/claude hosts servers
// in-process inside a Claude Code CLI session, as the Agent SDKs do.
// runtime/mcpimpl holds the support that mcpgen's generated code calls;
// nothing else should import it.
//
// The runtime imports the standard library only, so a tool server built
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
//		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
//			var in struct{ Name string }
//			if err := req.Bind(&in); err != nil {
//				return nil, err
//			}
//			return runtime.TextResult("Hello, " + in.Name + "!"), nil
//		},
//	})
//	err := s.ServeStdio(ctx)
package runtime
