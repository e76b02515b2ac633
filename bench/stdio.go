package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
)

// Peer names, in table order; mcpgen first.
const (
	mcpgen = "mcpgen"
	gosdk  = "go-sdk"
	mcpgo  = "mcp-go"
	tssdk  = "TS SDK"
	// floor is not a peer: canned answers with no library (cmd/server-floor,
	// cmd/host-floor), the fastest any server or host could go here.
	floor = "floor (canned, no library)"
)

// servers are the stdio servers: the two benchmark tools, or with many the
// 200 tools of the start-up measurement.
func (e *env) servers(many bool) []driver.Server {
	suffix, arg := "", []string{}
	if many {
		suffix, arg = "-many", []string{"many"}
	}
	return []driver.Server{
		{Name: mcpgen, Argv: []string{filepath.Join(e.bin, "server-mcpgen"+suffix)}},
		{Name: gosdk, Argv: []string{filepath.Join(e.bin, "server-gosdk"+suffix)}},
		{Name: mcpgo, Argv: []string{filepath.Join(e.bin, "server-mcpgo"+suffix)}},
		{Name: tssdk, Argv: append([]string{"node", filepath.Join(e.tsDir, "server.mjs")}, arg...), Dir: e.tsDir},
	}
}

// rotate returns s starting at its i-th element, so that no server always
// runs first (or right after the same neighbour).
func rotate[T any](s []T, i int) []T {
	i %= len(s)
	return append(append([]T{}, s[i:]...), s[:i]...)
}

// stdioRun is one server's figures in one round.
type stdioRun struct {
	seq, par, bad *driver.Stats
	hwm           int64 // VmHWM after the last call
}

// measureStdio starts srv, warms it up, and measures it: sequentially,
// in flight and with rejected calls, or, if inFlightOnly, in flight only.
func (e *env) measureStdio(srv driver.Server, inFlightOnly bool) (*stdioRun, error) {
	c, err := driver.Start(srv)
	if err != nil {
		return nil, err
	}
	closed := false
	defer func() {
		if !closed {
			c.Close()
		}
	}()
	if err := c.Handshake(); err != nil {
		return nil, err
	}
	if n, err := c.ListTools(); err != nil || n != 2 {
		return nil, fmt.Errorf("%s: tools/list: %d tools, %v", srv.Name, n, err)
	}
	cfg := e.cfg
	if _, err := c.Run(driver.Valid, cfg.Warmup/2, 1); err != nil {
		return nil, err
	}
	if _, err := c.Run(driver.Valid, cfg.Warmup/2, cfg.InFlight); err != nil {
		return nil, err
	}
	if _, err := c.Run(driver.Invalid, cfg.Warmup/4, 1); err != nil {
		return nil, err
	}
	r := &stdioRun{}
	if !inFlightOnly {
		if r.seq, err = c.Run(driver.Valid, cfg.Sequential, 1); err != nil {
			return nil, err
		}
	}
	if r.par, err = c.Run(driver.Valid, cfg.Parallel, cfg.InFlight); err != nil {
		return nil, err
	}
	if !inFlightOnly {
		if r.bad, err = c.Run(driver.Invalid, cfg.Rejected, 1); err != nil {
			return nil, err
		}
	}
	r.hwm = driver.PeakRSS(c.Pid())
	closed = true
	if err = c.Close(); err != nil {
		return nil, err
	}
	return r, nil
}

// stdioFigures are a server's medians over the rounds.
type stdioFigures struct {
	seqRate, parRate, badRate      float64
	seqP50, seqP99, parP50, parP99 time.Duration
	badP50                         time.Duration
	seqCPU, parCPU, badCPU         time.Duration
	driverPar                      time.Duration
	peakRSS                        int64
}

func (e *env) stdioPart() ([]verdict, error) {
	cfg := e.cfg
	servers := append(e.servers(false), driver.Server{Name: floor, Argv: []string{filepath.Join(e.bin, "server-floor")}})
	runs := map[string][]*stdioRun{}
	for round := range cfg.Rounds {
		for _, s := range rotate(servers, round) {
			progress("stdio: round %d/%d: %s", round+1, cfg.Rounds, s.Name)
			r, err := e.measureStdio(s, false)
			if err != nil {
				return nil, err
			}
			runs[s.Name] = append(runs[s.Name], r)
		}
	}
	figs := map[string]*stdioFigures{}
	for name, rs := range runs {
		f := &stdioFigures{}
		pick := func(get func(*stdioRun) float64) float64 {
			var xs []float64
			for _, r := range rs {
				xs = append(xs, get(r))
			}
			return median(xs)
		}
		pickD := func(get func(*stdioRun) time.Duration) time.Duration {
			return time.Duration(pick(func(r *stdioRun) float64 { return float64(get(r)) }))
		}
		f.seqRate = pick(func(r *stdioRun) float64 { return r.seq.PerSecond() })
		f.parRate = pick(func(r *stdioRun) float64 { return r.par.PerSecond() })
		f.badRate = pick(func(r *stdioRun) float64 { return r.bad.PerSecond() })
		f.seqP50 = pickD(func(r *stdioRun) time.Duration { return r.seq.Quantile(0.50) })
		f.seqP99 = pickD(func(r *stdioRun) time.Duration { return r.seq.Quantile(0.99) })
		f.parP50 = pickD(func(r *stdioRun) time.Duration { return r.par.Quantile(0.50) })
		f.parP99 = pickD(func(r *stdioRun) time.Duration { return r.par.Quantile(0.99) })
		f.badP50 = pickD(func(r *stdioRun) time.Duration { return r.bad.Quantile(0.50) })
		f.seqCPU = pickD(func(r *stdioRun) time.Duration { return r.seq.CPUPerCall })
		f.parCPU = pickD(func(r *stdioRun) time.Duration { return r.par.CPUPerCall })
		f.badCPU = pickD(func(r *stdioRun) time.Duration { return r.bad.CPUPerCall })
		f.driverPar = pickD(func(r *stdioRun) time.Duration { return r.par.DriverCPUPerCall })
		f.peakRSS = int64(pick(func(r *stdioRun) float64 { return float64(r.hwm) }))
		figs[name] = f
	}

	w := e.out
	fmt.Fprintf(w, "## 1. stdio: the same driver for every server\n\n")
	fmt.Fprintf(w, "greet and create_ticket in turn; %d sequential calls, %d with %d in flight, %d rejected calls (greet without name, create_ticket with kind \"epic\", in turn), after %d warm-up calls; median of %d round(s). CPU is the server process's user+system time per call (its CPU clock, to the nanosecond); the driver's own CPU per call shows how much of the 2 cores the load generator itself takes.\n\n",
		cfg.Sequential, cfg.Parallel, cfg.InFlight, cfg.Rejected, cfg.Warmup, cfg.Rounds)
	var rows [][]string
	for _, s := range servers {
		f := figs[s.Name]
		rows = append(rows, []string{s.Name,
			rate(f.seqRate), dur(f.seqP50), dur(f.seqP99),
			rate(f.parRate), dur(f.parP50), dur(f.parP99),
			rate(f.badRate), dur(f.badP50),
			dur(f.seqCPU), dur(f.parCPU), dur(f.badCPU), dur(f.driverPar), mib(f.peakRSS)})
	}
	table(w, []string{"server", "sequential calls/s", "p50", "p99", fmt.Sprintf("%d in flight calls/s", cfg.InFlight), "p50", "p99",
		"rejected calls/s", "rejected p50", "CPU/call seq", "CPU/call in flight", "CPU/rejected call", "driver CPU/call in flight", "peak RSS"}, rows)

	m := figs[mcpgen]
	targets := map[string]float64{gosdk: 2, mcpgo: 1.5, tssdk: 3}
	fl := figs[floor]
	rows = nil
	var vs []verdict
	for _, s := range servers[1 : len(servers)-1] {
		p := figs[s.Name]
		seq, seqLo, seqHi := paired(rates(runs[mcpgen], seqOf), rates(runs[s.Name], seqOf))
		par, parLo, parHi := paired(rates(runs[mcpgen], parOf), rates(runs[s.Name], parOf))
		rows = append(rows, []string{s.Name, timesRange(seq, seqLo, seqHi), timesRange(par, parLo, parHi),
			times(p.seqP99.Seconds() / m.seqP99.Seconds()), times(p.parP99.Seconds() / m.parP99.Seconds()),
			times(m.badRate / p.badRate), times(p.seqCPU.Seconds() / m.seqCPU.Seconds()), times(p.parCPU.Seconds() / m.parCPU.Seconds()),
			times(float64(p.peakRSS) / float64(m.peakRSS)), fmt.Sprintf("≥ %.1f×", targets[s.Name]),
			times(fl.seqRate / p.seqRate), times(fl.parRate / p.parRate)})
		vs = append(vs,
			verdict{target: fmt.Sprintf("stdio sequential throughput ≥ %.1f× %s", targets[s.Name], s.Name), figure: times(seq), ratio: seq, met: seq >= targets[s.Name]},
			verdict{target: fmt.Sprintf("stdio throughput, %d in flight, ≥ %.1f× %s", cfg.InFlight, targets[s.Name], s.Name), figure: times(par), ratio: par, met: par >= targets[s.Name]})
	}
	fmt.Fprintf(w, "mcpgen's advantage (how many times better mcpgen is: throughput mcpgen/peer, latency, CPU and RSS peer/mcpgen). The throughput ratios are the median of the rounds' ratios (each round measures every server back to back), with their range; the other columns are ratios of the medians. The last two columns are the floor's throughput over the peer's: roughly the most any server could reach against that peer through this driver on this machine at this load (sequential figures are ruled by process wake-ups, so in a given round a real server can come close to the floor, or pass it).\n\n")
	table(w, []string{"vs", "sequential", fmt.Sprintf("%d in flight", cfg.InFlight), "p99 seq", "p99 in flight", "rejected calls/s", "CPU/call seq", "CPU/call in flight", "peak RSS", "throughput target",
		"floor/peer seq", "floor/peer in flight"}, rows)

	// The floor target is a ratio of two of the part's servers: read it
	// from back-to-back pairs.
	inFlight := func(srv driver.Server) func() (*driver.Stats, error) {
		return func() (*driver.Stats, error) {
			progress("pairs: %s", srv.Name)
			r, err := e.measureStdio(srv, true)
			if err != nil {
				return nil, err
			}
			return r.par, nil
		}
	}
	ms, fs, err := alternate(cfg.Pairs, inFlight(servers[0]), inFlight(servers[len(servers)-1]))
	if err != nil {
		return nil, err
	}
	med, lo, hi := paired(cpuPerCall(ms), cpuPerCall(fs))
	fmt.Fprintf(w, "mcpgen and the floor, back to back (%d pair(s) of fresh processes, alternating which goes first, each warmed up as in a round and given %d calls with %d in flight): server CPU per call %s against %s (medians), %s the floor's pair by pair (%s the medians of the rounds above: %s against %s).\n\n",
		cfg.Pairs, cfg.Parallel, cfg.InFlight, dur(median(cpus(ms))), dur(median(cpus(fs))), timesRange(med, lo, hi), times(m.parCPU.Seconds()/fl.parCPU.Seconds()), dur(m.parCPU), dur(fl.parCPU))
	vs = append(vs, verdict{target: fmt.Sprintf("stdio server CPU per call, %d in flight, ≤ 2.5× the floor's", cfg.InFlight),
		figure: fmt.Sprintf("%s vs %s (%s, %d back-to-back pair(s))", dur(median(cpus(ms))), dur(median(cpus(fs))), timesRange(med, lo, hi), cfg.Pairs), ratio: med, met: med <= 2.5})
	return vs, nil
}

func seqOf(r *stdioRun) *driver.Stats { return r.seq }
func parOf(r *stdioRun) *driver.Stats { return r.par }

// rates returns the throughput of one workload in every round.
func rates(rs []*stdioRun, of func(*stdioRun) *driver.Stats) []float64 {
	var xs []float64
	for _, r := range rs {
		xs = append(xs, of(r).PerSecond())
	}
	return xs
}
