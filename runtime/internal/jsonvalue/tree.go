// Package jsonvalue parses JSON into a compact tree whose every value
// keeps its exact bytes in the input: the runtime validates a tool call's
// arguments against a schema on that tree, decodes them into Go values
// from it, and passes parts of the input on without encoding them again.
//
// A tree is a tape: one 12-byte node per value and per member name, in
// document order, in a single slice sized before parsing. A message thus
// costs a bounded multiple of its size (at most 6 bytes of nodes per byte
// of input, for an array of one-digit numbers), whatever its shape.
//
// Parsing never copies the input, and a tree refers to the input through
// every value (and through the member names that Members yields), so the
// input must not change while the tree is in use.
//
// A member name may occur only once in an object: Parse refuses a
// repeated name with a *DuplicateError, wherever it is. encoding/json,
// JavaScript and Python keep the last of them; reading the first, as a
// lookup would, could make what runs differ from what a proxy or an audit
// log in front of the server saw.
package jsonvalue

import (
	"iter"
	"slices"
	"sync"
	"unsafe"
)

// Kind is the JSON type of a parsed value.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
	// Absent is the kind of the zero Value: no value at all, such as the
	// member an object lacks.
	Absent
)

// String names the type as JSON Schema does: "null", "boolean", "number",
// "string", "array" or "object"; "absent" for Absent.
func (k Kind) String() string {
	switch k {
	case Absent:
		return "absent"
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	default:
		return "object"
	}
}

// A Tree is a parsed JSON document. The zero Tree is ready to parse into;
// parsing again reuses its nodes.
type Tree struct {
	data  []byte
	nodes []node
	// escaped lists, in order, the string nodes whose content is not
	// plain (see plain): escapes and non-ASCII bytes are rare, so that
	// most trees list none, and plainAt answers without reading a byte.
	escaped []uint32
}

// node is one value of a tree, or one member name: data[start:end] holds
// its text. The nodes of a container's elements or members follow it, an
// object's alternating between a member name (a string node) and the
// member's value; next is the index of the node after them, the node's
// next sibling.
type node struct {
	start, end, next uint32
}

// A Value is one value of a tree. The zero Value stands for a value that
// is absent, such as a member that an object lacks.
//
// Every method answers for a value of any kind, the zero Value included,
// so that a reader that walks a message of the wrong shape finds nothing
// instead of failing: Get and Members find nothing in a value that is not
// an object, Elems nothing in one that is not an array, Len counts only
// containers, Str reads only strings, Raw of the zero Value is nil.
type Value struct {
	t *Tree
	i uint32
}

// Exists reports whether v is a value, not the absence of one.
func (v Value) Exists() bool { return v.t != nil }

func (v Value) node() *node { return &v.t.nodes[v.i] }

// Kind returns the type of v, Absent for the zero Value.
func (v Value) Kind() Kind {
	if v.t == nil {
		return Absent
	}
	switch v.t.data[v.node().start] {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return String
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	default:
		return Number
	}
}

// Raw returns the exact bytes of v in the input; nil for the zero Value.
func (v Value) Raw() []byte {
	if v.t == nil {
		return nil
	}
	n := v.node()
	return v.t.data[n.start:n.end:n.end]
}

// Str returns the unescaped content of a string value, in memory of its
// own; "" for any other value.
func (v Value) Str() string {
	if v.Kind() != String {
		return ""
	}
	s, _ := Unquote(v.Raw())
	return s
}

// Is reports whether v is a string whose content is s. A string without
// escapes is compared in place, without allocating.
func (v Value) Is(s string) bool {
	if v.Kind() != String {
		return false
	}
	raw := v.Raw()
	if v.t.plainAt(v.i) {
		return string(raw[1:len(raw)-1]) == s
	}
	return v.Str() == s
}

// IsTrue reports whether v is the literal true.
func (v Value) IsTrue() bool { return v.t != nil && v.t.data[v.node().start] == 't' }

// is reports whether v is a value whose text begins with c: '{' for an
// object, '[' for an array.
func (v Value) is(c byte) bool { return v.t != nil && v.t.data[v.node().start] == c }

// children returns the index range of the nodes inside a container.
func (v Value) children() (first, end uint32) {
	return v.i + 1, v.node().next
}

// Len returns the number of elements of an array or members of an object;
// 0 for any other value.
func (v Value) Len() int {
	if !v.is('[') && !v.is('{') {
		return 0
	}
	n := 0
	for i, end := v.children(); i < end; i = v.t.nodes[i].next {
		n++
	}
	if v.Kind() == Object {
		n /= 2
	}
	return n
}

// Elems iterates over the elements of an array, with their indices.
func (v Value) Elems() iter.Seq2[int, Value] {
	return func(yield func(int, Value) bool) {
		if !v.is('[') {
			return
		}
		k := 0
		for i, end := v.children(); i < end; i = v.t.nodes[i].next {
			if !yield(k, Value{v.t, i}) {
				return
			}
			k++
		}
	}
}

// Members iterates over the members of an object, in input order. A name
// may share memory with the input: it is valid only as long as the input
// is, and whoever keeps it must copy it.
func (v Value) Members() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		if !v.is('{') {
			return
		}
		for i, end := v.children(); i < end; i = v.t.nodes[i+1].next {
			if !yield(v.t.name(i), Value{v.t, i + 1}) {
				return
			}
		}
	}
}

// Get returns the member named name, or the zero Value when v is not an
// object or has no such member.
func (v Value) Get(name string) Value {
	if !v.is('{') {
		return Value{}
	}
	for i, end := v.children(); i < end; i = v.t.nodes[i+1].next {
		if v.t.nameIs(i, name) {
			return Value{v.t, i + 1}
		}
	}
	return Value{}
}

// name returns the unescaped member name of the string node i. A name
// without escapes or non-ASCII bytes (almost every name) shares the
// input's bytes instead of copying them, through unsafe.String: reading
// the members of a request then allocates nothing.
//
// Invariant: the input is never modified once parsed. The tree refers to
// the input through every value anyway, so this holds for the tree as a
// whole: the transports give every message a buffer of its own that they
// never reuse (lineio.Reader.Next, the HTTP body), and whatever keeps a
// name beyond the request copies it. TestHandlerKeepsItsInput in package
// runtime fails if a reused buffer changes what a handler kept.
func (t *Tree) name(i uint32) string {
	n := &t.nodes[i]
	s := t.data[n.start+1 : n.end-1]
	if !t.plainAt(i) {
		name, _ := Unquote(t.data[n.start:n.end])
		return name
	}
	if len(s) == 0 {
		return ""
	}
	return unsafe.String(&s[0], len(s))
}

// nameIs reports whether the string node i is the member name name.
func (t *Tree) nameIs(i uint32, name string) bool {
	n := &t.nodes[i]
	if t.plainAt(i) {
		return string(t.data[n.start+1:n.end-1]) == name
	}
	return t.name(i) == name
}

// plainAt reports whether the content of the string node i is plain.
func (t *Tree) plainAt(i uint32) bool {
	if len(t.escaped) == 0 {
		return true
	}
	_, found := slices.BinarySearch(t.escaped, i)
	return !found
}

// plain reports whether the content of a string literal reads as it is:
// no escapes, and only ASCII (invalid UTF-8 becomes U+FFFD on reading).
func plain(s []byte) bool {
	for _, c := range s {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// Span returns where v lies in the input: Raw is input[start:end].
func (v Value) Span() (start, end int) {
	n := v.node()
	return int(n.start), int(n.end)
}

// Reset empties t for reuse, dropping its reference to the input, and
// returns the number of nodes it can hold.
func (t *Tree) Reset() int {
	t.data = nil
	t.nodes = t.nodes[:0]
	t.escaped = t.escaped[:0]
	return cap(t.nodes)
}

// A TreePool keeps parsed trees for the next messages, so that parsing a
// message allocates no nodes once the pool is warm. Its zero value is
// ready; it may be used from many goroutines at once.
type TreePool struct {
	trees sync.Pool
}

// maxPooledNodes bounds the trees a TreePool keeps: 48 KiB of nodes.
const maxPooledNodes = 4 << 10

// Get returns a tree to parse a message into, reused from an earlier
// message when one is free. Give it back with Put once nothing refers to
// the message any more.
func (p *TreePool) Get() *Tree {
	if t, ok := p.trees.Get().(*Tree); ok {
		return t
	}
	return new(Tree)
}

// Put gives back a tree that Get returned. The trees of large messages
// are left to the garbage collector, so that one hostile message does not
// keep its memory in the pool.
func (p *TreePool) Put(t *Tree) {
	if t.Reset() <= maxPooledNodes {
		p.trees.Put(t)
	}
}
