// Command http-floor is the floor of the Streamable HTTP measurements:
// net/http answering greet, create_ticket and the handshake with canned
// bytes (package canned), with no MCP library, no JSON decoding and no
// validation. It is not a peer: it shows the fastest a Go server on
// net/http could go through the same driver on the same machine.
package main

import (
	"bytes"
	"log"
	"net/http"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/canned"
)

var bufs = sync.Pool{New: func() any { return new([2][]byte) }}

func main() {
	if path := os.Getenv("MCPGEN_BENCH_CPUPROFILE"); path != "" {
		// For diagnosis only: the benchmark never sets it.
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
			go func() {
				<-stop
				pprof.StopCPUProfile()
				os.Exit(0)
			}()
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		b := bufs.Get().(*[2][]byte)
		defer bufs.Put(b)
		in := bytes.NewBuffer(b[0][:0])
		if _, err := in.ReadFrom(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		b[0] = in.Bytes()
		out, ok := canned.Answer(b[1][:0], b[0])
		b[1] = out
		if !ok {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{strconv.Itoa(len(out))}
		w.Write(out)
	})
	hs := &http.Server{Addr: os.Getenv("MCPGEN_BENCH_ADDR"), Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(hs.ListenAndServe())
}
