package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// kind is the JSON type of a parsed value.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k kind) String() string {
	switch k {
	case kindNull:
		return "null"
	case kindBool:
		return "boolean"
	case kindNumber:
		return "number"
	case kindString:
		return "string"
	case kindArray:
		return "array"
	default:
		return "object"
	}
}

// value is one parsed JSON value. raw always holds the value's exact bytes
// in the input, so a value can be passed on (to encoding/json, or into a
// response) without being re-encoded. Parsing never copies the input.
type value struct {
	kind    kind
	raw     []byte
	elems   []value  // array elements
	members []member // object members, in input order
}

// member is one name/value pair of a JSON object.
type member struct {
	name  string // unescaped
	value value
}

// get returns the member named name, or nil.
func (v *value) get(name string) *value {
	for i := range v.members {
		if v.members[i].name == name {
			return &v.members[i].value
		}
	}
	return nil
}

// str returns the unescaped content of a string value.
func (v *value) str() string {
	s, _ := unquote(v.raw)
	return s
}

// maxDepth bounds the nesting of arrays and objects so hostile input
// cannot exhaust the stack; it is the limit encoding/json applies (10000
// nested containers are fine, 10001 are not, whatever they hold).
const maxDepth = 10000

// errSyntax is wrapped by every parse error.
var errSyntax = errors.New("invalid JSON")

// parseValue parses data as exactly one JSON value, surrounded by optional
// whitespace.
func parseValue(data []byte) (value, error) {
	p := parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return value{}, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return value{}, p.errorf("unexpected %s after top-level value", p.describe())
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", errSyntax, p.pos, fmt.Sprintf(format, args...))
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
func (p *parser) value(depth int) (value, error) {
	if p.pos >= len(p.data) {
		return value{}, p.errorf("unexpected end of input")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case (c == '{' || c == '[') && depth >= maxDepth:
		return value{}, p.errorf("nesting deeper than %d", maxDepth)
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		if err := p.skipString(); err != nil {
			return value{}, err
		}
		return value{kind: kindString, raw: p.data[start:p.pos]}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		if err := p.skipNumber(); err != nil {
			return value{}, err
		}
		return value{kind: kindNumber, raw: p.data[start:p.pos]}, nil
	case p.literal("true"), p.literal("false"):
		return value{kind: kindBool, raw: p.data[start:p.pos]}, nil
	case p.literal("null"):
		return value{kind: kindNull, raw: p.data[start:p.pos]}, nil
	default:
		return value{}, p.errorf("unexpected %s", p.describe())
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

func (p *parser) object(depth int) (value, error) {
	start := p.pos
	p.pos++ // '{'
	var members []member
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return value{kind: kindObject, raw: p.data[start:p.pos]}, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return value{}, p.errorf("expected object key, found %s", p.describe())
		}
		keyStart := p.pos
		if err := p.skipString(); err != nil {
			return value{}, err
		}
		name, err := memberName(p.data[keyStart:p.pos])
		if err != nil {
			return value{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return value{}, p.errorf("expected ':' after object key, found %s", p.describe())
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return value{}, err
		}
		if members == nil {
			members = make([]member, 0, 4)
		}
		members = append(members, member{name: name, value: v})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return value{}, p.errorf("unexpected end of input in object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return value{kind: kindObject, raw: p.data[start:p.pos], members: members}, nil
		default:
			return value{}, p.errorf("expected ',' or '}' in object, found %s", p.describe())
		}
	}
}

func (p *parser) array(depth int) (value, error) {
	start := p.pos
	p.pos++ // '['
	var elems []value
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return value{kind: kindArray, raw: p.data[start:p.pos]}, nil
	}
	for {
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return value{}, err
		}
		elems = append(elems, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return value{}, p.errorf("unexpected end of input in array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return value{kind: kindArray, raw: p.data[start:p.pos], elems: elems}, nil
		default:
			return value{}, p.errorf("expected ',' or ']' in array, found %s", p.describe())
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

// unquote decodes a JSON string literal that skipString accepted. Invalid
// UTF-8 and lone surrogates become U+FFFD, as encoding/json does, so the
// validator sees the same text the decoder will.
// memberName is the unescaped name of an object member. A name without
// escapes or non-ASCII bytes (almost every name) shares the input's bytes
// instead of copying them: the tree already refers to the input through
// every raw field, so the input must not change while the tree is in use
// either way.
func memberName(raw []byte) (string, error) {
	s := raw[1 : len(raw)-1]
	for _, c := range s {
		if c == '\\' || c >= utf8.RuneSelf {
			return unquote(raw)
		}
	}
	if len(s) == 0 {
		return "", nil
	}
	return unsafe.String(&s[0], len(s)), nil
}

func unquote(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", fmt.Errorf("%w: not a string", errSyntax)
	}
	s := raw[1 : len(raw)-1]
	simple := true
	for _, c := range s {
		if c == '\\' || c >= utf8.RuneSelf {
			simple = false
			break
		}
	}
	if simple {
		return string(s), nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[i:])
			out = utf8.AppendRune(out, r) // RuneError for invalid bytes
			i += size
			continue
		}
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		i++
		switch s[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(s[i+1 : i+5])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := unicodeReplacement
				if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					if d := utf16.DecodeRune(r, hex4(s[i+3:i+7])); d != unicodeReplacement {
						r2 = d
						i += 6
					}
				}
				r = r2
			}
			out = utf8.AppendRune(out, r)
		default: // '"', '\\', '/'
			out = append(out, s[i])
		}
		i++
	}
	return string(out), nil
}

const unicodeReplacement = '\uFFFD'

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// appendString appends s to b as a JSON string literal. Invalid UTF-8
// becomes U+FFFD, so the output is always valid JSON.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
