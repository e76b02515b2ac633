package difffuzz_test

import "fmt"

// A focus is a construct of issue 29 that every bounded run must meet.
// Some of each batch's tools are built around one, in turn, so that the
// fixed seeds of the bounded run cover them all; the rest of those tools,
// and the other tools, are random.
type focus struct {
	name string
	// field returns a field holding the construct, added to a random
	// input struct; nil when the focus is on the tool itself.
	field func(g *grammar) *fld
	// tool shapes the tool instead.
	tool func(g *grammar, t *tool)
}

// focusInputs and focusOutputs are how many tools of a batch have a
// focus.
const (
	focusInputs  = 12
	focusOutputs = 3
	// mistakeTools are the tools of a batch whose tags carry mistakes.
	mistakeTools = 2
)

func ext(label string) *typ { return &typ{kind: tExt, ext: externNamed(label)} }

var inputFocuses = []focus{
	{name: "json.RawMessage", field: func(g *grammar) *fld { return &fld{t: ext("json.RawMessage"), tag: `json:"raw,omitempty"`} }},
	{name: "map of json.RawMessage", field: func(g *grammar) *fld {
		return &fld{t: mapOf(basic("string"), ext("json.RawMessage")), tag: `json:"raws"`}
	}},
	{name: "slice of a uint8 enum", field: func(g *grammar) *fld { return &fld{t: slice(named(g.enumUint8())), tag: `json:"days"`} }},
	{name: "int map keys", field: func(g *grammar) *fld {
		return &fld{t: mapOf(basic("int"), basic("string")), tag: `json:"byNumber,omitempty"`}
	}},
	{name: "uint map keys", field: func(g *grammar) *fld { return &fld{t: mapOf(basic("uint16"), basic("bool")), tag: `json:"flags"`} }},
	{name: "text map keys", field: func(g *grammar) *fld {
		return &fld{t: mapOf(named(g.textStruct()), basic("int")), tag: `json:"byCode,omitempty"`}
	}},
	{name: "struct embedding time.Time", field: func(g *grammar) *fld { return &fld{t: named(g.stamp()), tag: `json:"at"`} }},
	{name: "struct with its own JSON methods", field: func(g *grammar) *fld { return &fld{t: named(g.jsonStruct()), tag: `json:"temp"`} }},
	{name: "int8 with text methods", field: func(g *grammar) *fld { return &fld{t: named(g.textInt()), tag: `json:"level"`} }},
	{name: "int with its own JSON methods", field: func(g *grammar) *fld {
		return &fld{t: named(g.jsonInt()), tag: `json:"prio,omitempty"`}
	}},
	{name: "iota block with a sentinel", field: func(g *grammar) *fld { return &fld{t: named(g.enumIntSentinel()), tag: `json:"day"`} }},
	{name: "const block typing its first constant", field: func(g *grammar) *fld {
		return &fld{t: named(g.enumTypedFirst()), tag: `json:"category"`}
	}},
	{name: "enum over two files", field: func(g *grammar) *fld { return &fld{t: named(g.enumStringSplit()), tag: `json:"color"`} }},
	{name: "tag enum on a slice of an enum", field: func(g *grammar) *fld {
		return &fld{t: slice(named(g.enumStringSplit())), tag: `json:"colors" jsonschema:"enum=red,enum=green"`}
	}},
	{name: "default on an optional member", field: func(g *grammar) *fld {
		return &fld{t: basic("int"), tag: `json:"n,omitempty" jsonschema:"minimum=1,default=5"`}
	}},
	{name: "default on a required member", field: func(g *grammar) *fld {
		return &fld{t: basic("int"), tag: `json:"m" jsonschema:"default=3"`, expect: []expectation{{what: "default on a required member"}}}
	}},
	{name: "defaults of an integer list", field: func(g *grammar) *fld {
		return &fld{t: slice(basic("int")), tag: `json:"sizes,omitempty" jsonschema:"default=9,default=18"`}
	}},
	{name: "time.Duration", field: func(g *grammar) *fld { return &fld{t: ext("time.Duration"), tag: `json:"timeout"`} }},
	{name: "embedded pointer to an unexported struct", field: func(g *grammar) *fld {
		d := g.unexportedStruct(2, "tools")
		f := &fld{t: ptr(named(d)), embedded: true}
		if hasMembers(d) {
			f.expect = []expectation{{what: "embedded pointer to an unexported struct", inputOnly: true}}
		}
		return f
	}},
	{name: "embedded pointer to a struct embedding time.Time", field: func(g *grammar) *fld {
		return &fld{t: ptr(named(g.stamp())), embedded: true}
	}},
	{name: ",string on a number", field: func(g *grammar) *fld { return &fld{t: basic("int64"), tag: `json:"id,string"`} }},
	{name: "*big.Int", field: func(g *grammar) *fld { return &fld{t: ext("*big.Int"), tag: `json:"big"`} }},
	{name: "language.Tag", field: func(g *grammar) *fld { return &fld{t: ext("language.Tag"), tag: `json:"lang"`} }},
	{name: "array", field: func(g *grammar) *fld { return &fld{t: arrayOf(2, basic("int")), tag: `json:"pair"`} }},
	{name: "pointer to another package's struct", tool: func(g *grammar, t *tool) {
		t.in, t.inPtr = named(g.rootStruct("other")), true
	}},
	{name: "generic input", tool: func(g *grammar, t *tool) { t.in = g.generic(1) }},
}

var outputFocuses = []focus{
	{name: "int8 with text methods", tool: func(g *grammar, t *tool) { t.out = named(g.textInt()) }},
	{name: "embedded nil pointer", tool: func(g *grammar, t *tool) {
		d := g.add(&decl{name: g.name("TOut"), label: "struct-tools", under: &typ{kind: tStruct}})
		d.under.fields = []*fld{
			{t: ptr(named(g.structDecl(2, "tools"))), embedded: true},
			{name: "Count", t: basic("int"), tag: `json:"count"`},
		}
		t.out = named(d)
	}},
	{name: "marshal only", tool: func(g *grammar, t *tool) { t.out = named(g.marshalOnly()) }},
	{name: "language.Tag", tool: func(g *grammar, t *tool) { t.out = ext("language.Tag") }},
	{name: "struct embedding time.Time", tool: func(g *grammar, t *tool) { t.out = named(g.stamp()) }},
	{name: "int map keys", tool: func(g *grammar, t *tool) { t.out = mapOf(basic("int"), basic("string")) }},
}

// focused returns the i-th focused input tool of the batch numbered k.
func (g *grammar) focusedInput(k, i int) *tool {
	f := inputFocuses[(k*focusInputs+i)%len(inputFocuses)]
	t := &tool{name: fmt.Sprintf("in_%d", i), fn: fmt.Sprintf("In%d", i), focus: f.name}
	if f.tool != nil {
		f.tool(g, t)
		return t
	}
	d := g.rootStruct("tools")
	fl := f.field(g)
	if !fl.embedded {
		fl.name = "Focus"
	}
	d.under.fields = append([]*fld{fl}, d.under.fields...)
	t.in = named(d)
	return t
}

// focusedOutput returns the i-th focused output tool of the batch
// numbered k.
func (g *grammar) focusedOutput(k, i int) *tool {
	f := outputFocuses[(k*focusOutputs+i)%len(outputFocuses)]
	t := &tool{name: fmt.Sprintf("out_%d", i), fn: fmt.Sprintf("Out%d", i), focus: f.name}
	f.tool(g, t)
	return t
}
