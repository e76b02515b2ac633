// Package difffuzz is the generator's differential fuzzer: it writes
// random Go types and tools into a temporary module, runs mcpgen on them,
// builds the result once per batch of tools, and has a harness
// (package harness) call every tool through the runtime with many JSON
// values, comparing the runtime's verdicts and the values its handlers
// receive with encoding/json's and with an independent JSON Schema
// validator's. Every disagreement is a documented policy (the table in
// classify_test.go) or a defect, reported once per class with the seed,
// the Go declarations and the smallest JSON value found.
//
// By default it runs a fixed set of seeds, 8 batches of 38 tools, a
// minute and a half on two cores (2 batches under the race detector).
// MCPGEN_DIFFFUZZ_BATCHES=n runs n batches, MCPGEN_DIFFFUZZ_SEED=s starts
// at seed s, MCPGEN_DIFFFUZZ_VALUES=v gives each tool v values of each
// source; MCPGEN_DIFFFUZZ_SUMMARY=file writes the figures there, and
// MCPGEN_DIFFFUZZ_FINDINGS=file the findings, as Markdown;
// MCPGEN_DIFFFUZZ_KEEP=1 keeps the modules it builds. The package has
// only test files, and the harness.
package difffuzz_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/internal/difffuzz/harness"
)

// The bounded run: this many batches of this many tools, each tool given
// this many values of each source (Go values, schema instances, and
// twice as many mutations); under the race detector, raceBatches.
const (
	defaultBatches = 8
	raceBatches    = 2
	inputTools     = 30
	outputTools    = 8
	defaultValues  = 30
)

func envInt(name string, def int) int {
	if s := os.Getenv(name); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	return def
}

// stats are the run's figures.
type stats struct {
	batches, types, tools, refused, values int
	ran, compared                          int
	sources                                map[string]int
	policies                               map[string]int
	// examples holds the first disagreement each policy explained.
	examples map[string]*harness.Report
	defects  map[string]int
	refusals map[string]int
	// time spent generating, building, running the harness, minimizing
	generating, building, running, minimizing time.Duration
}

// A finding is a defect class and its first reproducer.
type finding struct {
	class   string
	item    string
	seed    uint64
	tool    string
	decls   string
	report  *harness.Report
	message string // for findings that are not a harness report
	count   int
	// minimized says that decls and report are those of a smaller tool,
	// minTool, made from tool's.
	minimized bool
	minTool   string
}

type findings struct {
	byClass map[string]*finding
	order   []string
}

// add adds a finding, and reports whether its class is new.
func (fs *findings) add(f *finding) bool {
	if old, ok := fs.byClass[f.class]; ok {
		old.count += max(f.count, 1)
		return false
	}
	f.count = max(f.count, 1)
	f.item = issueItem(f.class)
	fs.byClass[f.class] = f
	fs.order = append(fs.order, f.class)
	return true
}

func TestDifferential(t *testing.T) {
	mb, err := loadBase()
	if err != nil {
		t.Fatal(err)
	}
	batches := defaultBatches
	if raceEnabled {
		batches = raceBatches
	}
	batches = envInt("MCPGEN_DIFFFUZZ_BATCHES", batches)
	first := uint64(envInt("MCPGEN_DIFFFUZZ_SEED", 1))
	values := envInt("MCPGEN_DIFFFUZZ_VALUES", defaultValues)
	ctx := context.Background()
	dir := t.TempDir()
	if os.Getenv("MCPGEN_DIFFFUZZ_KEEP") != "" {
		var err error
		if dir, err = os.MkdirTemp("", "difffuzz"); err != nil {
			t.Fatal(err)
		}
		t.Logf("the modules are kept in %s", dir)
	}
	st := &stats{sources: map[string]int{}, policies: map[string]int{}, defects: map[string]int{}, refusals: map[string]int{}, examples: map[string]*harness.Report{}}
	fs := &findings{byClass: map[string]*finding{}}
	start := time.Now()
	for i := range batches {
		b := newBatch(first+uint64(i), inputTools, outputTools)
		b.first = i == 0
		b.dir = filepath.Join(dir, fmt.Sprintf("batch%d", i))
		runBatch(ctx, t, mb, b, values, st, fs)
		if os.Getenv("MCPGEN_DIFFFUZZ_KEEP") == "" {
			os.RemoveAll(b.dir)
			os.RemoveAll(b.dir + "-min")
		}
	}
	sum := summary(st, fs, time.Since(start))
	t.Log(sum)
	if path := os.Getenv("MCPGEN_DIFFFUZZ_SUMMARY"); path != "" {
		if err := os.WriteFile(path, []byte(sum), 0o666); err != nil {
			t.Error(err)
		}
	}
	if path := os.Getenv("MCPGEN_DIFFFUZZ_FINDINGS"); path != "" {
		if err := os.WriteFile(path, []byte(markdown(st, fs)), 0o666); err != nil {
			t.Error(err)
		}
	}
	for _, class := range fs.order {
		t.Error(fs.byClass[class].String())
	}
}

// runBatch generates, builds and checks one batch, and minimizes the
// reproducers of the defect classes it is the first to show.
func runBatch(ctx context.Context, t *testing.T, mb *moduleBase, b *batch, values int, st *stats, fs *findings) {
	t.Helper()
	if !b.settle(ctx, t, mb, st, fs) {
		return
	}
	st.batches++
	st.types += len(b.g.decls)
	st.tools += len(b.kept())
	st.refused += len(b.tools) - len(b.kept())
	t0 := time.Now()
	reports, err := b.run(ctx, b.config(values))
	st.running += time.Since(t0)
	if err != nil {
		fs.add(&finding{class: "the harness program failed", seed: b.seed, message: err.Error()})
		return
	}
	byTool := map[string]*tool{}
	for _, x := range b.tools {
		byTool[x.name] = x
	}
	var fresh []*finding
	for _, r := range reports {
		switch r.Event {
		case "summary":
			st.values += r.Values
			st.ran += r.Ran
			st.compared += r.Compared
			for k, v := range r.Sources {
				st.sources[k] += v
			}
			continue
		case "replayed":
			continue
		}
		if p := policyOf(r); p != nil {
			st.policies[p.name] += max(r.Count, 1)
			if st.examples[p.name] == nil {
				st.examples[p.name] = r
			}
			continue
		}
		if r.Event == harness.DurationUnit && b.diagnosedField(r) {
			continue // a warning says the unit instead
		}
		class := b.defectClass(r)
		st.defects[class] += max(r.Count, 1)
		f := &finding{class: class, seed: b.seed, tool: r.Tool, report: r, count: r.Count}
		if tl := byTool[r.Tool]; tl != nil {
			f.decls = b.declarations(tl)
		}
		if fs.add(f) {
			fresh = append(fresh, f)
		}
	}
	t0 = time.Now()
	minimize(ctx, t, mb, b, fresh, byTool)
	st.minimizing += time.Since(t0)
}

// settle generates and builds the batch, leaving out the tools mcpgen
// refuses or whose generated code does not compile, until the module
// builds; it reports false when no tool is left. With fs, it records the
// findings of generation (panics, diagnostics missing, nondeterminism,
// code that does not compile) and st the refusals.
func (b *batch) settle(ctx context.Context, t *testing.T, mb *moduleBase, st *stats, fs *findings) bool {
	t.Helper()
	for round := 0; ; round++ {
		if round > 8 {
			t.Fatalf("seed %d: the batch still does not build after %d rounds", b.seed, round)
		}
		if len(b.kept()) == 0 {
			return false
		}
		if err := b.write(mb); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		res, err := b.generate(ctx)
		if st != nil {
			st.generating += time.Since(t0)
		}
		var pe *panicError
		if errors.As(err, &pe) {
			culprit := b.bisectPanic(ctx, t, mb)
			if fs != nil {
				fs.add(&finding{class: "generator panic", seed: b.seed, tool: culprit.name, decls: b.declarations(culprit), message: pe.stack})
			}
			culprit.refused = "panic"
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v", b.seed, err)
		}
		if round == 0 && fs != nil {
			b.diags = res.Diagnostics
			b.checkDiagnostics(fs)
		}
		refusedBy := map[*tool]gen.Diagnostic{}
		for _, d := range res.Diagnostics {
			if d.Severity != gen.Error {
				continue
			}
			ts := b.toolsAt(d.Pos.Filename, d.Pos.Line)
			if len(ts) == 0 {
				t.Fatalf("seed %d: an error mcpgen reported is at no tool's declarations: %s\n%s", b.seed, d.Format(b.dir), b.files[strings.TrimPrefix(d.Pos.Filename, b.dir+"/")])
			}
			for _, tl := range ts {
				if _, ok := refusedBy[tl]; !ok {
					refusedBy[tl] = d
				}
			}
		}
		for tl, d := range refusedBy {
			tl.refused = d.Format(b.dir)
			if st != nil {
				st.refusals[b.refusalKind(d.Message)]++
			}
		}
		if len(refusedBy) > 0 {
			continue
		}
		if _, err := res.Write(); err != nil {
			t.Fatal(err)
		}
		if fs != nil && !b.checkedDeterminism {
			b.checkedDeterminism = true
			t0 := time.Now()
			b.checkDeterministic(ctx, res, fs)
			st.generating += time.Since(t0)
		}
		t0 = time.Now()
		out, err := b.build(ctx)
		if st != nil {
			st.building += time.Since(t0)
		}
		if err != nil {
			byTool, unmapped := b.buildErrors(out)
			if len(unmapped) > 0 || len(byTool) == 0 {
				t.Fatalf("seed %d: the module does not build, and not in the generated code of a tool:\n%s\n%s", b.seed, out, strings.Join(unmapped, "\n"))
			}
			for tl, msg := range byTool {
				if fs != nil {
					fs.add(&finding{class: "generated code does not compile: " + compileKind(msg), seed: b.seed, tool: tl.name, decls: b.declarations(tl), message: msg})
				}
				tl.refused = "does not compile"
			}
			continue
		}
		return true
	}
}

// refusalKind is an error message of mcpgen without its path, and with
// the batch's types named by their constructs, to count refusals by kind.
func (b *batch) refusalKind(msg string) string {
	msg = strings.TrimPrefix(msg, "result of ")
	if i := strings.Index(msg, ": "); i >= 0 && !strings.Contains(msg[:i], " ") {
		msg = msg[i+2:]
	}
	msg, _, _ = strings.Cut(msg, ": only string keys")
	labels := map[string]string{}
	for _, d := range b.g.decls {
		labels[d.name] = d.label
	}
	return declWord.ReplaceAllStringFunc(msg, func(w string) string {
		if l, ok := labels[w]; ok {
			return "<" + strings.TrimSuffix(l, "-sentinel") + ">"
		}
		return w
	})
}

var declWord = regexp.MustCompile(`\b[A-Za-z]+[0-9]+\b`)

func compileKind(msg string) string {
	_, m, _ := strings.Cut(msg, ": ")
	m, _, _ = strings.Cut(m, "\n")
	if strings.HasPrefix(m, "syntax error: the function name") {
		return "a function name that is not an identifier"
	}
	if i := strings.Index(m, " (declared at "); i >= 0 {
		m = m[:i]
	}
	return declName.ReplaceAllString(m, "T")
}

// bisectPanic finds a tool whose presence alone makes mcpgen panic.
func (b *batch) bisectPanic(ctx context.Context, t *testing.T, mb *moduleBase) *tool {
	all := b.kept()
	suspects := all
	for len(suspects) > 1 {
		half := suspects[:len(suspects)/2]
		for _, x := range all {
			x.refused = "bisect"
		}
		for _, x := range half {
			x.refused = ""
		}
		b.write(mb)
		_, err := b.generate(ctx)
		var pe *panicError
		if errors.As(err, &pe) {
			suspects = half
		} else {
			suspects = suspects[len(suspects)/2:]
		}
	}
	for _, x := range all {
		x.refused = ""
	}
	return suspects[0]
}

// checkDiagnostics reports internal errors, and the diagnostics mcpgen
// should have reported and did not.
func (b *batch) checkDiagnostics(fs *findings) {
	for _, d := range b.diags {
		if strings.Contains(d.Message, "internal error") {
			fs.add(&finding{class: "internal error", seed: b.seed, message: d.Format(b.dir)})
		}
		if d.Pos.Filename != "" && !strings.HasPrefix(d.Pos.Filename, b.dir+string(filepath.Separator)) {
			fs.add(&finding{class: "a diagnostic positioned outside the user's module", seed: b.seed, message: d.String()})
		}
	}
	for _, e := range b.expectations() {
		if b.met(e) {
			continue
		}
		f := &finding{class: "missing diagnostic: " + e.what, seed: b.seed, message: fmt.Sprintf("%s:%d: no diagnostic", e.at[0].file, e.at[0].first)}
		if e.tool != nil {
			f.tool, f.decls = e.tool.name, b.declarations(e.tool)
		}
		if e.decl != nil {
			var w source
			writeDecl(&w, e.decl)
			f.decls = strings.TrimSpace(w.String())
		}
		fs.add(f)
	}
}

// checkDeterministic generates the batch once more, the first batch of
// a run six times more: the output must not change (issue 29 1.1: the
// order of constants followed the order in which go/packages happened to
// parse the files, which differs one generation in ten here).
func (b *batch) checkDeterministic(ctx context.Context, res *gen.Result, fs *findings) {
	n := 1
	if b.first && !raceEnabled {
		n = 6
	}
	for range n {
		again, err := b.generate(ctx)
		if err != nil || again.Content == nil {
			return
		}
		if string(again.Content) != string(res.Content) {
			fs.add(&finding{class: "nondeterministic output", seed: b.seed, message: firstDifference(string(res.Content), string(again.Content))})
			return
		}
	}
}

func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("mcp_gen.go line %d: %q, then %q", i+1, al[i], bl[i])
		}
	}
	return "lengths differ"
}

// maxDeclLines bounds the declarations a failure message shows.
const maxDeclLines = 120

// String is the finding as a failure message: what disagrees, the seed,
// the declarations (at most maxDeclLines of them), the value.
func (f *finding) String() string { return f.format(maxDeclLines) }

// format writes the finding, with at most limit lines of declarations
// (all of them for 0).
func (f *finding) format(limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [issue 29: %s], seed %d (MCPGEN_DIFFFUZZ_SEED=%[3]d MCPGEN_DIFFFUZZ_BATCHES=1 runs it alone)", f.class, f.item, f.seed)
	if f.count > 1 {
		fmt.Fprintf(&b, ", %d times", f.count)
	}
	if f.tool != "" {
		fmt.Fprintf(&b, ", tool %s", f.tool)
	}
	if f.minimized {
		fmt.Fprintf(&b, ", reproduced by the smaller tool %s", f.minTool)
	}
	b.WriteString("\n")
	if r := f.report; r != nil {
		if r.JSON != "" {
			fmt.Fprintf(&b, "  value (%s): %s\n", r.Source, r.JSON)
		}
		if len(r.Path) > 0 || r.GoType != "" {
			fmt.Fprintf(&b, "  at %s: Go type %s", "/"+strings.Join(r.Path, "/"), r.GoType)
			if r.Field != "" && r.Owner != "" {
				fmt.Fprintf(&b, ", field %s of %s", r.Field, r.Owner)
			}
			b.WriteString("\n")
		}
		for _, v := range []struct{ name, msg string }{{"runtime", r.Runtime}, {"schema", r.Schema}, {"encoding/json", r.Unmarshal}, {"schema there", r.SchemaAt}, {"detail", r.Detail}} {
			if v.msg != "" {
				fmt.Fprintf(&b, "  %s: %s\n", v.name, indent(v.msg))
			}
		}
	}
	if f.message != "" {
		fmt.Fprintf(&b, "  %s\n", indent(f.message))
	}
	if f.decls != "" {
		decls := f.decls
		if lines := strings.Split(decls, "\n"); limit > 0 && len(lines) > limit {
			decls = strings.Join(lines[:limit], "\n") + fmt.Sprintf("\n… %d more lines (MCPGEN_DIFFFUZZ_FINDINGS=file writes them all)", len(lines)-limit)
		}
		fmt.Fprintf(&b, "  declarations:\n%s\n", indentAll(decls, "    "))
	}
	return b.String()
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n    ") }

func indentAll(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func summary(st *stats, fs *findings, d time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "differential fuzzer: %d batches in %v: %d types declared, %d tools built (%d refused by mcpgen or not compiling), %d JSON values tried %v\n",
		st.batches, d.Round(time.Second), st.types, st.tools, st.refused, st.values, st.sources)
	fmt.Fprintf(&b, "the handler ran for %d input values, of which the schema and encoding/json accepted %d, whose decoded values were compared\n", st.ran, st.compared)
	fmt.Fprintf(&b, "time: generating %v, building %v, checking %v, minimizing %v\n",
		st.generating.Round(time.Second), st.building.Round(time.Second), st.running.Round(time.Second), st.minimizing.Round(time.Second))
	fmt.Fprintf(&b, "disagreements explained by a policy:\n")
	for _, k := range slices.Sorted(maps.Keys(st.policies)) {
		fmt.Fprintf(&b, "  %-18s %d\n", k, st.policies[k])
	}
	fmt.Fprintf(&b, "refused by mcpgen (error diagnostics):\n")
	for _, k := range slices.Sorted(maps.Keys(st.refusals)) {
		fmt.Fprintf(&b, "  %4d  %s\n", st.refusals[k], k)
	}
	fmt.Fprintf(&b, "defects, by class: %d classes\n", len(fs.order))
	for _, k := range fs.order {
		fmt.Fprintf(&b, "  %4d  %s [%s]\n", fs.byClass[k].count, k, fs.byClass[k].item)
	}
	return b.String()
}

// markdown is the findings as a Markdown list, for notes.
func markdown(st *stats, fs *findings) string {
	var b strings.Builder
	b.WriteString("# Differential fuzzer findings\n\n```\n" + summary(st, fs, 0) + "```\n")
	b.WriteString("\n## Policies, each with the first disagreement it explained\n")
	for _, p := range policies {
		fmt.Fprintf(&b, "\n- **%s**: %s\n", p.name, p.sentence)
		if r := st.examples[p.name]; r != nil {
			fmt.Fprintf(&b, "  ```\n%s\n  ```\n", indentAll(strings.TrimSpace((&finding{class: r.Event, report: r}).String()), "  "))
		}
	}
	b.WriteString("\n## Defects\n")
	for i, k := range fs.order {
		f := fs.byClass[k]
		fmt.Fprintf(&b, "\n### %d. %s\n\nIssue 29 item: %s\n\n```\n%s\n```\n", i+1, k, f.item, f.format(0))
	}
	return b.String()
}
