// Package claude runs the Claude Code CLI with MCP servers of this process
// in it, the way the Python and TypeScript Agent SDKs host "sdk" servers:
// it starts the CLI, speaks the Agent SDK control protocol on the CLI's
// stdin and stdout, answers the CLI's MCP messages for the hosted
// *runtime.Server values in this process, and hands the conversation to
// the caller as typed messages.
//
// # Where to start
//
// Three names are the way in; most of the package's other names are the
// types of what they take and give back (messages, hook inputs, the
// answers of control requests).
//
//   - Query runs one prompt and returns its result, a *ResultMessage (go
//     doc lists Query under ResultMessage).
//   - Start returns a Session for a conversation (go doc lists Start
//     under Session): Send user turns, read messages with Receive or
//     Messages, and Close the session. While it runs, the Session's
//     methods send the Agent SDKs' control requests (Interrupt, SetModel,
//     SetPermissionMode, MCPStatus, RewindFiles, …), each with a typed
//     answer.
//   - Options, which both take, say what the CLI is started with
//     (Options.Servers: the *runtime.Server values it gets as MCP servers)
//     and what the host answers.
//
// Among the Options, CanUseTool decides the CLI's permission checks,
// Hooks are called at the events of the session with a Go type per event,
// OnElicitation answers the questions of MCP servers the CLI connects to
// itself, Agents define subagents, and OutputType asks for the result as
// a Go type whose JSON Schema mcpgen generates (//mcp:output).
//
// The session functions (ListSessions, GetSessionMessages, ForkSession,
// …) read and change the sessions the CLI keeps, in its files or in a
// SessionStore, which Options.SessionStore also mirrors a running
// session into.
//
// Every control request from the CLI is answered, concurrently, and
// exactly once; one the host does not know gets the TypeScript SDK's
// error. A message type the package does not know reaches the caller as
// an *OtherMessage. A CLI that exits, or that the host stopped (Start's
// ctx ended, Options.InitializeTimeout passed), is reported as a
// *CLIError with the end of its standard error; one that refused to
// start (a managed policy forbids what it was asked to load, say), as a
// *StartupError that names the reason. A run that failed still ends with
// a *ResultMessage: its Err method says why.
package claude
