package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/examples/tickets"
	"github.com/mcpgen/mcpgen/runtime"
)

// BenchmarkHTTPCall is one tools/call over Streamable HTTP, stateless,
// through a real net/http server on loopback: the bench's HTTP driver's
// request, on one keep-alive connection, read by a client that allocates
// nothing, so that -benchmem counts the server's allocations (net/http's
// and the runtime's). With a token, the verifier is one that accepts it
// at once: what the runtime itself adds to a request with a token.
func BenchmarkHTTPCall(b *testing.B) {
	b.Run("stateless", func(b *testing.B) { benchHTTPCall(b, nil, "") })
	b.Run("token", func(b *testing.B) {
		ti := &runtime.TokenInfo{Subject: "user-1", Issuer: "https://issuer.example", Audience: []string{"http://127.0.0.1/mcp"}, Scopes: []string{"mcp"}}
		benchHTTPCall(b, &runtime.Authorization{
			Verifier:             acceptToken{ti},
			Resource:             "http://127.0.0.1/mcp",
			AuthorizationServers: []string{"https://issuer.example"},
			Scopes:               []string{"mcp"},
		}, "Bearer eyJhbGciOiJSUzI1NiJ9."+string(bytes.Repeat([]byte("x"), 600)))
	})
}

// acceptToken is a TokenVerifier that accepts every token as ti (a copy
// of it, as a verifier that decodes the token would make).
type acceptToken struct{ ti *runtime.TokenInfo }

func (v acceptToken) VerifyToken(context.Context, string) (*runtime.TokenInfo, error) {
	ti := *v.ti
	return &ti, nil
}

func benchHTTPCall(b *testing.B, a *runtime.Authorization, authorization string) {
	call, stop := httpCaller(b, a, authorization)
	defer stop()
	b.ReportAllocs()
	for b.Loop() {
		call()
	}
}

// httpCaller serves tickets' server over HTTP, stateless, on loopback, and
// returns a function that makes one tools/call of create_ticket on one
// keep-alive connection, and one that stops the server. The call writes
// the bench driver's request and reads the answer without allocating.
func httpCaller(tb testing.TB, a *runtime.Authorization, authorization string) (call func() []byte, stop func()) {
	s := tickets.NewServer()
	srv := httptest.NewServer(s.HTTPHandler(&runtime.HTTPOptions{Authorization: a}))
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		srv.Close()
		tb.Fatal(err)
	}
	req := []byte("POST /mcp HTTP/1.1\r\nHost: " + srv.Listener.Addr().String() +
		"\r\nUser-Agent: mcpgen-bench\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\n")
	if authorization != "" {
		req = append(req, "Authorization: "+authorization+"\r\n"...)
	}
	req = append(req, "Content-Type: application/json\r\nContent-Length: "+strconv.Itoa(len(createTicket))+"\r\n\r\n"...)
	req = append(req, createTicket...)
	r := bufio.NewReaderSize(conn, 64<<10)
	body := make([]byte, 0, 4096)
	call = func() []byte {
		if _, err := conn.Write(req); err != nil {
			tb.Fatal(err)
		}
		size := -1
		for {
			line, err := r.ReadSlice('\n')
			if err != nil {
				tb.Fatal(err)
			}
			if len(line) <= 2 {
				break
			}
			if v, ok := bytes.CutPrefix(line, []byte("Content-Length: ")); ok {
				size, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
			}
		}
		if size < 0 {
			tb.Fatal("no Content-Length")
		}
		body = body[:size]
		if _, err := io.ReadFull(r, body); err != nil {
			tb.Fatal(err)
		}
		return body
	}
	if got := string(call()); got != createTicketReply {
		conn.Close()
		srv.Close()
		tb.Fatalf("unexpected reply %s", got)
	}
	return call, func() { conn.Close(); srv.Close() }
}

// httpCallAllocations is the allocation budget of one tools/call over
// Streamable HTTP, stateless, counted in the whole process: net/http's
// own (29: the request, its headers, the response's), the call's as in
// BenchmarkCall, and the transport's (the request's hold, its session,
// its responder). A change that adds one to every call must say so here,
// with its reason. (54 before issue 37: the watch on the request's
// context, the per-request session's registry of calls, parsing the
// Content-Type, the body's reader, the session and the response's
// buffer.)
const httpCallAllocations = 43

// TestHTTPCallAllocations holds BenchmarkHTTPCall to its budget.
func TestHTTPCallAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	call, stop := httpCaller(t, nil, "")
	defer stop()
	if n := testing.AllocsPerRun(2000, func() { call() }); n > httpCallAllocations {
		t.Errorf("a tools/call over HTTP allocates %v times, more than its budget of %d", n, httpCallAllocations)
	}
}
