package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// A node is a JSON value that keeps its members' order and repeated
// names, so that mutations can make any JSON text, not only those a map
// can hold.
type node struct {
	kind  jkind
	text  string // a string's content, a number's text
	mem   []member
	elems []*node
}

type member struct {
	name string
	val  *node
}

type jkind byte

const (
	kNull jkind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

func (k jkind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

var (
	nullNode  = &node{kind: kNull}
	trueNode  = &node{kind: kBool, text: "true"}
	falseNode = &node{kind: kBool, text: "false"}
)

func str(s string) *node    { return &node{kind: kString, text: s} }
func num(s string) *node    { return &node{kind: kNumber, text: s} }
func arr(e ...*node) *node  { return &node{kind: kArray, elems: e} }
func obj(m ...member) *node { return &node{kind: kObject, mem: m} }

// parse reads a JSON text into a node.
func parse(data []byte) (*node, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	n, err := parseValue(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the value")
	}
	return n, nil
}

func parseValue(d *json.Decoder) (*node, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case nil:
		return nullNode, nil
	case bool:
		if tok {
			return trueNode, nil
		}
		return falseNode, nil
	case json.Number:
		return num(string(tok)), nil
	case string:
		return str(tok), nil
	case json.Delim:
		switch tok {
		case '[':
			n := arr()
			for d.More() {
				e, err := parseValue(d)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
			_, err := d.Token()
			return n, err
		case '{':
			n := obj()
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := parseValue(d)
				if err != nil {
					return nil, err
				}
				n.mem = append(n.mem, member{k.(string), v})
			}
			_, err := d.Token()
			return n, err
		}
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// encode writes n as compact JSON.
func (n *node) encode() []byte { return n.appendTo(nil) }

func (n *node) appendTo(b []byte) []byte {
	switch n.kind {
	case kNull:
		return append(b, "null"...)
	case kBool, kNumber:
		return append(b, n.text...)
	case kString:
		s, _ := json.Marshal(n.text)
		return append(b, s...)
	case kArray:
		b = append(b, '[')
		for i, e := range n.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendTo(b)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, m := range n.mem {
			if i > 0 {
				b = append(b, ',')
			}
			s, _ := json.Marshal(m.name)
			b = append(append(b, s...), ':')
			b = m.val.appendTo(b)
		}
		return append(b, '}')
	}
}

// clone copies n deeply.
func (n *node) clone() *node {
	c := *n
	c.mem = nil
	for _, m := range n.mem {
		c.mem = append(c.mem, member{m.name, m.val.clone()})
	}
	c.elems = nil
	for _, e := range n.elems {
		c.elems = append(c.elems, e.clone())
	}
	return &c
}

// at returns the value at path, or nil.
func (n *node) at(path []string) *node {
	for _, tok := range path {
		switch n.kind {
		case kObject:
			var next *node
			for _, m := range n.mem {
				if m.name == tok {
					next = m.val // the last one, as encoding/json
				}
			}
			if next == nil {
				return nil
			}
			n = next
		case kArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.elems) {
				return nil
			}
			n = n.elems[i]
		default:
			return nil
		}
	}
	return n
}

// A place is a value in a tree and how to replace it.
type place struct {
	path []string
	n    *node
	set  func(*node) // nil at the root
	// del removes the value from its object or array; nil at the root.
	del func()
}

// places lists every value in the tree rooted at root, root first.
func places(root *node) []place {
	var out []place
	var walk func(p place)
	walk = func(p place) {
		out = append(out, p)
		switch p.n.kind {
		case kObject:
			for i := range p.n.mem {
				parent := p.n
				walk(place{
					path: append(clip(p.path), parent.mem[i].name),
					n:    parent.mem[i].val,
					set:  func(v *node) { parent.mem[i].val = v },
					del:  func() { parent.mem = append(parent.mem[:i:i], parent.mem[i+1:]...) },
				})
			}
		case kArray:
			for i := range p.n.elems {
				parent := p.n
				walk(place{
					path: append(clip(p.path), strconv.Itoa(i)),
					n:    parent.elems[i],
					set:  func(v *node) { parent.elems[i] = v },
					del:  func() { parent.elems = append(parent.elems[:i:i], parent.elems[i+1:]...) },
				})
			}
		}
	}
	walk(place{n: root})
	return out
}

func clip(s []string) []string { return s[:len(s):len(s)] }

// hasDuplicateNames reports whether an object in the tree names a member
// twice.
func (n *node) hasDuplicateNames() bool {
	switch n.kind {
	case kObject:
		seen := map[string]bool{}
		for _, m := range n.mem {
			if seen[m.name] || m.val.hasDuplicateNames() {
				return true
			}
			seen[m.name] = true
		}
	case kArray:
		for _, e := range n.elems {
			if e.hasDuplicateNames() {
				return true
			}
		}
	}
	return false
}
