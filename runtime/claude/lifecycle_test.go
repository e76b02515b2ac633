package claude_test

import (
	"context"
	"io"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/greet"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// TestFinishedConnReleased: once the CLI's output ends, the host's
// connection to each hosted Server is closed, so the Server no longer
// holds it. A long-running host shares one Server between many queries;
// a connection the Server kept would keep its control loop and every
// message it queued for the life of the process (hardening item 8).
//
// The test finishes a few connections, each with an initialized MCP
// session (one the Server sends list changes to), and waits until the
// garbage collector has freed every one of them.
func TestFinishedConnReleased(t *testing.T) {
	linepeer.CheckLeaks(t)
	srv := greet.NewServer()
	const conns = 3
	freed := make(chan int, conns)
	for i := range conns {
		hostIn, cliOut := io.Pipe()
		cliIn, hostOut := io.Pipe()
		cli := linepeer.New(t, cliIn, cliOut)
		cc := claude.NewControlConn(context.Background(), hostIn, hostOut, map[string]*runtime.Server{"demo_tools": srv}, nil)
		cli.Send(mcpMessage("i", "demo_tools", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.330"}}}`))
		cli.Take("the initialize answer", func(l []byte) bool { return responseID(l) == "i" })
		cli.Send(mcpMessage("n", "demo_tools", `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		cli.Take("the notification's answer", func(l []byte) bool { return responseID(l) == "n" })
		cliOut.Close() // the CLI exits
		<-cc.Done()
		hostOut.Close()
		<-cli.ReadDone
		goruntime.AddCleanup(cc, func(i int) { freed <- i }, i)
	}
	// A list change reaches every connection the Server still holds.
	srv.ResourceListChanged()

	deadline := time.After(linepeer.HangGuard)
	for n := 0; n < conns; {
		goruntime.GC()
		select {
		case <-freed:
			n++
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%d of %d finished connections are still held (by the Server they served)", conns-n, conns)
		}
	}
	goruntime.KeepAlive(srv) // the Server outlives its connections, as in a long-running host
}

// BenchmarkQueriesRetain runs one short conversation after another
// against one Server, as a long-running host does (the MCP handshake,
// tools/list, a tools/call and a few messages), and reports the heap
// still in use per finished conversation once the garbage collector has
// run: what a host keeps for each query it has answered.
func BenchmarkQueriesRetain(b *testing.B) {
	srv := greet.NewServer()
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	for b.Loop() {
		hostIn, cliOut := io.Pipe()
		cliIn, hostOut := io.Pipe()
		drained := make(chan struct{})
		go func() { io.Copy(io.Discard, cliIn); close(drained) }()
		cc := claude.NewControlConn(context.Background(), hostIn, hostOut, map[string]*runtime.Server{"demo_tools": srv}, nil)
		for _, line := range []string{
			mcpMessage("i", "demo_tools", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1.330"}}}`),
			mcpMessage("n", "demo_tools", `{"jsonrpc":"2.0","method":"notifications/initialized"}`),
			mcpMessage("l", "demo_tools", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
			`{"type":"system","subtype":"init","session_id":"s","tools":["mcp__demo_tools__greet"],"mcp_servers":[{"name":"demo_tools","status":"connected"}]}`,
			mcpMessage("c", "demo_tools", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Alice"}}}`),
			`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Hello, Alice! Welcome."}]}}`,
			`{"type":"result","subtype":"success","is_error":false,"result":"Hello, Alice! Welcome.","num_turns":2}`,
		} {
			io.WriteString(cliOut, line+"\n")
		}
		cliOut.Close()
		<-cc.Done()
		hostOut.Close()
		<-drained
	}
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(b.N), "retained-B/query")
	goruntime.KeepAlive(srv)
}
