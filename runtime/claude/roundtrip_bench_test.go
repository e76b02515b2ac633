package claude_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/tickets"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// BenchmarkControlRoundTrip is one tools/call of an in-process server
// through the host's control loop, as the CLI sends it: an mcp_message
// control_request on the host's stdin, its control_response read back,
// one at a time over pipes. It measures the host's own work per round
// trip: parsing the control line, handing the MCP message to the server,
// and writing the answer.
func BenchmarkControlRoundTrip(b *testing.B) {
	hostIn, cliOut := io.Pipe()
	cliIn, hostOut := io.Pipe()
	cc := claude.NewControlConnOptions(context.Background(), hostIn, hostOut,
		claude.Options{Servers: map[string]*runtime.Server{"cci": tickets.NewServer()}})
	r := bufio.NewReader(cliIn)
	line := []byte(`{"type":"control_request","request_id":"r1","request":{"subtype":"mcp_message","server_name":"cci","message":` +
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash on save","description":"The app crashes when saving","kind":"bug","labels":["ui","p1"]}}}}}` + "\n")
	call := func() string {
		cliOut.Write(line)
		resp, err := r.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	if got := call(); !strings.Contains(got, `"mcp_response":{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Ticket 'Crash on save' created`) {
		b.Fatalf("unexpected answer %s", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		call()
	}
	b.StopTimer()
	cliOut.Close()
	<-cc.Done()
	hostOut.Close()
}
