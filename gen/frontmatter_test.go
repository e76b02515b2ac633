package gen

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFrontmatter: a SKILL.md's frontmatter becomes the JSON object that
// skills/list sends, its members in the file's order, for the YAML forms
// that every parser reads alike (block and flow scalars, folded and
// literal text, lists, nested mappings, aliases); what parsers read
// differently, or JSON cannot hold, is an error at its line and column.
func TestFrontmatter(t *testing.T) {
	for _, tc := range []struct{ md, json string }{
		{"---\nname: a\ndescription: b\n---\nbody", `{"name":"a","description":"b"}`},
		{"---\r\nname: a\r\ndescription: b\r\n---\r\n", `{"name":"a","description":"b"}`},
		{"---\nname: a\ndescription: >\n  one\n  two\n---\n", `{"name":"a","description":"one two\n"}`},
		{"---\nname: a\ndescription: |-\n  one\n  two\n---   \n", `{"name":"a","description":"one\ntwo"}`},
		{"---\nname: 'a'\ndescription: \"tab\\there <b> & c\"\n---\n", `{"name":"a","description":"tab\there <b> & c"}`},
		{"---\nname: a\nn: 12\nf: -1.5e3\nt: true\nf2: False\nz: null\nz2: ~\nlist: [x, 'y']\nblock:\n  - 1\n  - {k: v}\nempty: {}\nnone: []\n---\n",
			`{"name":"a","n":12,"f":-1.5e3,"t":true,"f2":false,"z":null,"z2":null,"list":["x","y"],"block":[1,{"k":"v"}],"empty":{},"none":[]}`},
		{"---\nbase: &b {k: v}\nuse: *b\nq: \"2026-07-28\"\nv: \"012\"\n---\n", `{"base":{"k":"v"},"use":{"k":"v"},"q":"2026-07-28","v":"012"}`},
	} {
		fm, err := parseFrontmatter([]byte(tc.md))
		if err != nil {
			t.Errorf("%q: %v", tc.md, err)
			continue
		}
		var got, want any
		if err := json.Unmarshal([]byte(fm.json), &got); err != nil {
			t.Errorf("%q: not JSON: %v\n%s", tc.md, err, fm.json)
			continue
		}
		json.Unmarshal([]byte(tc.json), &want)
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		if string(gotJSON) != string(wantJSON) || !strings.HasPrefix(fm.json, "{\n  \"") && fm.json != "{}" {
			t.Errorf("%q:\n%s\nwant %s", tc.md, fm.json, tc.json)
		}
		// The members keep the file's order.
		if i, j := strings.Index(fm.json, `"name"`), strings.Index(fm.json, `"description"`); j >= 0 && i > j {
			t.Errorf("%q: members out of order:\n%s", tc.md, fm.json)
		}
	}

	bomb := "---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n"
	for _, tc := range []struct {
		md        string
		line, col int
		want      string
	}{
		{"name: a\n", 1, 1, "must begin with YAML frontmatter"},
		{"\uFEFF---\nname: a\n---\n", 1, 1, "byte order mark"},
		{"---\nname: a\n", 1, 1, "no closing line ---"},
		{"---\n- a\n---\n", 2, 1, "must be a mapping"},
		{"---\nname: [a\n---\n", 2, 1, "not valid YAML"},
		{"---\nname: a\ndescription: Do this: then that.\n---\n", 3, 1, `not valid YAML: mapping values are not allowed in this context (a value that holds ": " must be quoted)`},
		{"---\nname: a\nv: 012\n---\n", 3, 4, "the integer 012 is read differently"},
		{"---\nname: a\nv: 0x1F\n---\n", 3, 4, "the integer 0x1F"},
		{"---\nname: a\nv: 9007199254740993\n---\n", 3, 4, "past what JSON numbers hold exactly"},
		{"---\nname: a\nv: .inf\n---\n", 3, 4, "the number .inf has no JSON form"},
		{"---\nname: a\nwhen: 2026-07-28\n---\n", 3, 7, `quote it ("2026-07-28")`},
		{"---\nname: a\n1: one\n---\n", 3, 1, "the key 1 is not a string"},
		{"---\nname: a\nname: b\n---\n", 3, 1, `the key "name" appears twice`},
		{"---\nbase: &b {k: v}\nm:\n  <<: *b\n---\n", 4, 3, "merge keys (<<)"},
		{"---\nname: a\nv: !!binary aGk=\n---\n", 3, 4, "the tag !!binary"},
		{bomb, 5, 33, "expands to more than 10000 values"},
	} {
		_, err := parseFrontmatter([]byte(tc.md))
		fe, ok := err.(*frontmatterError)
		if !ok || fe.pos.line != tc.line || fe.pos.col != tc.col || !strings.Contains(fe.msg, tc.want) {
			t.Errorf("%q: %v (at %+v), want at %d:%d %q", tc.md, err, fe.pos, tc.line, tc.col, tc.want)
		}
	}
}

// FuzzFrontmatter: whatever a SKILL.md holds, reading its frontmatter
// does not panic, and what it accepts is a JSON object, whose name and
// description members are the strings it reports.
func FuzzFrontmatter(f *testing.F) {
	for _, seed := range []string{
		"---\nname: a\ndescription: b\n---\n",
		"---\nname: a\ndescription: >\n  x\n  y\nmetadata: {k: [1, 2.5, true, null, \"s\"]}\n---\n",
		"---\na: &a [x]\nb: *a\n---\n",
		"---\nv: 012\n---\n",
		"---\r\nname: 'q'\r\n---\r\n",
		"---\n<<: {a: 1}\n---\n",
		"---\nx: &n a\nname: *n\ndescription: *n\n---\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, md []byte) {
		fm, err := parseFrontmatter(md)
		if err != nil {
			if _, ok := err.(*frontmatterError); !ok {
				t.Fatalf("an error that is not a frontmatterError: %T %v", err, err)
			}
			return
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(fm.json), &obj); err != nil {
			t.Fatalf("not a JSON object: %v\n%s", err, fm.json)
		}
		if name, _ := obj["name"].(string); name != fm.name {
			t.Fatalf("name %q, reported %q", name, fm.name)
		}
		if d, _ := obj["description"].(string); d != fm.description {
			t.Fatalf("description %q, reported %q", d, fm.description)
		}
	})
}
