package driver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/canned"
)

// cannedHandler answers like a server with sessions, in the content type
// and framing the test asks for.
func cannedHandler(t *testing.T, framing string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		body, _ := io.ReadAll(r.Body)
		if got := r.Header.Get("Accept"); got != "application/json, text/event-stream" {
			t.Errorf("Accept: %q", got)
		}
		initialize := strings.Contains(string(body), `"initialize"`)
		if initialize {
			w.Header().Set("Mcp-Session-Id", "s-1")
		} else if got := r.Header.Get("Mcp-Session-Id"); got != "s-1" {
			t.Errorf("Mcp-Session-Id: %q", got)
		}
		if got := r.Header.Get("Mcp-Protocol-Version"); initialize != (got == "") {
			t.Errorf("Mcp-Protocol-Version on %s: %q", body, got)
		}
		out, ok := canned.Answer(nil, body)
		if !ok {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		switch framing {
		case "json":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", fmt.Sprint(len(out)))
			w.Write(out)
		case "chunked":
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Write(out[:10])
			w.(http.Flusher).Flush()
			w.Write(out[10:])
		case "sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"x\"}}\n\n")
			w.(http.Flusher).Flush()
			fmt.Fprintf(w, "id: 7\r\nevent: message\r\ndata: %s\r\n\r\n", out)
		}
	})
}

func TestHTTPClient(t *testing.T) {
	for _, framing := range []string{"json", "chunked", "sse"} {
		t.Run(framing, func(t *testing.T) {
			srv := httptest.NewServer(cannedHandler(t, framing))
			defer srv.Close()
			c := NewHTTPClient(strings.TrimPrefix(srv.URL, "http://"), "/mcp")
			defer c.Close()
			if err := c.Handshake(); err != nil {
				t.Fatal(err)
			}
			if c.Session != "s-1" {
				t.Errorf("session %q", c.Session)
			}
			for i := range 10 {
				k := slices.Concat(Valid, Invalid)[i%4]
				if _, err := c.Call(&k); err != nil {
					t.Fatal(err)
				}
			}
			if status, err := c.Delete(); err != nil || status != 204 {
				t.Errorf("DELETE: %d, %v", status, err)
			}
			if c.Reconnects != 0 {
				t.Errorf("%d reconnects on one keep-alive connection", c.Reconnects)
			}
		})
	}
}

// TestHTTPClientStale checks that a connection the server closed while
// idle is replaced when RetryStale is set, and fails the call when not.
func TestHTTPClientStale(t *testing.T) {
	srv := httptest.NewServer(cannedHandler(t, "json"))
	defer srv.Close()
	for _, retry := range []bool{true, false} {
		c := NewHTTPClient(strings.TrimPrefix(srv.URL, "http://"), "/mcp")
		c.RetryStale = retry
		if err := c.Handshake(); err != nil {
			t.Fatal(err)
		}
		srv.CloseClientConnections()
		time.Sleep(10 * time.Millisecond)
		_, err := c.Call(&Greet)
		if retry && (err != nil || c.Reconnects != 1) {
			t.Errorf("with RetryStale: %v, %d reconnects", err, c.Reconnects)
		}
		if !retry && err == nil {
			t.Error("without RetryStale, a call on a closed connection succeeded")
		}
		c.Close()
	}
}

// TestHTTPClientRawFraming feeds the reader answers net/http never
// writes: a body that ends with the connection, and Connection: close.
func TestHTTPClientRawFraming(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer conn.Close()
				br := bufio.NewReader(conn)
				var length int
				for {
					line, err := br.ReadString('\n')
					if err != nil {
						return
					}
					if n, ok := strings.CutPrefix(line, "Content-Length: "); ok {
						fmt.Sscan(n, &length)
					}
					if line == "\r\n" {
						break
					}
				}
				body := make([]byte, length)
				io.ReadFull(br, body)
				out, _ := canned.Answer(nil, body)
				if conns.Load()%2 == 1 {
					fmt.Fprintf(conn, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n%s", out)
				} else {
					fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(out), out)
				}
			}()
		}
	}()
	c := NewHTTPClient(ln.Addr().String(), "/mcp")
	defer c.Close()
	for range 4 {
		if _, err := c.Call(&CreateTicket); err != nil {
			t.Fatal(err)
		}
	}
	if c.Reconnects != 3 {
		t.Errorf("%d reconnects, want 3 (every answer ended its connection)", c.Reconnects)
	}
}

func TestSSEResponse(t *testing.T) {
	stream := []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\n" +
		"data: \"result\":{}}\n\nid: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}")
	if m, ok := sseResponse(stream, 3); !ok || string(m) != "{\"jsonrpc\":\"2.0\",\"id\":3,\n\"result\":{}}" {
		t.Errorf("id 3: %q, %v", m, ok)
	}
	if m, ok := sseResponse(stream, 4); !ok || string(m) != `{"jsonrpc":"2.0","id":4,"result":{}}` {
		t.Errorf("id 4: %q, %v", m, ok)
	}
	if _, ok := sseResponse(stream, 5); ok {
		t.Error("found id 5")
	}
}
