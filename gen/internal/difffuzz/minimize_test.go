package difffuzz_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/internal/difffuzz/harness"
)

// Minimization: a finding of the harness comes from a tool whose input
// may hold dozens of types. The fuzzer then builds one more module, with
// smaller tools made from the path of each finding: an input struct with
// only the field where the disagreement is (at each depth of the path),
// and the struct that holds it. Each gets the part of the value under it;
// the smallest that shows the same defect class is the reproducer.

// minimizeFrom is the size, in lines of declarations, of the reproducers
// worth minimizing.
const minimizeFrom = 25

// A candidate is a smaller tool for a finding.
type candidate struct {
	f    *finding
	tool *tool
	json string // the arguments, for an input tool
	size int    // of its declarations
}

// A hop is a struct member on a JSON path: the field, and the struct
// that holds it.
type hop struct {
	depth int // the member's index in the path
	field *fld
	owner *typ // a named struct, or an anonymous one
	env   map[string]*typ
}

// resolve returns the struct fields of t, if t is a struct type, with the
// type parameters of a generic struct bound.
func resolve(t *typ, env map[string]*typ) ([]*fld, map[string]*typ) {
	for {
		switch t.kind {
		case tParam:
			if a, ok := env[t.name]; ok {
				t = a
				continue
			}
			return nil, nil
		case tPtr:
			t = t.elem
			continue
		case tStruct:
			return t.fields, env
		case tNamed:
			d := t.decl
			if d.methods != "" {
				return nil, nil
			}
			if d.tparams != "" && len(t.args) > 0 {
				env = map[string]*typ{"T": t.args[0]}
			}
			t = d.under
			continue
		}
		return nil, nil
	}
}

// jsonName is the member name encoding/json gives a field, "" for one it
// leaves out or an untagged embedded field.
func jsonName(f *fld) string {
	if f.name != "" && strings.ToLower(f.name[:1]) == f.name[:1] {
		return ""
	}
	tag := reflectTag(f.tag, "json")
	name, _, _ := strings.Cut(tag, ",")
	if tag == "-" {
		return ""
	}
	if name != "" {
		return name
	}
	if f.embedded {
		return ""
	}
	return f.name
}

func reflectTag(tag, key string) string {
	for tag != "" {
		k, rest, ok := strings.Cut(tag, `:"`)
		if !ok {
			return ""
		}
		v, err := strconv.QuotedPrefix(`"` + rest)
		if err != nil {
			return ""
		}
		s, _ := strconv.Unquote(v)
		if strings.TrimSpace(k) == key {
			return s
		}
		tag = strings.TrimSpace(rest[len(v)-1:])
	}
	return ""
}

// hops follows a JSON path through the model from root, through direct
// members only.
func hops(root *typ, path []string) []hop {
	var out []hop
	t, env := root, map[string]*typ(nil)
	for i := 0; i < len(path); i++ {
		for t.kind == tPtr || t.kind == tParam && env[t.name] != nil {
			if t.kind == tPtr {
				t = t.elem
			} else {
				t = env[t.name]
			}
		}
		for t.kind == tNamed && t.decl.alias {
			t = t.decl.under
		}
		switch {
		case t.kind == tSlice || t.kind == tArray || t.kind == tMap:
			t = t.elem
			continue
		case t.kind == tNamed && t.decl.under.kind != tStruct && t.decl.methods == "":
			t = t.decl.under
			i--
			continue
		}
		fields, fenv := resolve(t, env)
		var hit *fld
		for _, f := range fields {
			if jsonName(f) == path[i] {
				hit = f
			}
		}
		if hit == nil {
			return out
		}
		out = append(out, hop{depth: i, field: hit, owner: t, env: fenv})
		t, env = hit.t, fenv
	}
	return out
}

// bind replaces the type parameters of t by env's arguments.
func bind(t *typ, env map[string]*typ) *typ {
	if t == nil || env == nil {
		return t
	}
	switch t.kind {
	case tParam:
		if a, ok := env[t.name]; ok {
			return a
		}
	case tPtr, tSlice, tArray, tMap:
		c := *t
		c.elem, c.key = bind(t.elem, env), bind(t.key, env)
		return &c
	}
	return t
}

// valueAt returns the JSON under path in data.
func valueAt(data string, path []string) (json.RawMessage, bool) {
	d := json.NewDecoder(strings.NewReader(data))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	for _, tok := range path {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.Encode(v)
	return json.RawMessage(bytes.TrimSpace(b.Bytes())), true
}

// candidates makes the smaller tools for f, found on tool orig of b.
func (m *minimizer) candidates(f *finding, orig *tool) {
	r := f.report
	root := orig.in
	if orig.out != nil {
		root = orig.out
	}
	if r.Event == harness.DefaultInvalid || r.Event == harness.DefaultNotApplied {
		// Each field with a default, alone.
		for d := range orig.reaches() {
			if d.under.kind != tStruct || d.tparams != "" {
				continue
			}
			for _, fl := range d.under.fields {
				if strings.Contains(fl.tag, "default=") {
					m.single(f, orig, fl, nil, "{}")
				}
			}
		}
		return
	}
	hs := hops(root, r.Path)
	for _, h := range hs {
		if h.field.embedded || jsonName(h.field) == "" {
			continue
		}
		v := "{}"
		if x, ok := valueAt(r.JSON, r.Path[:h.depth+1]); ok {
			v = `{"` + jsonName(h.field) + `":` + string(x) + "}"
		}
		m.single(f, orig, h.field, h.env, v)
		// The struct that holds it, when it is a named struct.
		if h.owner.kind == tNamed && h.owner.decl.pkg == "tools" && h.owner.decl.tparams == "" && !h.owner.decl.alias {
			if x, ok := valueAt(r.JSON, r.Path[:h.depth]); ok {
				m.add(f, orig, h.owner, string(x))
			}
		}
	}
	if len(hs) == 0 {
		// The root's fields, each alone: an embedded one takes the whole
		// value, whose form its promoted methods decide.
		fields, env := resolve(root, nil)
		for _, fl := range fields {
			switch name := jsonName(fl); {
			case fl.embedded && name == "":
				m.single(f, orig, fl, env, r.JSON)
			case name != "":
				v := "{}"
				if x, ok := valueAt(r.JSON, []string{name}); ok {
					v = `{"` + name + `":` + string(x) + "}"
				}
				m.single(f, orig, fl, env, v)
			}
		}
	}
}

// single adds a candidate whose type is a struct with field fl alone,
// given the value v.
func (m *minimizer) single(f *finding, orig *tool, fl *fld, env map[string]*typ, v string) {
	ds := map[*decl]bool{}
	bind(fl.t, env).decls(ds)
	for d := range ds {
		if d.pkg != "tools" && strings.ToLower(d.name[:1]) == d.name[:1] {
			return // an unexported type of another package
		}
	}
	fd := m.g.add(&decl{name: m.g.name("Min"), label: "struct-tools", under: &typ{kind: tStruct}})
	c := *fl
	c.t = bind(fl.t, env)
	c.expect = nil
	fd.under.fields = []*fld{&c}
	m.add(f, orig, named(fd), v)
}

// A minimizer gathers the candidates of a batch's findings into one
// module.
type minimizer struct {
	g     *grammar
	cands []*candidate
	tools []*tool
}

// add adds a candidate whose input (or output) is t, given the value v.
func (m *minimizer) add(f *finding, orig *tool, t *typ, v string) {
	n := len(m.tools)
	tl := &tool{name: fmt.Sprintf("min_%d", n), fn: fmt.Sprintf("Min%d", n)}
	c := &candidate{f: f, tool: tl}
	if orig.out != nil {
		tl.out = t
	} else {
		tl.in = t
		c.json = v
	}
	m.tools = append(m.tools, tl)
	m.cands = append(m.cands, c)
}

// minimize replaces the reproducers of the findings first seen in batch
// b by smaller ones where a smaller tool shows the same defect class.
func minimize(ctx context.Context, t *testing.T, mb *moduleBase, b *batch, fresh []*finding, byTool map[string]*tool) {
	m := &minimizer{g: b.g}
	for _, f := range fresh {
		if f.report == nil || strings.Count(f.decls, "\n") < minimizeFrom {
			continue
		}
		if orig := byTool[f.tool]; orig != nil {
			m.candidates(f, orig)
		}
	}
	if len(m.cands) == 0 {
		return
	}
	mb2 := &batch{seed: b.seed, g: b.g, tools: m.tools, dir: b.dir + "-min"}
	if !mb2.settle(ctx, t, mb, nil, nil) {
		return
	}
	cfg := mb2.config(4)
	for _, c := range m.cands {
		if c.tool.refused == "" && c.tool.in != nil {
			cfg.Replay = append(cfg.Replay, harness.Replay{Tool: c.tool.name, JSON: c.json})
		}
	}
	reports, err := mb2.run(ctx, cfg)
	if err != nil {
		t.Logf("minimizing seed %d: %v", b.seed, err)
		return
	}
	classes := map[string]map[string]*harness.Report{} // tool → class → report
	for _, r := range reports {
		if r.Event == "summary" || r.Event == "replayed" || policyOf(r) != nil {
			continue
		}
		if classes[r.Tool] == nil {
			classes[r.Tool] = map[string]*harness.Report{}
		}
		if _, ok := classes[r.Tool][mb2.defectClass(r)]; !ok {
			classes[r.Tool][mb2.defectClass(r)] = r
		}
	}
	for _, c := range m.cands {
		r, ok := classes[c.tool.name][c.f.class]
		if !ok || c.tool.refused != "" {
			continue
		}
		decls := mb2.declarations(c.tool)
		if c.f.minimized && len(decls) >= len(c.f.decls) {
			continue
		}
		r.Count = c.f.report.Count
		c.f.report, c.f.decls, c.f.minimized, c.f.minTool = r, decls, true, c.tool.name
	}
}
