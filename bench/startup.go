package main

import (
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
)

// startupPart measures cold starts to the first tools/list answer, with
// the two benchmark tools and with 200 tools. The reflection-based peers
// derive their schemas at start-up; mcpgen did it at build time.
func (e *env) startupPart() ([]verdict, error) {
	cfg := e.cfg
	type key struct {
		name string
		many bool
	}
	times200 := map[key][]time.Duration{}
	for run := range cfg.StartupRuns {
		progress("startup: run %d/%d", run+1, cfg.StartupRuns)
		for _, many := range []bool{false, true} {
			want := 2
			if many {
				want = 200
			}
			for _, s := range rotate(e.servers(many), run) {
				d, n, err := driver.StartupToList(s)
				if err != nil {
					return nil, err
				}
				if n != want {
					return nil, fmt.Errorf("%s: tools/list has %d tools, want %d", s.Name, n, want)
				}
				k := key{s.Name, many}
				times200[k] = append(times200[k], d)
			}
		}
	}
	w := e.out
	fmt.Fprintf(w, "## 2. Start-up to the first tools/list answer\n\n")
	fmt.Fprintf(w, "From just before the process starts to the tools/list answer, after initialize and notifications/initialized; %d cold starts per server and size, in rotated order; median (and fastest).\n\n", cfg.StartupRuns)
	var rows [][]string
	for _, s := range e.servers(false) {
		two, many := times200[key{s.Name, false}], times200[key{s.Name, true}]
		rows = append(rows, []string{s.Name, dur(median(two)), dur(minOf(two)), dur(median(many)), dur(minOf(many)), dur(median(many) - median(two))})
	}
	table(w, []string{"server", "2 tools median", "fastest", "200 tools median", "fastest", "cost of 198 more tools"}, rows)

	m := median(times200[key{mcpgen, true}])
	m2 := median(times200[key{mcpgen, false}])
	rows = nil
	var vs []verdict
	for _, s := range e.servers(false)[1:] {
		p := median(times200[key{s.Name, true}])
		p2 := median(times200[key{s.Name, false}])
		adv, lo, hi := paired(secs(times200[key{s.Name, true}]), secs(times200[key{mcpgen, true}]))
		target := "–"
		if s.Name == gosdk {
			target = "≥ 3×"
			vs = append(vs, verdict{target: "start-up with 200 tools ≤ ⅓ of go-sdk's", figure: fmt.Sprintf("%s vs %s (%s)", dur(m), dur(p), times(adv)), ratio: adv, met: adv >= 3})
		}
		rows = append(rows, []string{s.Name, times(p2.Seconds() / m2.Seconds()), timesRange(adv, lo, hi), target})
	}
	fmt.Fprintf(w, "mcpgen's advantage (peer time / mcpgen time; for 200 tools, the median of the runs' ratios, with their range):\n\n")
	table(w, []string{"vs", "2 tools", "200 tools", "target (200 tools)"}, rows)

	res, err := e.goBench("./inproc", "Startup200", cfg.StartupBenchtime, 1, true)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "The in-process share of a 200-tool start, without exec and the language runtime's own start: build the server, register the tools, connect over net.Pipe, answer initialize and the first tools/list (`go test -run '^$' -bench Startup200 -benchmem -benchtime %s ./inproc`):\n\n", cfg.StartupBenchtime)
	rows = nil
	mine := res["Startup200/"+mcpgen]
	for _, lib := range []string{mcpgen, gosdk, mcpgo} {
		r := res["Startup200/"+lib]
		if r == nil {
			return nil, fmt.Errorf("no result for Startup200/%s", lib)
		}
		adv := ""
		if lib != mcpgen {
			adv = times(r["ns/op"] / mine["ns/op"])
		}
		rows = append(rows, []string{lib, dur(time.Duration(r["ns/op"])), fmt.Sprintf("%.1f MiB", r["B/op"]/(1<<20)), fmt.Sprintf("%.0f", r["allocs/op"]), adv})
	}
	table(w, []string{"library", "time", "allocated", "allocs", "mcpgen advantage"}, rows)
	return vs, nil
}

func minOf(xs []time.Duration) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}

func secs(ds []time.Duration) []float64 {
	var xs []float64
	for _, d := range ds {
		xs = append(xs, d.Seconds())
	}
	return xs
}
