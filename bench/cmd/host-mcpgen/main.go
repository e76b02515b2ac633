// Command host-mcpgen is the mcpgen side of the control protocol
// benchmark: the Go counterpart of ts/host.mjs. It hosts greet and
// create_ticket (the generated mcpgentools server) in process and runs one
// prompt through the Claude Code CLI with claude.Query, the CLI being the
// benchmark's stand-in (cmd/cli-standin), which drives the tool calls,
// times them, and writes its measurements to MCPGEN_STANDIN_OUT (inherited
// through the environment).
//
//	host-mcpgen <path to cli-standin>
//
// What a host must do here, for either SDK, and so for this file:
//   - spawn the given executable as the CLI, with the stream-json flags and
//     the server declared as an "sdk" server named "bench" (the stand-in
//     reads it from --mcp-config, with "name", or from
//     initialize.sdkMcpServers);
//   - send the initialize control_request, then the user turn;
//   - answer every mcp_message control_request (initialize,
//     notifications/initialized, tools/list, then tools/call, one at a
//     time and 16 at once) with a control_response carrying the same
//     request_id and the server's JSON-RPC answer under mcp_response;
//   - read the conversation until the result message, then close stdin so
//     that the stand-in exits; exit 0 on a successful result.
//
// It allows the two tools up front (AllowedTools), as ts/host.mjs does, so
// that no permission prompt is involved; the stand-in sends no
// can_use_tool anyway.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/mcpgentools"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: host-mcpgen <path to cli-standin>")
		os.Exit(2)
	}
	if path := os.Getenv("MCPGEN_BENCH_CPUPROFILE"); path != "" {
		// For diagnosis only: the benchmark never sets it.
		f, err := os.Create(path)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := claude.Query(ctx, "Greet Ada, then file a bug ticket.", claude.Options{
		Path:         os.Args[1],
		Servers:      map[string]*runtime.Server{"bench": mcpgentools.NewServer()},
		AllowedTools: []string{"mcp__bench__greet", "mcp__bench__create_ticket"},
		Stderr:       os.Stderr,
	}, nil)
	if err != nil {
		fail("%v", err)
	}
	if res.IsError {
		fail("the run failed: %s", res.Result)
	}
}

func fail(format string, args ...any) {
	pprof.StopCPUProfile()
	fmt.Fprintf(os.Stderr, "host-mcpgen: "+format+"\n", args...)
	os.Exit(1)
}
