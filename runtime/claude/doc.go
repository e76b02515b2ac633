// Package claude runs the Claude Code CLI with MCP servers of this process
// in it, the way the Python and TypeScript Agent SDKs host "sdk" servers:
// it starts the CLI, speaks the Agent SDK control protocol on the CLI's
// stdin and stdout, answers the CLI's MCP messages for the hosted
// *runtime.Server values in this process, and hands the conversation to
// the caller as typed messages.
//
// Query runs one prompt and returns its result. Start returns a Session
// for a conversation: Send user turns, read messages with Receive or
// Messages, Interrupt a turn, and Close the session. Options.CanUseTool
// answers the CLI's permission checks.
//
// Every control request from the CLI is answered, concurrently, and
// exactly once; a CLI that exits is reported as a *CLIError with the end
// of its standard error.
package claude
