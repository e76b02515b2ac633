// Command bench runs mcpgen's side-by-side benchmark against the official
// Go SDK, mark3labs/mcp-go and the TypeScript SDKs, and prints one
// Markdown table per part, with every peer's figures and mcpgen's ratio
// against each:
//
//  1. stdio: one driver for every stdio server: sequential calls/s with
//     p50/p99, throughput with 16 calls in flight, the cost of a rejected
//     (invalid-argument) call, the server's CPU time per call, peak RSS;
//  2. start-up to the first tools/list answer, with 2 and with 200 tools;
//  3. in-process: testing.B benchmarks of one tools/call (ns/op,
//     allocs/op);
//  4. the generator: 10, 50 and 200 tools next to the bare package load;
//  5. the control protocol: a scripted Claude CLI stand-in drives the
//     TypeScript Agent SDK host and the mcpgen host;
//  6. Streamable HTTP: one driver for every HTTP server, stateless and
//     with sessions, at 1, 16 and 64 concurrent clients on keep-alive
//     connections, and the memory held by open sessions; and (httpauth)
//     mcpgen and the Go SDK with and without a JWT access token checked on
//     every request.
//
// Usage, from this directory:
//
//	go run .            # the full run (several minutes)
//	go run . -quick     # a smoke run, under a minute once built
//	go run . -parts stdio,startup -o report.md
//
// Servers and hosts are built into, and the npm packages installed into,
// $MCPGEN_CACHE/bench (default $HOME/.cache/mcpgen/bench), never into the
// repository. Progress goes to stderr, the report to stdout (and to -o).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Config sizes every part; see quickConfig and fullConfig.
type Config struct {
	Mode string

	Rounds int // rounds of the stdio part, in rotated server order
	// Warmup is the warm-up calls of every server process before it is
	// measured: half sequential, half in flight, and a quarter as many
	// rejected ones. Node's JIT keeps speeding the TypeScript SDK up
	// through the first ten thousand calls (its sequential CPU per call
	// fell by a quarter between 2,000 and 20,000 warm-up calls), so the
	// full run warms up with 20,000.
	Warmup      int
	Sequential  int // calls one at a time
	Parallel    int // calls with InFlight outstanding
	InFlight    int
	Rejected    int // invalid calls, one at a time
	StartupRuns int // cold starts per server and size
	// StartupBenchtime is the -benchtime of the in-process start-up
	// benchmark.
	StartupBenchtime string

	InprocBenchtime string
	InprocCount     int
	GenBenchtime    string
	GenCount        int

	ControlRuns       int
	ControlWarmup     int
	ControlSequential int
	ControlParallel   int

	HTTPRounds int
	// HTTPClients are the numbers of concurrent clients measured; the
	// targets are about 16.
	HTTPClients []int
	// HTTPTime is how long each number of clients is measured: servers
	// that differ forty-fold in speed are each measured for as long.
	HTTPTime time.Duration
	// HTTPWarmup calls with 16 clients, for at most HTTPWarmupTime,
	// before the measurements of every server process.
	HTTPWarmup     int
	HTTPWarmupTime time.Duration
	HTTPSessions   int // sessions opened to measure the memory they hold

	// Pairs is how many times the two sides of a ratio that is a target
	// of its own (mcpgen to the floor, a call with a token to one
	// without) are measured back to back, alternating which goes first.
	Pairs int
}

var quickConfig = Config{
	Mode:   "quick",
	Rounds: 1, Warmup: 2000, Sequential: 2000, Parallel: 4000, InFlight: 16, Rejected: 1000, StartupRuns: 3, StartupBenchtime: "5x",
	InprocBenchtime: "2000x", InprocCount: 1,
	GenBenchtime: "2x", GenCount: 1,
	ControlRuns: 1, ControlWarmup: 300, ControlSequential: 500, ControlParallel: 1000,
	HTTPRounds: 1, HTTPClients: []int{1, 16, 64}, HTTPTime: 300 * time.Millisecond, HTTPWarmup: 1000, HTTPWarmupTime: time.Second, HTTPSessions: 1000,
	Pairs: 1,
}

// fullConfig's in-flight counts keep the fastest server busy for about a
// second per round: with fewer (20,000 calls were 0.2 s), the server's CPU
// time, then read from /proc in 10 ms ticks, and the rounds' ratios varied by
// a third from round to round.
var fullConfig = Config{
	Mode:   "full",
	Rounds: 5, Warmup: 20000, Sequential: 10000, Parallel: 100000, InFlight: 16, Rejected: 5000, StartupRuns: 15, StartupBenchtime: "40x",
	InprocBenchtime: "1s", InprocCount: 5,
	GenBenchtime: "10x", GenCount: 3,
	ControlRuns: 5, ControlWarmup: 3000, ControlSequential: 5000, ControlParallel: 50000,
	HTTPRounds: 3, HTTPClients: []int{1, 16, 64}, HTTPTime: 2 * time.Second, HTTPWarmup: 20000, HTTPWarmupTime: 10 * time.Second, HTTPSessions: 10000,
	Pairs: 7,
}

var allParts = []string{"stdio", "startup", "inproc", "gen", "control", "http", "httpauth"}

// env is what every part needs: where things are.
type env struct {
	cfg      Config
	benchDir string // this module
	cache    string // $MCPGEN_CACHE/bench
	bin      string // built servers and hosts
	tsDir    string // installed TypeScript scripts and node_modules
	out      io.Writer
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("bench: ")
	quick := flag.Bool("quick", false, "smoke run: small counts, one round (under a minute once built)")
	parts := flag.String("parts", strings.Join(allParts, ","), "comma-separated `parts` to run: "+strings.Join(allParts, ", "))
	outFile := flag.String("o", "", "also write the report to `file`")
	flag.Parse()

	cfg := fullConfig
	if *quick {
		cfg = quickConfig
	}
	want := strings.Split(*parts, ",")
	for _, p := range want {
		if !slices.Contains(allParts, p) {
			log.Fatalf("unknown part %q (parts: %s)", p, strings.Join(allParts, ", "))
		}
	}

	benchDir, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(benchDir, "cmd", "cli-standin")); err != nil {
		log.Fatal("run this from the bench directory: cd bench && go run .")
	}
	cache := os.Getenv("MCPGEN_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			log.Fatal(err)
		}
		cache = filepath.Join(home, ".cache", "mcpgen")
	}
	var report bytes.Buffer
	e := &env{cfg: cfg, benchDir: benchDir, cache: filepath.Join(cache, "bench"), out: io.MultiWriter(os.Stdout, &report)}
	e.bin = filepath.Join(e.cache, "bin")

	start := time.Now()
	// The parts that run processes need the binaries and the npm packages.
	if slices.ContainsFunc(want, func(p string) bool {
		return p == "stdio" || p == "startup" || p == "control" || p == "http" || p == "httpauth"
	}) {
		progress("building servers and hosts into %s", e.bin)
		if err := e.build(); err != nil {
			log.Fatal(err)
		}
		progress("installing the TypeScript packages into %s", e.cache)
		if err := e.installTS(); err != nil {
			log.Fatal(err)
		}
	}
	m := readMachine(e)
	m.taken = start.UTC().Format("2006-01-02 15:04 MST") + ", " + cfg.Mode + " mode"
	m.loadStart = loadAvg()
	m.print(e.out)

	var verdicts []verdict
	for _, p := range allParts {
		if !slices.Contains(want, p) {
			continue
		}
		var vs []verdict
		var err error
		switch p {
		case "stdio":
			vs, err = e.stdioPart()
		case "startup":
			vs, err = e.startupPart()
		case "inproc":
			vs, err = e.inprocPart()
		case "gen":
			vs, err = e.genPart()
		case "control":
			vs, err = e.controlPart()
		case "http":
			vs, err = e.httpPart()
		case "httpauth":
			vs, err = e.httpAuthPart()
		}
		if err != nil {
			log.Fatalf("%s: %v", p, err)
		}
		verdicts = append(verdicts, vs...)
	}
	printVerdicts(e.out, verdicts)
	fmt.Fprintf(e.out, "\nRun took %s (%s mode); load average %s at the start of the measurements, %s at the end.\n",
		time.Since(start).Round(time.Second), cfg.Mode, m.loadStart, loadAvg())
	if *outFile != "" {
		if err := os.WriteFile(*outFile, report.Bytes(), 0o666); err != nil {
			log.Fatal(err)
		}
	}
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}
