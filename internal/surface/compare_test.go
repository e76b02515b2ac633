package surface

import (
	"slices"
	"strings"
	"testing"
)

// summary writes each change as "breaking KIND MEMBER" or "compatible
// KIND MEMBER" (the subject's name instead of a member for a change of
// the whole subject), sorted.
func summary(changes []Change) []string {
	var out []string
	for _, c := range changes {
		verdict := "compatible"
		if c.Breaking {
			verdict = "breaking"
		}
		out = append(out, strings.TrimSpace(verdict+" "+c.Kind+" "+c.Subject+" "+c.Member))
	}
	slices.Sort(out)
	return out
}

// schemaTool is a surface with one tool t of these schemas.
func schemaTool(in, out string) *Surface {
	t := &Tool{Name: "t", InputSchema: Schema(in)}
	if out != "" {
		t.OutputSchema = Schema(out)
	}
	return &Surface{Format: Format, Server: Server{Name: "s"}, Tools: []*Tool{t}}
}

const (
	objAB = `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}`
	objA  = `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`
)

// TestCompareSchemas: each change of an input or output schema, with the
// classification the issue lists: an input may take more and an output
// return less; clients depend on the rest.
func TestCompareSchemas(t *testing.T) {
	for _, c := range []struct {
		name           string
		oldIn, newIn   string
		oldOut, newOut string
		want           []string
	}{
		{name: "same", oldIn: objAB, newIn: objAB},
		{name: "input member removed", oldIn: objAB, newIn: objA, want: []string{"breaking member-removed tool t input.b"}},
		{name: "input member added, optional", oldIn: objA, newIn: objAB, want: []string{"compatible member-added tool t input.b"}},
		{name: "input member added, required", oldIn: objA,
			newIn: `{"type":"object","properties":{"a":{"type":"string"},"c":{"type":"boolean"}},"required":["a","c"],"additionalProperties":false}`,
			want:  []string{"breaking member-added tool t input.c"}},
		{name: "input member renamed", oldIn: objAB,
			newIn: `{"type":"object","properties":{"a":{"type":"string"},"count":{"type":"integer"}},"required":["a"],"additionalProperties":false}`,
			want:  []string{"breaking member-renamed tool t input.b"}},
		{name: "two alike removed, two added: no rename guessed",
			oldIn: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}`,
			newIn: `{"type":"object","properties":{"c":{"type":"string"},"d":{"type":"string"}}}`,
			want: []string{"breaking member-removed tool t input.a", "breaking member-removed tool t input.b",
				"compatible member-added tool t input.c", "compatible member-added tool t input.d"}},
		{name: "input member now required", oldIn: objAB,
			newIn: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`,
			want:  []string{"breaking member-required tool t input.b"}},
		{name: "input member now optional", oldIn: objAB,
			newIn: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"additionalProperties":false}`,
			want:  []string{"compatible member-optional tool t input.a"}},
		{name: "input type changed", oldIn: `{"properties":{"a":{"type":"string"}}}`, newIn: `{"properties":{"a":{"type":"integer"}}}`,
			want: []string{"breaking type tool t input.a"}},
		{name: "input integer widened to number", oldIn: `{"properties":{"a":{"type":"integer"}}}`, newIn: `{"properties":{"a":{"type":"number"}}}`,
			want: []string{"compatible type tool t input.a"}},
		{name: "input number narrowed to integer", oldIn: `{"properties":{"a":{"type":"number"}}}`, newIn: `{"properties":{"a":{"type":"integer"}}}`,
			want: []string{"breaking type tool t input.a"}},
		{name: "input bounds tightened", oldIn: `{"properties":{"a":{"type":"integer","maximum":100},"s":{"type":"string"}}}`,
			newIn: `{"properties":{"a":{"type":"integer","maximum":50},"s":{"type":"string","minLength":1}}}`,
			want:  []string{"breaking bound tool t input.a", "breaking bound tool t input.s"}},
		{name: "input bounds widened", oldIn: `{"properties":{"a":{"type":"integer","minimum":1,"maximum":50}}}`,
			newIn: `{"properties":{"a":{"type":"integer","minimum":0}}}`,
			want:  []string{"compatible bound tool t input.a", "compatible bound tool t input.a"}},
		{name: "input minimum made exclusive", oldIn: `{"properties":{"a":{"type":"number","minimum":0}}}`,
			newIn: `{"properties":{"a":{"type":"number","exclusiveMinimum":0}}}`,
			want:  []string{"breaking bound tool t input.a"}},
		{name: "input pattern added", oldIn: `{"properties":{"a":{"type":"string"}}}`, newIn: `{"properties":{"a":{"type":"string","pattern":"^[a-z]+$"}}}`,
			want: []string{"breaking pattern tool t input.a"}},
		{name: "input pattern removed", oldIn: `{"properties":{"a":{"type":"string","pattern":"^[a-z]+$"}}}`, newIn: `{"properties":{"a":{"type":"string"}}}`,
			want: []string{"compatible pattern tool t input.a"}},
		{name: "input pattern changed", oldIn: `{"properties":{"a":{"type":"string","pattern":"^[a-z]+$"}}}`, newIn: `{"properties":{"a":{"type":"string","pattern":"^[a-z0-9]+$"}}}`,
			want: []string{"breaking pattern tool t input.a"}},
		{name: "input format added", oldIn: `{"properties":{"a":{"type":"string"}}}`, newIn: `{"properties":{"a":{"type":"string","format":"email"}}}`,
			want: []string{"breaking format tool t input.a"}},
		{name: "input enum value removed and one added", oldIn: `{"properties":{"a":{"type":"string","enum":["x","y"]}}}`,
			newIn: `{"properties":{"a":{"type":"string","enum":["x","z"]}}}`,
			want:  []string{"breaking enum-value-removed tool t input.a", "compatible enum-value-added tool t input.a"}},
		{name: "input enum appears", oldIn: `{"properties":{"a":{"type":"string"}}}`, newIn: `{"properties":{"a":{"type":"string","enum":["x"]}}}`,
			want: []string{"breaking enum tool t input.a"}},
		{name: "input integer enum of titled constants, value removed",
			oldIn: `{"properties":{"p":{"type":"integer","oneOf":[{"const":1,"title":"Low"},{"const":2,"title":"High"}]}}}`,
			newIn: `{"properties":{"p":{"type":"integer","oneOf":[{"const":2,"title":"High","description":"Today."}]}}}`,
			want:  []string{"breaking enum-value-removed tool t input.p"}},
		{name: "output integer enum of titled constants, value added",
			oldIn: objA, newIn: objA,
			oldOut: `{"properties":{"p":{"type":"integer","oneOf":[{"const":1,"title":"Low"}]}}}`,
			newOut: `{"properties":{"p":{"type":"integer","oneOf":[{"const":1,"title":"Low"},{"const":3,"title":"Urgent"}]}}}`,
			want:   []string{"breaking enum-value-added tool t output.p"}},
		{name: "output enum value removed", oldIn: objA, newIn: objA,
			oldOut: `{"properties":{"s":{"type":"string","enum":["open","closed"]}}}`,
			newOut: `{"properties":{"s":{"type":"string","enum":["open"]}}}`,
			want:   []string{"compatible enum-value-removed tool t output.s"}},
		{name: "output member removed", oldIn: objA, newIn: objA, oldOut: objAB, newOut: objA,
			want: []string{"breaking member-removed tool t output.b"}},
		{name: "output member made optional", oldIn: objA, newIn: objA, oldOut: objAB,
			newOut: `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"additionalProperties":false}`,
			want:   []string{"breaking member-optional tool t output.a"}},
		{name: "output member added", oldIn: objA, newIn: objA, oldOut: objA, newOut: objAB,
			want: []string{"compatible member-added tool t output.b"}},
		{name: "output type changed", oldIn: objA, newIn: objA, oldOut: `{"properties":{"a":{"type":"integer"}}}`, newOut: `{"properties":{"a":{"type":"string"}}}`,
			want: []string{"breaking type tool t output.a"}},
		{name: "output narrowed from number to integer", oldIn: objA, newIn: objA, oldOut: `{"properties":{"a":{"type":"number"}}}`, newOut: `{"properties":{"a":{"type":"integer"}}}`,
			want: []string{"compatible type tool t output.a"}},
		{name: "output bound widened", oldIn: objA, newIn: objA, oldOut: `{"properties":{"a":{"type":"integer","maximum":5}}}`, newOut: `{"properties":{"a":{"type":"integer"}}}`,
			want: []string{"breaking bound tool t output.a"}},
		{name: "output may now be null", oldIn: objA, newIn: objA,
			oldOut: `{"properties":{"o":{"$ref":"#/$defs/P"}},"$defs":{"P":{"type":"object","properties":{"n":{"type":"string"}}}}}`,
			newOut: `{"properties":{"o":{"oneOf":[{"$ref":"#/$defs/P"},{"type":"null"}]}},"$defs":{"P":{"type":"object","properties":{"n":{"type":"string"}}}}}`,
			want:   []string{"breaking nullable tool t output.o"}},
		{name: "input no longer takes null",
			oldIn: `{"properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`, newIn: `{"properties":{"a":{"type":"string"}}}`,
			want: []string{"breaking nullable tool t input.a"}},
		{name: "references resolved: a $ref and the same schema inline are equal",
			oldIn: `{"type":"object","properties":{"o":{"$ref":"#/$defs/P"}},"$defs":{"P":{"type":"object","properties":{"n":{"type":"string"}},"required":["n"],"description":"P."}}}`,
			newIn: `{"type":"object","properties":{"o":{"type":"object","properties":{"n":{"type":"string","description":"The name."}},"required":["n"]}}}`},
		{name: "a change behind a reference",
			oldIn: `{"properties":{"o":{"$ref":"#/$defs/P"}},"$defs":{"P":{"type":"object","properties":{"n":{"type":"string"},"e":{"type":"string"}},"additionalProperties":false}}}`,
			newIn: `{"properties":{"o":{"$ref":"#/$defs/P"}},"$defs":{"P":{"type":"object","properties":{"n":{"type":"string"}},"additionalProperties":false}}}`,
			want:  []string{"breaking member-removed tool t input.o.e"}},
		{name: "a reference with keywords beside it",
			oldIn: `{"properties":{"o":{"$ref":"#/$defs/S"}},"$defs":{"S":{"type":"string"}}}`,
			newIn: `{"properties":{"o":{"$ref":"#/$defs/S","maxLength":3}},"$defs":{"S":{"type":"string"}}}`,
			want:  []string{"breaking bound tool t input.o"}},
		{name: "a recursive type compared once",
			oldIn: `{"properties":{"root":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}},"v":{"type":"integer"}}}}}`,
			newIn: `{"properties":{"root":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}},"v":{"type":"string"}}}}}`,
			want:  []string{"breaking type tool t input.root.v"}},
		{name: "map keys: an enum value of propertyNames removed",
			oldIn: `{"properties":{"m":{"type":"object","propertyNames":{"enum":["a","b"]},"additionalProperties":{"type":"string"}}}}`,
			newIn: `{"properties":{"m":{"type":"object","propertyNames":{"enum":["a"]},"additionalProperties":{"type":"string"}}}}`,
			want:  []string{"breaking enum-value-removed tool t input.m{key}"}},
		{name: "map values: type changed",
			oldIn: `{"properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`,
			newIn: `{"properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}}}}`,
			want:  []string{"breaking type tool t input.m{}"}},
		{name: "list items: type changed", oldIn: `{"properties":{"l":{"type":"array","items":{"type":"string"}}}}`,
			newIn: `{"properties":{"l":{"type":"array","items":{"type":"integer"}}}}`,
			want:  []string{"breaking type tool t input.l[]"}},
		{name: "multipleOf", oldIn: `{"properties":{"a":{"type":"integer","multipleOf":2},"b":{"type":"integer","multipleOf":4}}}`,
			newIn: `{"properties":{"a":{"type":"integer","multipleOf":4},"b":{"type":"integer","multipleOf":2}}}`,
			want:  []string{"breaking multiple-of tool t input.a", "compatible multiple-of tool t input.b"}},
		{name: "an alternative removed", oldIn: `{"properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`,
			newIn: `{"properties":{"a":{"anyOf":[{"type":"string"}]}}}`,
			want:  []string{"breaking alternative tool t input.a"}},
		{name: "default changed", oldIn: `{"properties":{"a":{"type":"integer","default":1}}}`, newIn: `{"properties":{"a":{"type":"integer","default":2}}}`,
			want: []string{"compatible default tool t input.a"}},
		{name: "other members no longer allowed", oldIn: `{"type":"object","properties":{}}`, newIn: `{"type":"object","properties":{},"additionalProperties":false}`,
			want: []string{"breaking other-members tool t input"}},
		{name: "output schema removed", oldIn: objA, newIn: objA, oldOut: objA, want: []string{"breaking output tool t output"}},
		{name: "output schema added", oldIn: objA, newIn: objA, newOut: objA, want: []string{"compatible output tool t output"}},
		{name: "descriptions and titles are not changes",
			oldIn: `{"properties":{"a":{"type":"string","description":"A."}},"description":"In.","title":"X"}`,
			newIn: `{"properties":{"a":{"type":"string","description":"The a."}},"description":"Input.","title":"Y"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := summary(Compare(schemaTool(c.oldIn, c.oldOut), schemaTool(c.newIn, c.newOut)))
			want := slices.Sorted(slices.Values(c.want))
			if !slices.Equal(got, want) {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func ptr(b bool) *bool { return &b }

// TestCompareSubjects: tools, resources, templates, prompts and skills
// removed, renamed and added; annotations, scopes, task support, MIME
// types and arguments.
func TestCompareSubjects(t *testing.T) {
	in := Schema(objA)
	tool := func(name, desc string, mod func(*Tool)) *Tool {
		tl := &Tool{Name: name, Description: desc, InputSchema: in}
		if mod != nil {
			mod(tl)
		}
		return tl
	}
	srv := func(mod func(*Surface)) *Surface {
		s := &Surface{Format: Format, Server: Server{Name: "s", Version: "1.0.0"}}
		mod(s)
		return s
	}
	tools := func(ts ...*Tool) *Surface { return srv(func(s *Surface) { s.Tools = ts }) }
	for _, c := range []struct {
		name     string
		old, new *Surface
		want     []string
	}{
		{"tool removed", tools(tool("a", "A.", nil), tool("b", "B.", nil)), tools(tool("a", "A.", nil)), []string{"breaking removed tool b"}},
		{"tool added", tools(tool("a", "A.", nil)), tools(tool("a", "A.", nil), tool("b", "B.", nil)), []string{"compatible added tool b"}},
		{"tool renamed, its description kept", tools(tool("a", "Adds.", nil)), tools(tool("add", "Adds.", nil)), []string{"breaking renamed tool a"}},
		{"tool renamed, a word and the schemas kept", tools(tool("create_ticket", "CreateTicket creates.", nil)), tools(tool("open_ticket", "OpenTicket opens.", nil)),
			[]string{"breaking renamed tool create_ticket", "compatible description tool open_ticket description"}},
		{"unlike tools: removed and added", tools(tool("create_ticket", "Creates.", nil)), tools(tool("search", "Finds.", nil)),
			[]string{"breaking removed tool create_ticket", "compatible added tool search"}},
		{"readOnlyHint dropped", tools(tool("a", "A.", func(t *Tool) { t.Annotations = &Annotations{ReadOnlyHint: ptr(true)} })), tools(tool("a", "A.", nil)),
			[]string{"breaking annotation tool a readOnlyHint"}},
		{"destructiveHint added where it was false", tools(tool("a", "A.", func(t *Tool) { t.Annotations = &Annotations{DestructiveHint: ptr(false)} })),
			tools(tool("a", "A.", func(t *Tool) { t.Annotations = &Annotations{DestructiveHint: ptr(true)} })),
			[]string{"breaking annotation tool a destructiveHint"}},
		{"destructiveHint written where it was the default", tools(tool("a", "A.", nil)),
			tools(tool("a", "A.", func(t *Tool) { t.Annotations = &Annotations{DestructiveHint: ptr(true)} })), nil},
		{"idempotentHint dropped", tools(tool("a", "A.", func(t *Tool) { t.Annotations = &Annotations{IdempotentHint: ptr(true)} })), tools(tool("a", "A.", nil)),
			[]string{"breaking annotation tool a idempotentHint"}},
		{"readOnlyHint added", tools(tool("a", "A.", nil)), tools(tool("a", "A.", func(t *Tool) { t.Annotations = &Annotations{ReadOnlyHint: ptr(true)} })),
			[]string{"compatible annotation tool a readOnlyHint"}},
		{"scope added, another removed", tools(tool("a", "A.", func(t *Tool) { t.Scopes = []string{"r"} })), tools(tool("a", "A.", func(t *Tool) { t.Scopes = []string{"w"} })),
			[]string{"breaking scope tool a scopes", "compatible scope tool a scopes"}},
		{"task support required", tools(tool("a", "A.", nil)), tools(tool("a", "A.", func(t *Tool) { t.TaskSupport = "required" })),
			[]string{"breaking task-support tool a taskSupport"}},
		{"task support optional", tools(tool("a", "A.", nil)), tools(tool("a", "A.", func(t *Tool) { t.TaskSupport = "optional" })),
			[]string{"compatible task-support tool a taskSupport"}},
		{"server renamed, new version", srv(func(s *Surface) {}), srv(func(s *Surface) { s.Server.Name, s.Server.Version = "t", "2.0.0" }),
			[]string{"breaking server-name server name", "compatible version server version"}},
		{"resource removed, another's URI changed, a MIME type changed",
			srv(func(s *Surface) {
				s.Resources = []*Resource{{URI: "x://a", Name: "a"}, {URI: "x://b", Name: "b"}, {URI: "x://c", Name: "c", MIMEType: "text/plain"}}
			}),
			srv(func(s *Surface) {
				s.Resources = []*Resource{{URI: "x://b2", Name: "b"}, {URI: "x://c", Name: "c", MIMEType: "application/json"}}
			}),
			[]string{"breaking mime-type resource x://c mimeType", "breaking removed resource x://a", "breaking renamed resource x://b"}},
		{"template removed, another's URI template changed",
			srv(func(s *Surface) {
				s.ResourceTemplates = []*ResourceTemplate{{URITemplate: "x://a/{id}", Name: "a"}, {URITemplate: "x://b/{id}", Name: "b"}}
			}),
			srv(func(s *Surface) { s.ResourceTemplates = []*ResourceTemplate{{URITemplate: "x://bee/{id}", Name: "b"}} }),
			[]string{"breaking removed template x://a/{id}", "breaking renamed template x://b/{id}"}},
		{"template variable narrowed to an integer",
			srv(func(s *Surface) {
				s.ResourceTemplates = []*ResourceTemplate{{URITemplate: "x://a/{id}", Name: "a", Variables: []Argument{{Name: "id", Type: "string", Required: true}}}}
			}),
			srv(func(s *Surface) {
				s.ResourceTemplates = []*ResourceTemplate{{URITemplate: "x://a/{id}", Name: "a", Variables: []Argument{{Name: "id", Type: "integer", Required: true}}}}
			}),
			[]string{"breaking type template x://a/{id} variable id"}},
		{"prompt removed, another renamed",
			srv(func(s *Surface) {
				s.Prompts = []*Prompt{{Name: "a", Description: "A."}, {Name: "b", Description: "Bees."}}
			}),
			srv(func(s *Surface) { s.Prompts = []*Prompt{{Name: "bee", Description: "Bees."}} }),
			[]string{"breaking removed prompt a", "breaking renamed prompt b"}},
		{"prompt arguments",
			srv(func(s *Surface) {
				s.Prompts = []*Prompt{{Name: "p", Arguments: []Argument{
					{Name: "id", Type: "string", Required: true}, {Name: "old", Type: "string", Description: "Old."},
					{Name: "style", Type: "string", Enum: []string{"brief", "long"}}, {Name: "n", Type: "integer"}}}}
			}),
			srv(func(s *Surface) {
				s.Prompts = []*Prompt{{Name: "p", Arguments: []Argument{
					{Name: "id", Type: "string", Required: true}, {Name: "style", Type: "string", Enum: []string{"brief", "terse"}},
					{Name: "n", Type: "integer", Required: true}, {Name: "lang", Type: "string", Required: true}, {Name: "tone", Type: "string"}}}}
			}),
			[]string{"breaking member-added prompt p argument lang", "breaking member-removed prompt p argument old", "breaking member-required prompt p argument n",
				"breaking enum-value-removed prompt p argument style", "compatible enum-value-added prompt p argument style", "compatible member-added prompt p argument tone"}},
		{"skill removed", srv(func(s *Surface) { s.Skills = []*Skill{{URI: "skill://a/SKILL.md", Name: "a"}} }), srv(func(s *Surface) {}), []string{"breaking removed skill skill://a/SKILL.md"}},
		{"skill files",
			srv(func(s *Surface) {
				s.Skills = []*Skill{{URI: "skill://a/SKILL.md", Name: "a", Description: "A.", Files: []string{"SKILL.md", "old.md", "kept.md"}}}
			}),
			srv(func(s *Surface) {
				s.Skills = []*Skill{{URI: "skill://a/SKILL.md", Name: "a", Description: "A!", Files: []string{"SKILL.md", "kept.md", "new.md"}}}
			}),
			[]string{"breaking member-removed skill skill://a/SKILL.md file old.md", "compatible member-added skill skill://a/SKILL.md file new.md", "compatible description skill skill://a/SKILL.md description"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := summary(Compare(c.old, c.new))
			want := slices.Sorted(slices.Values(c.want))
			if !slices.Equal(got, want) {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestChangesSayWhy: every change says what and why, and where it is.
func TestChangesSayWhy(t *testing.T) {
	old := schemaTool(objAB, objAB)
	old.Tools = append(old.Tools, &Tool{Name: "gone", InputSchema: Schema(objA)})
	for _, c := range Compare(old, schemaTool(objA, objA)) {
		if c.What == "" || c.Why == "" || c.Place == "" && c.OldPlace == "" {
			t.Errorf("%+v: no what, why or place", c)
		}
	}
}

func TestNewMajor(t *testing.T) {
	for _, c := range []struct {
		old, new string
		want     bool
	}{
		{"1.4.2", "2.0.0", true},
		{"v1.4.2", "v2.0.0-rc.1", true},
		{"1.4.2", "1.5.0", false},
		{"2.0.0", "1.0.0", false},
		{"0.3.1", "0.4.0", true},
		{"0.3.1", "0.3.2", false},
		{"0.3.1", "1.0.0", true},
		{"", "1.0.0", false},
		{"1.0", "2.0", true},
		{"one", "two", false},
	} {
		if got := NewMajor(c.old, c.new); got != c.want {
			t.Errorf("NewMajor(%q, %q) = %t, want %t", c.old, c.new, got, c.want)
		}
	}
}

func TestEnclosing(t *testing.T) {
	var chain []string
	for p, ok := SchemaPlace("t", "input", "/$defs/P/properties/a~1b"), true; ok; p, ok = Enclosing(p) {
		chain = append(chain, p)
	}
	want := []string{"tool t input#/$defs/P/properties/a~1b", "tool t input#/$defs/P/properties", "tool t input#/$defs/P", "tool t input#/$defs", "tool t input", "tool t", "server"}
	if !slices.Equal(chain, want) {
		t.Errorf("enclosing places:\n%s\nwant:\n%s", strings.Join(chain, "\n"), strings.Join(want, "\n"))
	}
	if p, _ := Enclosing(VariablePlace("x://a/{id}", "id")); p != TemplatePlace("x://a/{id}") {
		t.Errorf("a variable is held by %q", p)
	}
}
