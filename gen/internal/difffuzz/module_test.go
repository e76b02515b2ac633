package difffuzz_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/internal/difffuzz/harness"
	"github.com/mcpgen/mcpgen/internal/testmodule"
)

// goEnv is the environment of every go command the fuzzer runs: the
// temporary module stands alone (no workspace), may gain requirements
// (-mod=mod), and is built from the module cache only, as in CI, which
// runs the tests without a network.
func goEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOTOOLCHAIN=local")
}

// moduleBase holds what every batch's module shares: its go.mod and
// go.sum, and the harness sources.
type moduleBase struct {
	gomod, gosum []byte
	harness      map[string][]byte
}

var (
	baseOnce sync.Once
	base     *moduleBase
	baseErr  error
)

// loadBase builds the module files once: go.mod requires mcpgen from
// this repository and, at the versions the workspace selects, the
// modules the harness imports; go.sum gathers every checksum the
// workspace knows.
func loadBase() (*moduleBase, error) {
	baseOnce.Do(func() { base, baseErr = makeBase() })
	return base, baseErr
}

func makeBase() (*moduleBase, error) {
	root := testmodule.Root()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Version}}", "github.com/santhosh-tekuri/jsonschema/v6", "golang.org/x/text")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m: %v", err)
	}
	var gomod bytes.Buffer
	fmt.Fprintf(&gomod, "module fz.test\n\ngo 1.26.0\n\nrequire (\n\tgithub.com/mcpgen/mcpgen v0.0.0\n")
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fmt.Fprintf(&gomod, "\t%s\n", line)
	}
	fmt.Fprintf(&gomod, ")\n\nreplace github.com/mcpgen/mcpgen => %s\n", root)

	sums := []string{filepath.Join(root, "go.sum"), filepath.Join(root, "go.work.sum")}
	if work, err := os.ReadFile(filepath.Join(root, "go.work")); err == nil {
		wf, err := modfile.ParseWork("go.work", work, nil)
		if err != nil {
			return nil, err
		}
		for _, u := range wf.Use {
			sums = append(sums, filepath.Join(root, u.Path, "go.sum"))
		}
	}
	seen := map[string]bool{}
	var gosum bytes.Buffer
	for _, f := range sums {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(data), "\n") {
			if line != "" && !seen[line] {
				seen[line] = true
				gosum.WriteString(line + "\n")
			}
		}
	}

	h := map[string][]byte{}
	dir := filepath.Join(root, "gen", "internal", "difffuzz", "harness")
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		h[filepath.Base(f)] = data
	}
	return &moduleBase{gomod: gomod.Bytes(), gosum: gosum.Bytes(), harness: h}, nil
}

// A batch is one module: random declarations, the tools that use them,
// generated, built once, and checked by the harness.
type batch struct {
	seed  uint64
	g     *grammar
	tools []*tool
	dir   string
	files map[string]string

	// diags are mcpgen's diagnostics on the first run, with every tool.
	diags []gen.Diagnostic
	// checkedDeterminism says that the batch was generated twice.
	checkedDeterminism bool
	// first says the batch is the run's first.
	first bool
}

func newBatch(seed uint64, inputs, outputs int) *batch {
	g := newGrammar(seed)
	b := &batch{seed: seed, g: g}
	k := int(seed % 1000)
	for i := range inputs {
		switch {
		case i < focusInputs:
			b.tools = append(b.tools, g.focusedInput(k, i))
		case i < focusInputs+mistakeTools:
			b.tools = append(b.tools, g.mistakeTool(i))
		default:
			b.tools = append(b.tools, g.inputTool(i))
		}
	}
	for i := range outputs {
		if i < focusOutputs {
			b.tools = append(b.tools, g.focusedOutput(k, i))
		} else {
			b.tools = append(b.tools, g.outputTool(i))
		}
	}
	g.finish()
	return b
}

// kept lists the tools not left out.
func (b *batch) kept() []*tool {
	var out []*tool
	for _, t := range b.tools {
		if t.refused == "" {
			out = append(out, t)
		}
	}
	return out
}

// write writes the module into b.dir, the tools package anew.
func (b *batch) write(mb *moduleBase) error {
	os.RemoveAll(filepath.Join(b.dir, "tools"))
	files := map[string][]byte{"go.mod": mb.gomod, "go.sum": mb.gosum}
	for name, data := range mb.harness {
		files["harness/"+name] = data
	}
	b.files = b.render()
	b.locate(b.files)
	for name, data := range b.files {
		files[name] = []byte(data)
	}
	for name, data := range files {
		path := filepath.Join(b.dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o666); err != nil {
			return err
		}
	}
	return nil
}

// generate runs mcpgen on the tools package. A panic is returned as an
// error that says so.
func (b *batch) generate(ctx context.Context) (res *gen.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{fmt.Sprintf("%v\n%s", p, debug.Stack())}
		}
	}()
	results, err := gen.Generate(ctx, gen.Config{Dir: b.dir, Patterns: []string{"./tools"}, Env: goEnv()})
	if err != nil {
		return nil, err
	}
	for _, r := range results {
		if r.PkgPath == "fz.test/tools" {
			return r, nil
		}
	}
	return nil, fmt.Errorf("mcpgen returned no result for fz.test/tools")
}

type panicError struct{ stack string }

func (e *panicError) Error() string { return "mcpgen panicked: " + e.stack }

// toolsAt returns the tools a diagnostic at file:line concerns: the
// tool whose function is there, or those that reach the declaration
// there.
func (b *batch) toolsAt(file string, line int) []*tool {
	rel, err := filepath.Rel(b.dir, file)
	if err != nil {
		rel = file
	}
	var out []*tool
	if rel == "tools/tools.go" {
		for _, t := range b.kept() {
			if line >= t.line-3 && line <= t.line+3 {
				out = append(out, t)
			}
		}
		return out
	}
	for _, d := range b.g.decls {
		if d.file == rel && line >= d.first && line <= d.last {
			return b.reaching(d)
		}
	}
	for _, d := range b.g.decls {
		if d.constsFile == rel {
			out = append(out, b.reaching(d)...)
		}
	}
	return out
}

// reaching lists the kept tools whose types reach d.
func (b *batch) reaching(d *decl) []*tool {
	var out []*tool
	for _, t := range b.kept() {
		if t.reaches()[d] {
			out = append(out, t)
		}
	}
	return out
}

// reaches returns the declarations a tool's types refer to.
func (t *tool) reaches() map[*decl]bool {
	ds := map[*decl]bool{}
	if t.in != nil {
		t.in.decls(ds)
	}
	if t.out != nil {
		t.out.decls(ds)
	}
	return ds
}

// schemaReaches lists the declarations whose structure t's schemas are
// derived from: not those read or written through their own methods, nor
// what such types hold, which mcpgen never looks into, so that no
// diagnostic is expected there.
func (t *tool) schemaReaches() map[*decl]bool {
	ds := map[*decl]bool{}
	if t.in != nil {
		t.in.schemaDecls(ds, false)
	}
	if t.out != nil {
		t.out.schemaDecls(ds, true)
	}
	return ds
}

var compileError = regexp.MustCompile(`(?m)^(\S+\.go):(\d+):(\d+): (.*)$`)

// buildErrors maps the errors of a failed go build to the tools whose
// generated code they are in.
func (b *batch) buildErrors(out string) (map[*tool]string, []string) {
	byTool := map[*tool]string{}
	var unmapped []string
	generated := strings.Split(readFile(filepath.Join(b.dir, "tools", gen.DefaultOutput)), "\n")
	if strings.Contains(out, "syntax error") {
		// The first error may be far from its cause: look for functions
		// whose names are not identifiers.
		for i, l := range generated {
			m := funcName.FindStringSubmatch(l)
			if m == nil || token.IsIdentifier(m[1]) {
				continue
			}
			for _, t := range b.toolsOfGeneratedLine(generated, i+2) {
				byTool[t] = fmt.Sprintf("%s:%d: syntax error: the function name %s is not an identifier", gen.DefaultOutput, i+1, m[1])
			}
		}
		if len(byTool) > 0 {
			return byTool, nil
		}
	}
	for _, m := range compileError.FindAllStringSubmatch(out, -1) {
		file, msg := m[1], m[4]
		line, _ := strconv.Atoi(m[2])
		if filepath.Base(file) != gen.DefaultOutput || line > len(generated) {
			unmapped = append(unmapped, m[0])
			continue
		}
		ts := b.toolsOfGeneratedLine(generated, line)
		if len(ts) == 0 {
			unmapped = append(unmapped, m[0])
		}
		for _, t := range ts {
			byTool[t] = fmt.Sprintf("%s:%s: %s\n\t%s", gen.DefaultOutput, m[2], msg, strings.TrimSpace(generated[line-1]))
		}
	}
	return byTool, unmapped
}

var (
	toolNameLine = regexp.MustCompile(`Name:\s+"([^"]+)"`)
	guardFunc    = regexp.MustCompile(`= (In|Out)(\d+)$`)
	guardStruct  = regexp.MustCompile(`^\t_ (\w+)`)
	decoderFunc  = regexp.MustCompile(`^func decode(\S+)\(`)
	funcName     = regexp.MustCompile(`^func (\S+)\(`)
)

// toolsOfGeneratedLine finds what a line of mcp_gen.go belongs to, by
// looking up from it: a tool's registration or guard, a struct's guard, a
// decoder.
func (b *batch) toolsOfGeneratedLine(lines []string, line int) []*tool {
	for i := line - 1; i >= 0 && i >= line-200; i-- {
		l := lines[i]
		if m := toolNameLine.FindStringSubmatch(l); m != nil {
			return b.toolsNamed(func(t *tool) bool { return t.name == m[1] })
		}
		if m := guardFunc.FindStringSubmatch(l); m != nil {
			return b.toolsNamed(func(t *tool) bool { return t.fn == m[1]+m[2] })
		}
		name := ""
		if m := guardStruct.FindStringSubmatch(l); m != nil {
			name = m[1]
		} else if m := decoderFunc.FindStringSubmatch(l); m != nil {
			name = m[1]
		}
		if name != "" {
			var out []*tool
			for _, d := range b.g.decls {
				if name == d.name || strings.HasPrefix(name, d.name+"_") {
					out = append(out, b.reaching(d)...)
				}
			}
			return out
		}
	}
	return nil
}

func (b *batch) toolsNamed(f func(*tool) bool) []*tool {
	var out []*tool
	for _, t := range b.kept() {
		if f(t) {
			out = append(out, t)
		}
	}
	return out
}

func readFile(path string) string {
	data, _ := os.ReadFile(path)
	return string(data)
}

// build builds the harness program; it returns the go command's output
// when the build fails.
func (b *batch) build(ctx context.Context) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", "fuzz", ".")
	cmd.Dir = b.dir
	cmd.Env = goEnv()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// run runs the harness with cfg and returns its reports.
func (b *batch) run(ctx context.Context, cfg *harness.Config) ([]*harness.Report, error) {
	in, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(b.dir, "fuzz"))
	cmd.Dir = b.dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var reports []*harness.Report
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r harness.Report
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			reports = append(reports, &r)
		}
	}
	if err != nil {
		return reports, fmt.Errorf("the harness failed: %v\n%s", err, tail(stderr.String(), 4000))
	}
	return reports, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// config is the harness's configuration for the batch: the intents of
// its enums and samples of the types whose state it cannot set.
func (b *batch) config(values int) *harness.Config {
	cfg := &harness.Config{Seed: b.seed, Values: values, Enums: map[string]harness.Enum{}, Samples: map[string][]json.RawMessage{}}
	for _, d := range b.g.decls {
		if d.enum == nil {
			continue
		}
		var e harness.Enum
		for _, c := range d.enum.constants {
			e.Constants = append(e.Constants, json.RawMessage(c))
		}
		for _, o := range d.enum.outside {
			e.Outside = append(e.Outside, json.RawMessage(o))
		}
		for _, n := range d.enum.names {
			e.Names = append(e.Names, fmt.Sprintf(n, d.name))
		}
		cfg.Enums[d.pkg+"."+d.name] = e
	}
	for _, x := range externs {
		for _, s := range x.samples {
			cfg.Samples[x.sampleOf] = append(cfg.Samples[x.sampleOf], json.RawMessage(s))
		}
	}
	return cfg
}

// declarations writes the Go declarations a finding needs: the tool's
// function and every declaration its types reach, in source order.
func (b *batch) declarations(t *tool) string {
	var w source
	ds := t.reaches()
	for _, d := range b.g.decls {
		if ds[d] {
			if d.pkg != "tools" {
				w.printf("\n// package %s", d.pkg)
			}
			writeDecl(&w, d)
			if d.constsB != "" {
				w.printf("\n// in "+strings.TrimPrefix(d.constsFile, "tools/")+":\n"+d.constsB, d.name)
			}
		}
	}
	lines := strings.Split(b.files["tools/tools.go"], "\n")
	if t.line > 0 && t.line <= len(lines) {
		end := t.line
		for end < len(lines) && lines[end-1] != "}" {
			end++
		}
		w.printf("\n//mcp:tool %s\n%s\n", t.name, strings.Join(lines[t.line-1:end], "\n"))
	}
	return strings.TrimSpace(w.String())
}

// expectations are the diagnostics mcpgen should report for the batch's
// declarations that its tools reach.
func (b *batch) expectations() []expectation {
	reachedBy, readBy := map[*decl]*tool{}, map[*decl]*tool{}
	for _, t := range b.tools {
		for d := range t.schemaReaches() {
			if reachedBy[d] == nil {
				reachedBy[d] = t
			}
		}
		if t.in != nil {
			in := map[*decl]bool{}
			t.in.schemaDecls(in, false)
			for d := range in {
				if readBy[d] == nil {
					readBy[d] = t
				}
			}
		}
	}
	var out []expectation
	for _, d := range b.g.decls {
		t := reachedBy[d]
		if t == nil || d.pkg != "tools" {
			continue
		}
		for _, e := range d.expect {
			e.at, e.tool, e.decl = []span{{d.file, d.first, d.last}}, t, d
			out = append(out, e)
		}
		if d.under.kind == tStruct && !d.alias {
			for _, f := range d.under.fields {
				if skipped.MatchString(f.tag) {
					continue // encoding/json leaves it out, and mcpgen does not read its tags
				}
				for _, e := range f.expect {
					if e.inputOnly && readBy[d] == nil {
						continue
					}
					e.at, e.tool, e.decl = []span{{d.file, f.line, f.line}}, t, d
					out = append(out, e)
				}
			}
		}
	}
	// A type with validation keywords that an output reaches: the result
	// a handler builds may break them (issue 29, 2.4).
	for _, t := range b.tools {
		if t.out == nil {
			continue
		}
		e := expectation{what: "validation keywords in a type an output reaches", tool: t}
		outs := map[*decl]bool{}
		t.out.schemaDecls(outs, true)
		for d := range outs {
			if d.pkg != "tools" || d.under.kind != tStruct || d.alias {
				continue
			}
			for _, f := range d.under.fields {
				if validates.MatchString(f.tag) && !skipped.MatchString(f.tag) {
					e.at = append(e.at, span{d.file, f.line, f.line}, span{d.file, d.first, d.first + 1})
					e.decl = d
				}
			}
		}
		if len(e.at) > 0 {
			e.at = append(e.at, span{"tools/tools.go", t.line - 3, t.line})
			out = append(out, e)
		}
	}
	return out
}

// skipped matches the tag of a field encoding/json leaves out: json:"-".
var skipped = regexp.MustCompile(`(^|\s)json:"-"`)

var validates = regexp.MustCompile(`jsonschema:"[^"]*\b(minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|pattern|minLength|maxLength|minItems|maxItems|uniqueItems|enum|format)=`)

// met reports whether a diagnostic is where the expectation says.
func (b *batch) met(e expectation) bool {
	return slices.ContainsFunc(b.diags, func(g gen.Diagnostic) bool {
		if !strings.Contains(g.Message, e.contains) {
			return false
		}
		rel, _ := filepath.Rel(b.dir, g.Pos.Filename)
		return slices.ContainsFunc(e.at, func(s span) bool {
			return rel == s.file && g.Pos.Line >= s.first && g.Pos.Line <= s.last
		})
	})
}

// diagnosedField reports whether mcpgen reported something at the field
// of a report (the field of the Go struct Owner, by its Go name).
func (b *batch) diagnosedField(r *harness.Report) bool {
	name, _, _ := strings.Cut(r.Field, " ")
	owner := declName.FindStringSubmatch(r.Owner)
	for _, d := range b.g.decls {
		if owner == nil || d.name != owner[1] || d.under.kind != tStruct {
			continue
		}
		for _, f := range d.under.fields {
			if f.name == name && b.met(expectation{at: []span{{d.file, f.line, f.line}}}) {
				return true
			}
		}
	}
	return false
}
