package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
)

// A verdict is one target of the issue, checked.
type verdict struct {
	target string  // what the issue asks
	figure string  // what was measured
	ratio  float64 // mcpgen's advantage (or gen/load for the generator)
	met    bool
}

func printVerdicts(w io.Writer, vs []verdict) {
	if len(vs) == 0 {
		return
	}
	fmt.Fprintf(w, "## Targets\n\n| target | measured | |\n|---|---|---|\n")
	for _, v := range vs {
		mark := "met"
		if !v.met {
			mark = "**missed**"
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", v.target, v.figure, mark)
	}
	fmt.Fprintln(w)
}

// table writes a Markdown table.
func table(w io.Writer, header []string, rows [][]string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(header, " | "))
	seps := make([]string, len(header))
	for i := range seps {
		if i == 0 {
			seps[i] = "---"
		} else {
			seps[i] = "---:"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
	fmt.Fprintln(w)
}

// dur formats a duration with three significant digits.
func dur(d time.Duration) string {
	switch {
	case d <= 0:
		return "–"
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return sig3(float64(d.Nanoseconds())/1e3) + " µs"
	case d < time.Second:
		return sig3(float64(d.Nanoseconds())/1e6) + " ms"
	default:
		return sig3(d.Seconds()) + " s"
	}
}

func sig3(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// rate formats calls per second.
func rate(v float64) string {
	if v <= 0 || math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.0f", v)
}

func mib(b int64) string {
	if b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

// times formats mcpgen's advantage: how many times better mcpgen is.
func times(v float64) string {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return fmt.Sprintf("%.2f×", v)
}

func median[T int64 | float64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// paired returns the median, smallest and largest of a[i]/b[i]: ratios of
// measurements taken in the same round, close in time, so that a burst of
// load on the machine moves both sides of a ratio alike.
func paired(a, b []float64) (med, lo, hi float64) {
	var rs []float64
	for i := range min(len(a), len(b)) {
		if b[i] > 0 {
			rs = append(rs, a[i]/b[i])
		}
	}
	if len(rs) == 0 {
		return 0, 0, 0
	}
	return median(rs), slices.Min(rs), slices.Max(rs)
}

// alternate measures a and b back to back, pairs times each: a first in
// one pair, b first in the next, so that a change in the machine's load
// during the run falls on both alike. It returns their figures pair by
// pair. A target that is a ratio of two of mcpgen's servers, or of mcpgen
// to the floor, is read from such pairs: a part's rounds measure every
// peer between the two, and on a shared 2-core machine the load moves
// more in a minute than the difference being measured.
func alternate[R any](pairs int, a, b func() (R, error)) (as, bs []R, err error) {
	for i := range pairs {
		first, second := a, b
		if i%2 == 1 {
			first, second = b, a
		}
		x, err := first()
		if err != nil {
			return nil, nil, err
		}
		y, err := second()
		if err != nil {
			return nil, nil, err
		}
		if i%2 == 1 {
			x, y = y, x
		}
		as, bs = append(as, x), append(bs, y)
	}
	return as, bs, nil
}

// cpus returns the server CPU per call of each of ss.
func cpus(ss []*driver.Stats) []time.Duration {
	xs := make([]time.Duration, len(ss))
	for i, s := range ss {
		xs[i] = s.CPUPerCall
	}
	return xs
}

// cpuPerCall returns the server CPU per call of each of ss, in seconds.
func cpuPerCall(ss []*driver.Stats) []float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = s.CPUPerCall.Seconds()
	}
	return xs
}

// pairsText says how back-to-back pairs were measured.
func pairsText(pairs int, each time.Duration) string {
	return fmt.Sprintf("%d pair(s) of fresh processes, alternating which goes first, each warmed up as in a round and measured for %s", pairs, dur(each))
}

// throughputs returns the calls per second of each of ss.
func throughputs(ss []*driver.Stats) []float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = s.PerSecond()
	}
	return xs
}

// pairedDiff returns the median, smallest and largest of a[i]-b[i].
func pairedDiff(a, b []time.Duration) (med, lo, hi time.Duration) {
	var ds []time.Duration
	for i := range min(len(a), len(b)) {
		ds = append(ds, a[i]-b[i])
	}
	if len(ds) == 0 {
		return 0, 0, 0
	}
	return median(ds), slices.Min(ds), slices.Max(ds)
}

// timesRange formats a paired ratio with its range when there is one.
func timesRange(med, lo, hi float64) string {
	if lo == hi {
		return times(med)
	}
	return fmt.Sprintf("%s (%.2f–%.2f)", times(med), lo, hi)
}
