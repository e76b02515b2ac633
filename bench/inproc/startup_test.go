package inproc

import (
	"bytes"
	"context"
	"net"
	"testing"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	gosdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	gosdkmany "github.com/mcpgen/mcpgen/bench/internal/many/gosdk"
	mcpgenmany "github.com/mcpgen/mcpgen/bench/internal/many/mcpgen"
	mcpgomany "github.com/mcpgen/mcpgen/bench/internal/many/mcpgo"
	mcpgopeer "github.com/mcpgen/mcpgen/bench/internal/peers/mcpgo"
)

// BenchmarkStartup200 is the in-process part of a cold start with 200
// tools: build the server, register the tools, connect over net.Pipe, and
// answer initialize and the first tools/list. The process start itself
// (exec, the Go runtime's or Node's start-up) is left out.
func BenchmarkStartup200(b *testing.B) {
	serve := map[string]func(ctx context.Context, conn net.Conn){
		"mcpgen": func(ctx context.Context, conn net.Conn) {
			mcpgenmany.NewServer().Serve(ctx, conn, conn)
		},
		"go-sdk": func(ctx context.Context, conn net.Conn) {
			s := gosdkmcp.NewServer(&gosdkmcp.Implementation{Name: "many", Version: "1.0.0"}, nil)
			gosdkmany.Register(s)
			ss, err := s.Connect(ctx, &gosdkmcp.IOTransport{Reader: conn, Writer: conn}, nil)
			if err != nil {
				panic(err)
			}
			ss.Wait()
		},
		"mcp-go": func(ctx context.Context, conn net.Conn) {
			s := mcpgoserver.NewMCPServer("many", "1.0.0", mcpgopeer.Options()...)
			mcpgomany.Register(s)
			srv := mcpgoserver.NewStdioServer(s)
			srv.SetErrorLogger(discardLogger)
			srv.Listen(ctx, conn, conn)
		},
	}
	for _, name := range []string{"mcpgen", "go-sdk", "mcp-go"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				srvConn, cliConn := net.Pipe()
				done := make(chan struct{})
				go func() { defer close(done); serve[name](ctx, srvConn) }()
				c := newPipeClient(b, cliConn)
				line := c.call(b, driver.ToolsListReq)
				if n := bytes.Count(line, []byte(`"name":"tool`)); n != 200 {
					b.Fatalf("tools/list has %d tools", n)
				}
				cliConn.Close()
				cancel()
				srvConn.Close()
				<-done
			}
		})
	}
}
