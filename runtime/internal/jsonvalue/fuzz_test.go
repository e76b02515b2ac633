package jsonvalue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"unicode/utf8"
)

// The seed corpus is in testdata/fuzz/FuzzParse/. Run the target with
//
//	go test ./runtime/internal/jsonvalue -run XXX -fuzz FuzzParse -fuzztime 5m -parallel 1

// FuzzParse feeds arbitrary bytes to Parse. It checks that Parse accepts
// exactly what encoding/json's json.Valid accepts and builds the same tree
// encoding/json decodes (member names and strings unescaped alike, invalid
// UTF-8 and lone surrogates becoming U+FFFD alike); that the raw bytes of
// every node parse back to that node; and that Unquote agrees with
// encoding/json and AppendString round-trips.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if valid := json.Valid(data); (err == nil) != valid {
			t.Fatalf("Parse error %v, but json.Valid = %v, for %q", err, valid, data)
		}
		if err == nil {
			checkTree(t, data, &v)
		}

		// The same bytes as the content of a string literal.
		lit := append(append([]byte{'"'}, data...), '"')
		if json.Valid(lit) {
			checkString(t, lit)
		}
	})
}

// checkTree compares the tree parsed from data with encoding/json's
// decoding, and re-parses the raw bytes of its nodes.
func checkTree(t *testing.T, data []byte, v *Value) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("json.Valid accepted %q but Decode failed: %v", data, err)
	}
	if got := toAny(v); !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse and encoding/json disagree on %q:\nours: %#v\njson: %#v", data, got, want)
	}
	// Re-parsing every node's raw costs the sum of the nodes' sizes,
	// quadratic in the nesting; past a budget only small nodes are
	// re-parsed, so that deeply nested inputs stay quick to fuzz.
	budget := 64 << 10
	var walk func(n *Value, depth int)
	walk = func(n *Value, depth int) {
		if budget > 0 || len(n.Raw) <= 256 {
			budget -= len(n.Raw)
			w, err := Parse(n.Raw)
			if err != nil {
				t.Fatalf("the raw bytes %q of a node do not parse: %v", n.Raw, err)
			}
			if !sameTree(&w, n) {
				t.Fatalf("the raw bytes %q of a node parse to a different value", n.Raw)
			}
		}
		switch n.Kind {
		case String:
			checkString(t, n.Raw)
		case Array:
			for i := range n.Elems {
				walk(&n.Elems[i], depth+1)
			}
		case Object:
			for i, raw := range memberNames(t, n) {
				m := &n.Members[i]
				var name string
				if err := json.Unmarshal(raw, &name); err != nil || name != m.Name {
					t.Fatalf("member name %q, encoding/json reads %q from %q (%v)", m.Name, name, raw, err)
				}
				checkString(t, raw)
				walk(&m.Value, depth+1)
			}
		}
	}
	walk(v, 0)
}

// memberNames returns the raw bytes of the member names of the object v,
// found by re-scanning v.Raw.
func memberNames(t *testing.T, v *Value) [][]byte {
	var out [][]byte
	p := parser{data: v.Raw, pos: 1}
	for range v.Members {
		p.skipSpace()
		start := p.pos
		if err := p.skipString(); err != nil {
			t.Fatalf("re-scanning %q: %v", v.Raw, err)
		}
		out = append(out, v.Raw[start:p.pos])
		p.skipSpace()
		p.pos++ // ':'
		p.skipSpace()
		if _, err := p.value(0); err != nil {
			t.Fatalf("re-scanning %q: %v", v.Raw, err)
		}
		p.skipSpace()
		p.pos++ // ',' or '}'
	}
	return out
}

func toAny(v *Value) any {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return string(v.Raw) == "true"
	case Number:
		return json.Number(v.Raw)
	case String:
		return v.Str()
	case Array:
		out := make([]any, 0, len(v.Elems))
		for i := range v.Elems {
			out = append(out, toAny(&v.Elems[i]))
		}
		return out
	default:
		out := make(map[string]any, len(v.Members))
		for i := range v.Members {
			out[v.Members[i].Name] = toAny(&v.Members[i].Value)
		}
		return out
	}
}

func sameTree(a, b *Value) bool {
	if a.Kind != b.Kind || !bytes.Equal(a.Raw, b.Raw) || len(a.Elems) != len(b.Elems) || len(a.Members) != len(b.Members) {
		return false
	}
	for i := range a.Elems {
		if !sameTree(&a.Elems[i], &b.Elems[i]) {
			return false
		}
	}
	for i := range a.Members {
		if a.Members[i].Name != b.Members[i].Name || !sameTree(&a.Members[i].Value, &b.Members[i].Value) {
			return false
		}
	}
	return true
}

// checkString compares Unquote with encoding/json on the string literal
// lit, and round-trips the result through AppendString.
func checkString(t *testing.T, lit []byte) {
	got, err := Unquote(lit)
	if err != nil {
		t.Fatalf("Unquote(%q): %v", lit, err)
	}
	var want string
	if err := json.Unmarshal(lit, &want); err != nil {
		t.Fatalf("encoding/json cannot unmarshal %q: %v", lit, err)
	}
	if got != want {
		t.Fatalf("Unquote(%q) = %q, encoding/json: %q", lit, got, want)
	}
	if !utf8.ValidString(got) {
		t.Fatalf("Unquote(%q) is not valid UTF-8", lit)
	}
	enc := AppendString(nil, got)
	var back string
	if err := json.Unmarshal(enc, &back); err != nil || back != got {
		t.Fatalf("AppendString(%q) = %s, which decodes to %q (%v)", got, enc, back, err)
	}
}

// TestFuzzSeedsAreMeaningful keeps the committed corpus from rotting into
// trivia: it must hold a dozen seeds that reach the interesting paths.
func TestFuzzSeedsAreMeaningful(t *testing.T) {
	seeds := readCorpus(t, "testdata/fuzz/FuzzParse")
	if len(seeds) < 12 {
		t.Errorf("%d seeds, want at least 12", len(seeds))
	}
	var valid, invalid, deep, badUTF8 int
	for _, s := range seeds {
		if json.Valid(s) {
			valid++
		} else {
			invalid++
		}
		if bytes.Count(s, []byte("[")) > 1000 {
			deep++
		}
		if !utf8.Valid(s) {
			badUTF8++
		}
	}
	if valid == 0 || invalid == 0 || deep == 0 || badUTF8 == 0 {
		t.Errorf("seeds lack variety: %d valid, %d invalid JSON, %d deep, %d with invalid UTF-8", valid, invalid, deep, badUTF8)
	}
}

// readCorpus reads the []byte seeds of a committed corpus.
func readCorpus(t *testing.T, dir string) [][]byte {
	t.Helper()
	entries, err := filepath.Glob(dir + "/*")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, name := range entries {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		seed, err := parseCorpusFile(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, seed)
	}
	return out
}

// parseCorpusFile reads a "go test fuzz v1" file holding one []byte.
func parseCorpusFile(data []byte) ([]byte, error) {
	header, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(header) != "go test fuzz v1" {
		return nil, fmt.Errorf("not a go test fuzz v1 file")
	}
	rest = bytes.TrimSpace(rest)
	if !bytes.HasPrefix(rest, []byte("[]byte(")) || !bytes.HasSuffix(rest, []byte(")")) {
		return nil, fmt.Errorf("want one []byte value")
	}
	s, err := strconv.Unquote(string(rest[len("[]byte(") : len(rest)-1]))
	return []byte(s), err
}
