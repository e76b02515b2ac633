package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// standinResult mirrors cmd/cli-standin's Measurements.
type standinResult struct {
	Tools       int          `json:"tools"`
	Sequential  standinPhase `json:"sequential"`
	Concurrent  standinPhase `json:"concurrent"`
	HandshakeNs int64        `json:"handshake_ns"`
	StartNs     int64        `json:"start_ns"`
	HostPeakRSS int64        `json:"host_peak_rss"`
}

type standinPhase struct {
	Calls     int     `json:"calls"`
	PerSecond float64 `json:"per_second"`
	P50Ns     int64   `json:"p50_ns"`
	P99Ns     int64   `json:"p99_ns"`
	HostCPUNs int64   `json:"host_cpu_ns"`
}

type host struct {
	name string
	argv []string
	dir  string
}

const tsHost = "TS Agent SDK"

func (e *env) hosts() []host {
	standin := filepath.Join(e.bin, "cli-standin")
	return []host{
		{name: mcpgen, argv: []string{filepath.Join(e.bin, "host-mcpgen"), standin}},
		{name: tsHost, argv: []string{"node", filepath.Join(e.tsDir, "host.mjs"), standin}, dir: e.tsDir},
		{name: floor, argv: []string{filepath.Join(e.bin, "host-floor"), standin}},
	}
}

func (e *env) runHost(h host) (*standinResult, error) {
	cfg := e.cfg
	out, err := os.CreateTemp("", "standin-*.json")
	if err != nil {
		return nil, err
	}
	out.Close()
	defer os.Remove(out.Name())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.argv[0], h.argv[1:]...)
	cmd.Dir = h.dir
	cmd.Env = append(os.Environ(),
		"MCPGEN_STANDIN_OUT="+out.Name(),
		"MCPGEN_STANDIN_SEQ="+strconv.Itoa(cfg.ControlSequential),
		"MCPGEN_STANDIN_PAR="+strconv.Itoa(cfg.ControlParallel),
		"MCPGEN_STANDIN_INFLIGHT="+strconv.Itoa(cfg.InFlight),
		"MCPGEN_STANDIN_WARMUP="+strconv.Itoa(cfg.ControlWarmup))
	var stderr bytes.Buffer
	cmd.Stdout = &stderr
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", h.name, err, stderr.String())
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		return nil, err
	}
	var r standinResult
	if err := json.Unmarshal(data, &r); err != nil || r.Sequential.Calls == 0 {
		return nil, fmt.Errorf("%s: no measurements from the stand-in (%v)\n%s", h.name, err, stderr.String())
	}
	return &r, nil
}

func (e *env) controlPart() ([]verdict, error) {
	cfg := e.cfg
	runs := map[string][]*standinResult{}
	for run := range cfg.ControlRuns {
		for _, h := range rotate(e.hosts(), run) {
			progress("control: run %d/%d: %s", run+1, cfg.ControlRuns, h.name)
			r, err := e.runHost(h)
			if err != nil {
				return nil, err
			}
			runs[h.name] = append(runs[h.name], r)
		}
	}
	type figs struct {
		seqRate, conRate                               float64
		seqP50, seqP99, conP50, conP99, seqCPU, conCPU time.Duration
		handshake                                      time.Duration
		rss                                            int64
	}
	get := map[string]*figs{}
	for name, rs := range runs {
		f := &figs{}
		med := func(g func(*standinResult) float64) float64 {
			var xs []float64
			for _, r := range rs {
				xs = append(xs, g(r))
			}
			return median(xs)
		}
		f.seqRate = med(func(r *standinResult) float64 { return r.Sequential.PerSecond })
		f.conRate = med(func(r *standinResult) float64 { return r.Concurrent.PerSecond })
		f.seqP50 = time.Duration(med(func(r *standinResult) float64 { return float64(r.Sequential.P50Ns) }))
		f.seqP99 = time.Duration(med(func(r *standinResult) float64 { return float64(r.Sequential.P99Ns) }))
		f.conP50 = time.Duration(med(func(r *standinResult) float64 { return float64(r.Concurrent.P50Ns) }))
		f.conP99 = time.Duration(med(func(r *standinResult) float64 { return float64(r.Concurrent.P99Ns) }))
		f.seqCPU = time.Duration(med(func(r *standinResult) float64 { return float64(r.Sequential.HostCPUNs) / float64(r.Sequential.Calls) }))
		f.conCPU = time.Duration(med(func(r *standinResult) float64 { return float64(r.Concurrent.HostCPUNs) / float64(r.Concurrent.Calls) }))
		f.handshake = time.Duration(med(func(r *standinResult) float64 { return float64(r.HandshakeNs) }))
		f.rss = int64(med(func(r *standinResult) float64 { return float64(r.HostPeakRSS) }))
		get[name] = f
	}
	w := e.out
	fmt.Fprintf(w, "## 5. Control protocol: in-process servers behind the Claude CLI's control channel\n\n")
	fmt.Fprintf(w, "A scripted CLI stand-in (cmd/cli-standin) is spawned by each host as its Claude Code executable; it answers the host's initialize, connects to the host's sdk server through mcp_message (initialize, notifications/initialized, tools/list), waits for the user turn, then sends tools/call for greet and create_ticket in turn as mcp_message control requests: %d one at a time, then %d with %d in flight (after %d warm-up calls of each kind), matching control_responses by request_id and checking every answer. A round trip is from writing the control_request to reading its control_response. Host CPU and peak RSS are the host process's (the stand-in's parent). Median of %d run(s) per host.\n\n",
		cfg.ControlSequential, cfg.ControlParallel, cfg.InFlight, cfg.ControlWarmup, cfg.ControlRuns)
	var rows [][]string
	for _, h := range e.hosts() {
		f := get[h.name]
		rows = append(rows, []string{h.name, rate(f.seqRate), dur(f.seqP50), dur(f.seqP99), rate(f.conRate), dur(f.conP50), dur(f.conP99),
			dur(f.seqCPU), dur(f.conCPU), dur(f.handshake), mib(f.rss)})
	}
	table(w, []string{"host", "sequential round trips/s", "p50", "p99", fmt.Sprintf("%d in flight round trips/s", cfg.InFlight), "p50", "p99",
		"host CPU/round trip seq", "in flight", "MCP handshake", "host peak RSS"}, rows)
	m, t, fl := get[mcpgen], get[tsHost], get[floor]
	perRun := func(name string, g func(*standinResult) float64) []float64 {
		var xs []float64
		for _, r := range runs[name] {
			xs = append(xs, g(r))
		}
		return xs
	}
	seqRate := func(r *standinResult) float64 { return r.Sequential.PerSecond }
	conRate := func(r *standinResult) float64 { return r.Concurrent.PerSecond }
	seq, seqLo, seqHi := paired(perRun(mcpgen, seqRate), perRun(tsHost, seqRate))
	con, conLo, conHi := paired(perRun(mcpgen, conRate), perRun(tsHost, conRate))
	p99s, p99c := t.seqP99.Seconds()/m.seqP99.Seconds(), t.conP99.Seconds()/m.conP99.Seconds()
	fmt.Fprintf(w, "mcpgen's advantage over the TypeScript Agent SDK host (throughput: the median of the runs' ratios, each run measuring both hosts back to back, with their range; the rest: ratios of the medians); the floor columns are the floor host's figures over the TS host's, roughly the most any host could reach here through this stand-in at this load (sequentially, wake-ups rule and a real host can come close to the floor or pass it):\n\n")
	table(w, []string{"vs", "sequential round trips/s", "in flight round trips/s", "p99 seq", "p99 in flight", "host CPU/round trip seq", "in flight", "host peak RSS", "target",
		"floor/TS seq", "in flight", "p99 seq", "p99 in flight"},
		[][]string{{tsHost, timesRange(seq, seqLo, seqHi), timesRange(con, conLo, conHi), times(p99s), times(p99c), times(t.seqCPU.Seconds() / m.seqCPU.Seconds()), times(t.conCPU.Seconds() / m.conCPU.Seconds()), times(float64(t.rss) / float64(m.rss)), "≥ 5× throughput, p99 ≤ ⅕",
			times(fl.seqRate / t.seqRate), times(fl.conRate / t.conRate), times(t.seqP99.Seconds() / fl.seqP99.Seconds()), times(t.conP99.Seconds() / fl.conP99.Seconds())}})
	return []verdict{
		{target: "control protocol round trips, sequential, ≥ 5× the TS Agent SDK", figure: times(seq), ratio: seq, met: seq >= 5},
		{target: fmt.Sprintf("control protocol round trips, %d in flight, ≥ 5× the TS Agent SDK", cfg.InFlight), figure: times(con), ratio: con, met: con >= 5},
		{target: "control protocol p99, sequential, ≤ ⅕ of the TS Agent SDK's", figure: fmt.Sprintf("%s vs %s (%s)", dur(m.seqP99), dur(t.seqP99), times(p99s)), ratio: p99s, met: p99s >= 5},
		{target: fmt.Sprintf("control protocol p99, %d in flight, ≤ ⅕ of the TS Agent SDK's", cfg.InFlight), figure: fmt.Sprintf("%s vs %s (%s)", dur(m.conP99), dur(t.conP99), times(p99c)), ratio: p99c, met: p99c >= 5},
	}, nil
}
