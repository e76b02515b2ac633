package wire

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/schema"
)

// Streamable HTTP repeats parts of a request's body in headers, so that
// proxies can route and filter without reading it: the method
// (Mcp-Method), the name of what it acts on (Mcp-Name), and the arguments
// a tool marks x-mcp-header in its input schema (Mcp-Param-{name}). A
// server checks that they agree with the body.

// The header names.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderParamPrefix     = "Mcp-Param-"
)

// HeaderValue decodes an Mcp-Name or Mcp-Param-* value: "=?base64?…?="
// holds base64 of UTF-8 text; anything else is the value itself, which
// must then be visible ASCII. It reports false for a value that is
// neither.
func HeaderValue(v string) (string, bool) {
	const prefix, suffix = "=?base64?", "?="
	if len(v) >= len(prefix)+len(suffix) && strings.HasPrefix(v, prefix) && strings.HasSuffix(v, suffix) {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len(prefix) : len(v)-len(suffix)])
		if err != nil || !utf8.Valid(b) {
			return "", false
		}
		return string(b), true
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7e {
			return "", false
		}
	}
	return v, true
}

// OneHeader returns the decoded value of the header name, and whether it
// is present; a header given twice, or whose value does not decode, is an
// error that says so.
func OneHeader(hdr http.Header, name string) (value string, present bool, err error) {
	values := hdr.Values(name)
	if len(values) == 0 {
		return "", false, nil
	}
	v, ok := HeaderValue(values[0])
	if len(values) > 1 || !ok {
		return "", true, fmt.Errorf("%s header %q is not one valid value (plain visible ASCII, or =?base64?…?=)", name, values[0])
	}
	return v, true, nil
}

// IsToken reports whether s is an HTTP token (RFC 9110), as a header name
// must be.
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// A HeaderParam is a property of a tool's input that clients repeat in an
// Mcp-Param-{name} header (x-mcp-header in the input schema).
type HeaderParam struct {
	Header string   // the header's name, without the prefix
	Path   []string // the property's path from the root, through properties only
	Type   string   // "string", "integer" or "boolean"
}

// HeaderParams returns the x-mcp-header properties of an input schema,
// checking what the specification requires of them: a valid header name,
// unique within the schema whatever its case, on a string, integer or
// boolean property that is statically reachable from the root, through a
// chain of properties keys alone. An annotation anywhere else (under
// $defs behind a $ref, under items, oneOf, if…) makes the tool invalid,
// and clients drop such a tool: it is refused here, with where it is.
func HeaderParams(inputSchema []byte) ([]HeaderParam, error) {
	root, err := jsonvalue.Parse(inputSchema)
	if err != nil {
		return nil, err
	}
	var w headerWalk
	return w.out, w.walk(root, nil, true)
}

// headerWalk finds the x-mcp-header annotations of a schema.
type headerWalk struct {
	out []HeaderParam
}

// Keywords whose value is a schema, a list of schemas, or an object of
// schemas by name: where a walk of a schema's subschemas goes. Every other
// keyword holds data (enum, const, default, examples, extensions), in
// which "x-mcp-header" is no annotation.
var (
	schemaKeywords = []string{"items", "additionalItems", "additionalProperties", "unevaluatedItems",
		"unevaluatedProperties", "contains", "propertyNames", "not", "if", "then", "else"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)

// walk visits the schema s at path (its JSON pointer's steps); reachable
// says that the chain from the root to s is of properties keys alone, and
// path is then the property path.
func (w *headerWalk) walk(s jsonvalue.Value, path []string, reachable bool) error {
	if s.Kind() != jsonvalue.Object {
		return nil
	}
	if hv := s.Get("x-mcp-header"); hv.Exists() {
		if !reachable {
			return fmt.Errorf("x-mcp-header at /%s: the property is not reachable from the root through properties alone ($ref, items, oneOf and the like may not be on the way), so clients would reject the tool", strings.Join(path, "/"))
		}
		if err := w.add(s, hv, path); err != nil {
			return err
		}
	}
	for key, sub := range s.Members() {
		switch {
		case key == "properties":
			for name, p := range sub.Members() {
				if err := w.walk(p, append(path, strings.Clone(name)), reachable); err != nil {
					return err
				}
			}
		case slices.Contains(schemaMapKeywords, key):
			for name, p := range sub.Members() {
				if err := w.walk(p, append(path, key, strings.Clone(name)), false); err != nil {
					return err
				}
			}
		case slices.Contains(schemaListKeywords, key):
			for i, p := range sub.Elems() {
				if err := w.walk(p, append(path, key, fmt.Sprint(i)), false); err != nil {
					return err
				}
			}
		case slices.Contains(schemaKeywords, key):
			if err := w.walk(sub, append(path, key), false); err != nil {
				return err
			}
		}
	}
	return nil
}

// add records the x-mcp-header hv of the property schema s at path.
func (w *headerWalk) add(s, hv jsonvalue.Value, path []string) error {
	at := "/" + strings.Join(path, "/")
	name := hv.Str()
	typ := s.Get("type").Str()
	switch {
	case len(path) == 0:
		return fmt.Errorf("x-mcp-header on the root: it belongs on a property")
	case !IsToken(name):
		return fmt.Errorf("x-mcp-header at %s: %s is not a valid header name", at, hv.Raw())
	case typ != "string" && typ != "integer" && typ != "boolean":
		return fmt.Errorf("x-mcp-header at %s: the property must have type string, integer or boolean", at)
	}
	for _, p := range w.out {
		if strings.EqualFold(p.Header, name) {
			return fmt.Errorf("x-mcp-header at %s: %q is already the header of /%s", at, name, strings.Join(p.Path, "/"))
		}
	}
	w.out = append(w.out, HeaderParam{name, slices.Clone(path), typ})
	return nil
}

// CheckParamHeaders returns how the Mcp-Param-* headers disagree with the
// arguments, or "" if they agree: a header that is present must hold the
// value of its argument, and, when required (the per-request revision), a
// property that has a value needs its header; one that is absent or null
// needs none.
func CheckParamHeaders(params []HeaderParam, args jsonvalue.Value, hdr http.Header, required bool) string {
	for _, p := range params {
		v := args
		for _, name := range p.Path {
			v = v.Get(name)
		}
		if k := v.Kind(); k == jsonvalue.Absent || k == jsonvalue.Null {
			continue
		}
		header := HeaderParamPrefix + p.Header
		got, present, err := OneHeader(hdr, header)
		switch {
		case err != nil:
			return err.Error()
		case !present && required:
			return "missing " + header + " header; it must repeat the argument /" + strings.Join(p.Path, "/")
		case !present:
		case !SameParam(p.Type, got, v):
			return fmt.Sprintf("%s header value %q does not match the argument /%s, %s", header, got, strings.Join(p.Path, "/"), v.Raw())
		}
	}
	return ""
}

// SameParam reports whether a header value equals an argument of type
// typ. Strings and booleans compare exactly. An integer header must be a
// decimal integer (an optional minus, digits, and at most a fraction of
// zeros, as in the specification's "42.0 and 42 are considered equal"; no
// "+", no hex, no exponent), and equals a number in the body of the same
// value, exactly, however the body writes it (42, 42.0 and 4.2e1 are the
// same; 9007199254740993 is not 9007199254740992, as it would be through
// a float64).
func SameParam(typ, header string, v jsonvalue.Value) bool {
	switch {
	case v.Kind() == jsonvalue.String:
		return header == v.Str()
	case typ == "integer" && v.Kind() == jsonvalue.Number:
		if !isDecimalInteger(header) {
			return false
		}
		h, err := jsonvalue.Parse([]byte(header))
		if err != nil {
			return false
		}
		return string(schema.AppendCanonical(nil, h)) == string(schema.AppendCanonical(nil, v))
	}
	return header == string(v.Raw())
}

// isDecimalInteger reports whether s is an optional minus, one or more
// digits, and optionally a point and one or more zeros.
func isDecimalInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits, zeros, point := strings.Cut(s, ".")
	return digits != "" && strings.Trim(digits, "0123456789") == "" &&
		(!point || zeros != "" && strings.Trim(zeros, "0") == "")
}
