// Package runtime serves MCP tools, resources and prompts. It holds what
// a program registers (mcpgen's generated Register does it for annotated
// functions), validates every call's arguments against the schema the
// tool advertises, runs the handlers, and answers over stdio
// (Server.Serve, Server.ServeStdio), over Streamable HTTP
// (Server.HTTPHandler, Server.ListenAndServeHTTP), or over a transport of
// your own (Conn). It speaks every revision of the protocol at once: a
// client that begins with initialize gets the session revision it
// negotiates (2024-11-05 to 2025-11-25), and a request that carries its
// revision in params._meta is served under 2026-07-28.
//
// Start with Server. A package mcpgen generated code for has NewServer, which
// returns a *Server with the package's tools, resources and prompts, and
// Register, which adds them to a Server of your own; a tool written by
// hand is a Tool added with Server.AddTool (see the example below). Then
// serve it: Server.ServeStdio for a client that starts the program,
// Server.ListenAndServeHTTP for clients that connect to it, with
// HTTPOptions (sessions, allowed hosts, Authorization for OAuth access
// tokens); Server.HTTPHandler when the program runs its own http.Server.
//
// A handler learns about its request from its context: ReportProgress
// sends progress to a client that asked for it, Logger returns a
// *slog.Logger whose records go to the client as log messages, and
// TokenInfoFromContext returns the verified token of an HTTP request.
//
// # Asking the client
//
// A handler asks the client of its request questions with these
// functions, and gets the answers back:
//
//   - Elicit asks the user to fill a form given as JSON Schema text;
//     ElicitForm does it for a struct type marked //mcp:form.
//   - ElicitURL sends the user to a URL, and ElicitURLDone says that the
//     interaction there has ended.
//   - Sample asks the client's model for a message (SampleRequest,
//     SampleResult).
//   - Roots asks for the client's roots.
//   - Ask asks several questions (ElicitQuestion, ElicitURLQuestion,
//     SampleQuestion, RootsQuestion) at once.
//
// A client that did not declare what a question needs makes it fail at
// once with ErrNotSupported. Under revision 2025-11-25 and older each
// waits for its answer; under 2026-07-28 one whose answer is not there
// yet returns ErrInputRequired, which the handler returns: the client
// calls again with the answers, and the handler runs again from the
// start.
//
// # Beside this package
//
// runtime/runtimetest tests a Server in process, as net/http/httptest
// tests a handler. runtime/claude hosts servers in-process inside a
// Claude Code CLI session, as the Agent SDKs do. runtime/store is what
// Server.Store takes: the store that the replicas of a server share (a
// store adapter imports it, and nothing else of the runtime).
// runtime/mcpimpl holds the support that mcpgen's generated code calls;
// nothing else should import it.
//
// The runtime imports the standard library only, so a tool server built
// with mcpgen pulls in nothing else.
//
// # The life of a request
//
// Every request goes through the same stages, whatever its transport and
// revision:
//
//  1. A transport reads a message (a line for Server.Serve, a POST's body
//     for Server.HTTPHandler, whose bytes count against the server's bounds
//     as they arrive, what a Conn is handed), holding its bytes in the
//     server's admission, parses it once into a tree, and looks up, once,
//     its method in the method table and, for a tools/call, its Tool.
//  2. The session that serves the client starts a call: what a request of
//     2026-07-28 declares in its _meta is read, and a request that runs a
//     handler of the program's is registered for cancellation.
//  3. Dispatch (through the server's Middleware, when it has any) checks
//     that the request's revision has the method and that the server
//     offers what it belongs to, and calls the method: a tools/call
//     validates the arguments against its tool's input schema.
//  4. The handler runner runs the program's handler (a ToolHandler,
//     PromptHandler, ResourceHandler or CompleteHandler): the round of a
//     request that asks the client, a running slot (MaxInFlight), the
//     deadline, panic recovery, and the questions the handler left open.
//  5. The method returns a response by value, a typed result (such as a
//     *ToolResult) or a JSON-RPC error, which the transport encodes once,
//     with what the request's revision adds, and from which it derives
//     the HTTP status.
//
// Notifications that belong to no request (AddTool's list change,
// Server.ResourceUpdated) go out through one fan-out to every session and
// open subscriptions/listen request that wants them.
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
