// Command testall runs the tests of every module of the repository, as
// go test github.com/mcpgen/mcpgen/... does (go.work lists the modules),
// prints what go test prints, and ends with the tests that were skipped,
// grouped by what they lacked and how to get it. Without it a run that
// lacks the Claude Code CLI, Hydra, Jaeger or Redis says ok while a tenth
// of its tests did not run.
//
// Usage:
//
//	go run ./internal/testall [go test flags] [packages]
//
// Flags and packages are go test's; the packages default to every
// module's. With -v it prints every test's output as go test -v does.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// everything is what go test runs without packages given.
const everything = "github.com/mcpgen/mcpgen/..."

// run runs go test -json with args, reports as go test would, and returns
// its exit status.
func run(args []string, stdout, stderr io.Writer) int {
	verbose := slices.Contains(args, "-v")
	if !hasPackages(args) {
		args = append(args, everything)
	}
	cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "testall:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "testall:", err)
		return 2
	}
	r := newReport(stdout, verbose)
	if err := r.read(out); err != nil {
		fmt.Fprintln(stderr, "testall:", err)
	}
	status := 0
	if err := cmd.Wait(); err != nil {
		status = 1
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		}
	}
	r.summary()
	return status
}

// hasPackages reports whether args name packages: an argument that is
// not a flag, and not the value of one (go test's value flags are written
// -flag=value here, or are the few below).
func hasPackages(args []string) bool {
	valueFlags := []string{"-run", "-skip", "-count", "-timeout", "-bench", "-benchtime", "-cpu", "-parallel", "-tags", "-coverprofile", "-cpuprofile", "-memprofile", "-fuzz", "-fuzztime", "-p", "-shuffle", "-list"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case slices.Contains(valueFlags, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return true
		}
	}
	return false
}

// An event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

// A report follows the events of a run.
type report struct {
	w       io.Writer
	verbose bool
	// output holds each running test's output, until it ends: printed if
	// it fails, read for its reason if it is skipped.
	output map[string][]string
	// failed are the output lines of a package's failed tests.
	failed map[string][]string
	// skips are the skipped tests, by reason.
	skips map[string][]string
}

func newReport(w io.Writer, verbose bool) *report {
	return &report{w: w, verbose: verbose, output: map[string][]string{}, failed: map[string][]string{}, skips: map[string][]string{}}
}

func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(r.w, sc.Text()) // not an event: the go command's own words
			continue
		}
		r.event(e)
	}
	return sc.Err()
}

func (r *report) event(e event) {
	key := e.Package + " " + e.Test
	switch {
	case e.Action == "output" && r.verbose:
		fmt.Fprint(r.w, e.Output)
	case e.Action == "output" && e.Test != "":
		r.output[key] = append(r.output[key], e.Output)
	case e.Action == "output":
		// A package's own lines: ok, FAIL, "no test files", a build error.
		if isSummaryLine(e.Output) {
			fmt.Fprint(r.w, e.Output)
		} else {
			r.failed[e.Package] = append(r.failed[e.Package], e.Output)
		}
	case e.Test != "" && e.Action == "skip":
		reason := skipReason(r.output[key])
		r.skips[reason] = append(r.skips[reason], e.Package+"."+e.Test)
		delete(r.output, key)
	case e.Test != "" && e.Action == "fail":
		if !r.verbose {
			for _, l := range r.output[key] {
				if !strings.HasPrefix(l, "=== ") { // go test without -v prints no RUN, PAUSE or CONT lines
					fmt.Fprint(r.w, l)
				}
			}
		}
		delete(r.output, key)
	case e.Test != "" && e.Action == "pass":
		delete(r.output, key)
	case e.Test == "" && e.Action == "fail" && !r.verbose:
		fmt.Fprint(r.w, strings.Join(r.failed[e.Package], ""))
		delete(r.failed, e.Package)
	}
}

// isSummaryLine reports a package's result line, as go test prints it.
func isSummaryLine(s string) bool {
	return strings.HasPrefix(s, "ok  \t") || strings.HasPrefix(s, "FAIL\t") || strings.HasPrefix(s, "?   \t") || s == "FAIL\n"
}

// skipPosition is the file:line a test's log line starts with.
var skipPosition = regexp.MustCompile(`^\s*\S+\.go:\d+: `)

// skipReason is why a test was skipped: its last logged line, without
// the position, and for the helpers' "no X found: how" the part naming
// what was missing and how to get it.
func skipReason(lines []string) string {
	reason := "(no reason given)"
	for _, l := range lines {
		l = strings.TrimRight(l, "\n")
		if strings.HasPrefix(strings.TrimSpace(l), "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		if loc := skipPosition.FindStringIndex(l); loc != nil {
			reason = strings.TrimSpace(l[loc[1]:])
		}
	}
	return reason
}

// summary prints the skipped tests, most common reason first.
func (r *report) summary() {
	total := 0
	var reasons []string
	for reason, tests := range r.skips {
		total += len(tests)
		reasons = append(reasons, reason)
	}
	if total == 0 {
		return
	}
	slices.SortFunc(reasons, func(a, b string) int {
		return cmp.Or(len(r.skips[b])-len(r.skips[a]), strings.Compare(a, b))
	})
	fmt.Fprintf(r.w, "\n%d %s skipped, for want of what they test against (.ci/run installs it all):\n", total, plural(total, "test was", "tests were"))
	for _, reason := range reasons {
		fmt.Fprintf(r.w, "%6d  %s\n", len(r.skips[reason]), reason)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
