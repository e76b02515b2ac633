package difffuzz_test

import (
	"fmt"
	"strconv"
	"strings"
)

// The named constructs of the grammar: enums and types with their own
// JSON or text methods, each written the way Go code bases write them.

// enumString is a named string type with a block of constants; one in
// three has a constant in the package's second file.
func (g *grammar) enumString() *decl {
	if d := g.reuse("enum-string"); d != nil {
		return d
	}
	return g.newEnumString(g.chance(33))
}

// enumStringSplit is an enumString with a constant in the second file.
func (g *grammar) enumStringSplit() *decl { return g.newEnumString(true) }

func (g *grammar) newEnumString(split bool) *decl {
	d := g.add(&decl{name: g.name("Color"), label: "enum-string", under: basic("string")})
	words := []string{"red", "green", "blue", "teal"}[:2+g.intn(3)]
	var b strings.Builder
	b.WriteString("const (\n")
	intent := &enumIntent{}
	for i, w := range words {
		if split && i == len(words)-1 {
			d.constsB = fmt.Sprintf("// %[2]s%[1]s is a %[1]s in the second file.\nconst %[2]s%[1]s %[1]s = %[3]q\n", "%[1]s", upperFirst(w), w)
			intent.constants = append(intent.constants, strconv.Quote(w))
			break
		}
		fmt.Fprintf(&b, "\t%s%%[1]s %%[1]s = %q\n", upperFirst(w), w)
		intent.constants = append(intent.constants, strconv.Quote(w))
	}
	b.WriteString(")\n")
	d.consts = b.String()
	d.enum = intent
	if split {
		d.label = "enum-string-two-files"
	}
	return d
}

// enumInt is an integer type with an iota block, sometimes ended by an
// unexported sentinel (numX) that must not become an allowed value.
func (g *grammar) enumInt() *decl {
	if d := g.reuse("enum-int"); d != nil {
		return d
	}
	kind := []string{"int", "int8", "uint16", "int32", "uint"}[g.intn(5)]
	d := g.add(&decl{name: g.name("Weekday"), label: "enum-int", under: basic(kind)})
	g.iotaBlock(d, 2+g.intn(3), g.chance(50))
	return d
}

// enumIntSentinel is an enumInt that ends with an unexported sentinel.
func (g *grammar) enumIntSentinel() *decl {
	kind := []string{"int", "uint8", "int16"}[g.intn(3)]
	label := "enum-int"
	if kind == "uint8" {
		label = "enum-uint8" // a slice of it is a case of its own
	}
	d := g.add(&decl{name: g.name("Weekday"), label: label, under: basic(kind)})
	g.iotaBlock(d, 2+g.intn(3), true)
	return d
}

// enumUint8 is a named uint8 with constants: a slice of it is a list,
// not base64 (issue 29 1.5).
func (g *grammar) enumUint8() *decl {
	if d := g.reuse("enum-uint8"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Day"), label: "enum-uint8", under: basic("uint8")})
	g.iotaBlock(d, 3, g.chance(50))
	return d
}

func (g *grammar) iotaBlock(d *decl, n int, sentinel bool) {
	var b strings.Builder
	b.WriteString("const (\n")
	intent := &enumIntent{}
	for i := range n {
		if i == 0 {
			fmt.Fprintf(&b, "\tV%d%%[1]s %%[1]s = iota\n", i)
		} else {
			fmt.Fprintf(&b, "\tV%d%%[1]s\n", i)
		}
		intent.constants = append(intent.constants, strconv.Itoa(i))
		intent.names = append(intent.names, fmt.Sprintf("V%d%%[1]s", i))
	}
	if sentinel {
		b.WriteString("\tnum%[1]s // the number of values, not one of them\n")
		intent.outside = append(intent.outside, strconv.Itoa(n))
		d.label += "-sentinel"
	}
	b.WriteString(")\n")
	d.consts = b.String()
	d.enum = intent
}

// enumTypedFirst types only the first constant of its block: the others
// are untyped, so not of the type; mcpgen should say so at them.
func (g *grammar) enumTypedFirst() *decl {
	if d := g.reuse("enum-typed-first"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Category"), label: "enum-typed-first", under: basic("string")})
	d.consts = "const (\n\tHardware%[1]s %[1]s = \"hardware\"\n\tElectronics%[1]s = \"electronics\"\n\tGarden%[1]s = \"garden\"\n)\n"
	d.enum = &enumIntent{constants: []string{`"hardware"`}}
	d.expect = append(d.expect, expectation{what: "a const block that types only its first constant"})
	return d
}

func (g *grammar) namedString() *decl {
	return g.add(&decl{name: g.name("Key"), label: "named-string", under: basic("string")})
}

// textInt is the zapcore.Level pattern: an int8 with only text methods,
// which encoding/json reads and writes as a string.
func (g *grammar) textInt() *decl {
	if d := g.reuse("text-int"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Level"), label: "text-int", under: basic("int8")})
	d.consts = "const (\n\tLow%[1]s %[1]s = iota - 1\n\tMid%[1]s\n\tHigh%[1]s\n)\n"
	recv, val := "l %[1]s", "l"
	if g.chance(30) {
		recv, val = "l *%[1]s", "*l" // json.Marshal calls it only for addressable values
		d.label = "text-int-pointer-marshal"
	}
	d.methods = `var names%[1]s = []string{"low", "mid", "high"}

// MarshalText writes the level's name, or level(n).
func (` + recv + `) MarshalText() ([]byte, error) {
	n := int(` + val + `)
	if i := n + 1; i >= 0 && i < len(names%[1]s) {
		return []byte(names%[1]s[i]), nil
	}
	return []byte("level(" + strconv.Itoa(n) + ")"), nil
}

// UnmarshalText reads what MarshalText writes.
func (l *%[1]s) UnmarshalText(b []byte) error {
	for i, n := range names%[1]s {
		if n == string(b) {
			*l = %[1]s(i - 1)
			return nil
		}
	}
	var n int8
	if _, err := fmt.Sscanf(string(b), "level(%%d)", &n); err != nil {
		return fmt.Errorf("unknown level %%q", b)
	}
	*l = %[1]s(n)
	return nil
}
`
	return d
}

// textStruct is a struct with a text form "a-b", usable as a map key.
func (g *grammar) textStruct() *decl {
	if d := g.reuse("text-struct"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Code"), label: "text-struct"})
	d.under = &typ{kind: tStruct, fields: []*fld{{name: "A", t: basic("int")}, {name: "B", t: basic("int")}}}
	d.methods = `// MarshalText writes the code as A-B.
func (c %[1]s) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("%%d-%%d", c.A, c.B)), nil }

// UnmarshalText reads A-B.
func (c *%[1]s) UnmarshalText(b []byte) error {
	if _, err := fmt.Sscanf(string(b), "%%d-%%d", &c.A, &c.B); err != nil {
		return fmt.Errorf("bad code %%q: %%w", b, err)
	}
	return nil
}
`
	return d
}

// jsonStruct is a struct that reads and writes itself as a JSON number.
func (g *grammar) jsonStruct() *decl {
	if d := g.reuse("json-struct"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Temp"), label: "json-struct"})
	d.under = &typ{kind: tStruct, fields: []*fld{{name: "C", t: basic("float64")}}}
	recv := "t %[1]s"
	if g.chance(25) {
		// json.Marshal calls it only for an addressable value: a field of
		// a struct reached through a pointer, not a map value.
		recv, d.label = "t *%[1]s", "json-struct-pointer-marshal"
	}
	d.methods = `// MarshalJSON writes the temperature as a number of degrees.
func (` + recv + `) MarshalJSON() ([]byte, error) { return json.Marshal(t.C) }

// UnmarshalJSON reads a number of degrees.
func (t *%[1]s) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &t.C) }
`
	return d
}

// jsonInt is an integer that writes itself as "p<n>" and reads that or a
// number.
func (g *grammar) jsonInt() *decl {
	if d := g.reuse("json-int"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Prio"), label: "json-int", under: basic("int")})
	d.methods = `// MarshalJSON writes "p<n>".
func (p %[1]s) MarshalJSON() ([]byte, error) { return json.Marshal("p" + strconv.Itoa(int(p))) }

// UnmarshalJSON reads "p<n>" or a number.
func (p *%[1]s) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		n, err := strconv.Atoi(strings.TrimPrefix(s, "p"))
		if err != nil || !strings.HasPrefix(s, "p") {
			return fmt.Errorf("bad priority %%q", s)
		}
		*p = %[1]s(n)
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*p = %[1]s(n)
	return nil
}
`
	return d
}

// stamp embeds time.Time, whose methods it takes: encoding/json reads
// and writes it as a date-time string.
func (g *grammar) stamp() *decl {
	if d := g.reuse("stamp"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Stamp"), label: "stamp"})
	d.under = &typ{kind: tStruct, fields: []*fld{{t: &typ{kind: tExt, ext: externNamed("time.Time")}, embedded: true}}}
	if g.chance(30) {
		// The promoted methods win: Note is never read nor written.
		d.under.fields = append(d.under.fields, &fld{name: "Note", t: basic("string"), tag: `json:"note"`})
		d.label = "stamp-with-field"
	}
	return d
}

// embedsMethods embeds a type with its own JSON or text methods by value:
// the methods are promoted, so the struct marshals as the embedded type.
func (g *grammar) embedsMethods() *decl {
	if d := g.reuse("embeds-json-methods"); d != nil {
		return d
	}
	var inner *decl
	if g.chance(50) {
		inner = g.jsonStruct()
	} else {
		inner = g.textStruct()
	}
	label := "embeds-text-methods"
	if strings.HasPrefix(inner.label, "json-struct") {
		label = "embeds-json-methods"
	}
	d := g.add(&decl{name: g.name("Wrap"), label: label})
	d.under = &typ{kind: tStruct, fields: []*fld{{t: named(inner), embedded: true}, {name: "Extra", t: basic("int"), tag: `json:"extra"`}}}
	return d
}

// marshalOnly marshals itself but has no Unmarshal method: a type meant
// for outputs.
func (g *grammar) marshalOnly() *decl {
	if d := g.reuse("marshal-only"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Pair"), label: "marshal-only-text"})
	d.under = &typ{kind: tStruct, fields: []*fld{{name: "K", t: basic("string"), tag: `json:"k"`}, {name: "V", t: basic("int"), tag: `json:"v"`}}}
	if g.chance(50) {
		d.label = "marshal-only-json"
		d.methods = `// MarshalJSON writes the pair as [k, v].
func (p %[1]s) MarshalJSON() ([]byte, error) {
	return []byte("[" + strconv.Quote(p.K) + "," + strconv.Itoa(p.V) + "]"), nil
}
`
		return d
	}
	d.methods = `// MarshalText writes k=v.
func (p %[1]s) MarshalText() ([]byte, error) { return []byte(p.K + "=" + strconv.Itoa(p.V)), nil }
`
	return d
}

func (g *grammar) namedSlice() *decl {
	if g.chance(50) {
		return g.add(&decl{name: g.name("Days"), label: "named-slice-uint8-enum", under: slice(named(g.enumUint8()))})
	}
	return g.add(&decl{name: g.name("List"), label: "named-slice", under: slice(g.typ(3))})
}

func (g *grammar) namedMap() *decl {
	return g.add(&decl{name: g.name("Index"), label: "named-map", under: mapOf(g.mapKey(), g.typ(3))})
}

// recursive is a tree: a struct that refers to itself through a slice, a
// pointer and a map.
func (g *grammar) recursive() *decl {
	if d := g.reuse("recursive"); d != nil {
		return d
	}
	d := g.add(&decl{name: g.name("Node"), label: "recursive"})
	self := named(d)
	d.under = &typ{kind: tStruct, fields: []*fld{
		{name: "Name", t: basic("string"), tag: `json:"name"`},
		{name: "Kids", t: slice(self), tag: `json:"kids,omitempty"`},
		{name: "Next", t: ptr(self), tag: `json:"next,omitempty"`},
	}}
	if g.chance(40) {
		d.under.fields = append(d.under.fields, &fld{name: "By", t: mapOf(basic("string"), ptr(self)), tag: `json:"by,omitempty"`})
	}
	return d
}

// generic instantiates a generic struct with a random type argument.
func (g *grammar) generic(depth int) *typ {
	d := g.reuse("generic")
	if d == nil {
		d = g.add(&decl{name: g.name("Box"), label: "generic", tparams: "[T any]"})
		p := &typ{kind: tParam, name: "T"}
		d.under = &typ{kind: tStruct, fields: []*fld{
			{name: "V", t: p, tag: `json:"v"`},
			{name: "Vs", t: slice(p), tag: `json:"vs,omitempty"`},
			{name: "Note", t: basic("string"), tag: `json:"note,omitempty"`},
		}}
	}
	arg := g.typ(depth + 2)
	return &typ{kind: tNamed, decl: d, args: []*typ{arg}}
}

// alias declares X = T for a struct, a generic instance or a basic type.
func (g *grammar) alias(depth int) *decl {
	var target *typ
	switch g.intn(3) {
	case 0:
		target = named(g.structDecl(depth+1, "tools"))
	case 1:
		target = g.generic(depth + 1)
	default:
		target = basic(basics[g.intn(len(basics))])
	}
	return g.add(&decl{name: g.name("Alias"), label: "alias", alias: true, under: target})
}
