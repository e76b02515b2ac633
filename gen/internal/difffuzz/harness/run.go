package harness

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"runtime/debug"
	"strings"
)

// run checks every tool and emits the reports, one per distinct
// disagreement (with a count and the smallest value found), then a
// summary.
func (h *harness) run(ctx context.Context, emit func(*Report)) {
	sum := &Report{Event: "summary", Sources: map[string]int{}}
	for _, t := range h.tools {
		h.check(ctx, t, sum, emit)
	}
	for _, r := range h.cfg.Replay {
		t := h.tool(r.Tool)
		if t == nil || t.input == nil {
			emit(&Report{Tool: r.Tool, Event: HarnessError, Detail: "no such tool, or its schema did not compile"})
			continue
		}
		reports, _ := h.evaluate(ctx, t, []byte(r.JSON), "replay")
		for _, rep := range reports {
			emit(rep)
		}
		emit(&Report{Tool: r.Tool, Event: "replayed", JSON: r.JSON})
		sum.Values++
	}
	emit(sum)
}

// check checks one tool; a panic (of the harness, or of the runtime
// outside a handler) is reported, and the other tools are still checked.
func (h *harness) check(ctx context.Context, t *tool, sum *Report, emit func(*Report)) {
	defer func() {
		if p := recover(); p != nil {
			emit(&Report{Tool: t.Name, Event: HarnessError, Detail: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())})
		}
	}()
	switch {
	case !h.prepare(t, emit):
	case t.Out != nil:
		h.outputs(ctx, t, sum, emit)
	case len(h.cfg.Replay) == 0:
		h.inputs(ctx, t, sum, emit)
	}
}

func (h *harness) tool(name string) *tool {
	for _, t := range h.tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// prepare compiles t's schemas with the reference validator and checks
// their defaults; it reports false when the input schema cannot be used.
func (h *harness) prepare(t *tool, emit func(*Report)) bool {
	var err error
	if t.input, err = compile(t.Name+".input", t.inputSchema); err != nil {
		emit(&Report{Tool: t.Name, Event: SchemaInvalid, Source: "input", JSON: string(t.inputSchema), Detail: err.Error()})
		return false
	}
	t.inputDoc = decodeSchema(t.inputSchema)
	h.checkDefaults(t, t.inputDoc, "input", emit)
	if t.In != nil {
		h.checkDurations(t, emit)
		h.checkEnumNames(t, emit)
		h.checkEnumOrder(t, emit)
	}
	if t.Out != nil {
		if t.outputSchema == nil {
			emit(&Report{Tool: t.Name, Event: HarnessError, Detail: "the tool has no output schema"})
			return false
		}
		if t.output, err = compile(t.Name+".output", t.outputSchema); err != nil {
			emit(&Report{Tool: t.Name, Event: SchemaInvalid, Source: "output", JSON: string(t.outputSchema), Detail: err.Error()})
			return false
		}
		t.outputDoc = decodeSchema(t.outputSchema)
		h.checkDefaults(t, t.outputDoc, "output", emit)
	}
	return true
}

// A dedup keeps the first report of each kind of disagreement and counts
// the others.
type dedup struct {
	first map[string]*Report
	order []string
}

var digits = regexp.MustCompile(`^[0-9]+$`)

// key is what makes two reports the same disagreement: the tool, the
// event, the keyword, the path with indices and map keys blurred, and
// the Go type there.
func key(r *Report) string {
	var p []string
	for _, tok := range r.Path {
		if digits.MatchString(tok) {
			tok = "*"
		}
		p = append(p, tok)
	}
	return strings.Join([]string{r.Tool, r.Event, r.Keyword, strings.Join(p, "/"), r.GoType}, "|")
}

func (d *dedup) add(r *Report) bool {
	k := key(r)
	if old, ok := d.first[k]; ok {
		old.Count++
		return false
	}
	r.Count = 1
	d.first[k] = r
	d.order = append(d.order, k)
	return true
}

// inputs checks an input tool with values of each source.
func (h *harness) inputs(ctx context.Context, t *tool, sum *Report, emit func(*Report)) {
	d := &dedup{first: map[string]*Report{}}
	var bases []*node
	try := func(data []byte, source string) {
		sum.Values++
		sum.Sources[sourceKind(source)]++
		reports, v := h.evaluate(ctx, t, data, source)
		if v.call.ran {
			sum.Ran++
			if v.sErr == nil && v.uErr == nil {
				sum.Compared++
			}
		}
		for _, r := range reports {
			if d.add(r) {
				h.shrink(ctx, t, r)
			}
		}
	}
	f := h.f()
	for range h.cfg.Values {
		v := f.value(t.In)
		data, err := marshal(v.Interface())
		if err != nil {
			continue
		}
		if n, _ := parse(data); n != nil {
			bases = append(bases, n)
		}
		try(data, "go")
	}
	in := &instancer{f: f, root: asMap(t.inputDoc)}
	for range h.cfg.Values {
		n := in.instance(t.inputDoc, 0)
		bases = append(bases, n)
		try(n.encode(), "schema")
	}
	try([]byte("{}"), "mutation:empty")
	if len(bases) > 0 {
		for range 2 * h.cfg.Values {
			m, name := h.mutate(t, bases[h.rng.IntN(len(bases))])
			if m != nil {
				try(m.encode(), "mutation:"+name)
			}
		}
	}
	for _, k := range d.order {
		emit(d.first[k])
	}
}

func sourceKind(s string) string {
	k, _, _ := strings.Cut(s, ":")
	return k
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// shrink makes r's value smaller while it shows the same disagreement:
// it drops members and elements and simplifies values, one at a time.
func (h *harness) shrink(ctx context.Context, t *tool, r *Report) {
	tree, err := parse([]byte(r.JSON))
	if err != nil {
		return
	}
	want := key(r)
	budget := 400
	same := func(cand *node) *Report {
		budget--
		reports, _ := h.evaluate(ctx, t, cand.encode(), r.Source)
		for _, c := range reports {
			if key(c) == want {
				return c
			}
		}
		return nil
	}
	for progress := true; progress && budget > 0; {
		progress = false
		ps := places(tree)
		for i := len(ps) - 1; i > 0 && budget > 0; i-- {
			for _, simplify := range []func(p place) bool{
				func(p place) bool { p.del(); return true },
				func(p place) bool { return replaceSmaller(p) },
			} {
				cand := tree.clone()
				cp := places(cand)
				if i >= len(cp) || !simplify(cp[i]) {
					continue
				}
				if c := same(cand); c != nil {
					tree = cand
					*r = *mergeShrunk(r, c)
					progress = true
					break
				}
			}
			if progress {
				break
			}
		}
	}
}

// mergeShrunk is c, the report of a smaller value, with r's count.
func mergeShrunk(r, c *Report) *Report {
	c.Count = r.Count
	return c
}

// replaceSmaller replaces a value with a simpler one of its kind.
func replaceSmaller(p place) bool {
	var s *node
	switch p.n.kind {
	case kObject:
		if len(p.n.mem) == 0 {
			return false
		}
		s = obj()
	case kArray:
		if len(p.n.elems) == 0 {
			return false
		}
		s = arr()
	case kString:
		if p.n.text == "" {
			return false
		}
		s = str("")
	case kNumber:
		if p.n.text == "0" {
			return false
		}
		s = num("0")
	default:
		return false
	}
	p.set(s)
	return true
}

// outputs checks an output tool: the tool returns random values of its
// type; what json.Marshal writes must match the output schema, and the
// runtime must send it.
func (h *harness) outputs(ctx context.Context, t *tool, sum *Report, emit func(*Report)) {
	d := &dedup{first: map[string]*Report{}}
	f := h.f()
	for range 2 * h.cfg.Values {
		v := f.value(t.Out)
		for v.Kind() == reflect.Pointer && v.IsNil() {
			v = f.value(t.Out)
		}
		data, err := marshal(v.Interface())
		if err != nil {
			continue
		}
		sum.Values++
		sum.Sources["output"]++
		for _, r := range h.checkOutput(ctx, t, v, data) {
			if d.add(r) && r.Event == OutputInvalid {
				h.shrinkOutput(t, v, r)
			}
		}
	}
	for _, k := range d.order {
		emit(d.first[k])
	}
}

// checkOutput checks one value v of an output tool, json.Marshal'ed to
// data.
func (h *harness) checkOutput(ctx context.Context, t *tool, v reflect.Value, data []byte) []*Report {
	var reports []*Report
	tree, _ := parse(data)
	leaves, sErr := validate(t.output, data)
	if sErr != nil {
		r := &Report{Tool: t.Name, Event: OutputInvalid, Source: "json.Marshal", JSON: string(data), Schema: firstLine(sErr.Error())}
		if len(leaves) > 0 {
			r.Schema, r.Keyword, r.Path = leaves[0].msg, leaves[0].keyword, leaves[0].path
		}
		h.facts(r, t.Out, t.outputDoc, tree, r.Path, true)
		reports = append(reports, r)
	}
	setResult(v.Interface())
	cr := h.call(ctx, t, []byte("{}"))
	switch {
	case cr.rpcErr != "":
		reports = append(reports, &Report{Tool: t.Name, Event: HarnessError, JSON: string(data), Runtime: cr.rpcErr})
	case cr.isError:
		if sErr == nil {
			r := &Report{Tool: t.Name, Event: OutputRefused, JSON: string(data), Runtime: cr.text}
			h.facts(r, t.Out, t.outputDoc, tree, nil, true)
			reports = append(reports, r)
		}
	default:
		sent, _ := parse(cr.structured)
		if sent == nil || tree == nil {
			reports = append(reports, &Report{Tool: t.Name, Event: HarnessError, JSON: string(data), Detail: "structuredContent " + string(cr.structured)})
			break
		}
		if p, detail := sameOutput(sent, tree, nil); detail != "" {
			r := &Report{Tool: t.Name, Event: OutputDiffers, JSON: string(data), Path: p, Detail: detail + "; sent " + string(cr.structured)}
			h.facts(r, t.Out, t.outputDoc, tree, p, true)
			reports = append(reports, r)
		}
		if leaves, err := validate(t.output, cr.structured); err != nil {
			r := &Report{Tool: t.Name, Event: OutputInvalid, Source: "sent", JSON: string(cr.structured), Schema: firstLine(err.Error())}
			if len(leaves) > 0 {
				r.Schema, r.Keyword, r.Path = leaves[0].msg, leaves[0].keyword, leaves[0].path
			}
			h.facts(r, t.Out, t.outputDoc, sent, r.Path, true)
			reports = append(reports, r)
		}
	}
	return reports
}

// sameOutput compares what the runtime sent with what json.Marshal
// wrote: the same JSON, except that a null the runtime filled in with
// [] or {} (a nil slice or map, as the output schema says) is flagged in
// the detail as "filled".
func sameOutput(sent, marshaled *node, path []string) ([]string, string) {
	if marshaled.kind == kNull && sent.kind != kNull {
		if sent.kind == kArray && len(sent.elems) == 0 || sent.kind == kObject && len(sent.mem) == 0 {
			return nil, ""
		}
	}
	if sent.kind != marshaled.kind {
		return path, fmt.Sprintf("%s sent for %s", sent.encode(), marshaled.encode())
	}
	switch sent.kind {
	case kObject:
		if len(sent.mem) != len(marshaled.mem) {
			return path, fmt.Sprintf("%d members sent for %d", len(sent.mem), len(marshaled.mem))
		}
		for i := range sent.mem {
			if sent.mem[i].name != marshaled.mem[i].name {
				return path, fmt.Sprintf("member %q sent for %q", sent.mem[i].name, marshaled.mem[i].name)
			}
			if p, d := sameOutput(sent.mem[i].val, marshaled.mem[i].val, append(clip(path), sent.mem[i].name)); d != "" {
				return p, d
			}
		}
	case kArray:
		if len(sent.elems) != len(marshaled.elems) {
			return path, fmt.Sprintf("%d elements sent for %d", len(sent.elems), len(marshaled.elems))
		}
		for i := range sent.elems {
			if p, d := sameOutput(sent.elems[i], marshaled.elems[i], append(clip(path), fmt.Sprint(i))); d != "" {
				return p, d
			}
		}
	default:
		if sent.text != marshaled.text {
			return path, fmt.Sprintf("%s sent for %s", sent.encode(), marshaled.encode())
		}
	}
	return nil, ""
}

// shrinkOutput makes the value of an output-invalid report smaller: it
// sets fields, elements and entries to their zero value, and drops
// elements, while json.Marshal's text still fails the schema in the same
// way.
func (h *harness) shrinkOutput(t *tool, v reflect.Value, r *Report) {
	want := key(r)
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	still := func() bool {
		data, err := marshal(c.Interface())
		if err != nil {
			return false
		}
		leaves, sErr := validate(t.output, data)
		if sErr == nil {
			return false
		}
		n := &Report{Tool: t.Name, Event: OutputInvalid, Source: r.Source}
		if len(leaves) > 0 {
			n.Keyword, n.Path = leaves[0].keyword, leaves[0].path
		}
		tree, _ := parse(data)
		h.facts(n, t.Out, t.outputDoc, tree, n.Path, true)
		if key(n) != want {
			return false
		}
		n.JSON, n.Schema, n.Count = string(data), firstLine(sErr.Error()), r.Count
		if len(leaves) > 0 {
			n.Schema = leaves[0].msg
		}
		*r = *n
		return true
	}
	budget := 300
	var walk func(x reflect.Value, depth int)
	walk = func(x reflect.Value, depth int) {
		if budget <= 0 || depth > 12 {
			return
		}
		if x.CanSet() && !x.IsZero() {
			old := reflect.New(x.Type()).Elem()
			old.Set(x)
			x.SetZero()
			budget--
			if still() {
				return
			}
			x.Set(old)
		}
		switch x.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !x.IsNil() {
				walk(x.Elem(), depth+1)
			}
		case reflect.Struct:
			for i := range x.NumField() {
				walk(x.Field(i), depth+1)
			}
		case reflect.Slice:
			for i := x.Len() - 1; i >= 0 && x.CanSet(); i-- {
				old := x.Slice(0, x.Len())
				shorter := reflect.AppendSlice(reflect.MakeSlice(x.Type(), 0, x.Len()), x.Slice(0, i))
				shorter = reflect.AppendSlice(shorter, x.Slice(i+1, x.Len()))
				x.Set(shorter)
				budget--
				if !still() {
					x.Set(old)
				}
			}
			for i := range x.Len() {
				walk(x.Index(i), depth+1)
			}
		case reflect.Array:
			for i := range x.Len() {
				walk(x.Index(i), depth+1)
			}
		}
	}
	walk(c, 0)
}
