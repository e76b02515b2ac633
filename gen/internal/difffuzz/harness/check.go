package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Events: how the verdicts disagree. The runtime's verdict is that the
// handler ran; the reference's is that the input schema accepts the value
// (by santhosh-tekuri/jsonschema) and json.Unmarshal into a new In
// succeeds.
const (
	// The runtime ran the handler with a value the schema refuses.
	RuntimeAcceptsInvalid = "runtime-accepts-invalid"
	// The runtime ran the handler with a value encoding/json refuses.
	RuntimeAcceptsUnreadable = "runtime-accepts-unreadable"
	// The runtime refused a value both the schema and encoding/json accept.
	RuntimeRefusesValid = "runtime-refuses-valid"
	// The handler received another value than encoding/json decodes.
	ValueDiffers = "value-differs"
	// An absent member with a default in the schema reached the handler
	// as encoding/json leaves it, not as the default.
	DefaultNotApplied = "default-not-applied"
	// The schema refuses a value encoding/json reads.
	SchemaRefusesReadable = "schema-refuses-readable"
	// The schema accepts a value encoding/json refuses: the model is told
	// it may send what the handler can never get.
	SchemaAcceptsUnreadable = "schema-accepts-unreadable"
	// The schema accepts a value outside what its enum is meant to allow
	// (a sentinel constant, a value a tag's enum leaves out).
	SchemaAcceptsOutside = "schema-accepts-outside-enum"
	// A default or example in the schema is not an instance of its own
	// schema.
	DefaultInvalid = "default-invalid"
	// A time.Duration's schema does not say its unit.
	DurationUnit = "duration-unit-missing"
	// An enum's constants are not in the source's order.
	EnumOrder = "enum-order"
	// An integer enum's schema does not name its constants.
	EnumNames = "enum-names-missing"
	// The schema does not compile with the reference validator.
	SchemaInvalid = "schema-invalid"
	// What json.Marshal wrote for an output does not match the output
	// schema.
	OutputInvalid = "output-invalid"
	// The runtime refused a result (isError) that the handler returned.
	OutputRefused = "output-refused"
	// The runtime sent other structured content than json.Marshal wrote.
	OutputDiffers = "output-differs"
	// The harness could not do its work: a JSON-RPC error, a tool missing.
	HarnessError = "harness-error"
)

// A verdicts holds what each side made of one value.
type verdicts struct {
	data []byte
	tree *node
	call callResult
	// The reference validator's failures, leaves only; nil when it accepts.
	leaves []leaf
	sErr   error
	in     reflect.Value // encoding/json's In, when it accepts
	uErr   error
	// withDefaults is encoding/json's In from the value with the schema's
	// defaults put in for absent members; valid when there were any.
	withDefaults reflect.Value
}

type leaf struct {
	path    []string
	keyword string
	kind    jsonschema.ErrorKind
	msg     string
}

// validate runs the reference validator.
func validate(s *jsonschema.Schema, data []byte) ([]leaf, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	err = s.Validate(inst)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	var out []leaf
	var walk func(e *jsonschema.ValidationError, under string)
	walk = func(e *jsonschema.ValidationError, under string) {
		if _, ok := e.ErrorKind.(*kind.PropertyNames); ok {
			under = "propertyNames" // a member name failed, not a value
		}
		if len(e.Causes) == 0 {
			kp := e.ErrorKind.KeywordPath()
			kw := under
			if kw == "" && len(kp) > 0 {
				kw = kp[0]
			}
			out = append(out, leaf{path: e.InstanceLocation, keyword: kw, kind: e.ErrorKind, msg: e.Error()})
		}
		for _, c := range e.Causes {
			walk(c, under)
		}
	}
	walk(ve, "")
	// The deepest failure first: a oneOf over null and a type fails at
	// its alternatives.
	slices.SortStableFunc(out, func(a, b leaf) int { return len(b.path) - len(a.path) })
	return out, err
}

// evaluate calls an input tool with data and compares the verdicts.
func (h *harness) evaluate(ctx context.Context, t *tool, data []byte, source string) ([]*Report, *verdicts) {
	v := &verdicts{data: data}
	v.tree, _ = parse(data)
	v.call = h.call(ctx, t, data)
	v.leaves, v.sErr = validate(t.input, data)
	p := reflect.New(t.In)
	if v.uErr = unmarshal(data, p.Interface()); v.uErr == nil {
		v.in = p.Elem()
	}
	if v.tree != nil {
		if d := withDefaults(t.inputDoc, t.inputDoc, v.tree.clone()); d != nil {
			q := reflect.New(t.In)
			if unmarshal(d.encode(), q.Interface()) == nil {
				v.withDefaults = q.Elem()
			}
		}
	}
	var reports []*Report
	add := func(event string, path []string, l *leaf) *Report {
		r := h.report(t, v, event, source, path, l)
		reports = append(reports, r)
		return r
	}
	sOK, uOK := v.sErr == nil, v.uErr == nil
	refusal, byValidator := v.call.refusal()
	switch {
	case v.call.ran && !sOK:
		add(RuntimeAcceptsInvalid, firstPath(v), firstLeaf(v))
	case v.call.ran && !uOK:
		p, err := localize(t.In, v.tree, nil, v.uErr)
		keyFlag(add(RuntimeAcceptsUnreadable, p, nil), err)
	case !v.call.ran && sOK && uOK:
		var path []string
		if ps := runtimePaths(refusal); len(ps) > 0 {
			path = ps[0]
		}
		r := add(RuntimeRefusesValid, path, nil)
		if byValidator {
			r.Flags = append(r.Flags, "byValidator")
		} else {
			r.Flags = append(r.Flags, "byDecoder")
		}
	case v.call.ran:
		got := reflect.ValueOf(v.call.value)
		for got.Kind() == reflect.Pointer && got.Type() != t.In {
			got = got.Elem()
		}
		d := diff(got, v.in)
		switch {
		case d != nil && v.withDefaults.IsValid() && diff(got, v.withDefaults) == nil:
			// Defaults applied, as the policy says.
		case d != nil:
			r := add(ValueDiffers, d.path, nil)
			r.Detail = "handler " + d.detail + " (encoding/json)"
		case v.withDefaults.IsValid():
			if dd := diff(got, v.withDefaults); dd != nil {
				r := add(DefaultNotApplied, dd.path, nil)
				r.Detail = "handler " + dd.detail + " (the default)"
			}
		}
	}
	if sOK {
		reports = append(reports, h.intent(t, v, source)...)
	}
	switch {
	case uOK && !sOK:
		add(SchemaRefusesReadable, firstPath(v), firstLeaf(v))
	case !uOK && sOK:
		p, err := localize(t.In, v.tree, nil, v.uErr)
		keyFlag(add(SchemaAcceptsUnreadable, p, nil), err)
	}
	return reports, v
}

// unmarshal is json.Unmarshal, with a panic of encoding/json (it has
// some, for types it cannot set) returned as an error.
func unmarshal(data []byte, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("encoding/json panicked: %v", p)
		}
	}()
	return json.Unmarshal(data, v)
}

// marshal is json.Marshal, with a panic returned as an error.
func marshal(v any) (data []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("encoding/json panicked: %v", p)
		}
	}()
	return json.Marshal(v)
}

// keyFlag sets r's encoding/json error to err, flagged "mapKey" when it
// is about a map key.
func keyFlag(r *Report, err error) {
	r.Unmarshal = err.Error()
	if _, ok := err.(*keyError); ok {
		r.Flags = append(r.Flags, "mapKey")
	}
}

func firstLeaf(v *verdicts) *leaf {
	if len(v.leaves) == 0 {
		return nil
	}
	return &v.leaves[0]
}

func firstPath(v *verdicts) []string {
	if l := firstLeaf(v); l != nil {
		return l.path
	}
	return nil
}

// localize finds the innermost value of n that encoding/json refuses
// to decode into t by itself: a member tried alone in an object of its
// own, an element alone, an entry of a map alone, down as long as one
// fails alone. It returns the path and encoding/json's error there.
func localize(t reflect.Type, n *node, path []string, err error) ([]string, error) {
	if n == nil || t == nil {
		return path, err
	}
	decode := func(t reflect.Type, n *node) error {
		return unmarshal(n.encode(), reflect.New(t).Interface())
	}
	for t.Kind() == reflect.Pointer && !decodesItself(t) {
		t = t.Elem()
	}
	if decodesItself(t) || t == rawType {
		return path, err
	}
	switch {
	case t.Kind() == reflect.Struct && n.kind == kObject:
		for _, m := range n.mem {
			e := decode(t, obj(m))
			if e == nil {
				continue
			}
			f, ok := jsonField(t, m.name)
			if !ok {
				return append(clip(path), m.name), e
			}
			return localize(f.Type, m.val, append(clip(path), m.name), e)
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.kind == kArray:
		for i, el := range n.elems {
			if e := decode(t.Elem(), el); e != nil {
				return localize(t.Elem(), el, append(clip(path), strconv.Itoa(i)), e)
			}
		}
	case t.Kind() == reflect.Map && n.kind == kObject:
		for _, m := range n.mem {
			e := decode(t, obj(m))
			if e == nil {
				continue
			}
			if ee := decode(t.Elem(), m.val); ee != nil {
				return localize(t.Elem(), m.val, append(clip(path), m.name), ee)
			}
			return append(clip(path), m.name), &keyError{e} // the key
		}
	}
	return path, err
}

// keyError is encoding/json's error about a map key, which localize
// found the culprit.
type keyError struct{ error }

// report builds a Report with the facts of the value at path.
func (h *harness) report(t *tool, v *verdicts, event, source string, path []string, l *leaf) *Report {
	r := &Report{Tool: t.Name, Event: event, Source: source, JSON: string(v.data)}
	refusal, _ := v.call.refusal()
	r.Runtime = refusal
	if v.sErr != nil {
		r.Schema = firstLine(v.sErr.Error())
		if l != nil {
			r.Schema = l.msg
		}
	}
	if v.uErr != nil {
		r.Unmarshal = v.uErr.Error()
	}
	if l != nil {
		r.Keyword = l.keyword
		switch k := l.kind.(type) {
		case *kind.Required:
			path = append(clip(path), k.Missing[0])
			r.Flags = append(r.Flags, "absent")
		case *kind.AdditionalProperties:
			path = append(clip(path), k.Properties[0])
			st := typeAt(t.In, path[:len(path)-1])
			if deref(st.t).Kind() == reflect.Map {
				r.Flags = append(r.Flags, "mapKey") // a key the schema's names refuse
			}
			if st.t.Kind() == reflect.Struct {
				if _, exact := jsonFields(st.t)[k.Properties[0]]; !exact {
					if _, fold := jsonField(st.t, k.Properties[0]); fold {
						r.Flags = append(r.Flags, "caseFold")
					}
				}
			}
		}
	}
	r.Path = path
	h.facts(r, t.In, t.inputDoc, v.tree, path, false)
	if v.tree != nil && v.tree.hasDuplicateNames() {
		r.Flags = append(r.Flags, "duplicate")
	}
	return r
}

// facts adds the Go types at path, the schema there, and flags about
// the value there: of an input, as encoding/json decodes it, or of an
// output, as json.Marshal writes it.
func (h *harness) facts(r *Report, in reflect.Type, doc any, tree *node, path []string, output bool) {
	if in == nil {
		return
	}
	at := typeAt
	if output {
		at = outputTypeAt
	}
	if s := schemaAt(doc, tree, path); s != nil {
		b, _ := json.Marshal(withoutDescriptions(s))
		r.SchemaAt = string(b)
		if len(r.SchemaAt) > 300 {
			r.SchemaAt = r.SchemaAt[:300] + "…"
		}
		switch m := s.(type) {
		case bool:
			r.Flags = append(r.Flags, "schemaAny")
		case map[string]any:
			if t, ok := m["type"].(string); ok {
				r.Flags = append(r.Flags, "schemaType:"+t)
			} else if m["$ref"] == nil && m["enum"] == nil && m["oneOf"] == nil && m["anyOf"] == nil && m["properties"] == nil && m["const"] == nil {
				r.Flags = append(r.Flags, "schemaAny")
			}
		}
	}
	st := at(in, path)
	r.GoType = st.t.String()
	if len(path) > 0 {
		// An element past the length of a Go array, which encoding/json
		// drops.
		parent := at(in, path[:len(path)-1]).t
		for parent != nil && parent.Kind() == reflect.Pointer {
			parent = parent.Elem()
		}
		if i, err := strconv.Atoi(path[len(path)-1]); err == nil && parent != nil && parent.Kind() == reflect.Array && i >= parent.Len() {
			r.Flags = append(r.Flags, "beyondArray")
		}
	}
	if st.field == nil && len(path) > 0 {
		// An element of a list: the list field's tag applies to it.
		if parent := at(in, path[:len(path)-1]); parent.field != nil && isArray(parent.field.Type) {
			if js := parent.field.Tag.Get("jsonschema"); js != "" && r.Keyword != "" && strings.Contains(js, r.Keyword+"=") {
				r.Flags = append(r.Flags, "tagKeyword")
			}
		}
	}
	if st.field != nil {
		r.Field = st.field.Name + " `" + string(st.field.Tag) + "`"
		r.Owner = st.owner.String()
		if strings.Contains(st.field.Tag.Get("json"), ",string") {
			r.Flags = append(r.Flags, "stringOption")
		}
		if js := st.field.Tag.Get("jsonschema"); js != "" && r.Keyword != "" && strings.Contains(js, r.Keyword+"=") {
			r.Flags = append(r.Flags, "tagKeyword")
		}
		if st.field.Type.Kind() == reflect.Pointer {
			r.Flags = append(r.Flags, "pointer")
		}
	}
	leafType := st.t
	for leafType.Kind() == reflect.Pointer {
		leafType = leafType.Elem()
	}
	r.Flags = append(r.Flags, "goKind:"+leafType.Kind().String())
	if decodesItself(leafType) || decodesItself(st.t) {
		r.Flags = append(r.Flags, "decodesItself")
	}
	if e, ok := h.cfg.Enums[leafType.String()]; ok {
		r.Flags = append(r.Flags, "enumType")
		if tree != nil {
			if n := tree.at(path); n != nil {
				val := string(n.encode())
				if slices.ContainsFunc(e.Constants, func(c json.RawMessage) bool { return string(compactJSON(c)) == val }) {
					r.Flags = append(r.Flags, "constant")
				}
			}
		}
	}
	switch leafType.Kind() {
	case reflect.Array:
		r.Flags = append(r.Flags, "array")
	case reflect.Slice:
		if leafType.Elem().Kind() == reflect.Uint8 {
			r.Flags = append(r.Flags, "bytes")
			if _, ok := h.cfg.Enums[leafType.Elem().String()]; ok {
				r.Flags = append(r.Flags, "enumElems")
			}
		} else {
			r.Flags = append(r.Flags, "container")
		}
	case reflect.Map:
		r.Flags = append(r.Flags, "container")
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr:
		r.Flags = append(r.Flags, "int64")
	}
	if tree != nil {
		if n := tree.at(path); n != nil {
			r.Flags = append(r.Flags, "json:"+n.kind.String())
			if n.kind == kNumber && strings.ContainsAny(n.text, ".eE") {
				r.Flags = append(r.Flags, "decimalForm")
			}
		} else if len(path) > 0 && !slices.Contains(r.Flags, "absent") {
			r.Flags = append(r.Flags, "absent")
		}
	}
}

// schemaAt returns the schema that applies to the value at path, in the
// schema document doc: $refs followed, and of a oneOf or anyOf the
// alternative of the value's type.
func schemaAt(doc any, tree *node, path []string) any {
	root, _ := doc.(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	var at func(s any, n *node) any
	at = func(s any, n *node) any {
		for range 32 {
			m, ok := s.(map[string]any)
			if !ok {
				return s
			}
			if ref, ok := m["$ref"].(string); ok {
				if ref == "#" {
					s = root
				} else {
					s = defs[strings.TrimPrefix(ref, "#/$defs/")]
				}
				continue
			}
			alts, _ := m["oneOf"].([]any)
			if alts == nil {
				alts, _ = m["anyOf"].([]any)
			}
			if alts == nil || titledConsts(alts) {
				return m // a leaf; titled constants are an enum's values
			}
			s = alts[0]
			for _, a := range alts {
				if am, ok := a.(map[string]any); ok && n != nil && am["type"] != "null" && n.kind != kNull {
					s = a
					break
				}
				if am, ok := a.(map[string]any); ok && n != nil && am["type"] == "null" && n.kind == kNull {
					s = a
					break
				}
			}
		}
		return s
	}
	s := any(root)
	n := tree
	for _, tok := range path {
		m, ok := at(s, n).(map[string]any)
		if !ok {
			return nil
		}
		if n != nil {
			n = n.at([]string{tok})
		}
		if props, ok := m["properties"].(map[string]any); ok && props[tok] != nil {
			s = props[tok]
		} else if ap, ok := m["additionalProperties"]; ok && ap != false {
			s = ap
		} else if items, ok := m["items"]; ok {
			s = items
		} else if m["type"] == nil && len(m) == 0 {
			s = true
		} else {
			return nil
		}
	}
	return at(s, n)
}

// withoutDescriptions drops the descriptions of a schema, for reports.
func withoutDescriptions(s any) any {
	switch s := s.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, v := range s {
			if k != "description" && k != "$defs" {
				out[k] = withoutDescriptions(v)
			}
		}
		return out
	case []any:
		out := make([]any, len(s))
		for i, v := range s {
			out[i] = withoutDescriptions(v)
		}
		return out
	}
	return s
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// withDefaults puts the defaults of s (a decoded schema) into the
// absent members of n, where s is an object with properties, and returns
// n, or nil when it put none.
func withDefaults(root, s any, n *node) *node {
	changed := false
	var walk func(s any, n *node, depth int)
	walk = func(s any, n *node, depth int) {
		m, ok := s.(map[string]any)
		if !ok || depth > 32 {
			return
		}
		if ref, ok := m["$ref"].(string); ok {
			name, _ := strings.CutPrefix(ref, "#/$defs/")
			defs, _ := root.(map[string]any)["$defs"].(map[string]any)
			walk(defs[name], n, depth+1)
			return
		}
		if alts, ok := m["oneOf"].([]any); ok {
			for _, a := range alts {
				walk(a, n, depth+1) // only the alternative of n's kind can match below
			}
			return
		}
		switch n.kind {
		case kObject:
			props, _ := m["properties"].(map[string]any)
			if props == nil {
				if ap, ok := m["additionalProperties"]; ok {
					for _, mem := range n.mem {
						walk(ap, mem.val, depth+1)
					}
				}
				return
			}
			for _, name := range sortedKeys(props) {
				ps := props[name]
				i := slices.IndexFunc(n.mem, func(mem member) bool { return mem.name == name })
				if i >= 0 {
					walk(ps, n.mem[i].val, depth+1)
					continue
				}
				if pm, ok := ps.(map[string]any); ok {
					if d, ok := pm["default"]; ok {
						n.mem = append(n.mem, member{name, fromAny(d)})
						changed = true
					}
				}
			}
		case kArray:
			for _, e := range n.elems {
				walk(m["items"], e, depth+1)
			}
		}
	}
	walk(s, n, 0)
	if !changed {
		return nil
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// checkDefaults reports every default and example of a schema that its
// own schema refuses.
func (h *harness) checkDefaults(t *tool, doc any, which string, emit func(*Report)) {
	var walk func(s any, path string, depth int)
	walk = func(s any, path string, depth int) {
		if depth > 40 {
			return
		}
		switch s := s.(type) {
		case map[string]any:
			for _, k := range []string{"default", "examples"} {
				val, ok := s[k]
				if !ok {
					continue
				}
				vals := []any{val}
				if k == "examples" {
					vals, _ = val.([]any)
				}
				own := maps.Clone(s)
				delete(own, "default")
				delete(own, "examples")
				delete(own, "description")
				for _, x := range vals {
					if msg := h.instanceOf(doc, own, x); msg != "" {
						b, _ := json.Marshal(x)
						sb, _ := json.Marshal(own)
						emit(&Report{Tool: t.Name, Event: DefaultInvalid, Source: which, JSON: string(b), Keyword: k,
							Detail: fmt.Sprintf("at %s: %s %s is not an instance of %s: %s", cmpOr(path, "(root)"), k, b, sb, msg)})
					}
				}
			}
			for _, k := range sortedKeys(s) {
				if k == "default" || k == "examples" || k == "enum" || k == "const" {
					continue
				}
				walk(s[k], path+"/"+k, depth+1)
			}
		case []any:
			for i, x := range s {
				walk(x, fmt.Sprintf("%s/%d", path, i), depth+1)
			}
		}
	}
	walk(doc, "", 0)
}

// instanceOf validates x against sub, a part of the schema document doc
// (whose $defs it may refer to), and returns the failure, or "".
func (h *harness) instanceOf(doc any, sub map[string]any, x any) string {
	withDefs := maps.Clone(sub)
	if d, ok := doc.(map[string]any)["$defs"]; ok {
		withDefs["$defs"] = d
	}
	data, _ := json.Marshal(withDefs)
	s, err := compile("sub", data)
	if err != nil {
		return "the schema does not compile: " + err.Error()
	}
	inst, _ := json.Marshal(x)
	if leaves, err := validate(s, inst); err != nil {
		if len(leaves) > 0 {
			return leaves[0].msg
		}
		return firstLine(err.Error())
	}
	return ""
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// compile compiles a schema with the reference validator, formats
// asserted as the runtime asserts them.
func compile(name string, data []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	url := "mem:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// titledConsts reports whether alts are {"const": …, "title": …}
// schemas: the values of an integer enum.
func titledConsts(alts []any) bool {
	for _, a := range alts {
		m, _ := a.(map[string]any)
		if _, ok := m["const"]; !ok || m["title"] == nil {
			return false
		}
	}
	return len(alts) > 0
}
