package difffuzz_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The grammar: random Go type declarations covering the constructs of
// issue 29 — structs with tags and options, pointers, embedding by value
// and pointer (exported and unexported), types with their own JSON and
// text methods (value and pointer receivers, integer and struct kinds),
// aliases, generics, recursive types, enums (string and integer, a block
// that types only its first constant, an unexported sentinel, constants
// spread over two files), maps with every key kind, arrays,
// json.RawMessage, []byte, a slice of a named uint8 enum, time.Time,
// time.Duration, a struct embedding time.Time, any, and types from the
// standard library and another module that marshal themselves.

// A typ is a Go type expression.
type typ struct {
	kind   tkind
	name   string  // tBasic: the Go name; tExt: the expression; tParam: the parameter
	decl   *decl   // tNamed
	args   []*typ  // tNamed: type arguments
	elem   *typ    // tPtr, tSlice, tArray, tMap
	key    *typ    // tMap
	n      int     // tArray
	fields []*fld  // tStruct (anonymous)
	ext    *extern // tExt
}

type tkind int

const (
	tBasic tkind = iota
	tNamed
	tPtr
	tSlice
	tArray
	tMap
	tStruct
	tExt
	tParam
)

// An extern is a type of another package that the grammar uses as it
// is.
type extern struct {
	expr  string // as written in the tools package (the imports follow from it)
	label string
	json  jsonKind // what encoding/json reads and writes
	// samples are JSON values of it, for the harness to make values of a
	// type whose state it cannot set.
	samples  []string
	sampleOf string // the reflect type name the samples are for
	key      bool   // usable as a map key (comparable, and a text form)
}

// jsonKind is the JSON type encoding/json reads for a Go type, as far as
// the grammar needs it to choose tags.
type jsonKind int

const (
	jAny jsonKind = iota
	jString
	jInteger
	jNumber
	jBool
	jArray
	jObject
	jCustom // its own methods decide
)

var externs = []*extern{
	{expr: "time.Time", label: "time.Time", json: jString},
	{expr: "time.Duration", label: "time.Duration", json: jInteger},
	{expr: "json.RawMessage", label: "json.RawMessage", json: jAny},
	{expr: "json.Number", label: "json.Number", json: jNumber},
	{expr: "any", label: "any", json: jAny},
	{expr: "[]byte", label: "[]byte", json: jString},
	{expr: "net.IP", label: "net.IP", json: jString},
	{expr: "netip.Addr", label: "netip.Addr", json: jString, key: true,
		samples: []string{`"192.0.2.1"`, `"::1"`, `"2001:db8::1"`, `""`}, sampleOf: "netip.Addr"},
	{expr: "*big.Int", label: "*big.Int", json: jCustom,
		samples: []string{"0", "-12", "123456789012345678901234567890"}, sampleOf: "big.Int"},
	{expr: "slog.Level", label: "slog.Level", json: jCustom},
	{expr: "language.Tag", label: "language.Tag", json: jString, key: true,
		samples: []string{`"en"`, `"fr-CA"`, `"und"`, `"zh-Hant-TW"`}, sampleOf: "language.Tag"},
}

func externNamed(label string) *extern {
	for _, e := range externs {
		if e.label == label {
			return e
		}
	}
	panic(label)
}

// A fld is a struct field.
type fld struct {
	name     string // "" for an embedded field
	t        *typ
	tag      string // without the backquotes
	doc      string
	embedded bool
	line     int // where it was written
	expect   []expectation
	quoted   bool // json ",string"
}

// A decl is a type declaration of the tools package, or of package
// other, with whatever goes with it: methods, constants.
type decl struct {
	name    string
	pkg     string // "tools" or "other"
	label   string // the construct, for classifying findings
	tparams string // "[T any]" for a generic type
	alias   bool
	under   *typ // the type it declares (a struct's fields are under.fields)
	// methods and consts are Go source following the declaration, with
	// %[1]s standing for the type's name.
	methods string
	consts  string
	// constsB are constants in another file (a const block spread over
	// two files), constsFile.
	constsB, constsFile string
	enum                *enumIntent
	// first and last are the lines of the declaration.
	file        string
	first, last int
	expect      []expectation
	// done says the declaration is complete: only complete ones are
	// reused, so that a struct never contains itself.
	done bool
}

// enumIntent is what a named type with constants should allow.
type enumIntent struct {
	names     []string // the constants' Go names, %[1]s for the type's
	constants []string // JSON
	outside   []string // JSON values its schema must refuse
}

// An expectation is a diagnostic mcpgen should report, at a line.
type expectation struct {
	what string // the construct, for the finding
	// contains, if set, is what the diagnostic's message must say.
	contains string
	// at are where a diagnostic meets it, any of them; set when the
	// batch's files are written.
	at []span
	// tool is a tool the construct is reached from, and decl its
	// declaration, for the finding.
	tool *tool
	decl *decl
	// inputOnly says that only an input is wrong to hold it (an output
	// may: encoding/json writes what it cannot read).
	inputOnly bool
}

// A span is a range of lines of a file.
type span struct {
	file        string
	first, last int
}

func basic(name string) *typ { return &typ{kind: tBasic, name: name} }
func ptr(e *typ) *typ        { return &typ{kind: tPtr, elem: e} }
func slice(e *typ) *typ      { return &typ{kind: tSlice, elem: e} }
func named(d *decl) *typ     { return &typ{kind: tNamed, decl: d} }
func mapOf(k, e *typ) *typ   { return &typ{kind: tMap, key: k, elem: e} }
func arrayOf(n int, e *typ) *typ {
	return &typ{kind: tArray, n: n, elem: e}
}

// src writes t as it is written in package pkg.
func (t *typ) src(pkg string) string {
	switch t.kind {
	case tBasic, tParam:
		return t.name
	case tExt:
		return t.ext.expr
	case tNamed:
		s := t.decl.name
		if t.decl.pkg != pkg {
			s = t.decl.pkg + "." + s
		}
		if len(t.args) > 0 {
			var args []string
			for _, a := range t.args {
				args = append(args, a.src(pkg))
			}
			s += "[" + strings.Join(args, ", ") + "]"
		}
		return s
	case tPtr:
		return "*" + t.elem.src(pkg)
	case tSlice:
		return "[]" + t.elem.src(pkg)
	case tArray:
		return "[" + strconv.Itoa(t.n) + "]" + t.elem.src(pkg)
	case tMap:
		return "map[" + t.key.src(pkg) + "]" + t.elem.src(pkg)
	case tStruct:
		var b strings.Builder
		b.WriteString("struct {")
		for i, f := range t.fields {
			if i > 0 {
				b.WriteString(";")
			}
			b.WriteString(" " + f.name + " " + f.t.src(pkg))
			if f.tag != "" {
				b.WriteString(" `" + f.tag + "`")
			}
		}
		b.WriteString(" }")
		return b.String()
	}
	panic("bad typ")
}

// jsonOf says what encoding/json reads for t.
func (t *typ) jsonOf() jsonKind {
	switch t.kind {
	case tBasic:
		switch {
		case t.name == "string":
			return jString
		case t.name == "bool":
			return jBool
		case strings.HasPrefix(t.name, "float"):
			return jNumber
		}
		return jInteger
	case tExt:
		return t.ext.json
	case tNamed:
		d := t.decl
		if d.methods != "" && !strings.Contains(d.label, "marshal-only") {
			if strings.Contains(d.methods, "UnmarshalText") {
				return jString
			}
			return jCustom
		}
		if d.under.kind == tStruct {
			if slices.ContainsFunc(d.under.fields, func(f *fld) bool { return f.embedded && f.t.kind == tExt && f.t.ext.label == "time.Time" }) {
				return jCustom
			}
			return jObject
		}
		return d.under.jsonOf()
	case tPtr:
		return t.elem.jsonOf()
	case tSlice:
		if t.elem.kind == tBasic && t.elem.name == "byte" {
			return jString
		}
		return jArray
	case tArray:
		return jArray
	case tMap, tStruct:
		return jObject
	}
	return jAny
}

// enumIntent returns the intent of a named type with constants, or nil.
func (t *typ) enumIntent() *enumIntent {
	if t.kind == tNamed {
		return t.decl.enum
	}
	return nil
}

// decls lists the declarations t refers to.
func (t *typ) decls(out map[*decl]bool) {
	if t == nil {
		return
	}
	if t.kind == tNamed {
		if !out[t.decl] {
			out[t.decl] = true
			t.decl.under.decls(out)
		}
		for _, a := range t.args {
			a.decls(out)
		}
	}
	t.elem.decls(out)
	t.key.decls(out)
	for _, f := range t.fields {
		f.t.decls(out)
	}
}

// hasMembers reports whether a struct declaration has a field that
// encoding/json reads (exported, not json:"-") or embeds one: without
// one, an embedded pointer to it promotes nothing, and is harmless.
func hasMembers(d *decl) bool {
	if d.under == nil || d.under.kind != tStruct {
		return false
	}
	for _, f := range d.under.fields {
		if f.embedded || f.name != "" && unicode.IsUpper(rune(f.name[0])) && !skipped.MatchString(f.tag) {
			return true
		}
	}
	return false
}

// schemaDecls lists the declarations t refers to whose structure a
// schema describes: it does not go into a type that encoding/json reads
// (writes, for an output) through its own methods, promoted ones
// included, nor into fields encoding/json leaves out.
func (t *typ) schemaDecls(out map[*decl]bool, output bool) {
	if t == nil || t.ownMethods(output) {
		return
	}
	if t.kind == tNamed {
		if !out[t.decl] {
			out[t.decl] = true
			t.decl.under.schemaDecls(out, output)
		}
		for _, a := range t.args {
			a.schemaDecls(out, output)
		}
	}
	t.elem.schemaDecls(out, output)
	t.key.schemaDecls(out, output)
	for _, f := range t.fields {
		if f.embedded && !output && f.t.kind == tPtr && f.t.elem.kind == tNamed && !unicode.IsUpper(rune(f.t.elem.decl.name[0])) {
			// mcpgen refuses the member (tagged) or the members it would
			// promote (untagged): encoding/json cannot set them.
			continue
		}
		if f.embedded || f.name != "" && unicode.IsUpper(rune(f.name[0])) && !strings.HasPrefix(f.tag, `json:"-"`) {
			f.t.schemaDecls(out, output)
		}
	}
}

// ownMethods reports whether encoding/json reads t (writes t, for an
// output) through methods of its own or promoted from a field it embeds.
// A method with a pointer receiver counts for writing too: whether it is
// used depends on addressability, so nothing is expected of what it holds.
func (t *typ) ownMethods(output bool) bool {
	return t.ownMethodsSeen(output, map[*decl]bool{})
}

// ownMethodsSeen is ownMethods through the declarations not yet seen: a
// struct may embed a pointer to itself (type T struct{ *T }), and Go
// promotes nothing new through the cycle.
func (t *typ) ownMethodsSeen(output bool, seen map[*decl]bool) bool {
	methods := []string{"UnmarshalJSON", "UnmarshalText"}
	if output {
		methods = []string{"MarshalJSON", "MarshalText"}
	}
	switch t.kind {
	case tPtr:
		return t.elem.ownMethodsSeen(output, seen)
	case tExt:
		switch t.ext.label {
		case "time.Time", "json.RawMessage", "netip.Addr", "*big.Int", "slog.Level", "language.Tag", "net.IP":
			return true
		}
	case tNamed:
		if seen[t.decl] {
			return false
		}
		seen[t.decl] = true
		for _, m := range methods {
			if strings.Contains(t.decl.methods, m) {
				return true
			}
		}
		if u := t.decl.under; u != nil && u.kind == tStruct {
			for _, f := range u.fields {
				if f.embedded && f.t.ownMethodsSeen(output, seen) { // Go promotes methods whatever the tag
					return true
				}
			}
		}
	}
	return false
}

// A grammar makes random declarations and tools.
type grammar struct {
	rng   *rand.Rand
	decls []*decl
	n     int
	// pools of declarations to reuse, by construct.
	pool map[string][]*decl
	// mistakes says that the fields being made carry mistakes in their
	// tags, which mcpgen must report: only the tools made for them do.
	mistakes bool
}

func newGrammar(seed uint64) *grammar {
	return &grammar{rng: rand.New(rand.NewPCG(seed, seed^0x5bd1e995)), pool: map[string][]*decl{}}
}

func (g *grammar) intn(n int) int    { return g.rng.IntN(n) }
func (g *grammar) chance(p int) bool { return g.rng.IntN(100) < p }

// name returns a fresh identifier.
func (g *grammar) name(prefix string) string {
	g.n++
	return prefix + strconv.Itoa(g.n)
}

func (g *grammar) add(d *decl) *decl {
	if d.pkg == "" {
		d.pkg = "tools"
	}
	d.done = true // structs whose fields are still to make say otherwise
	g.decls = append(g.decls, d)
	g.pool[d.label] = append(g.pool[d.label], d)
	return d
}

// reuse returns an existing declaration of a construct, sometimes, so
// that types are shared between tools as in real packages.
func (g *grammar) reuse(label string) *decl {
	var p []*decl
	for _, d := range g.pool[label] {
		if d.done {
			p = append(p, d)
		}
	}
	if len(p) == 0 || !g.chance(40) {
		return nil
	}
	return p[g.intn(len(p))]
}

var basics = []string{"string", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "bool", "bool"}

// typ returns a random type for a field, at a depth of nesting.
func (g *grammar) typ(depth int) *typ {
	if depth > 3 {
		if g.chance(70) {
			return basic(basics[g.intn(len(basics))])
		}
		return g.leafNamed()
	}
	switch n := g.intn(100); {
	case n < 22:
		return basic(basics[g.intn(len(basics))])
	case n < 34:
		return &typ{kind: tExt, ext: externs[g.intn(len(externs))]}
	case n < 46:
		return g.leafNamed()
	case n < 58:
		return named(g.structDecl(depth+1, g.pkgChoice()))
	case n < 62:
		return g.generic(depth)
	case n < 65:
		return named(g.recursive())
	case n < 68:
		return named(g.alias(depth))
	case n < 74:
		return ptr(g.typ(depth + 1))
	case n < 82:
		return slice(g.typ(depth + 1))
	case n < 85:
		return arrayOf(1+g.intn(3), g.typ(depth+1))
	case n < 95:
		return mapOf(g.mapKey(), g.typ(depth+1))
	default:
		return g.anonStruct(depth + 1)
	}
}

func (g *grammar) pkgChoice() string {
	if g.chance(20) {
		return "other"
	}
	return "tools"
}

// leafNamed returns a named type that is not a plain struct: an enum, a
// type with its own methods, a named container.
func (g *grammar) leafNamed() *typ {
	switch g.intn(15) {
	case 0, 1:
		return named(g.enumString())
	case 2, 3:
		return named(g.enumInt())
	case 4:
		return named(g.enumTypedFirst())
	case 5:
		return named(g.textInt())
	case 6:
		return named(g.textStruct())
	case 7:
		return named(g.jsonStruct())
	case 8:
		return named(g.jsonInt())
	case 9:
		return named(g.stamp())
	case 10:
		return named(g.embedsMethods())
	case 11:
		return slice(named(g.enumUint8()))
	case 12:
		return named(g.namedSlice())
	case 13:
		return named(g.marshalOnly())
	default:
		return named(g.namedMap())
	}
}

// mapKey returns a map key type of every kind encoding/json reads: a
// string, a named string, an integer kind, a type with text methods.
func (g *grammar) mapKey() *typ {
	switch g.intn(12) {
	case 0, 1, 2:
		return basic("string")
	case 3:
		return named(g.enumString())
	case 4:
		return basic([]string{"int", "int8", "int16", "int32", "int64"}[g.intn(5)])
	case 5:
		return basic([]string{"uint", "uint8", "uint16", "uint32", "uint64"}[g.intn(5)])
	case 6:
		return named(g.enumInt())
	case 7:
		return named(g.textStruct())
	case 8:
		return named(g.textInt())
	case 9:
		return &typ{kind: tExt, ext: externNamed("netip.Addr")}
	case 10:
		return named(g.namedString())
	default:
		return named(g.enumUint8())
	}
}

// A struct declaration with 1 to 6 fields.
func (g *grammar) structDecl(depth int, pkg string) *decl {
	if d := g.reuse("struct-" + pkg); d != nil && depth > 1 {
		return d
	}
	d := g.add(&decl{name: g.name(upperFirst(pkg[:1]) + "S"), pkg: pkg, label: "struct-" + pkg})
	d.done = false
	d.under = &typ{kind: tStruct}
	d.under.fields = g.fields(d, depth, 1+g.intn(6), pkg)
	d.done = true
	return d
}

func upperFirst(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// fields returns n random fields for a struct of package pkg.
func (g *grammar) fields(d *decl, depth, n int, pkg string) []*fld {
	var fs []*fld
	used := map[string]bool{}
	for i := range n {
		if g.chance(12) && depth < 4 {
			if f := g.embedded(d, depth, pkg, used); f != nil {
				fs = append(fs, f)
				continue
			}
		}
		t := g.typ(depth)
		if pkg == "other" && !g.canUseFromOther(t) {
			t = basic("string")
		}
		f := &fld{name: fmt.Sprintf("F%d", i), t: t}
		if g.chance(4) {
			// An unexported field with a json tag: encoding/json ignores it.
			f.name = fmt.Sprintf("f%d", i)
			f.tag = fmt.Sprintf(`json:"hidden%d"`, i)
			f.expect = append(f.expect, expectation{what: "unexported field with a json tag"})
			fs = append(fs, f)
			continue
		}
		f.tag = g.tag(f, i, used)
		fs = append(fs, f)
	}
	dropHiddenPromotions(fs)
	return fs
}

// dropHiddenPromotions takes back the expectation of a diagnostic on an
// untagged embedded pointer to an unexported struct whose every member
// encoding/json leaves out: one the struct declares itself (shallower),
// or one another embedded struct of the same depth declares too (a
// conflict drops the name). Nothing of such a struct is offered, so
// mcpgen has nothing to say of it (seed 323: *TS18 and *inner19 both
// declare count0).
func dropHiddenPromotions(fs []*fld) {
	names := func(f *fld) []string { // the members f's struct promotes
		t := f.t
		if t.kind == tPtr {
			t = t.elem
		}
		if t.kind != tNamed || t.decl.under == nil || t.decl.under.kind != tStruct {
			return nil
		}
		var out []string
		for _, g := range t.decl.under.fields {
			if g.embedded {
				return nil // what it promotes in turn is not followed: keep the expectation
			}
			if n := jsonName(g); n != "" {
				out = append(out, n)
			}
		}
		return out
	}
	for _, f := range fs {
		if !f.embedded || f.tag != "" || !slices.ContainsFunc(f.expect, func(e expectation) bool { return e.what == "embedded pointer to an unexported struct" }) {
			continue
		}
		hidden := func(n string) bool {
			for _, o := range fs {
				if o == f {
					continue
				}
				if jsonName(o) == n || o.embedded && o.tag == "" && slices.Contains(names(o), n) {
					return true
				}
			}
			return false
		}
		if ns := names(f); len(ns) > 0 && !slices.ContainsFunc(ns, func(n string) bool { return !hidden(n) }) {
			f.expect = slices.DeleteFunc(f.expect, func(e expectation) bool { return e.what == "embedded pointer to an unexported struct" })
		}
	}
}

// canUseFromOther reports whether package other can refer to t: it
// cannot name the tools package.
func (g *grammar) canUseFromOther(t *typ) bool {
	ds := map[*decl]bool{}
	t.decls(ds)
	for d := range ds {
		if d.pkg != "other" {
			return false
		}
	}
	return true
}

// embedded returns an embedded field: a struct by value or by pointer,
// exported or not, time.Time, or a type with its own methods.
func (g *grammar) embedded(d *decl, depth int, pkg string, used map[string]bool) *fld {
	var e *decl
	switch g.intn(7) {
	case 0, 1:
		e = g.structDecl(depth+1, pkg)
	case 2:
		e = g.unexportedStruct(depth+1, pkg)
	case 3:
		if pkg == "tools" {
			e = g.jsonStruct()
		}
	case 4:
		if pkg == "tools" {
			e = g.textStruct()
		}
	case 5:
		if !used["embed:time"] {
			used["embed:time"] = true
			return &fld{t: &typ{kind: tExt, ext: externNamed("time.Time")}, embedded: true}
		}
		return nil
	default:
		e = g.structDecl(depth+1, pkg)
	}
	if e == nil || e.pkg != pkg || used["embed:"+e.name] || e == d {
		return nil
	}
	used["embed:"+e.name] = true
	f := &fld{t: named(e), embedded: true}
	if e.methods == "" && g.chance(35) {
		f.t = ptr(f.t)
		if strings.HasPrefix(e.label, "unexported") && hasMembers(e) {
			f.expect = append(f.expect, expectation{what: "embedded pointer to an unexported struct", inputOnly: true})
		}
	}
	if g.chance(15) {
		f.tag = fmt.Sprintf(`json:"emb%d"`, g.intn(100))
	}
	return f
}

func (g *grammar) unexportedStruct(depth int, pkg string) *decl {
	d := g.add(&decl{name: g.name("inner"), pkg: pkg, label: "unexported-struct"})
	d.under = &typ{kind: tStruct}
	d.under.fields = g.fields(d, depth+1, 1+g.intn(3), pkg)
	return d
}

func (g *grammar) anonStruct(depth int) *typ {
	t := &typ{kind: tStruct}
	used := map[string]bool{}
	for i := range 1 + g.intn(3) {
		f := &fld{name: fmt.Sprintf("A%d", i), t: g.typ(depth + 1)}
		f.tag = g.tag(f, i, used)
		t.fields = append(t.fields, f)
	}
	return t
}

var names = []string{"name", "id", "kind", "when", "items", "tags", "count", "note", "data", "level", "at", "by", "to", "from", "size", "mode"}

// tag returns a random tag for f: a json name and options, and
// jsonschema keywords that suit its type.
func (g *grammar) tag(f *fld, i int, used map[string]bool) string {
	var parts []string
	jname := ""
	switch n := g.intn(100); {
	case n < 8: // no json tag: the Go name
	case n < 11:
		jname = "-"
	case n < 13:
		jname = "-,"
	default:
		jname = names[g.intn(len(names))] + strconv.Itoa(i)
	}
	omit := false
	if jname != "-" {
		var opts []string
		if g.chance(30) {
			opts = append(opts, "omitempty")
			omit = true
		}
		if g.chance(10) {
			opts = append(opts, "omitzero")
			omit = true
		}
		if g.chance(25) && quotable(f.t) {
			opts = append(opts, "string")
			f.quoted = true
		}
		if jname != "" || len(opts) > 0 {
			if jname == "-," {
				jname = "-"
			}
			parts = append(parts, `json:"`+strings.Join(append([]string{jname}, opts...), ",")+`"`)
		}
	}
	if jname == "-" && !strings.Contains(strings.Join(parts, ""), `"-,`) && len(parts) == 0 {
		parts = append(parts, `json:"-"`)
	}
	if kws := g.keywords(f, omit); len(kws) > 0 {
		parts = append(parts, `jsonschema:"`+strings.Join(kws, ",")+`"`)
	}
	return strings.Join(parts, " ")
}

// quotable reports whether ",string" applies to t: a string, number or
// boolean kind, or a pointer to one.
func quotable(t *typ) bool {
	if t.kind == tPtr {
		t = t.elem
	}
	switch t.kind {
	case tBasic:
		return true
	case tNamed:
		return t.decl.under.kind == tBasic
	case tExt:
		return t.ext.label == "time.Duration" || t.ext.label == "json.Number"
	}
	return false
}

var patterns = []string{`^[a-z]+$`, `^[A-Z]{3}-[0-9]{4\\,}$`, `[0-9]`, `^(ab|cd)*$`, `^\\w{2\\,5}$`}

// keywords returns jsonschema keywords for f's type; omit says the field
// may be left out (a default on a required member is a mistake mcpgen
// should report).
func (g *grammar) keywords(f *fld, omit bool) []string {
	if g.mistakes {
		return g.mistake(f, omit)
	}
	if !g.chance(35) {
		return nil
	}
	if f.quoted {
		return nil // ",string" makes a number a string, which bounds do not fit
	}
	t := f.t
	if t.kind == tPtr {
		t = t.elem
		omit = true
	}
	var kws []string
	defaultKw := func(v string) {
		if omit {
			kws = append(kws, "default="+v)
		}
	}
	if e := t.enumIntent(); e != nil && len(e.constants) > 1 && g.chance(50) {
		// A tag's enum replaces the constants.
		for _, c := range e.constants[:1+g.intn(len(e.constants)-1)] {
			kws = append(kws, "enum="+unquoteJSON(c))
		}
		return kws
	}
	switch t.jsonOf() {
	case jString:
		if t.kind == tBasic || t.kind == tNamed && t.decl.under.kind == tBasic && t.decl.enum == nil {
			switch g.intn(6) {
			case 0:
				kws = append(kws, "minLength=1", "maxLength="+strconv.Itoa(2+g.intn(10)))
			case 1:
				kws = append(kws, "pattern="+patterns[g.intn(len(patterns))])
			case 2:
				kws = append(kws, "format="+[]string{"date-time", "date", "email", "uri", "uuid", "ipv4", "ipv6", "hostname"}[g.intn(8)])
			case 3:
				kws = append(kws, "enum=a", "enum=b c")
			case 4:
				defaultKw([]string{"x", "hello", ""}[g.intn(3)])
			default:
				kws = append(kws, "minLength=2")
			}
		}
	case jInteger, jNumber:
		if t.kind == tBasic {
			switch g.intn(5) {
			case 0:
				kws = append(kws, "minimum=1", "maximum="+strconv.Itoa(5+g.intn(100)))
			case 1:
				kws = append(kws, "enum=1", "enum=3", "enum=7")
			case 2:
				defaultKw(strconv.Itoa(1 + g.intn(9)))
			case 3:
				kws = append(kws, "minimum=1")
				defaultKw("0")
			default:
				kws = append(kws, "exclusiveMaximum=100", "multipleOf=5")
			}
		}
	case jBool:
		if t.kind == tBasic {
			defaultKw("true")
		}
	case jArray:
		switch g.intn(4) {
		case 0:
			kws = append(kws, "minItems=1", "maxItems=4")
		case 1:
			if t.kind == tSlice && t.elem.jsonOf() == jInteger && t.elem.kind == tBasic {
				defaultKw("9")
				kws = append(kws, "default=18")
			}
		case 2:
			kws = append(kws, "uniqueItems=true")
		default:
			if t.kind == tSlice && t.elem.kind == tBasic && t.elem.name == "string" {
				kws = append(kws, "minLength=2")
			}
		}
	}
	return kws
}

// mistake returns keywords with a mistake that mcpgen must report in
// words that say how to fix it: a misspelled keyword gets "did you mean";
// a comma inside a pattern, the escape it needs; minItems on a string,
// that it applies to arrays; a bound on a ",string" number, that
// ",string" makes it a string; a default on a required member, an error.
func (g *grammar) mistake(f *fld, omit bool) []string {
	t := f.t
	isString := t.kind == tBasic && t.name == "string"
	switch n := g.intn(5); {
	case n == 1 && isString && !f.quoted:
		f.expect = append(f.expect, expectation{what: "a comma inside a pattern", contains: `\,`})
		return []string{`pattern=^[A-Z]{3}-[0-9]{4,}$`}
	case n == 2 && isString && !f.quoted:
		f.expect = append(f.expect, expectation{what: "minItems on a string (it applies to arrays)", contains: "array"})
		return []string{"minItems=1"}
	case n == 3 && f.quoted && t.kind == tBasic && t.name != "string" && t.name != "bool":
		f.expect = append(f.expect, expectation{what: "a bound on a ,string number (name ,string)", contains: ",string"})
		return []string{"minimum=1"}
	case n == 4 && !omit && t.kind == tBasic && t.jsonOf() == jInteger && !f.quoted:
		f.expect = append(f.expect, expectation{what: "default on a required member"})
		return []string{"default=3"}
	}
	f.expect = append(f.expect, expectation{what: "a misspelled jsonschema keyword (did you mean)", contains: "did you mean"})
	return []string{[]string{"minimun=1", "maxLenght=3", "minItem=1", "patern=x"}[g.intn(4)]}
}

func unquoteJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		if str, ok := v.(string); ok {
			return str
		}
	}
	return s
}

// finish labels the structs that take the JSON or text methods of a
// field they embed (promoted methods make the struct marshal as that
// type), so that findings name the construct.
func (g *grammar) finish() {
	for _, d := range g.decls {
		if d.under != nil && d.under.kind == tStruct && !d.alias && strings.HasPrefix(d.label, "struct-") {
			if what := promotes(d, map[*decl]bool{}); what != "" {
				d.label = "struct-promoting-" + what + "-methods"
			}
		}
	}
}

// promotes names the type whose methods an untagged embedded field
// promotes into d, or "".
func promotes(d *decl, seen map[*decl]bool) string {
	if seen[d] {
		return ""
	}
	seen[d] = true
	for _, f := range d.under.fields {
		if !f.embedded { // a json name does not stop Go from promoting methods
			continue
		}
		t := f.t
		if t.kind == tPtr {
			t = t.elem
		}
		switch {
		case t.kind == tExt && t.ext.label == "time.Time":
			return "time.Time"
		case t.kind == tNamed && t.decl.methods != "" && !strings.HasPrefix(t.decl.label, "marshal-only"):
			return strings.TrimSuffix(t.decl.label, "-pointer-marshal")
		case t.kind == tNamed && t.decl.under != nil && t.decl.under.kind == tStruct:
			if what := promotes(t.decl, seen); what != "" {
				return what
			}
		}
	}
	return ""
}
