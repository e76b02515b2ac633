// Command host-floor is the floor of the control protocol measurements: a
// host that spawns the CLI (the stand-in) as the Agent SDKs do, declares
// one sdk server "bench", and answers every mcp_message with canned bytes
// (package canned) on one goroutine, with no MCP library and no JSON
// decoding. It is not a peer: it shows the fastest any host could go
// through the same stand-in on the same machine.
//
//	host-floor <path to cli-standin>
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"

	"github.com/mcpgen/mcpgen/bench/internal/canned"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: host-floor <path to cli-standin>")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--mcp-config", `{"mcpServers":{"bench":{"type":"sdk","name":"bench"}}}`)
	cmd.Stderr = os.Stderr
	// Blocking pipes, as claude.Start makes them: reads and writes
	// wait in the system call instead of the network poller (File.Fd puts
	// a file in blocking mode), which halves a sequential round trip.
	childIn, stdin, err := os.Pipe()
	if err != nil {
		fail(err)
	}
	stdout, childOut, err := os.Pipe()
	if err != nil {
		fail(err)
	}
	for _, f := range []*os.File{childIn, stdin, stdout, childOut} {
		f.Fd()
	}
	cmd.Stdin, cmd.Stdout = childIn, childOut
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	childIn.Close()
	childOut.Close()
	w := bufio.NewWriterSize(stdin, 1<<20)
	w.WriteString(`{"type":"control_request","request_id":"req_1","request":{"subtype":"initialize","hooks":null}}` + "\n")
	w.WriteString(`{"type":"user","session_id":"default","message":{"role":"user","content":"Greet Ada, then file a bug ticket."},"parent_tool_use_id":null}` + "\n")
	w.Flush()
	r := bufio.NewReaderSize(stdout, 1<<20)
	var out []byte
	for {
		line, err := r.ReadSlice('\n')
		switch {
		case bytes.Contains(line, []byte(`"subtype":"mcp_message"`)):
			out = answer(out[:0], line)
			w.Write(out)
			if r.Buffered() == 0 {
				w.Flush()
			}
		case bytes.HasPrefix(line, []byte(`{"duration_api_ms"`)) || bytes.Contains(line, []byte(`"type":"result"`)):
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				fail(err)
			}
			return
		}
		if err != nil {
			fail(fmt.Errorf("the CLI closed its output before the result: %v", err))
		}
	}
}

var requestIDKey = []byte(`"request_id":"`)

// answer appends the control_response to one mcp_message control request.
func answer(b, line []byte) []byte {
	i := bytes.Index(line, requestIDKey) + len(requestIDKey)
	j := i + bytes.IndexByte(line[i:], '"')
	k := bytes.Index(line, []byte(`"message":`)) + len(`"message":`)
	b = append(b, `{"type":"control_response","response":{"subtype":"success","request_id":"`...)
	b = append(b, line[i:j]...)
	b = append(b, `","response":{"mcp_response":`...)
	b, ok := canned.Answer(b, line[k:])
	if !ok {
		b = append(b, `{"jsonrpc":"2.0","result":{}}`...)
	}
	return append(b, "}}}\n"...)
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "host-floor: %v\n", err)
	os.Exit(1)
}
