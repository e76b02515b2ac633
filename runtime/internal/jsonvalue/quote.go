package jsonvalue

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Unquote decodes a JSON string literal that the parser accepted. Invalid
// UTF-8 and lone surrogates become U+FFFD, as encoding/json does, so the
// validator sees the same text the decoder will.
func Unquote(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", fmt.Errorf("%w: not a string", ErrSyntax)
	}
	s := raw[1 : len(raw)-1]
	if plain(s) {
		return string(s), nil
	}
	out := appendUnquoted(make([]byte, 0, len(s)), s)
	return unsafe.String(unsafe.SliceData(out), len(out)), nil // out is never written again
}

// appendUnquoted appends the decoded content s of a string literal to
// dst.
func appendUnquoted(dst, s []byte) []byte {
	out := dst
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
	return out
}

// A StringArena hands out the decoded strings of one message from a few
// shared allocations instead of one each: decoding a call's arguments
// into Go values then costs one allocation for all their short strings.
// A string longer than arenaMaxString gets its own, so that a kept short
// string holds at most one chunk (1 KiB) alive, never a large one.
//
// Invariant: bytes of a chunk before its length are never written again,
// only appended after (even a growing append copies to a new array), so
// the strings carved from it never change.
type StringArena struct {
	chunk []byte
	size  int // the size of the next chunk; 0 means arenaChunk
}

// Sizes of an arena.
const (
	arenaChunk     = 1 << 10
	arenaMaxString = 256
)

// SizeFor tells a that its strings will come from a message of n bytes,
// which bounds their length: a small message's first chunk is then as
// small.
func (a *StringArena) SizeFor(n int) { a.size = min(max(n, 16), arenaChunk) }

// Str returns the decoded content of the string value v.
func (a *StringArena) Str(v Value) string {
	raw := v.Raw()
	s := raw[1 : len(raw)-1]
	if len(s) > arenaMaxString {
		return v.Str()
	}
	a.reserve(len(s))
	start := len(a.chunk)
	if v.t.plainAt(v.i) {
		a.chunk = append(a.chunk, s...)
	} else {
		a.chunk = appendUnquoted(a.chunk, s)
	}
	return a.carve(start)
}

// Clone returns a copy of s, which may share memory with the input.
func (a *StringArena) Clone(s string) string {
	if len(s) > arenaMaxString {
		return strings.Clone(s)
	}
	a.reserve(len(s))
	start := len(a.chunk)
	a.chunk = append(a.chunk, s...)
	return a.carve(start)
}

// reserve makes room for about n more bytes.
func (a *StringArena) reserve(n int) {
	if cap(a.chunk)-len(a.chunk) < n {
		size := a.size
		if size == 0 {
			size = arenaChunk
		}
		a.chunk = make([]byte, 0, max(size, n))
	}
}

// carve returns the bytes of the chunk from start on as a string.
func (a *StringArena) carve(start int) string {
	out := a.chunk[start:]
	if len(out) == 0 {
		return ""
	}
	return unsafe.String(&out[0], len(out))
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

// AppendString appends s to b as a JSON string literal. Invalid UTF-8
// becomes U+FFFD, so the output is always valid JSON.
func AppendString(b []byte, s string) []byte {
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
