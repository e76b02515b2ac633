package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// benchLine is one line of go test -bench output.
type benchLine struct {
	name    string             // without the Benchmark prefix and -GOMAXPROCS suffix
	metrics map[string]float64 // unit → value ("ns/op", "allocs/op", …)
}

var benchRE = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// goBench runs go test -bench in pkg and returns the medians of every
// metric of every benchmark over the -count runs.
func (e *env) goBench(pkg, bench, benchtime string, count int, benchmem bool) (map[string]map[string]float64, error) {
	args := []string{"test", "-run", "^$", "-bench", bench, "-benchtime", benchtime, "-count", strconv.Itoa(count)}
	if benchmem {
		args = append(args, "-benchmem")
	}
	args = append(args, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = e.benchDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	progress("go %s", strings.Join(args, " "))
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	progress("  (%s)", time.Since(start).Round(time.Second))
	all := map[string]map[string][]float64{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		m := benchRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		if all[m[1]] == nil {
			all[m[1]] = map[string][]float64{}
		}
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			all[m[1]][f[i+1]] = append(all[m[1]][f[i+1]], v)
		}
	}
	if len(all) == 0 {
		fmt.Fprint(os.Stderr, stdout.String())
		return nil, fmt.Errorf("go %s: no benchmark results", strings.Join(args, " "))
	}
	out := map[string]map[string]float64{}
	for name, units := range all {
		out[name] = map[string]float64{}
		for u, vs := range units {
			out[name][u] = median(vs)
		}
	}
	return out, nil
}

// inprocPart runs the testing.B benchmarks of one tools/call in process.
func (e *env) inprocPart() ([]verdict, error) {
	cfg := e.cfg
	res, err := e.goBench("./inproc", "ToolsCall", cfg.InprocBenchtime, cfg.InprocCount, true)
	if err != nil {
		return nil, err
	}
	w := e.out
	fmt.Fprintf(w, "## 3. In process: one tools/call (testing.B, -benchmem)\n\n")
	fmt.Fprintf(w, "`go test -run '^$' -bench ToolsCall -benchmem -benchtime %s -count %d ./inproc`, median of the counts. mcpgen, go-sdk and mcp-go answer newline-delimited JSON-RPC over net.Pipe (go-sdk's NewInMemoryTransports is exactly that), read and written by one allocation-free client loop; mcp-go HandleMessage is a direct call with no transport, its answer encoded with encoding/json. \"rejected\" is create_ticket with kind \"epic\".\n\n", cfg.InprocBenchtime, cfg.InprocCount)
	libs := []string{mcpgen, gosdk, mcpgo, "mcp-go-HandleMessage"}
	var rows [][]string
	var vs []verdict
	for _, call := range []string{"greet", "create_ticket", "rejected"} {
		mine := res["ToolsCall/"+call+"/"+mcpgen]
		for _, lib := range libs {
			r := res["ToolsCall/"+call+"/"+lib]
			if r == nil {
				return nil, fmt.Errorf("no result for ToolsCall/%s/%s", call, lib)
			}
			advT, advA := "", ""
			if lib != mcpgen {
				advT = times(r["ns/op"] / mine["ns/op"])
				advA = times(r["allocs/op"] / mine["allocs/op"])
			}
			rows = append(rows, []string{call, lib, fmt.Sprintf("%.0f", r["ns/op"]), fmt.Sprintf("%.0f", r["B/op"]), fmt.Sprintf("%.0f", r["allocs/op"]), advT, advA})
		}
		if call != "rejected" {
			g := res["ToolsCall/"+call+"/"+gosdk]
			adv := g["allocs/op"] / mine["allocs/op"]
			vs = append(vs, verdict{target: "allocs per tools/call (" + call + ") ≤ ½ of go-sdk's", figure: fmt.Sprintf("%.0f vs %.0f (%s)", mine["allocs/op"], g["allocs/op"], times(adv)), ratio: adv, met: adv >= 2})
		}
	}
	table(w, []string{"call", "library", "ns/op", "B/op", "allocs/op", "mcpgen advantage, time", "allocs"}, rows)
	return vs, nil
}

// maxGenerateVsLoad bounds a generation's time by the bare go/packages
// load of the same package (issue 31): jennifer's rendering, gofmt
// included, must not make go generate noticeably slower than loading the
// package already does.
const maxGenerateVsLoad = 1.7

// genPart runs the generator benchmarks.
func (e *env) genPart() ([]verdict, error) {
	cfg := e.cfg
	res, err := e.goBench("./genbench", "GenerateVsLoad", cfg.GenBenchtime, cfg.GenCount, false)
	if err != nil {
		return nil, err
	}
	w := e.out
	fmt.Fprintf(w, "## 4. The generator\n\n")
	fmt.Fprintf(w, "`go test -run '^$' -bench GenerateVsLoad -benchtime %s -count %d ./genbench`: each iteration runs a whole generation (gen.Generate: load, model, schemas, emit, in memory) and a bare go/packages load of the same package with gen's load mode, alternately; median of the counts.\n\n", cfg.GenBenchtime, cfg.GenCount)
	var rows [][]string
	var vs []verdict
	for _, n := range []int{10, 50, 200} {
		r := res[fmt.Sprintf("GenerateVsLoad/tools=%d", n)]
		if r == nil {
			return nil, fmt.Errorf("no result for %d tools", n)
		}
		g, l := time.Duration(r["gen-ns/op"]), time.Duration(r["load-ns/op"])
		ratio := g.Seconds() / l.Seconds()
		rows = append(rows, []string{strconv.Itoa(n), dur(g), dur(l), fmt.Sprintf("%.2f", ratio), dur(g - l)})
		vs = append(vs, verdict{target: fmt.Sprintf("generation of %d tools ≤ 1.7× the bare load", n), figure: fmt.Sprintf("%.2f× (%s vs %s)", ratio, dur(g), dur(l)), ratio: ratio, met: ratio <= maxGenerateVsLoad})
	}
	table(w, []string{"tools", "generate", "bare load", "generate / load (target ≤ 1.7)", "generator's own time"}, rows)
	return vs, nil
}
