// Command server-floor is the floor of the stdio measurements: it answers
// greet, create_ticket and the handshake with canned bytes (package
// canned) on one goroutine, with no MCP library, no JSON decoding and no
// validation. It is not a peer: it shows the fastest any server could go
// through the same driver on the same machine.
package main

import (
	"bufio"
	"os"
	"runtime/pprof"

	"github.com/mcpgen/mcpgen/bench/internal/canned"
)

func main() {
	if path := os.Getenv("MCPGEN_BENCH_CPUPROFILE"); path != "" {
		// For diagnosis only: the benchmark never sets it.
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	var out []byte
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			var ok bool
			if out, ok = canned.Answer(out[:0], line); ok {
				w.Write(append(out, '\n'))
				if r.Buffered() == 0 {
					w.Flush()
				}
			}
		}
		if err != nil {
			w.Flush()
			return
		}
	}
}
