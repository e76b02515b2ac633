package inproc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"strconv"
	"testing"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	gosdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/mcpgentools"
	gosdkpeer "github.com/mcpgen/mcpgen/bench/internal/peers/gosdk"
	mcpgopeer "github.com/mcpgen/mcpgen/bench/internal/peers/mcpgo"
)

// pipeClient is the client side of a newline-delimited JSON-RPC
// connection. Its loop allocates nothing, so allocs/op is the server's.
type pipeClient struct {
	conn net.Conn
	r    *bufio.Reader
	buf  []byte
	id   int64
}

func newPipeClient(b *testing.B, conn net.Conn) *pipeClient {
	c := &pipeClient{conn: conn, r: bufio.NewReaderSize(conn, 1<<20)}
	line := c.call(b, driver.InitializeReq)
	if !bytes.Contains(line, []byte(`"protocolVersion"`)) {
		b.Fatalf("initialize: %s", line)
	}
	if _, err := conn.Write(append(driver.InitializedMsg, '\n')); err != nil {
		b.Fatal(err)
	}
	return c
}

// call sends template with the next id and returns the response line.
func (c *pipeClient) call(b *testing.B, template []byte) []byte {
	c.id++
	c.buf = c.buf[:0]
	i := bytes.Index(template, []byte("%ID%"))
	c.buf = append(c.buf, template[:i]...)
	c.buf = strconv.AppendInt(c.buf, c.id, 10)
	c.buf = append(c.buf, template[i+4:]...)
	c.buf = append(c.buf, '\n')
	if _, err := c.conn.Write(c.buf); err != nil {
		b.Fatal(err)
	}
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if bytes.Contains(line, []byte(`"method"`)) {
			continue // a notification
		}
		return line
	}
}

type peer struct {
	name string
	// start returns a function that answers one request.
	start func(b *testing.B) func(template []byte) []byte
}

func pipePeer(name string, serve func(ctx context.Context, conn net.Conn)) peer {
	return peer{name, func(b *testing.B) func([]byte) []byte {
		ctx, cancel := context.WithCancel(context.Background())
		srvConn, cliConn := net.Pipe()
		done := make(chan struct{})
		go func() { defer close(done); serve(ctx, srvConn) }()
		b.Cleanup(func() { cliConn.Close(); cancel(); srvConn.Close(); <-done })
		c := newPipeClient(b, cliConn)
		return func(t []byte) []byte { return c.call(b, t) }
	}}
}

var peers = []peer{
	pipePeer("mcpgen", func(ctx context.Context, conn net.Conn) {
		mcpgentools.NewServer().Serve(ctx, conn, conn)
	}),
	pipePeer("go-sdk", func(ctx context.Context, conn net.Conn) {
		ss, err := gosdkpeer.NewServer().Connect(ctx, &gosdkmcp.IOTransport{Reader: conn, Writer: conn}, nil)
		if err != nil {
			panic(err)
		}
		ss.Wait()
	}),
	pipePeer("mcp-go", func(ctx context.Context, conn net.Conn) {
		srv := mcpgoserver.NewStdioServer(mcpgopeer.NewServer())
		srv.SetErrorLogger(discardLogger)
		srv.Listen(ctx, conn, conn)
	}),
	{"mcp-go-HandleMessage", func(b *testing.B) func([]byte) []byte {
		s := mcpgopeer.NewServer()
		ctx := context.Background()
		var id int64
		var buf []byte
		handle := func(template []byte) []byte {
			id++
			i := bytes.Index(template, []byte("%ID%"))
			buf = append(buf[:0], template[:i]...)
			buf = strconv.AppendInt(buf, id, 10)
			buf = append(buf, template[i+4:]...)
			out, err := json.Marshal(s.HandleMessage(ctx, buf))
			if err != nil {
				b.Fatal(err)
			}
			return out
		}
		handle(driver.InitializeReq)
		s.HandleMessage(ctx, driver.InitializedMsg)
		return handle
	}},
}

// BenchmarkToolsCall measures one tools/call, answered and encoded, for
// each tool and each library.
func BenchmarkToolsCall(b *testing.B) {
	for _, k := range []driver.CallKind{driver.Greet, driver.CreateTicket, driver.BadTicket} {
		name := k.Name
		if k.Invalid {
			name = "rejected"
		}
		for _, p := range peers {
			b.Run(name+"/"+p.name, func(b *testing.B) {
				call := p.start(b)
				if err := k.Check(call(k.Request)); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if err := k.Check(call(k.Request)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

var discardLogger = log.New(io.Discard, "", 0)
