package surface

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// Kinds of change of a schema.
const (
	KindMemberRemoved  = "member-removed"  // a property, argument or variable
	KindMemberRenamed  = "member-renamed"  // removed, and one like it added
	KindMemberAdded    = "member-added"    // What says whether required
	KindMemberRequired = "member-required" // optional before
	KindMemberOptional = "member-optional" // required before
	KindType           = "type"            // the JSON types a value may have
	KindNullable       = "nullable"        // whether null is a value
	KindEnum           = "enum"            // a list of values that appears or goes
	KindEnumRemoved    = "enum-value-removed"
	KindEnumAdded      = "enum-value-added"
	KindBound          = "bound"            // minimum, maxLength, minItems, …
	KindPattern        = "pattern"          // a string's pattern
	KindFormat         = "format"           // a string's format
	KindMultipleOf     = "multiple-of"      // a number's multipleOf
	KindUniqueItems    = "unique-items"     // a list's uniqueItems
	KindEncoding       = "content-encoding" // how a string encodes bytes
	KindOtherMembers   = "other-members"    // additionalProperties: false, or a map's values
	KindAlternative    = "alternative"      // an alternative of a oneOf or anyOf
	KindDefault        = "default"          // the value of a member left out
)

// A schemaComparison compares the input or output schemas of a tool
// present in both surfaces (under its old and new names), structurally:
// references resolved, and the shapes mcpgen writes read as what they
// mean (a oneOf of a schema and null is that schema, nullable; a oneOf of
// titled constants is an enum).
type schemaComparison struct {
	c                *comparison
	subject          string
	newTool, oldTool string
	which            string // "input" or "output"
	seen             map[[2]string]bool
}

func newSchemaComparison(c *comparison, subject, newTool, oldTool string) *schemaComparison {
	return &schemaComparison{c: c, subject: subject, newTool: newTool, oldTool: oldTool}
}

// compareRoot compares the schemas of the input or the output (which).
func (s *schemaComparison) compareRoot(which string, old, new Schema) {
	s.which, s.seen = which, map[[2]string]bool{}
	od, errOld := parseSchemaDoc(old)
	nd, errNew := parseSchemaDoc(new)
	if errOld != nil || errNew != nil {
		if old != new {
			s.c.add(Change{Breaking: true, Kind: KindType, Subject: s.subject, Member: which, What: "schema changed, and one of the two is not JSON",
				Why: "mcpgen cannot tell what it allows", Place: SchemaPlace(s.newTool, which, ""), OldPlace: SchemaPlace(s.oldTool, which, "")})
		}
		return
	}
	s.compare(schemaNode{doc: od, v: od.root}, schemaNode{doc: nd, v: nd.root}, which)
}

func (s *schemaComparison) input() bool { return s.which == "input" }

// add reports a change of the member at path, whose nodes are o and n
// (before their references are followed: a member's place is its
// property's).
func (s *schemaComparison) add(o, n schemaNode, path string, breaking bool, kind, what, why string) {
	s.c.add(Change{Breaking: breaking, Kind: kind, Subject: s.subject, Member: path, What: what, Why: why,
		Place: SchemaPlace(s.newTool, s.which, n.ptr), OldPlace: SchemaPlace(s.oldTool, s.which, o.ptr)})
}

// An effect is what a change does to the set of values a schema allows.
type effect int

const (
	widens  effect = iota // every value allowed before still is
	narrows               // every value allowed now was before
	alters                // neither: some are gained, some lost
)

// valueChange reports a change by its effect: in an input, a change that
// refuses some arguments breaks callers; in an output, a change that
// lets the tool return values the old schema ruled out breaks the
// clients that rely on it.
func (s *schemaComparison) valueChange(o, n schemaNode, path string, e effect, kind, what string) {
	var breaking bool
	var why string
	if s.input() {
		breaking = e != widens
		why = "every argument the old schema took is still taken"
		if breaking {
			why = "an argument the old schema took may now be refused"
		}
	} else {
		breaking = e != narrows
		why = "every value the tool returns now, the old schema allowed"
		if breaking {
			why = "the tool may now return a value the old schema ruled out, which a client that relies on it does not expect"
		}
	}
	s.add(o, n, path, breaking, kind, what, why)
}

// A view is what a schema allows, read as mcpgen writes schemas.
type view struct {
	node   schemaNode        // the schema read, after references and the null alternative
	any    bool              // any type
	never  bool              // no value (false)
	types  []string          // the JSON types allowed, "null" among them when nullable; nil with any
	enum   []any             // the values allowed, nil for no list
	labels map[string]string // an integer enum value's title, by its JSON
	alts   []schemaNode      // the alternatives of a oneOf or anyOf that is neither nullable nor an enum
	kw     map[string]any    // the schema's keywords
}

func viewOf(n schemaNode) view {
	d := deref(n)
	v := view{node: d, kw: map[string]any{}}
	switch x := d.v.(type) {
	case map[string]any:
		v.kw = x
	case bool:
		v.any, v.never = x, !x
		return v
	default: // absent: no constraint
		v.any = true
		return v
	}
	switch t := v.kw["type"].(type) {
	case string:
		v.types = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				v.types = append(v.types, s)
			}
		}
	default:
		v.any = true
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		list, ok := v.kw[key].([]any)
		if !ok {
			continue
		}
		alts := make([]schemaNode, len(list))
		for i := range list {
			alts[i] = d.child(key).child(itoa(i))
		}
		if values, labels, ok := constants(alts); ok {
			v.enum, v.labels = values, labels
			continue
		}
		if inner, ok := nullable(alts); ok {
			return inner
		}
		v.alts = alts
	}
	if c, ok := v.kw["const"]; ok {
		v.enum = []any{c}
	}
	if e, ok := v.kw["enum"].([]any); ok {
		v.enum = e
	}
	return v
}

// constants reads alternatives that are each a constant, as mcpgen
// writes an integer enum ({"const": 2, "title": "High"}): their values,
// and their titles by value.
func constants(alts []schemaNode) ([]any, map[string]string, bool) {
	var values []any
	labels := map[string]string{}
	for _, a := range alts {
		m, ok := deref(a).v.(map[string]any)
		if !ok {
			return nil, nil, false
		}
		c, ok := m["const"]
		if !ok {
			return nil, nil, false
		}
		for k := range m {
			if k != "const" && !slices.Contains(describing, k) {
				return nil, nil, false
			}
		}
		values = append(values, c)
		if t, ok := m["title"].(string); ok {
			labels[jsonText(c)] = t
		}
	}
	return values, labels, len(values) > 0
}

// nullable reads two alternatives of which one is null, as mcpgen writes
// a value that may be null: the view of the other, with null allowed.
func nullable(alts []schemaNode) (view, bool) {
	if len(alts) != 2 {
		return view{}, false
	}
	for i, a := range alts {
		if m, ok := deref(a).v.(map[string]any); ok && m["type"] == "null" && len(m) == 1 {
			inner := viewOf(alts[1-i])
			if !inner.any && !slices.Contains(inner.types, "null") {
				inner.types = append(slices.Clip(inner.types), "null")
			}
			return inner, true
		}
	}
	return view{}, false
}

// nulls reports whether the view allows null.
func (v *view) nulls() bool {
	return v.any || slices.Contains(v.types, "null") || slices.ContainsFunc(v.enum, func(x any) bool { return x == nil })
}

// valueTypes are the types allowed other than null; nil with any.
func (v *view) valueTypes() []string {
	if v.any {
		return nil
	}
	var ts []string
	for _, t := range v.types {
		if t != "null" {
			ts = append(ts, t)
		}
	}
	slices.Sort(ts)
	return ts
}

// covers reports whether a value of type t is one of types: every
// integer is a number.
func covers(types []string, t string) bool {
	return slices.Contains(types, t) || t == "integer" && slices.Contains(types, "number")
}

// within reports whether every type a allows (other than null), b
// allows.
func within(a, b *view) bool {
	if b.any {
		return true
	}
	if a.any {
		return false
	}
	for _, t := range a.valueTypes() {
		if !covers(b.valueTypes(), t) {
			return false
		}
	}
	return true
}

// typeWords names the types of a view: "string", "integer or null",
// "any value".
func typeWords(v *view) string {
	if v.never {
		return "no value"
	}
	if v.any {
		return "any value"
	}
	ts := v.valueTypes()
	if len(ts) == 0 {
		return "null"
	}
	return strings.Join(ts, " or ")
}

// compare compares the schemas at o and n, of the member at path.
func (s *schemaComparison) compare(o, n schemaNode, path string) {
	ov, nv := viewOf(o), viewOf(n)
	pair := [2]string{ov.node.ptr, nv.node.ptr}
	if s.seen[pair] {
		return // a $defs entry compared already, or a recursive type
	}
	s.seen[pair] = true

	if on, nn := ov.nulls(), nv.nulls(); on != nn && !ov.any && !nv.any && !ov.never && !nv.never {
		switch {
		case s.input() && on:
			s.add(o, n, path, true, KindNullable, "no longer accepts null", "a client that sends null is refused")
		case s.input():
			s.add(o, n, path, false, KindNullable, "now accepts null", "clients that never send null are not affected")
		case nn:
			s.add(o, n, path, true, KindNullable, "may now be null", "a client that reads it as a value meets null")
		default:
			s.add(o, n, path, false, KindNullable, "is no longer null", "every value the tool returns now, the old schema allowed")
		}
	}
	if !slices.Equal(ov.valueTypes(), nv.valueTypes()) || ov.any != nv.any || ov.never != nv.never {
		wider, narrower := within(&ov, &nv), within(&nv, &ov)
		what := fmt.Sprintf("type changed from %s to %s", typeWords(&ov), typeWords(&nv))
		switch {
		case ov.never || nv.never:
			e := widens
			if nv.never {
				e = narrows
			}
			s.valueChange(o, n, path, e, KindType, what)
			return
		case wider && !narrower:
			s.valueChange(o, n, path, widens, KindType, what)
		case narrower && !wider:
			s.valueChange(o, n, path, narrows, KindType, what)
		default:
			s.valueChange(o, n, path, alters, KindType, what)
		}
		if !overlap(&ov, &nv) {
			return // the keywords of different types mean nothing to each other
		}
	}
	s.enum(o, n, path, &ov, &nv)
	s.bounds(o, n, path, &ov, &nv)
	s.text(o, n, path, &ov, &nv)
	s.numbers(o, n, path, &ov, &nv)
	s.object(o, n, path, &ov, &nv)
	s.array(o, n, path, &ov, &nv)
	s.alternatives(o, n, path, &ov, &nv)
	if s.input() {
		od, oOK := ov.kw["default"]
		nd, nOK := nv.kw["default"]
		if oOK && nOK && jsonText(od) != jsonText(nd) || oOK != nOK {
			s.add(o, n, path, false, KindDefault, fmt.Sprintf("default %s → %s", defaultWords(od, oOK), defaultWords(nd, nOK)),
				"clients that send it are not affected; one that leaves it out gets the new default")
		}
	}
}

func defaultWords(v any, ok bool) string {
	if !ok {
		return "(none)"
	}
	return jsonText(v)
}

// overlap reports whether two views allow some type in common.
func overlap(a, b *view) bool {
	if a.any || b.any {
		return true
	}
	for _, t := range a.valueTypes() {
		if covers(b.valueTypes(), t) {
			return true
		}
		for _, u := range b.valueTypes() {
			if u == "integer" && t == "number" {
				return true
			}
		}
	}
	return false
}

// enum compares the lists of values. In an input, a value removed is
// refused; in an output, a value added is one a client that switches on
// the value does not know.
func (s *schemaComparison) enum(o, n schemaNode, path string, ov, nv *view) {
	switch {
	case ov.enum == nil && nv.enum == nil:
		return
	case ov.enum == nil:
		s.valueChange(o, n, path, narrows, KindEnum, "restricted to "+enumWords(nv.enum, nv.labels))
		return
	case nv.enum == nil:
		s.valueChange(o, n, path, widens, KindEnum, "no longer restricted to "+enumWords(ov.enum, ov.labels))
		return
	}
	has := func(list []any, v any) bool {
		return slices.ContainsFunc(list, func(x any) bool { return jsonText(x) == jsonText(v) })
	}
	for _, v := range ov.enum {
		if has(nv.enum, v) {
			continue
		}
		what := "enum value " + valueWords(v, ov.labels) + " removed"
		if s.input() {
			s.add(o, n, path, true, KindEnumRemoved, what, "a client that sends "+jsonText(v)+" is refused")
		} else {
			s.add(o, n, path, false, KindEnumRemoved, what, "the tool no longer returns it; clients that handle it are not affected")
		}
	}
	for _, v := range nv.enum {
		if has(ov.enum, v) {
			continue
		}
		what := "enum value " + valueWords(v, nv.labels) + " added"
		if s.input() {
			s.add(o, n, path, false, KindEnumAdded, what, "clients that do not know it do not send it")
		} else {
			s.add(o, n, path, true, KindEnumAdded, what, "a client that switches on the value meets one it does not know")
		}
	}
}

func enumWords(vals []any, labels map[string]string) string {
	words := make([]string, len(vals))
	for i, v := range vals {
		words[i] = valueWords(v, labels)
	}
	return strings.Join(words, ", ")
}

// valueWords is a value as a report shows it: 2 (High) for a titled
// constant.
func valueWords(v any, labels map[string]string) string {
	t := jsonText(v)
	if l := labels[t]; l != "" {
		return t + " (" + l + ")"
	}
	return t
}

// jsonText is a value's JSON, to compare and show values.
func jsonText(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// A bound is one end of a range: a number and whether it is excluded.
type bound struct {
	keyword string
	value   *big.Rat
	text    string
	excl    bool
}

// limit reads the tighter of the keywords of one end (minimum and
// exclusiveMinimum, say); upper says which end.
func limit(kw map[string]any, upper bool, keywords ...string) *bound {
	var best *bound
	for _, k := range keywords {
		num, ok := kw[k].(json.Number)
		if !ok {
			continue
		}
		r, ok := new(big.Rat).SetString(num.String())
		if !ok {
			continue
		}
		b := &bound{keyword: k, value: r, text: num.String(), excl: strings.HasPrefix(k, "exclusive")}
		if best == nil || tighter(b, best, upper) {
			best = b
		}
	}
	return best
}

// tighter reports whether a allows fewer values than b at the same end.
func tighter(a, b *bound, upper bool) bool {
	c := a.value.Cmp(b.value)
	if upper {
		c = -c
	}
	return c > 0 || c == 0 && a.excl && !b.excl
}

// bounds compares the ranges of numbers, lengths and counts.
func (s *schemaComparison) bounds(o, n schemaNode, path string, ov, nv *view) {
	for _, end := range []struct {
		upper    bool
		keywords []string
	}{
		{false, []string{"minimum", "exclusiveMinimum"}}, {true, []string{"maximum", "exclusiveMaximum"}},
		{false, []string{"minLength"}}, {true, []string{"maxLength"}},
		{false, []string{"minItems"}}, {true, []string{"maxItems"}},
		{false, []string{"minProperties"}}, {true, []string{"maxProperties"}},
	} {
		ob, nb := limit(ov.kw, end.upper, end.keywords...), limit(nv.kw, end.upper, end.keywords...)
		var e effect
		var what string
		switch {
		case ob == nil && nb == nil:
			continue
		case ob == nil:
			e, what = narrows, nb.keyword+" "+nb.text+" added"
		case nb == nil:
			e, what = widens, ob.keyword+" "+ob.text+" removed"
		case tighter(nb, ob, end.upper):
			e, what = narrows, boundWords(ob, nb)
		case tighter(ob, nb, end.upper):
			e, what = widens, boundWords(ob, nb)
		default:
			continue
		}
		s.valueChange(o, n, path, e, KindBound, what)
	}
}

// boundWords says how a bound moved: "minimum raised from 1 to 5".
func boundWords(ob, nb *bound) string {
	if ob.keyword != nb.keyword {
		return ob.keyword + " " + ob.text + " → " + nb.keyword + " " + nb.text
	}
	verb := "raised"
	if nb.value.Cmp(ob.value) < 0 {
		verb = "lowered"
	}
	return fmt.Sprintf("%s %s from %s to %s", ob.keyword, verb, ob.text, nb.text)
}

// text compares a string's pattern, format and encoding. A pattern or
// format that appears narrows what is allowed, one that goes widens it,
// and one that changes does both, as far as mcpgen can tell.
func (s *schemaComparison) text(o, n schemaNode, path string, ov, nv *view) {
	for _, k := range []struct{ keyword, kind string }{{"pattern", KindPattern}, {"format", KindFormat}} {
		a, _ := ov.kw[k.keyword].(string)
		b, _ := nv.kw[k.keyword].(string)
		switch {
		case a == b:
		case a == "":
			s.valueChange(o, n, path, narrows, k.kind, fmt.Sprintf("%s %q added", k.keyword, b))
		case b == "":
			s.valueChange(o, n, path, widens, k.kind, fmt.Sprintf("%s %q removed", k.keyword, a))
		default:
			s.valueChange(o, n, path, alters, k.kind, fmt.Sprintf("%s changed from %q to %q", k.keyword, a, b))
		}
	}
	a, _ := ov.kw["contentEncoding"].(string)
	b, _ := nv.kw["contentEncoding"].(string)
	if a != b {
		s.add(o, n, path, true, KindEncoding, fmt.Sprintf("contentEncoding %s → %s", orNone(a), orNone(b)),
			"the same bytes are written another way: what one side encodes, the other decodes wrong")
	}
}

// numbers compares multipleOf.
func (s *schemaComparison) numbers(o, n schemaNode, path string, ov, nv *view) {
	a, aOK := ov.kw["multipleOf"].(json.Number)
	b, bOK := nv.kw["multipleOf"].(json.Number)
	switch {
	case !aOK && !bOK || aOK && bOK && a == b:
	case !aOK:
		s.valueChange(o, n, path, narrows, KindMultipleOf, "multipleOf "+b.String()+" added")
	case !bOK:
		s.valueChange(o, n, path, widens, KindMultipleOf, "multipleOf "+a.String()+" removed")
	default:
		x, okX := new(big.Rat).SetString(a.String())
		y, okY := new(big.Rat).SetString(b.String())
		e := alters
		if okX && okY && y.Sign() != 0 && x.Sign() != 0 {
			switch {
			case new(big.Rat).Quo(x, y).IsInt(): // every multiple of a is one of b
				e = widens
			case new(big.Rat).Quo(y, x).IsInt():
				e = narrows
			}
		}
		s.valueChange(o, n, path, e, KindMultipleOf, "multipleOf "+a.String()+" → "+b.String())
	}
	au, _ := ov.kw["uniqueItems"].(bool)
	bu, _ := nv.kw["uniqueItems"].(bool)
	if au != bu {
		e, what := narrows, "uniqueItems added"
		if au {
			e, what = widens, "uniqueItems removed"
		}
		s.valueChange(o, n, path, e, KindUniqueItems, what)
	}
}

// object compares the members of an object, and its other members (a
// map's values, or none at all).
func (s *schemaComparison) object(o, n schemaNode, path string, ov, nv *view) {
	op, np := ov.node.child("properties"), nv.node.child("properties")
	oProps, _ := op.v.(map[string]any)
	nProps, _ := np.v.(map[string]any)
	oReq, nReq := requiredOf(ov.kw), requiredOf(nv.kw)
	var removed, added []string
	for _, name := range sortedKeys(oProps) {
		if _, ok := nProps[name]; !ok {
			removed = append(removed, name)
		}
	}
	for _, name := range sortedKeys(nProps) {
		if _, ok := oProps[name]; !ok {
			added = append(added, name)
		}
	}
	renamed := pairRenames(removed, added, func(a, b string) bool {
		return canonical(op.child(a)) == canonical(np.child(b))
	})
	closed := nv.kw["additionalProperties"] == false
	member := func(name string) string { return path + "." + name }
	for i, name := range removed {
		om := op.child(name)
		if to, ok := renamed[i]; ok {
			nm := np.child(added[to])
			why := "a client that reads " + name + " finds nothing"
			if s.input() {
				why = "a client that still sends " + name + " is refused"
				if !closed {
					why = "a client that still sends " + name + " is no longer heard"
				}
				if slices.Contains(nReq, added[to]) {
					why += ", and one that does not send " + added[to] + " is refused"
				}
			}
			s.add(om, nm, member(name), true, KindMemberRenamed, "renamed to "+added[to], why)
			continue
		}
		var why string
		switch {
		case !s.input():
			why = "a client that reads it finds nothing"
		case closed:
			why = "a client that still sends it is refused: the input allows no other members (additionalProperties: false)"
		default:
			why = "a client that still sends it is no longer heard: the server ignores it"
		}
		s.c.add(Change{Breaking: true, Kind: KindMemberRemoved, Subject: s.subject, Member: member(name), What: "removed", Why: why,
			Place: SchemaPlace(s.newTool, s.which, nv.node.ptr), OldPlace: SchemaPlace(s.oldTool, s.which, om.ptr)})
	}
	targets := mapValues(renamed)
	for j, name := range added {
		if slices.Contains(targets, j) {
			continue
		}
		nm := np.child(name)
		req := slices.Contains(nReq, name)
		switch {
		case s.input() && req:
			s.c.add(Change{Breaking: true, Kind: KindMemberAdded, Subject: s.subject, Member: member(name), What: "added, required",
				Why: "a client that does not send it is refused", Place: SchemaPlace(s.newTool, s.which, nm.ptr), OldPlace: SchemaPlace(s.oldTool, s.which, ov.node.ptr)})
		case s.input():
			s.c.add(Change{Kind: KindMemberAdded, Subject: s.subject, Member: member(name), What: "added, optional",
				Why: "clients that do not know it leave it out", Place: SchemaPlace(s.newTool, s.which, nm.ptr), OldPlace: SchemaPlace(s.oldTool, s.which, ov.node.ptr)})
		default:
			s.c.add(Change{Kind: KindMemberAdded, Subject: s.subject, Member: member(name), What: "added",
				Why: "clients that do not know it ignore it", Place: SchemaPlace(s.newTool, s.which, nm.ptr), OldPlace: SchemaPlace(s.oldTool, s.which, ov.node.ptr)})
		}
	}
	// Members in both, and the renamed ones, compared in the order of
	// their new names.
	type both struct{ old, new string }
	var pairs []both
	for _, name := range sortedKeys(nProps) {
		if _, ok := oProps[name]; ok {
			pairs = append(pairs, both{name, name})
		}
	}
	for i, to := range renamed {
		pairs = append(pairs, both{removed[i], added[to]})
	}
	slices.SortFunc(pairs, func(a, b both) int { return strings.Compare(a.new, b.new) })
	for _, p := range pairs {
		om, nm := op.child(p.old), np.child(p.new)
		wasReq, isReq := slices.Contains(oReq, p.old), slices.Contains(nReq, p.new)
		switch {
		case wasReq == isReq:
		case s.input() && isReq:
			s.add(om, nm, member(p.new), true, KindMemberRequired, "now required", "a client that leaves it out is refused")
		case s.input():
			s.add(om, nm, member(p.new), false, KindMemberOptional, "now optional", "clients that send it still may")
		case isReq:
			s.add(om, nm, member(p.new), false, KindMemberRequired, "now always present", "clients that handled its absence are not affected")
		default:
			s.add(om, nm, member(p.new), true, KindMemberOptional, "now optional: the tool may leave it out", "a client that reads it unconditionally may find nothing")
		}
		s.compare(om, nm, member(p.new))
	}
	s.otherMembers(o, n, path, ov, nv)
	if ov.kw["propertyNames"] != nil || nv.kw["propertyNames"] != nil {
		s.compare(ov.node.child("propertyNames"), nv.node.child("propertyNames"), path+"{key}")
	}
}

// otherMembers compares additionalProperties: false allows no other
// member, a schema (a map's values) allows any with such a value, and
// none allows any.
func (s *schemaComparison) otherMembers(o, n schemaNode, path string, ov, nv *view) {
	oa, oHas := ov.kw["additionalProperties"]
	na, nHas := nv.kw["additionalProperties"]
	if !oHas && !nHas {
		return
	}
	oClosed, nClosed := oa == false, na == false
	switch {
	case oClosed && nClosed:
	case oClosed:
		s.valueChange(o, n, path, widens, KindOtherMembers, "now allows other members")
	case nClosed:
		s.valueChange(o, n, path, narrows, KindOtherMembers, "no longer allows other members")
	default:
		s.compare(ov.node.child("additionalProperties"), nv.node.child("additionalProperties"), path+"{}")
	}
}

// array compares a list's items.
func (s *schemaComparison) array(o, n schemaNode, path string, ov, nv *view) {
	if ov.kw["items"] != nil || nv.kw["items"] != nil {
		s.compare(ov.node.child("items"), nv.node.child("items"), path+"[]")
	}
	op, _ := ov.kw["prefixItems"].([]any)
	np, _ := nv.kw["prefixItems"].([]any)
	for i := range max(len(op), len(np)) {
		s.compare(ov.node.child("prefixItems").child(itoa(i)), nv.node.child("prefixItems").child(itoa(i)), fmt.Sprintf("%s[%d]", path, i))
	}
}

// alternatives compares a oneOf or anyOf that is neither nullable nor an
// enum (a stated schema's): alternatives that say the same are paired; an
// alternative removed narrows what is allowed and one added widens it;
// when one of each is left, they are compared with each other.
func (s *schemaComparison) alternatives(o, n schemaNode, path string, ov, nv *view) {
	if ov.alts == nil && nv.alts == nil {
		return
	}
	matched := map[int]bool{}
	var gone []int
	for i, a := range ov.alts {
		j := slices.IndexFunc(nv.alts, func(b schemaNode) bool { return canonical(a) == canonical(b) })
		for j >= 0 && matched[j] {
			k := slices.IndexFunc(nv.alts[j+1:], func(b schemaNode) bool { return canonical(a) == canonical(b) })
			if k < 0 {
				j = -1
				break
			}
			j += 1 + k
		}
		if j < 0 {
			gone = append(gone, i)
			continue
		}
		matched[j] = true
	}
	var come []int
	for j := range nv.alts {
		if !matched[j] {
			come = append(come, j)
		}
	}
	if len(gone) == 1 && len(come) == 1 {
		s.compare(ov.alts[gone[0]], nv.alts[come[0]], fmt.Sprintf("%s|%d", path, come[0]+1))
		return
	}
	for _, i := range gone {
		s.valueChange(o, n, path, narrows, KindAlternative, fmt.Sprintf("alternative %d removed", i+1))
	}
	for _, j := range come {
		s.valueChange(o, n, path, widens, KindAlternative, fmt.Sprintf("alternative %d added", j+1))
	}
}

func requiredOf(kw map[string]any) []string {
	list, _ := kw["required"].([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
