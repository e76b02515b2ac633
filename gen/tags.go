package gen

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// fieldTags are the struct tags of one field as encoding/json and
// invopop/jsonschema read them.
type fieldTags struct {
	name      string // JSON name from the json tag; "" if none
	hasJSON   bool   // the field has a json tag
	omitEmpty bool   // ",omitempty" or ",omitzero"
	quoted    bool   // ",string"
	inline    bool   // ",inline" (invopop's extension)
	skip      bool   // json:"-" or jsonschema:"-"

	required bool     // jsonschema:"required"
	nullable bool     // jsonschema:"nullable"
	keywords []keyVal // jsonschema:"key=value,..." in order
	extras   []keyVal // jsonschema_extras:"key=value,..."
	desc     string   // jsonschema_description
	hasDesc  bool
	free     string // a jsonschema tag without "=", e.g. google/jsonschema-go's description form
	// freeAfterValue says that free follows a key=value item: most likely
	// the rest of a value with an unescaped comma, as in {3,5}.
	freeAfterValue bool
	syntax         string // why the tag does not parse, if it does not
}

type keyVal struct {
	key, val string
	raw      string // "key=value" as written, to locate it in the tag
}

// parseTags reads a field's tag. The json tag follows encoding/json; the
// jsonschema tags follow invopop/jsonschema, where "\," is a literal comma.
func parseTags(tag string) fieldTags {
	var ft fieldTags
	ft.syntax = tagSyntax(tag)
	st := reflect.StructTag(tag)
	jsonTag, hasJSON := st.Lookup("json")
	ft.hasJSON = hasJSON
	parts := strings.Split(jsonTag, ",")
	if parts[0] == "-" && len(parts) == 1 {
		ft.skip = true
	}
	if isValidTagName(parts[0]) {
		ft.name = parts[0]
	}
	for _, o := range parts[1:] {
		switch o {
		case "omitempty", "omitzero":
			ft.omitEmpty = true
		case "string":
			ft.quoted = true
		case "inline":
			ft.inline = true
		}
	}
	if d, ok := st.Lookup("jsonschema_description"); ok {
		ft.desc, ft.hasDesc = d, true
	}
	if js, ok := st.Lookup("jsonschema"); ok && js != "" {
		prev := ""
		for _, item := range splitOnUnescapedCommas(js) {
			switch {
			case item == "-":
				ft.skip = true
			case item == "required":
				ft.required = true
			case item == "nullable":
				ft.nullable = true
			case item == "":
			case strings.Contains(item, "="):
				k, v, _ := strings.Cut(item, "=")
				ft.keywords = append(ft.keywords, keyVal{k, v, item})
			default:
				if ft.free == "" {
					ft.free = item
					ft.freeAfterValue = len(ft.keywords) > 0 && ft.keywords[len(ft.keywords)-1].raw == prev
				}
			}
			prev = item
		}
	}
	if ex, ok := st.Lookup("jsonschema_extras"); ok && ex != "" {
		for _, item := range splitOnUnescapedCommas(ex) {
			k, v, _ := strings.Cut(item, "=")
			ft.extras = append(ft.extras, keyVal{k, v, item})
		}
	}
	return ft
}

// tagSyntax checks a struct tag against the key:"value" convention that
// reflect.StructTag parses, and says what is wrong; reflect silently
// ignores everything after an error, and with it the keywords mcpgen reads.
func tagSyntax(tag string) string {
	for tag != "" {
		tag = strings.TrimLeft(tag, " ")
		if tag == "" {
			break
		}
		i := 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			return fmt.Sprintf("struct tag is not in the form key:\"value\" near %q", tag)
		}
		key := tag[:i]
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return fmt.Sprintf("struct tag %s: unterminated value", key)
		}
		if _, err := strconv.Unquote(tag[:i+1]); err != nil {
			return fmt.Sprintf("struct tag %s: value %s is not a valid Go string (write \\\\ for a backslash, as in \\\\,)", key, tag[:i+1])
		}
		tag = tag[i+1:]
	}
	return ""
}

// isValidTagName is encoding/json's rule for names in json tags.
func isValidTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c > 127):
			return false
		}
	}
	return true
}

// splitOnUnescapedCommas splits like invopop/jsonschema: a comma preceded
// by a backslash is part of the value.
func splitOnUnescapedCommas(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if n := len(out); n > 0 && strings.HasSuffix(out[n-1], `\`) {
			out[n-1] = strings.TrimSuffix(out[n-1], `\`) + "," + part
			continue
		}
		out = append(out, part)
	}
	return out
}

// tagPos locates text inside a field's tag literal, for diagnostics that
// point at the offending keyword. It falls back to the tag's start, or to
// fallback when the field has no tag in the syntax at hand.
func tagPos(f *ast.Field, text string, fallback token.Pos) token.Pos {
	if f == nil || f.Tag == nil {
		return fallback
	}
	lit := f.Tag.Value
	if strings.HasPrefix(lit, "`") {
		if i := strings.Index(lit, text); i >= 0 && text != "" {
			return f.Tag.Pos() + token.Pos(i)
		}
	}
	return f.Tag.Pos()
}

// applyKeywords applies the jsonschema tag keywords that suit the field's
// JSON type to s, as invopop/jsonschema does; unlike invopop, a keyword
// that does not apply, or whose value is malformed, is reported instead of
// being dropped silently. report is called with the offending keyword and
// a message.
func applyKeywords(s *jsonschema.Schema, kws []keyVal, report func(kv keyVal, msg string)) {
	var arrayDefaults []any
	badDefault, scalarDefault := false, false
	replaced := map[*jsonschema.Schema]bool{} // whose enum the tag's replaces
	for _, kv := range kws {
		switch kv.key {
		case "title":
			s.Title = kv.val
			continue
		case "description":
			s.Description = kv.val
			continue
		case "type", "anchor", "oneof_required", "anyof_required", "oneof_ref", "anyof_ref", "oneof_type", "anyof_type":
			report(kv, kv.key+"= is not supported by mcpgen: the schema follows the Go type (state another with //mcp:schema on the type)")
			continue
		}
		target := s
		if s.Type == "array" && s.Items != nil {
			switch kv.key {
			case "minItems", "maxItems", "uniqueItems":
				if msg := applyArrayKeyword(s, kv); msg != "" {
					report(kv, msg)
				}
				continue
			case "default":
				v, msg := itemDefault(s.Items, kv.val)
				if msg != "" {
					report(kv, msg)
					badDefault = true
				}
				arrayDefaults = append(arrayDefaults, v)
				continue
			}
			target = s.Items // invopop passes other keywords on to the items
		}
		if kv.key == "default" {
			if scalarDefault {
				report(kv, "default is given twice: a field has one default (only a list's default=a,default=b lists its items)")
				continue
			}
			scalarDefault = true
		}
		if kv.key == "enum" && !replaced[target] {
			// The tag's enum replaces the constants of the type.
			replaced[target] = true
			target.Enum, target.OneOf = nil, nil
		}
		if msg := applyScalarKeyword(target, kv); msg != "" {
			report(kv, msg)
		}
	}
	if arrayDefaults != nil && !badDefault {
		s.Default = arrayDefaults
	}
}

// applyArrayKeyword applies minItems, maxItems or uniqueItems to an array
// schema.
func applyArrayKeyword(s *jsonschema.Schema, kv keyVal) string {
	if kv.key == "uniqueItems" {
		s.UniqueItems = true
		return ""
	}
	n, ok := parseUint(kv.val)
	if !ok {
		return kv.key + " must be a non-negative integer, not " + strconv.Quote(kv.val)
	}
	if kv.key == "minItems" {
		s.MinItems = n
	} else {
		s.MaxItems = n
	}
	return ""
}

// itemDefault reads one element of an array's default=, a value of the
// items' type.
func itemDefault(items *jsonschema.Schema, val string) (any, string) {
	switch items.Type {
	case "string":
		return val, ""
	case "integer", "number":
		n, ok := toJSONNumber(val)
		if !ok {
			return nil, "default must be a list of numbers, and " + strconv.Quote(val) + " is not one"
		}
		return n, ""
	case "boolean":
		if val != "true" && val != "false" {
			return nil, "default must be a list of true and false, and " + strconv.Quote(val) + " is neither"
		}
		return val == "true", ""
	}
	return nil, "default is not supported on a list of " + schemaKind(items) + "s"
}

// The keywords of a jsonschema tag, by the JSON type they apply to.
var (
	stringKeywords = []string{"minLength", "maxLength", "pattern", "format"}
	numberKeywords = []string{"multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
	arrayKeywords  = []string{"minItems", "maxItems", "uniqueItems"}
	anyKeywords    = []string{"title", "description", "default", "example", "enum", "readOnly", "writeOnly"}
)

// applyScalarKeyword applies one keyword to a string, number, integer or
// boolean schema and returns a message when it cannot.
func applyScalarKeyword(s *jsonschema.Schema, kv keyVal) string {
	typ := s.Type
	if typ == "" {
		typ = "a value of any type"
		if s.Ref != "" {
			typ = "an object"
		}
	}
	if !slices.Contains(slices.Concat(stringKeywords, numberKeywords, arrayKeywords, anyKeywords), kv.key) {
		return unknownKeyword(kv)
	}
	wrong := func(applies string) string {
		return kv.key + " applies to " + applies + ", but this field is " + article(typ) + " " + typ
	}
	switch {
	case slices.Contains(stringKeywords, kv.key) && typ != "string":
		return wrong("strings")
	case slices.Contains(numberKeywords, kv.key) && typ != "number" && typ != "integer":
		return wrong("numbers")
	case slices.Contains(arrayKeywords, kv.key):
		return wrong("arrays")
	}
	number := func() (json.Number, string) {
		if n, ok := toJSONNumber(kv.val); ok {
			return n, ""
		}
		return "", kv.key + " must be a number, not " + strconv.Quote(kv.val)
	}
	switch typ {
	case "string":
		switch kv.key {
		case "minLength", "maxLength":
			n, ok := parseUint(kv.val)
			if !ok {
				return kv.key + " must be a non-negative integer, not " + strconv.Quote(kv.val)
			}
			if kv.key == "minLength" {
				s.MinLength = n
			} else {
				s.MaxLength = n
			}
		case "pattern":
			if _, err := regexp.Compile(kv.val); err != nil {
				return "pattern " + strconv.Quote(kv.val) + " is not a valid regular expression: " + err.Error()
			}
			s.Pattern = kv.val
		case "format":
			s.Format = kv.val
		case "readOnly", "writeOnly":
			b, err := strconv.ParseBool(kv.val)
			if err != nil {
				return kv.key + " must be true or false, not " + strconv.Quote(kv.val)
			}
			if kv.key == "readOnly" {
				s.ReadOnly = b
			} else {
				s.WriteOnly = b
			}
		case "default":
			if s.ContentEncoding == "base64" {
				if _, err := base64.StdEncoding.DecodeString(kv.val); err != nil {
					return "default must be base64 for a []byte field, as encoding/json reads it, not " + strconv.Quote(kv.val)
				}
			}
			s.Default = kv.val
		case "example":
			s.Examples = append(s.Examples, kv.val)
		case "enum":
			s.Enum = append(s.Enum, kv.val)
		}
	case "number", "integer":
		switch kv.key {
		case "readOnly", "writeOnly":
			return kv.key + " is not supported on " + article(typ) + " " + typ + " field"
		}
		n, msg := number()
		if msg != "" {
			return msg
		}
		if typ == "integer" && (kv.key == "default" || kv.key == "enum" || kv.key == "example") {
			if _, err := n.Int64(); err != nil {
				return kv.key + " must be an integer for this field, not " + strconv.Quote(kv.val)
			}
		}
		switch kv.key {
		case "multipleOf":
			if f, _ := n.Float64(); f <= 0 {
				return "multipleOf must be greater than 0"
			}
			s.MultipleOf = n
		case "minimum":
			s.Minimum = n
		case "maximum":
			s.Maximum = n
		case "exclusiveMinimum":
			s.ExclusiveMinimum = n
		case "exclusiveMaximum":
			s.ExclusiveMaximum = n
		case "default":
			s.Default = n
		case "example":
			s.Examples = append(s.Examples, n)
		case "enum":
			s.Enum = append(s.Enum, n)
		}
	case "boolean":
		switch kv.key {
		case "default":
			if kv.val != "true" && kv.val != "false" {
				return "default must be true or false, not " + strconv.Quote(kv.val)
			}
			s.Default = kv.val == "true"
		case "enum", "example":
			return kv.key + " applies to strings and numbers, but this field is a boolean"
		default:
			return kv.key + " is not supported on a boolean field"
		}
	default:
		return kv.key + " is not supported on " + article(typ) + " " + typ + " field"
	}
	return ""
}

// unknownKeyword says that a jsonschema tag keyword is not one mcpgen
// knows, and which one was probably meant.
func unknownKeyword(kv keyVal) string {
	msg := "unknown jsonschema keyword " + strconv.Quote(kv.key)
	if near := nearest(kv.key, slices.Concat(stringKeywords, numberKeywords, arrayKeywords, anyKeywords)); near != "" {
		msg += ": did you mean " + near + "?"
	}
	return msg
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// toJSONNumber is invopop's check that a tag value is a number.
//
// Unlike invopop, it takes only what JSON writes as a number: strconv also
// reads 00, +1, 0x10, 1_000 and Inf, which would make the schema invalid
// JSON.
func toJSONNumber(s string) (json.Number, bool) {
	if !jsonNumber.MatchString(s) {
		return "", false
	}
	n := json.Number(s)
	if _, err := n.Float64(); err != nil {
		return "", false // out of range
	}
	return n, true
}

// jsonNumber is the grammar of a JSON number (RFC 8259, section 6).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func parseUint(s string) (*uint64, bool) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return nil, false
	}
	return &n, true
}

// applyExtras adds jsonschema_extras keys as invopop does: "true" and
// "false" become booleans, a repeated key becomes a list.
func applyExtras(s *jsonschema.Schema, extras []keyVal) {
	for _, kv := range extras {
		if kv.key == "" {
			continue
		}
		if s.Extras == nil {
			s.Extras = map[string]any{}
		}
		var v any = kv.val
		switch {
		case kv.val == "true":
			v = true
		case kv.val == "false":
			v = false
		case kv.key == "minimum":
			v, _ = strconv.Atoi(kv.val)
		}
		switch old := s.Extras[kv.key].(type) {
		case nil:
			s.Extras[kv.key] = v
		case string:
			s.Extras[kv.key] = []string{old, kv.val}
		case []string:
			s.Extras[kv.key] = append(old, kv.val)
		default:
			s.Extras[kv.key] = v
		}
	}
}
