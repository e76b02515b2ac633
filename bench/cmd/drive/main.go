// Command drive runs the benchmark's stdio driver against any MCP server
// that serves greet and create_ticket, for profiling one server by hand:
//
//	drive [-seq N] [-par N] [-inflight N] [-bad N] -- command [args...]
//	drive -http [-jwt] [-seq N] [-par N] [-inflight N] [-bad N] -- command [args...]
//
// With -http the command is a Streamable HTTP server that listens where
// $MCPGEN_BENCH_ADDR says, and -inflight is the number of clients, each on
// its own keep-alive connection. With -jwt as well, drive starts the
// benchmark's issuer, passes -issuer URL to the command, and every client
// sends the issuer's token. For example, with the CPU profile hook of
// server-mcpgen and http-mcpgen:
//
//	MCPGEN_BENCH_CPUPROFILE=cpu.prof drive -seq 20000 -par 0 -- server-mcpgen
//	MCPGEN_BENCH_CPUPROFILE=cpu.prof drive -http -seq 0 -par 100000 -- http-mcpgen
//	MCPGEN_BENCH_CPUPROFILE=cpu.prof drive -http -jwt -seq 0 -par 100000 -- http-mcpgen
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/issuer"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("drive: ")
	seq := flag.Int("seq", 10000, "sequential calls")
	par := flag.Int("par", 20000, "calls with -inflight in flight")
	inflight := flag.Int("inflight", 16, "calls in flight")
	bad := flag.Int("bad", 0, "rejected calls, one at a time")
	warmup := flag.Int("warmup", 1000, "warm-up calls")
	useHTTP := flag.Bool("http", false, "drive a Streamable HTTP server")
	useJWT := flag.Bool("jwt", false, "with -http: start an issuer, pass -issuer URL to the server, and send its token")
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *useHTTP {
		driveHTTP(*seq, *par, *inflight, *bad, *warmup, *useJWT)
		return
	}
	c, err := driver.Start(driver.Server{Name: flag.Arg(0), Argv: flag.Args()})
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Handshake(); err != nil {
		log.Fatal(err)
	}
	run := func(what string, kinds []driver.CallKind, n, inflight int) {
		if n == 0 {
			return
		}
		s, err := c.Run(kinds, n, inflight)
		if err != nil {
			log.Fatal(err)
		}
		if what != "" {
			fmt.Printf("%-10s %7d calls  %8.0f calls/s  p50 %8v  p99 %8v  server CPU/call %v  driver CPU/call %v\n",
				what, n, s.PerSecond(), s.Quantile(0.5), s.Quantile(0.99), s.CPUPerCall, s.DriverCPUPerCall)
		}
	}
	run("", driver.Valid, *warmup, 1)
	run("sequential", driver.Valid, *seq, 1)
	run("in flight", driver.Valid, *par, *inflight)
	run("rejected", driver.Invalid, *bad, 1)
	hwm := driver.PeakRSS(c.Pid())
	if err := c.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("peak RSS %.1f MiB\n", float64(hwm)/(1<<20))
}

func driveHTTP(seq, par, inflight, bad, warmup int, useJWT bool) {
	argv := flag.Args()
	var is *issuer.Issuer
	if useJWT {
		var err error
		if is, err = issuer.Start(); err != nil {
			log.Fatal(err)
		}
		defer is.Close()
		argv = append(argv, "-issuer", is.URL)
	}
	s, err := driver.StartHTTP(driver.Server{Name: flag.Arg(0), Argv: argv})
	if err != nil {
		log.Fatal(err)
	}
	if is != nil {
		tok, err := is.Token("http://" + s.Addr + "/mcp")
		if err != nil {
			s.Close()
			log.Fatal(err)
		}
		s.Authorization = "Bearer " + tok
	}
	clients, err := s.Dial(max(1, inflight))
	if err != nil {
		s.Close()
		log.Fatal(err)
	}
	run := func(what string, kinds []driver.CallKind, n int, clients []*driver.HTTPClient) {
		if n == 0 {
			return
		}
		st, err := s.Run(clients, kinds, n, 0)
		if err != nil {
			s.Close()
			log.Fatal(err)
		}
		if what != "" {
			fmt.Printf("%-10s %7d calls  %8.0f calls/s  p50 %8v  p99 %8v  server CPU/call %v  driver CPU/call %v\n",
				what, n, st.PerSecond(), st.Quantile(0.5), st.Quantile(0.99), st.CPUPerCall, st.DriverCPUPerCall)
		}
	}
	run("", driver.Valid, warmup, clients)
	run("sequential", driver.Valid, seq, clients[:1])
	run(fmt.Sprintf("%d clients", len(clients)), driver.Valid, par, clients)
	run("rejected", driver.Invalid, bad, clients[:1])
	hwm := driver.PeakRSS(s.Pid())
	driver.CloseAll(clients)
	if err := s.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("peak RSS %.1f MiB\n", float64(hwm)/(1<<20))
}
