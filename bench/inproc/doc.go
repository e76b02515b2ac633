// Package inproc holds the in-process benchmarks of one tools/call: the
// mcpgen runtime, the official Go SDK and mcp-go, each answering the same
// request bytes for the same two tools. Run them with
//
//	go test -run '^$' -bench . -benchmem ./inproc
//
// Three rows share one framing: newline-delimited JSON-RPC over net.Pipe,
// read and written by the same allocation-free client loop. For mcpgen that
// is Server.Serve, its only public entry point; for go-sdk it is
// IOTransport over net.Pipe, which is exactly what NewInMemoryTransports
// builds (newIOConn over net.Pipe); for mcp-go it is StdioServer.Listen. A
// fourth row calls mcp-go's MCPServer.HandleMessage directly, with no
// transport at all, and encodes its answer with encoding/json, as mcp-go's
// own transports do.
package inproc
