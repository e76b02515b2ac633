package difffuzz_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// A tool is one //mcp:tool function of a batch: an input tool, whose
// handler records what it received and returns text, or an output tool,
// which takes no input and returns a value the harness chooses.
type tool struct {
	name  string // the MCP name
	fn    string // the Go function
	in    *typ
	inPtr bool
	out   *typ
	line  int // of the function, in tools.go
	// refused is the error mcpgen reported for it, when it was left out.
	refused string
	// focus is the construct the tool was built around, if any.
	focus string
}

// inputTool returns a tool whose input is a random struct: of this
// package or another, a generic instance, an alias, a recursive type.
func (g *grammar) inputTool(i int) *tool {
	t := &tool{name: fmt.Sprintf("in_%d", i), fn: fmt.Sprintf("In%d", i)}
	switch n := g.intn(100); {
	case n < 68:
		t.in = named(g.rootStruct("tools"))
	case n < 80:
		t.in = named(g.rootStruct("other"))
	case n < 88:
		t.in = g.generic(1)
	case n < 94:
		a := g.add(&decl{name: g.name("Alias"), label: "alias", alias: true, under: named(g.rootStruct("tools"))})
		t.in = named(a)
	default:
		t.in = named(g.recursive())
	}
	t.inPtr = g.chance(20)
	return t
}

// mistakeTool returns a tool whose input's tags carry mistakes mcpgen
// must report, with words that say how to fix them; mcpgen refuses it.
func (g *grammar) mistakeTool(i int) *tool {
	t := &tool{name: fmt.Sprintf("in_%d", i), fn: fmt.Sprintf("In%d", i), focus: "mistakes"}
	g.mistakes = true
	defer func() { g.mistakes = false }()
	d := g.add(&decl{name: g.name("TIn"), label: "struct-tools"})
	d.done = false
	d.under = &typ{kind: tStruct}
	for i := range 6 {
		f := &fld{name: fmt.Sprintf("F%d", i), t: basic([]string{"string", "int", "uint8", "float64"}[g.intn(4)])}
		f.tag = g.tag(f, i, map[string]bool{})
		d.under.fields = append(d.under.fields, f)
	}
	d.done = true
	t.in = named(d)
	return t
}

// rootStruct is a fresh struct with 2 to 7 fields.
func (g *grammar) rootStruct(pkg string) *decl {
	d := g.add(&decl{name: g.name(upperFirst(pkg[:1]) + "In"), pkg: pkg, label: "struct-" + pkg})
	d.done = false
	d.under = &typ{kind: tStruct}
	d.under.fields = g.fields(d, 1, 2+g.intn(6), pkg)
	d.done = true
	return d
}

// outputTool returns a tool whose output is a random type with a
// structured result: a struct, a pointer to one, a map, a slice, a
// number, a named type.
func (g *grammar) outputTool(i int) *tool {
	t := &tool{name: fmt.Sprintf("out_%d", i), fn: fmt.Sprintf("Out%d", i)}
	switch n := g.intn(100); {
	case n < 35:
		t.out = named(g.rootStruct("tools"))
	case n < 50:
		t.out = ptr(named(g.rootStruct("tools")))
	case n < 60:
		t.out = mapOf(basic("string"), g.typ(2))
	case n < 75:
		t.out = slice(g.typ(2))
	case n < 88:
		t.out = g.leafNamed()
	default:
		t.out = g.typ(1)
	}
	if isText(t.out) {
		t.out = named(g.rootStruct("tools"))
	}
	return t
}

// isText reports an output the runtime sends as text, without a schema.
func isText(t *typ) bool {
	switch {
	case t.kind == tBasic && t.name == "string":
		return true
	case t.kind == tNamed && t.decl.under != nil && t.decl.under.kind == tBasic && t.decl.under.name == "string" && t.decl.methods == "":
		return true
	}
	return false
}

// A source is a file being written.
type source struct {
	strings.Builder
}

func (s *source) printf(format string, args ...any) {
	fmt.Fprintf(s, format, args...)
}

// declsPerFile is how many declarations a file of the tools package
// holds: many files, parsed concurrently by go/packages, make an order
// that follows the parse order show (issue 29 1.1).
const declsPerFile = 5

// render writes the batch's package files: the declarations of each
// package, the constants in files of their own, the tools, the table
// the harness reads, and main.
func (b *batch) render() map[string]string {
	files := map[string]string{}
	sources := map[string]*source{}
	w := func(file string) *source {
		if sources[file] == nil {
			sources[file] = &source{}
		}
		return sources[file]
	}
	for i, d := range b.g.decls {
		d.file = fmt.Sprintf("tools/types_%02d.go", i/declsPerFile)
		if d.pkg == "other" {
			d.file = "tools/other/other.go"
		}
		writeDecl(w(d.file), d)
		if d.constsB != "" {
			// The last file by name, which go/packages parses first when
			// it parses one file at a time: an order by position then
			// differs from the order by file name.
			d.constsFile = "tools/zz_consts.go"
			w(d.constsFile).printf("\n"+d.constsB, d.name)
		}
	}
	for file, src := range sources {
		pkg, doc := "tools", ""
		switch {
		case file == "tools/other/other.go":
			pkg, doc = "other", "Package other holds types another package of the module declares."
		case file == "tools/types_00.go":
			doc = "Package tools holds the fuzzer's random types and tools."
		}
		files[file] = withImports(pkg, doc, src.String())
	}
	if files["tools/other/other.go"] == "" {
		files["tools/other/other.go"] = withImports("other", "Package other holds types another package of the module declares.", "")
	}

	var tf source
	var table strings.Builder
	table.WriteString("\n// HarnessTools are the tools, as the harness sees them.\nvar HarnessTools = []harness.Tool{\n")
	for _, t := range b.tools {
		if t.refused != "" {
			continue
		}
		if t.out == nil {
			in := t.in.src("tools")
			if t.inPtr {
				in = "*" + in
			}
			tf.printf("\n// %s is tool %s.\n//\n//mcp:tool %s\nfunc %s(ctx context.Context, in %s) (string, error) {\n\tharness.Received(in)\n\treturn \"ok\", nil\n}\n", t.fn, t.name, t.name, t.fn, in)
			fmt.Fprintf(&table, "\t{Name: %q, In: reflect.TypeFor[%s]()},\n", t.name, t.in.src("tools"))
		} else {
			out := t.out.src("tools")
			tf.printf("\n// %s is tool %s.\n//\n//mcp:tool %s\nfunc %s(ctx context.Context) (%s, error) {\n\treturn harness.Result[%s]()\n}\n", t.fn, t.name, t.name, t.fn, out, out)
			fmt.Fprintf(&table, "\t{Name: %q, Out: reflect.TypeFor[%s]()},\n", t.name, out)
		}
	}
	table.WriteString("}\n")
	files["tools/tools.go"] = withImports("tools", "", tf.String())
	files["tools/harness_tools.go"] = withImports("tools", "", table.String())
	files["main.go"] = `// Command fuzz runs the harness on the tools.
package main

import (
	"fz.test/harness"
	"fz.test/tools"
)

func main() { harness.Main(tools.NewServer(), tools.HarnessTools) }
`
	return files
}

// writeDecl writes a declaration, its constants and its methods, each
// struct field on a line of its own (findings point at them).
func writeDecl(w *source, d *decl) {
	w.printf("\n// %s is a %s.\n", d.name, d.label)
	eq := " "
	if d.alias {
		eq = " = "
	}
	if d.under.kind == tStruct && !d.alias {
		w.printf("type %s%s struct {\n", d.name, d.tparams)
		for _, f := range d.under.fields {
			line := "\t"
			if !f.embedded {
				line += f.name + " "
			}
			line += f.t.src(d.pkg)
			if f.tag != "" {
				line += " `" + f.tag + "`"
			}
			w.printf("%s\n", line)
		}
		w.printf("}\n")
	} else {
		w.printf("type %s%s%s%s\n", d.name, d.tparams, eq, d.under.src(d.pkg))
	}
	if d.consts != "" {
		w.printf("\n"+d.consts, d.name)
	}
	if d.methods != "" {
		w.printf("\n"+d.methods, d.name)
	}
}

// importPaths are the packages the generated sources may use, by the
// name they are used with.
var importPaths = map[string]string{
	"time": "time", "json": "encoding/json", "net": "net", "netip": "net/netip", "big": "math/big",
	"slog": "log/slog", "language": "golang.org/x/text/language", "fmt": "fmt", "strconv": "strconv",
	"strings": "strings", "other": "fz.test/tools/other", "context": "context", "harness": "fz.test/harness",
	"reflect": "reflect",
}

var (
	qualified = regexp.MustCompile(`\b([a-z]+)\.[A-Z]`)
	rawString = regexp.MustCompile("`[^`]*`")
)

// withImports heads body with its package clause and the imports its
// code uses (comments and tags are not code).
func withImports(pkg, doc, body string) string {
	used := map[string]bool{}
	for line := range strings.SplitSeq(body, "\n") {
		code := rawString.ReplaceAllString(line, "")
		code, _, _ = strings.Cut(code, "//")
		for _, m := range qualified.FindAllStringSubmatch(code, -1) {
			if p, ok := importPaths[m[1]]; ok {
				used[p] = true
			}
		}
	}
	var b strings.Builder
	if doc != "" {
		b.WriteString("// " + doc + "\n")
	}
	b.WriteString("package " + pkg + "\n")
	if len(used) > 0 {
		b.WriteString("\nimport (\n")
		for _, p := range slices.Sorted(maps.Keys(used)) {
			b.WriteString("\t" + fmt.Sprintf("%q", p) + "\n")
		}
		b.WriteString(")\n")
	}
	return b.String() + body
}

// locate finds where the declarations, their fields and constants, and
// the tool functions are in the files, for the diagnostics that point
// at them.
func (b *batch) locate(files map[string]string) {
	byName := map[string]*decl{}
	for _, d := range b.g.decls {
		byName[d.name] = d
	}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasPrefix(file, "tools/types_") && file != "tools/other/other.go" {
			continue
		}
		lines := strings.Split(files[file], "\n")
		var cur *decl
		field := -1
		for i, line := range lines {
			n := i + 1
			if m := typeLine.FindStringSubmatch(line); m != nil {
				if cur != nil {
					cur.last = n - 2
				}
				cur = byName[m[1]]
				cur.first = n - 1 // its doc comment
				field = -1
				if strings.HasSuffix(line, "struct {") {
					field = 0
				}
				continue
			}
			if cur == nil {
				continue
			}
			switch {
			case field >= 0 && line == "}":
				field = -1
			case field >= 0:
				cur.under.fields[field].line = n
				field++
			}
		}
		if cur != nil {
			cur.last = len(lines)
		}
	}
	lines := strings.Split(files["tools/tools.go"], "\n")
	for _, t := range b.tools {
		for i, line := range lines {
			if strings.HasPrefix(line, "func "+t.fn+"(") {
				t.line = i + 1
			}
		}
	}
}

var typeLine = regexp.MustCompile(`^type (\w+)`)
