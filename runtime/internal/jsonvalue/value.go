// Package jsonvalue parses JSON into a tree whose every value keeps its
// exact bytes in the input: the runtime validates a tool call's arguments
// against a schema on that tree, decodes them into Go values from it, and
// passes parts of the input on without encoding them again.
//
// Parsing never copies the input. A tree refers to the input through every
// Raw field (and through some member names, see memberName), so the input
// must not change while the tree is in use.
package jsonvalue

import (
	"errors"
	"fmt"
	"strconv"
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
)

// String names the type as JSON Schema does: "null", "boolean", "number",
// "string", "array" or "object".
func (k Kind) String() string {
	switch k {
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

// A Value is one parsed JSON value. Raw always holds the value's exact bytes
// in the input, so a value can be passed on (to encoding/json, or into a
// response) without being re-encoded. Parsing never copies the input.
type Value struct {
	Kind    Kind
	Raw     []byte
	Elems   []Value  // array elements
	Members []Member // object members, in input order
}

// A Member is one name/value pair of a JSON object.
type Member struct {
	Name  string // unescaped
	Value Value
}

// Get returns the first member named name, or nil.
func (v *Value) Get(name string) *Value {
	for i := range v.Members {
		if v.Members[i].Name == name {
			return &v.Members[i].Value
		}
	}
	return nil
}

// Str returns the unescaped content of a string value.
func (v *Value) Str() string {
	s, _ := Unquote(v.Raw)
	return s
}

// MaxDepth bounds the nesting of arrays and objects so hostile input
// cannot exhaust the stack; it is the limit encoding/json applies (10000
// nested containers are fine, 10001 are not, whatever they hold).
const MaxDepth = 10000

// ErrSyntax is wrapped by every parse error.
var ErrSyntax = errors.New("invalid JSON")

// Parse parses data as exactly one JSON value, surrounded by optional
// whitespace.
func Parse(data []byte) (Value, error) {
	p := parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return Value{}, p.errorf("unexpected %s after top-level value", p.describe())
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", ErrSyntax, p.pos, fmt.Sprintf(format, args...))
}

// describe names the byte at the current position for error messages.
func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	return strconv.QuoteRune(rune(p.data[p.pos]))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses one value; depth is the number of arrays and objects
// around it.
func (p *parser) value(depth int) (Value, error) {
	if p.pos >= len(p.data) {
		return Value{}, p.errorf("unexpected end of input")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case (c == '{' || c == '[') && depth >= MaxDepth:
		return Value{}, p.errorf("nesting deeper than %d", MaxDepth)
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		if err := p.skipString(); err != nil {
			return Value{}, err
		}
		return Value{Kind: String, Raw: p.data[start:p.pos]}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		if err := p.skipNumber(); err != nil {
			return Value{}, err
		}
		return Value{Kind: Number, Raw: p.data[start:p.pos]}, nil
	case p.literal("true"), p.literal("false"):
		return Value{Kind: Bool, Raw: p.data[start:p.pos]}, nil
	case p.literal("null"):
		return Value{Kind: Null, Raw: p.data[start:p.pos]}, nil
	default:
		return Value{}, p.errorf("unexpected %s", p.describe())
	}
}

// literal consumes lit if the input continues with it.
func (p *parser) literal(lit string) bool {
	if len(p.data)-p.pos >= len(lit) && string(p.data[p.pos:p.pos+len(lit)]) == lit {
		p.pos += len(lit)
		return true
	}
	return false
}

func (p *parser) object(depth int) (Value, error) {
	start := p.pos
	p.pos++ // '{'
	var members []Member
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return Value{Kind: Object, Raw: p.data[start:p.pos]}, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, p.errorf("expected object key, found %s", p.describe())
		}
		keyStart := p.pos
		if err := p.skipString(); err != nil {
			return Value{}, err
		}
		name, err := memberName(p.data[keyStart:p.pos])
		if err != nil {
			return Value{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.errorf("expected ':' after object key, found %s", p.describe())
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		if members == nil {
			members = make([]Member, 0, 4)
		}
		members = append(members, Member{Name: name, Value: v})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.errorf("unexpected end of input in object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return Value{Kind: Object, Raw: p.data[start:p.pos], Members: members}, nil
		default:
			return Value{}, p.errorf("expected ',' or '}' in object, found %s", p.describe())
		}
	}
}

func (p *parser) array(depth int) (Value, error) {
	start := p.pos
	p.pos++ // '['
	var elems []Value
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return Value{Kind: Array, Raw: p.data[start:p.pos]}, nil
	}
	for {
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		elems = append(elems, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Value{}, p.errorf("unexpected end of input in array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return Value{Kind: Array, Raw: p.data[start:p.pos], Elems: elems}, nil
		default:
			return Value{}, p.errorf("expected ',' or ']' in array, found %s", p.describe())
		}
	}
}

// skipString consumes a string literal, checking escapes and rejecting raw
// control characters as RFC 8259 requires.
func (p *parser) skipString() error {
	p.pos++ // opening quote
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return nil
		case c == '\\':
			p.pos++
			if p.pos >= len(p.data) {
				return p.errorf("unexpected end of input in string escape")
			}
			switch p.data[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				if len(p.data)-p.pos < 5 || !isHex4(p.data[p.pos+1:p.pos+5]) {
					return p.errorf("invalid \\u escape in string")
				}
				p.pos += 5
			default:
				return p.errorf("invalid escape %s in string", p.describe())
			}
		case c < 0x20:
			return p.errorf("control character %s in string", p.describe())
		default:
			p.pos++
		}
	}
	return p.errorf("unexpected end of input in string")
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// skipNumber consumes a number with the exact RFC 8259 grammar.
func (p *parser) skipNumber() error {
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.data) && p.data[p.pos] == '0':
		p.pos++
	case p.pos < len(p.data) && p.data[p.pos] >= '1' && p.data[p.pos] <= '9':
		p.skipDigits()
	default:
		return p.errorf("invalid number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if p.skipDigits() == 0 {
			return p.errorf("invalid number: no digits after decimal point")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if p.skipDigits() == 0 {
			return p.errorf("invalid number: no digits in exponent")
		}
	}
	return nil
}

func (p *parser) skipDigits() int {
	n := 0
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}
