// Command manygen writes the 200-tool variant of every server in the
// benchmark, for the start-up measurement: the same 200 tools, each with its
// own input type, in the form each library expects.
//
//   - ../many/mcpgen/many.go: the package of gen/bench_test.go's manyTools,
//     plus a go:generate line; mcpgen then writes its mcp_gen.go.
//   - ../many/gosdk/many_gen.go: go-sdk, mcp.AddTool with typed inputs; the
//     schema is inferred with jsonschema.For and completed by hand with what
//     jsonschema-go's tags cannot say (enum, minLength, minimum, maximum),
//     as go-sdk's documentation says to do.
//   - ../many/mcpgo/many_gen.go: mcp-go, mcp.NewTool with the builder
//     options of its README and a typed handler (mcp.NewTypedToolHandler).
//   - ../../ts/many.mjs: the TypeScript SDK, McpServer.registerTool with zod
//     shapes.
//
// Run it through go generate in the bench module's root.
package main

import (
	"bytes"
	"go/format"
	"log"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/bench/internal/manysrc"
)

// N is the number of tools of the start-up measurement.
const N = 200

func main() {
	log.SetFlags(0)
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	write(filepath.Join(root, "internal/many/mcpgen/many.go"), manysrc.MCPGen(N), true)
	write(filepath.Join(root, "internal/many/gosdk/many_gen.go"), manysrc.GoSDK(N), true)
	write(filepath.Join(root, "internal/many/mcpgo/many_gen.go"), manysrc.MCPGo(N), true)
	write(filepath.Join(root, "ts/many.mjs"), manysrc.TS(N), false)
}

func write(path string, src []byte, gofmt bool) {
	if gofmt {
		var err error
		if src, err = format.Source(src); err != nil {
			log.Fatalf("%s: %v", path, err)
		}
	}
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, src) {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o666); err != nil {
		log.Fatal(err)
	}
}
