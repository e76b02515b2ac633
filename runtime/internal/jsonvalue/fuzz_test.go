package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// The seed corpus is in testdata/fuzz/FuzzParse/. Run the target with
//
//	go test ./runtime/internal/jsonvalue -run XXX -fuzz FuzzParse -fuzztime 5m -parallel 1

// FuzzParse feeds arbitrary bytes to Parse. It checks that Parse accepts
// exactly what encoding/json's json.Valid accepts, except objects with a
// repeated member name, which it refuses exactly when encoding/json's
// reading of the names (unescaped, invalid UTF-8 as U+FFFD) repeats one;
// that it builds the same tree encoding/json decodes; that the raw bytes
// of every node parse back to that node; and that Unquote agrees with
// encoding/json and AppendString round-trips.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		valid := json.Valid(data)
		var dup *DuplicateError
		switch {
		case errors.As(err, &dup):
			if !valid {
				t.Fatalf("invalid JSON %q refused as a duplicate: %v", data, err)
			}
			if names := repeatedNames(t, data); !names[dup.Name] {
				t.Fatalf("Parse refused %q for a repeated %q; encoding/json sees %v repeated", data, dup.Name, names)
			}
		case (err == nil) != valid:
			t.Fatalf("Parse error %v, but json.Valid = %v, for %q", err, valid, data)
		case err == nil:
			if names := repeatedNames(t, data); names != nil {
				t.Fatalf("Parse accepted %q, in which encoding/json sees %v repeated", data, names)
			}
			checkTree(t, data, v)
			if n := len(v.t.nodes); n > len(data)/2+1 {
				t.Fatalf("%d nodes for %d bytes, more than Tree.reserve assumes: %q", n, len(data), data)
			}
		}

		// The same bytes as the content of a string literal.
		lit := append(append([]byte{'"'}, data...), '"')
		if json.Valid(lit) {
			checkString(t, lit)
		}
	})
}

// repeatedNames returns the member names that encoding/json's token
// stream shows more than once in one object: in the first such object in
// the order Parse checks objects, innermost first, as they close.
func repeatedNames(t *testing.T, data []byte) map[string]bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		names  map[string]bool
		dups   map[string]bool
		key    bool // the next token is a member name
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the end of the value
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			name, ok := tok.(string)
			if !ok {
				if d, isDelim := tok.(json.Delim); isDelim && d == '}' {
					stack = stack[:len(stack)-1]
					if top.dups != nil {
						return top.dups
					}
					continue
				}
				t.Fatalf("token %v where a member name goes in %q", tok, data)
			}
			if top.names[name] {
				if top.dups == nil {
					top.dups = map[string]bool{}
				}
				top.dups[name] = true
			}
			top.names[name] = true
			top.key = false
			continue
		}
		if top != nil && top.object {
			top.key = true // after this value, a name or '}'
		}
		switch d := tok.(type) {
		case json.Delim:
			switch d {
			case '{':
				stack = append(stack, &frame{object: true, names: map[string]bool{}, key: true})
			case '[':
				stack = append(stack, &frame{})
			case ']':
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].key = true
				}
			}
		}
	}
}

// checkTree compares the tree parsed from data with encoding/json's
// decoding, and re-parses the raw bytes of its nodes.
func checkTree(t *testing.T, data []byte, v Value) {
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
	var walk func(n Value)
	walk = func(n Value) {
		raw := n.Raw()
		if budget > 0 || len(raw) <= 256 {
			budget -= len(raw)
			w, err := Parse(raw)
			if err != nil {
				t.Fatalf("the raw bytes %q of a node do not parse: %v", raw, err)
			}
			if !sameTree(w, n) {
				t.Fatalf("the raw bytes %q of a node parse to a different value", raw)
			}
		}
		switch n.Kind() {
		case String:
			checkString(t, raw)
			if n.t.plainAt(n.i) != plain(raw[1:len(raw)-1]) {
				t.Fatalf("string %q: the tree says plain=%v", raw, n.t.plainAt(n.i))
			}
		case Array:
			for _, e := range n.Elems() {
				walk(e)
			}
		case Object:
			for i := range n.Len() {
				k := n.t.nodes[memberIndex(n, i)]
				rawName := n.t.data[k.start:k.end]
				if n.t.plainAt(memberIndex(n, i)) != plain(rawName[1:len(rawName)-1]) {
					t.Fatalf("member name %q: the tree says plain=%v", rawName, n.t.plainAt(memberIndex(n, i)))
				}
				var name string
				if err := json.Unmarshal(rawName, &name); err != nil || name != n.t.name(memberIndex(n, i)) {
					t.Fatalf("member name %q, encoding/json reads %q from %q (%v)", n.t.name(memberIndex(n, i)), name, rawName, err)
				}
				checkString(t, rawName)
				walk(Value{n.t, memberIndex(n, i) + 1})
			}
		}
	}
	walk(v)
}

// memberIndex is the node of the k-th member name of the object v.
func memberIndex(v Value, k int) uint32 {
	i, _ := v.children()
	for range k {
		i = v.t.nodes[i+1].next
	}
	return i
}

func toAny(v Value) any {
	switch v.Kind() {
	case Null:
		return nil
	case Bool:
		return v.IsTrue()
	case Number:
		return json.Number(v.Raw())
	case String:
		return v.Str()
	case Array:
		out := make([]any, 0, v.Len())
		for _, e := range v.Elems() {
			out = append(out, toAny(e))
		}
		return out
	default:
		out := make(map[string]any, v.Len())
		for name, m := range v.Members() {
			out[strings.Clone(name)] = toAny(m)
		}
		return out
	}
}

// sameTree reports whether a and b have the same shape and bytes.
func sameTree(a, b Value) bool {
	if a.Kind() != b.Kind() || !bytes.Equal(a.Raw(), b.Raw()) || a.Len() != b.Len() && (a.Kind() == Array || a.Kind() == Object) {
		return false
	}
	switch a.Kind() {
	case Array:
		var bs []Value
		for _, e := range b.Elems() {
			bs = append(bs, e)
		}
		for i, e := range a.Elems() {
			if !sameTree(e, bs[i]) {
				return false
			}
		}
	case Object:
		for name, m := range a.Members() {
			if bm := b.Get(name); !bm.Exists() || !sameTree(m, bm) {
				return false
			}
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
	seeds := mcptest.ReadCorpus(t, "testdata/fuzz/FuzzParse")
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
