// Package runtimetest tests an MCP server built on package runtime in
// process, as net/http/httptest tests an http.Handler: a Client speaks
// MCP to a *runtime.Server through a runtime.Conn, with no pipe, port or
// process between them, and gives back what the server answered as the
// runtime's own types (a *runtime.ToolResult, a *runtime.PromptResult, a
// *runtime.ResourceResult), so that a test reads what the client of a
// model would read.
//
// Start with NewClient in a test (Connect outside one) and Client.CallTool:
//
//	func TestCreateTicket(t *testing.T) {
//		c := runtimetest.NewClient(t, tickets.NewServer(), nil)
//		in := tickets.CreateTicketInput{Title: "Crash", Description: "It crashes.", Kind: tickets.Bug}
//		res, err := c.CallTool(t.Context(), "create_ticket", in)
//		if err != nil {
//			t.Fatal(err)
//		}
//		if got := runtimetest.Text(res); got != "Ticket 'Crash' created successfully (ID: TKT-42)" {
//			t.Errorf("create_ticket: %s", got)
//		}
//	}
//
// The arguments are encoded with encoding/json, so the tool's own input
// struct, a map or a json.RawMessage (for arguments a model might get
// wrong) all do. A failure of the tool is a result with IsError set, as
// the model sees it; a failure of the protocol (an unknown tool, a
// missing prompt argument) is an error that errors.As finds as a
// *runtime.ProtocolError with its JSON-RPC code.
//
// A handler that asks the client (runtime.Elicit, runtime.Sample,
// runtime.Roots) gets its answer from the functions in Options: each is
// given the runtime's own question, as the server sent it, and fills in
// the answer. The client declares a capability for each function that is
// set, and no other.
//
// A Client speaks one protocol revision, Options.Revision, which a test
// should try in both forms (see SessionRevision and RequestRevision): in
// the first the client begins with initialize and the server asks its
// questions as requests of its own; in the second each request carries
// its revision and the client's capabilities, and a handler that asks
// ends its call with the questions, which the client answers by calling
// again. A handler's code is the same in both, and so should a test's be.
//
// The package imports only the standard library and package runtime.
package runtimetest
