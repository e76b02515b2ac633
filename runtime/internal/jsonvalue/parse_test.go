package jsonvalue

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestDuplicateNames: a repeated member name is refused wherever it is,
// comparing names as encoding/json reads them.
func TestDuplicateNames(t *testing.T) {
	many := func(extra string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range 40 {
			fmt.Fprintf(&b, `"m%d":%d,`, i, i)
		}
		b.WriteString(extra + "}")
		return b.String()
	}
	for _, c := range []struct {
		in, name string
		offset   int
	}{
		{`{"a":1,"a":2}`, "a", 7},
		{`{"params":{"name":"x","arguments":{},"name":"y"}}`, "name", 37},
		{`{"a":{"b":[{"c":1,"c":1}]}}`, "c", 18},
		{`{"a":1,"\u0061":2}`, "a", 7},
		{`{"é":1,"\u00e9":2}`, "é", 8},
		{"{\"\xff\":1,\"\xfe\":2}", "\uFFFD", 7},
		{many(`"m7":0`), "m7", 341},
		{many(`"\u006d39":0`), "m39", 341},
	} {
		_, err := Parse([]byte(c.in))
		var dup *DuplicateError
		if !errors.As(err, &dup) || dup.Name != c.name || dup.Offset != c.offset {
			t.Errorf("%s: got %v, want %q repeated at offset %d", c.in, err, c.name, c.offset)
		}
	}
	for _, ok := range []string{`{"a":1,"A":2}`, `{"a":{"a":1}}`, `[{"a":1},{"a":2}]`, many(`"m40":0`), `{"a\u0000":1,"a":2}`} {
		if _, err := Parse([]byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestCountNodes: the tree is sized once, for n bytes of input to
// n/2+1 nodes when that is at most spareNodes, which holds every input of
// that size, else exactly for valid JSON; a tree reused for a message of
// the same size or less needs no new nodes.
func TestCountNodes(t *testing.T) {
	large := "[" + strings.Repeat("0,", spareNodes) + "0]"
	for _, in := range []string{`0`, `[0,0,0]`, `{"a":[1,true,null,"x\"y"],"b":{}}`, `[-1.5e+3, "a,b", false]`, ` {"k" : "v"} `, `{"":0,"":{}}`, `[[[[]]]]`, large} {
		var tr Tree
		_, err := tr.Parse([]byte(in))
		var dup *DuplicateError
		if err != nil && !errors.As(err, &dup) {
			t.Fatal(err)
		}
		most := len(in)/2 + 1
		want := most
		if most > spareNodes {
			want = len(tr.nodes)
		}
		if len(tr.nodes) != countNodes([]byte(in)) || len(tr.nodes) > most || cap(tr.nodes) != want {
			t.Errorf("%.40s: %d nodes, counted %d, capacity %d, want %d (at most %d nodes)", in, len(tr.nodes), countNodes([]byte(in)), cap(tr.nodes), want, most)
		}
		before := &tr.nodes[:1][0]
		if _, err := tr.Parse([]byte(in)); err != nil && !errors.As(err, &dup) {
			t.Fatal(err)
		}
		if &tr.nodes[:1][0] != before {
			t.Errorf("%.40s: parsing again allocated new nodes", in)
		}
	}
}

// BenchmarkParse parses a tools/call request into a tree reused from the
// last parse, as a server's pooled trees are.
func BenchmarkParse(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"create_ticket","arguments":{"title":"Crash on save","description":"The app crashes when saving","kind":"bug","labels":["ui","p1"]}}}`)
	var t Tree
	b.ReportAllocs()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if _, err := t.Parse(msg); err != nil {
			b.Fatal(err)
		}
		t.Reset()
	}
}
