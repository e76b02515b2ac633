package jsonvalue

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxDepth bounds the nesting of arrays and objects so hostile input
// cannot exhaust the stack; it is the limit encoding/json applies (10000
// nested containers are fine, 10001 are not, whatever they hold).
const MaxDepth = 10000

// MaxSize is the largest input Parse accepts: node offsets are 32 bits.
const MaxSize = math.MaxUint32 - 1

// ErrSyntax is wrapped by every error about input that is not JSON.
var ErrSyntax = errors.New("invalid JSON")

// A DuplicateError reports an object that has a member name twice.
type DuplicateError struct {
	Name   string // the repeated name, unescaped
	Offset int    // where its second occurrence starts in the input
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("member %s appears more than once in an object (at offset %d)", truncatedQuote(e.Name), e.Offset)
}

// Parse parses data as exactly one JSON value, surrounded by optional
// whitespace, into a new tree.
func Parse(data []byte) (Value, error) {
	return new(Tree).Parse(data)
}

// Parse parses data into t, replacing what t held, and returns the root
// value. Values of the earlier parse must no longer be used.
func (t *Tree) Parse(data []byte) (Value, error) {
	if len(data) > MaxSize {
		return Value{}, fmt.Errorf("%w: input of %d bytes is too large", ErrSyntax, len(data))
	}
	t.data = data
	t.nodes = t.nodes[:0]
	t.escaped = t.escaped[:0]
	t.reserve(data)
	p := parser{t: t, data: data}
	p.skipSpace()
	if err := p.value(0); err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return Value{}, p.errorf("unexpected %s after top-level value", p.describe())
	}
	if p.dup != nil {
		return Value{}, p.dup // only for input that is JSON otherwise
	}
	return Value{t, 0}, nil
}

// spareNodes bounds the nodes a tree reserves beyond what its input
// needs (12 KiB of them).
const spareNodes = 1 << 10

// reserve makes room for the nodes of data, so that the tree is allocated
// once. No input of n bytes has more than n/2+1 nodes (each node but the
// last takes two bytes at least: a container its brackets, a scalar or a
// member name a separator after it), so a tree with room for that many
// parses data unread; up to spareNodes, that is what it reserves, so that
// a tree reused for messages of similar sizes, as a server's are, never
// counts. Past it, counting them (a pass over the input) spares the
// memory.
func (t *Tree) reserve(data []byte) {
	most := len(data)/2 + 1
	switch {
	case cap(t.nodes) >= most:
	case most <= spareNodes:
		t.nodes = make([]node, 0, most)
	default:
		if need := countNodes(data); cap(t.nodes) < need {
			t.nodes = make([]node, 0, need)
		}
	}
}

// countNodes returns how many nodes data needs, exactly for valid JSON,
// so that the tree is allocated once: a slice that grows by doubling
// would cost up to three times the final size while it is copied. It
// counts the tokens that start a value or a member name.
func countNodes(data []byte) int {
	n := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			n++
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case c == '[' || c == '{':
			n++
		case c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z':
			n++
			for i+1 < len(data) && isTokenByte(data[i+1]) {
				i++
			}
		}
	}
	return n
}

// isTokenByte reports whether c can continue a number or a literal.
func isTokenByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || c == '.' || c == '+' || c == '-' || 'A' <= c && c <= 'Z'
}

type parser struct {
	t    *Tree
	data []byte
	pos  int
	dup  error // the first repeated member name
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

// add appends the node of a value that starts at start and ends at the
// current position, with no children.
func (p *parser) add(start int) {
	i := uint32(len(p.t.nodes))
	p.t.nodes = append(p.t.nodes, node{start: uint32(start), end: uint32(p.pos), next: i + 1})
}

// value parses one value; depth is the number of arrays and objects
// around it.
func (p *parser) value(depth int) error {
	if p.pos >= len(p.data) {
		return p.errorf("unexpected end of input")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case (c == '{' || c == '[') && depth >= MaxDepth:
		return p.errorf("nesting deeper than %d", MaxDepth)
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		plain, err := p.skipString()
		if err != nil {
			return err
		}
		if !plain {
			p.t.escaped = append(p.t.escaped, uint32(len(p.t.nodes)))
		}
	case c == '-' || (c >= '0' && c <= '9'):
		if err := p.skipNumber(); err != nil {
			return err
		}
	case p.literal("true"), p.literal("false"), p.literal("null"):
	default:
		return p.errorf("unexpected %s", p.describe())
	}
	p.add(start)
	return nil
}

// literal consumes lit if the input continues with it.
func (p *parser) literal(lit string) bool {
	if len(p.data)-p.pos >= len(lit) && string(p.data[p.pos:p.pos+len(lit)]) == lit {
		p.pos += len(lit)
		return true
	}
	return false
}

// open appends the node of a container that starts here, to be finished
// by close once its children follow it.
func (p *parser) open() uint32 {
	i := uint32(len(p.t.nodes))
	p.t.nodes = append(p.t.nodes, node{start: uint32(p.pos)})
	p.pos++ // '{' or '['
	return i
}

func (p *parser) close(i uint32) {
	p.pos++ // '}' or ']'
	n := &p.t.nodes[i]
	n.end, n.next = uint32(p.pos), uint32(len(p.t.nodes))
}

func (p *parser) object(depth int) error {
	obj := p.open()
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.close(obj)
		return nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.errorf("expected object key, found %s", p.describe())
		}
		keyStart := p.pos
		plain, err := p.skipString()
		if err != nil {
			return err
		}
		if !plain {
			p.t.escaped = append(p.t.escaped, uint32(len(p.t.nodes)))
		}
		p.add(keyStart)
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.errorf("expected ':' after object key, found %s", p.describe())
		}
		p.pos++
		p.skipSpace()
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.errorf("unexpected end of input in object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.close(obj)
			if p.dup == nil {
				p.dup = p.t.checkNames(obj)
			}
			return nil
		default:
			return p.errorf("expected ',' or '}' in object, found %s", p.describe())
		}
	}
}

func (p *parser) array(depth int) error {
	arr := p.open()
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.close(arr)
		return nil
	}
	for {
		p.skipSpace()
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.errorf("unexpected end of input in array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.close(arr)
			return nil
		default:
			return p.errorf("expected ',' or ']' in array, found %s", p.describe())
		}
	}
}

// smallObject is the number of members up to which names are compared
// pairwise; larger objects sort their names.
const smallObject = 16

// checkNames refuses an object, the node obj, that has a member name
// twice. Names compare as encoding/json reads them: unescaped, with
// invalid UTF-8 as U+FFFD.
func (t *Tree) checkNames(obj uint32) error {
	v := Value{t, obj}
	var keys [smallObject]uint32
	n := 0
	first, end := v.children()
	for i := first; i < end; i = t.nodes[i+1].next {
		if n < smallObject {
			keys[n] = i
		}
		n++
	}
	if n < 2 {
		return nil
	}
	if n <= smallObject {
		for a := 1; a < n; a++ {
			for b := range a {
				if t.sameName(keys[a], keys[b]) {
					return t.duplicate(keys[a])
				}
			}
		}
		return nil
	}
	// O(n log n) comparisons of names unescaped once; plain names share
	// the input, so the scratch space is 16 bytes per member.
	names := make([]string, 0, n)
	for i := first; i < end; i = t.nodes[i+1].next {
		names = append(names, t.name(i))
	}
	slices.Sort(names)
	for k := 1; k < len(names); k++ {
		if names[k-1] == names[k] {
			return t.duplicateOf(v, names[k])
		}
	}
	return nil
}

// duplicateOf reports the second member of obj named name.
func (t *Tree) duplicateOf(obj Value, name string) error {
	seen := false
	first, end := obj.children()
	for i := first; i < end; i = t.nodes[i+1].next {
		if t.name(i) == name {
			if seen {
				return t.duplicate(i)
			}
			seen = true
		}
	}
	return nil
}

// sameName reports whether the string nodes a and b are the same name.
func (t *Tree) sameName(a, b uint32) bool {
	na, nb := &t.nodes[a], &t.nodes[b]
	sa, sb := t.data[na.start:na.end], t.data[nb.start:nb.end]
	if string(sa) == string(sb) {
		return true
	}
	if t.plainAt(a) && t.plainAt(b) {
		return false
	}
	return t.name(a) == t.name(b)
}

func (t *Tree) duplicate(key uint32) error {
	return &DuplicateError{Name: strings.Clone(t.name(key)), Offset: int(t.nodes[key].start)}
}

// skipString consumes a string literal, checking escapes and rejecting raw
// control characters as RFC 8259 requires. It reports whether the
// literal's content is plain: no escape, only ASCII (see plain).
func (p *parser) skipString() (plain bool, err error) {
	p.pos++ // opening quote
	plain = true
	for {
		for p.pos < len(p.data) && verbatim[p.data[p.pos]] {
			p.pos++
		}
		if p.pos >= len(p.data) {
			return false, p.errorf("unexpected end of input in string")
		}
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			return plain, nil
		case c >= 0x80:
			plain = false
			p.pos++
		case c == '\\':
			plain = false
			p.pos++
			if p.pos >= len(p.data) {
				return false, p.errorf("unexpected end of input in string escape")
			}
			switch p.data[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				if len(p.data)-p.pos < 5 || !isHex4(p.data[p.pos+1:p.pos+5]) {
					return false, p.errorf("invalid \\u escape in string")
				}
				p.pos += 5
			default:
				return false, p.errorf("invalid escape %s in string", p.describe())
			}
		default: // c < 0x20
			return false, p.errorf("control character %s in string", p.describe())
		}
	}
}

// verbatim marks the bytes that stand for themselves inside a plain
// string literal: printable ASCII but the quote and the backslash.
var verbatim = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

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

// truncatedQuote quotes s for a message, cut to a readable length.
func truncatedQuote(s string) string {
	const limit = 64
	if len(s) > limit {
		cut := limit
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}
