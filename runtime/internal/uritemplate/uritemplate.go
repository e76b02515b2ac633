// Package uritemplate matches URIs against RFC 6570 URI templates of the
// forms MCP resource templates use: simple expansion {var} and reserved
// expansion {+var}, one variable per expression.
//
// A simple variable matches one segment: no '/', '?' or '#', and it is
// percent-decoded. A reserved variable may span segments, as reserved
// expansion leaves '/' as it is (file:///{+path}).
package uritemplate

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// A Template is a parsed URI template.
type Template struct {
	text string
	re   *regexp.Regexp
	vars []Var
}

// A Var is one variable of a template.
type Var struct {
	Name     string
	Reserved bool // {+name}
}

// Parse parses a template. It refuses the expression forms beyond {var}
// and {+var} (lists, modifiers, other operators), naming them.
func Parse(text string) (*Template, error) {
	var re strings.Builder
	re.WriteString("^")
	t := &Template{text: text}
	seen := map[string]bool{}
	rest := text
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			if strings.IndexByte(rest, '}') >= 0 {
				return nil, fmt.Errorf("uri template %q: '}' without '{'", text)
			}
			re.WriteString(regexp.QuoteMeta(rest))
			break
		}
		lit := rest[:open]
		if strings.IndexByte(lit, '}') >= 0 {
			return nil, fmt.Errorf("uri template %q: '}' without '{'", text)
		}
		re.WriteString(regexp.QuoteMeta(lit))
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("uri template %q: unclosed '{'", text)
		}
		expr := rest[open+1 : open+end]
		rest = rest[open+end+1:]
		v := Var{Name: expr}
		if strings.HasPrefix(expr, "+") {
			v = Var{Name: expr[1:], Reserved: true}
		}
		if !validName(v.Name) {
			return nil, fmt.Errorf("uri template %q: expression {%s} is not supported: use {name} or {+name}", text, expr)
		}
		if seen[v.Name] {
			return nil, fmt.Errorf("uri template %q: variable %q appears twice", text, v.Name)
		}
		seen[v.Name] = true
		t.vars = append(t.vars, v)
		if v.Reserved {
			re.WriteString("(.*?)")
		} else {
			re.WriteString("([^/?#]*)")
		}
	}
	re.WriteString("$")
	var err error
	if t.re, err = regexp.Compile(re.String()); err != nil {
		return nil, fmt.Errorf("uri template %q: %w", text, err)
	}
	return t, nil
}

// validName reports whether s is a variable name: ALPHA, DIGIT, '_' and
// percent-encoded bytes, with '.' between parts (RFC 6570, section 2.3).
func validName(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r == '%' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}

// String returns the template as written.
func (t *Template) String() string { return t.text }

// Vars returns the template's variables, in order.
func (t *Template) Vars() []Var { return t.vars }

// Match reports whether uri is an expansion of t, and returns the value
// of each variable, percent-decoded.
func (t *Template) Match(uri string) (map[string]string, bool) {
	m := t.re.FindStringSubmatch(uri)
	if m == nil {
		return nil, false
	}
	vals := make(map[string]string, len(t.vars))
	for i, v := range t.vars {
		raw := m[i+1]
		dec, err := url.PathUnescape(raw)
		if err != nil {
			return nil, false
		}
		vals[v.Name] = dec
	}
	return vals, true
}
