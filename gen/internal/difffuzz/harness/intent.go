package harness

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Intent: what a schema must say beyond agreeing with encoding/json,
// because the Go code says it: an unexported sentinel at the end of an
// iota block is not a value of the enum; a tag's enum replaces the
// constants; a duration says its unit.

// intent checks a value the schema accepts against the enums the Go
// code means.
func (h *harness) intent(t *tool, v *verdicts, source string) []*Report {
	if v.tree == nil {
		return nil
	}
	var out []*Report
	for _, p := range places(v.tree) {
		st := typeAt(t.In, p.path)
		val := string(p.n.encode())
		if e, ok := h.cfg.Enums[deref(st.t).String()]; ok {
			if slices.ContainsFunc(e.Outside, func(o json.RawMessage) bool { return string(compactJSON(o)) == val }) {
				r := h.report(t, v, SchemaAcceptsOutside, source, p.path, nil)
				r.Flags = append(r.Flags, "sentinel")
				r.Detail = val + " is not one of the exported constants of " + st.t.String()
				out = append(out, r)
				continue
			}
		}
		if enum, ok := tagEnum(t.In, p.path); ok && p.n.kind != kNull && !slices.ContainsFunc(enum, func(e string) bool { return sameScalar(e, p.n) }) {
			r := h.report(t, v, SchemaAcceptsOutside, source, p.path, nil)
			r.Flags = append(r.Flags, "tagEnum")
			r.Detail = fmt.Sprintf("%s is not among the tag's enum %q", val, enum)
			out = append(out, r)
		}
	}
	return out
}

// tagEnum returns the enum a jsonschema tag sets for the value at path:
// the field's own, or for an element of a list, the list field's.
func tagEnum(in reflect.Type, path []string) ([]string, bool) {
	st := typeAt(in, path)
	f := st.field
	if f == nil && len(path) > 0 {
		parent := typeAt(in, path[:len(path)-1])
		if parent.field != nil && isArray(parent.field.Type) {
			f = parent.field
		}
	} else if f != nil && isArray(f.Type) {
		return nil, false // the list itself; its elements are checked
	}
	if f == nil {
		return nil, false
	}
	var enum []string
	for _, kv := range splitTag(f.Tag.Get("jsonschema")) {
		if v, ok := strings.CutPrefix(kv, "enum="); ok {
			enum = append(enum, v)
		}
	}
	return enum, len(enum) > 0
}

// sameScalar reports whether a tag's enum value e is the JSON value n: a
// string's content, a number of equal value (1.0 is 1), a boolean.
func sameScalar(e string, n *node) bool {
	switch n.kind {
	case kString, kBool:
		return e == n.text
	case kNumber:
		a, ok1 := new(big.Rat).SetString(e)
		b, ok2 := new(big.Rat).SetString(n.text)
		return ok1 && ok2 && a.Cmp(b) == 0
	}
	return false
}

var unit = regexp.MustCompile(`(?i)nanosecond|duration`)

// checkDurations reports each time.Duration member of an input whose
// schema does not say the unit: the model reads a bare integer.
func (h *harness) checkDurations(t *tool, emit func(*Report)) {
	walkMembers(t.In, nil, map[reflect.Type]bool{}, func(path []string, owner reflect.Type, f reflect.StructField) {
		if deref(f.Type) != reflect.TypeFor[time.Duration]() {
			return
		}
		s, _ := schemaAt(t.inputDoc, nil, path).(map[string]any)
		desc, _ := s["description"].(string)
		if s != nil && !unit.MatchString(desc) && s["format"] != "duration" {
			b, _ := json.Marshal(s)
			emit(&Report{Tool: t.Name, Event: DurationUnit, Path: path, GoType: f.Type.String(), Field: f.Name + " `" + string(f.Tag) + "`", Owner: owner.String(),
				SchemaAt: string(b), Detail: "the schema of a time.Duration says neither its unit (nanoseconds) nor a format"})
		}
	})
}

// checkEnumNames reports each member of an integer enum type whose
// schema does not name the constants: the model reads bare numbers.
func (h *harness) checkEnumNames(t *tool, emit func(*Report)) {
	walkMembers(t.In, nil, map[reflect.Type]bool{}, func(path []string, owner reflect.Type, f reflect.StructField) {
		et := deref(f.Type)
		if isArray(et) {
			et = deref(et.Elem())
		}
		e, ok := h.cfg.Enums[et.String()]
		if !ok || len(e.Names) == 0 || !isNumberType(et) || strings.Contains(f.Tag.Get("jsonschema"), "enum=") {
			return // a tag's enum replaces the constants, and their names
		}
		s := schemaAt(t.inputDoc, nil, path)
		b, _ := json.Marshal(s)
		for _, name := range e.Names {
			if !strings.Contains(string(b), name) {
				emit(&Report{Tool: t.Name, Event: EnumNames, Path: path, GoType: f.Type.String(), Field: f.Name + " `" + string(f.Tag) + "`", Owner: owner.String(),
					SchemaAt: string(b), Detail: "the schema of an integer enum does not name its constant " + name})
				return
			}
		}
	})
}

// checkEnumOrder reports each member of an enum type whose schema lists
// the constants in another order than the source's: the files by name,
// then the constants in each file as they are declared.
func (h *harness) checkEnumOrder(t *tool, emit func(*Report)) {
	walkMembers(t.In, nil, map[reflect.Type]bool{}, func(path []string, owner reflect.Type, f reflect.StructField) {
		et := deref(f.Type)
		e, ok := h.cfg.Enums[et.String()]
		if !ok || len(e.Constants) < 2 || strings.Contains(f.Tag.Get("jsonschema"), "enum=") {
			return
		}
		s, _ := schemaAt(t.inputDoc, nil, path).(map[string]any)
		enum, _ := s["enum"].([]any)
		var got, want []string
		for _, v := range enum {
			b, _ := json.Marshal(v)
			got = append(got, string(b))
		}
		for _, c := range e.Constants {
			want = append(want, string(compactJSON(c)))
		}
		if len(got) != len(want) || slices.Equal(got, want) {
			return // another defect, or none
		}
		sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
		if slices.Equal(sorted(got), sorted(want)) {
			emit(&Report{Tool: t.Name, Event: EnumOrder, Path: path, GoType: f.Type.String(), Field: f.Name + " `" + string(f.Tag) + "`", Owner: owner.String(),
				Detail: fmt.Sprintf("the schema lists %s; the source declares %s", strings.Join(got, ", "), strings.Join(want, ", "))})
		}
	})
}

// walkMembers calls visit for every member of a struct type, as
// encoding/json reads them, and of the structs below, once per type.
func walkMembers(t reflect.Type, path []string, seen map[reflect.Type]bool, visit func(path []string, owner reflect.Type, f reflect.StructField)) {
	t = deref(t)
	if seen[t] || decodesItself(t) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		seen[t] = true
		fields := jsonFields(t)
		for _, name := range sortedKeys(fields) {
			f := fields[name]
			p := append(clip(path), name)
			visit(p, t, f)
			walkMembers(f.Type, p, seen, visit)
		}
	case reflect.Slice, reflect.Array, reflect.Map:
		walkMembers(t.Elem(), append(clip(path), "0"), seen, visit)
	}
}
