package runtime_test

import (
	"bufio"
	"context"
	"io"
	"testing"

	"github.com/mcpgen/mcpgen/examples/tickets"
)

var createTicket = []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash on save","description":"The app crashes when saving","kind":"bug","labels":["ui","p1"]}}}`)

const createTicketReply = `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Ticket 'Crash on save' created successfully (ID: TKT-42)"}]}}`

// BenchmarkCall is one tools/call through dispatch, in-process: decode,
// validate the arguments against the schema, decode them into the Go
// input, run the generated handler, encode the result.
func BenchmarkCall(b *testing.B) {
	s := tickets.NewServer()
	conn := s.NewConn(nil)
	ctx := context.Background()
	if got := string(conn.Handle(ctx, createTicket)); got != createTicketReply {
		b.Fatalf("unexpected reply %s", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		conn.Handle(ctx, createTicket)
	}
}

// callAllocations is the allocation budget of one tools/call through a
// Conn, BenchmarkCall's: a change that adds one to every call must say so
// here, with its reason.
const callAllocations = 8

// TestCallAllocations holds BenchmarkCall to its budget. Allocations are
// counted, not timed, so the test is exact on any machine; the race
// detector allocates on its own, so it is skipped there.
func TestCallAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	s := tickets.NewServer()
	conn := s.NewConn(nil)
	ctx := context.Background()
	// A call that failed early would allocate less: the reply is the
	// ticket, as in BenchmarkCall.
	if got := string(conn.Handle(ctx, createTicket)); got != createTicketReply {
		t.Fatalf("unexpected reply %s", got)
	}
	if n := testing.AllocsPerRun(1000, func() { conn.Handle(ctx, createTicket) }); n > callAllocations {
		t.Errorf("a tools/call allocates %v times, more than its budget of %d", n, callAllocations)
	}
}

// BenchmarkCallInvalid is the same call with an argument the schema
// rejects: the cost of a refused call.
func BenchmarkCallInvalid(b *testing.B) {
	s := tickets.NewServer()
	conn := s.NewConn(nil)
	ctx := context.Background()
	bad := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash on save","description":"The app crashes when saving","kind":"epic"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		conn.Handle(ctx, bad)
	}
}

// BenchmarkStdioRoundTrip is one tools/call over a pipe through Serve,
// waiting for each response before sending the next request.
func BenchmarkStdioRoundTrip(b *testing.B) {
	s := tickets.NewServer()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), inR, outW) }()
	r := bufio.NewReader(outR)
	line := append(createTicket, '\n')
	call := func() string {
		inW.Write(line)
		resp, err := r.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	if got := call(); got != createTicketReply+"\n" {
		b.Fatalf("unexpected reply %s", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		call()
	}
	b.StopTimer()
	inW.Close()
	go io.Copy(io.Discard, r)
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	outW.Close()
}
