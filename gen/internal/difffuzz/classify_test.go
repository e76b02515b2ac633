package difffuzz_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/gen/internal/difffuzz/harness"
)

// A policy is a documented difference between what mcpgen's schemas and
// runtime accept and what encoding/json reads: a disagreement it explains
// is not a defect. docs/schema.md states each.
type policy struct {
	name     string
	sentence string
	match    func(r *harness.Report) bool
}

// policies: the first that matches a disagreement names it.
var policies = []policy{
	{"unknown-member",
		"An argument the input type has no field for is refused (additionalProperties: false), where encoding/json ignores it: a misspelled argument is an error, not silently dropped.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && r.Keyword == "additionalProperties" && !has(r, "caseFold") && !has(r, "mapKey")
		}},
	{"exact-names",
		"Member names match the json names exactly; encoding/json also matches a member to a field whose name differs only in case.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && r.Keyword == "additionalProperties" && has(r, "caseFold")
		}},
	{"duplicate-member",
		"An object that names a member twice is refused before validation (JSON Schema leaves its meaning undefined); encoding/json takes the last.",
		func(r *harness.Report) bool {
			return r.Event == harness.RuntimeRefusesValid && has(r, "duplicate") && strings.Contains(r.Runtime, "more than once")
		}},
	{"required",
		"A member whose field is neither a pointer nor omitempty/omitzero is required; encoding/json leaves an absent field as it was.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && r.Keyword == "required"
		}},
	{"null",
		"null is refused for a member that is not nullable (jsonschema:\"nullable\"), a pointer's included; encoding/json ignores null for a non-pointer and sets a pointer, slice, map or interface to nil.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && has(r, "json:null") && (r.Keyword == "type" || r.Keyword == "oneOf" || r.Keyword == "enum")
		}},
	{"enum-constants",
		"A named string or integer type with constants takes only its constants (its enum; an integer type's as titled oneOf alternatives); encoding/json takes any value of the underlying type. A result with another value fails its output schema.",
		func(r *harness.Report) bool {
			enumKeyword := r.Keyword == "enum" || r.Keyword == "oneOf" || r.Keyword == "const"
			titled := strings.Contains(r.SchemaAt, `"oneOf"`) && strings.Contains(r.SchemaAt, `"title"`)
			return (r.Event == harness.SchemaRefusesReadable || r.Event == harness.OutputInvalid) && enumKeyword && (has(r, "enumType") || titled) && !has(r, "constant")
		}},
	{"quoted-null",
		"A field with \",string\" takes a string holding its value; encoding/json also reads the string \"null\" there, as no value, which the schema refuses.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && has(r, "stringOption") && jsonAt(r) == `"null"`
		}},
	{"quoted-range",
		"A \",string\" number is a string of decimal digits, as strconv reads it; one past the Go type's range passes the schema's pattern and is refused when decoded, with encoding/json's error, as a number past it is.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaAcceptsUnreadable && has(r, "stringOption") && strings.Contains(r.Unmarshal, "cannot unmarshal number")
		}},
	{"object-arguments",
		"A tool's arguments are a JSON object (MCP says so): an input type that reads itself with an UnmarshalJSON mcpgen cannot see into is an object to the schema, and its method decides which objects, if any, it takes.",
		func(r *harness.Report) bool {
			return len(r.Path) == 0 && has(r, "decodesItself") &&
				(r.Event == harness.SchemaRefusesReadable && r.Keyword == "type" || r.Event == harness.SchemaAcceptsUnreadable)
		}},
	{"tag-keywords",
		"The jsonschema tag's keywords (minimum, maximum, pattern, minLength, maxLength, minItems, maxItems, uniqueItems, multipleOf, enum, format) are enforced; encoding/json ignores tags.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && (has(r, "tagKeyword") || r.Keyword == "uniqueItems" && strings.Contains(r.Field, "uniqueItems"))
		}},
	{"fixed-arrays",
		"A Go array [N]T takes exactly N items (minItems = maxItems = N); encoding/json fills missing elements with zero values and drops extra ones.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && ((r.Keyword == "minItems" || r.Keyword == "maxItems") && has(r, "array") || has(r, "beyondArray"))
		}},
	{"integer-range",
		"A sized integer (int8 … uint32) has its range as minimum and maximum; int, int64, uint and uint64 have none (but 0 for the unsigned), as JSON numbers past 2^53 are not exact: a number outside the Go type's range passes their schema and is refused when decoded, with encoding/json's error.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaAcceptsUnreadable && has(r, "json:number") && !has(r, "decimalForm") && isInteger(r) &&
				strings.Contains(r.Unmarshal, "cannot unmarshal number")
		}},
	{"integer-forms",
		"A number written with a fraction or an exponent (1.0, 1e2), or -0 for an unsigned integer, is an integer to JSON Schema; encoding/json refuses it for a Go integer, and so does the runtime, with encoding/json's error.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaAcceptsUnreadable && has(r, "json:number") && isInteger(r) &&
				(has(r, "decimalForm") || strings.HasPrefix(jsonAt(r), "-0")) && strings.Contains(r.Unmarshal, "cannot unmarshal number")
		}},
	{"float-range",
		"A number past float64's (or float32's) range passes the schema, which has no bound for floats (nor for any value, which encoding/json decodes into a float64), and is refused when decoded.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaAcceptsUnreadable && floatError.MatchString(r.Unmarshal) &&
				(has(r, "json:number") && (has(r, "goKind:float32") || has(r, "goKind:float64")) || has(r, "goKind:interface"))
		}},
	{"base64",
		"[]byte is a base64 string; contentEncoding is an annotation, so a string that is not base64 passes the schema and is refused when decoded; encoding/json also reads an array of numbers, which the schema refuses.",
		func(r *harness.Report) bool {
			return has(r, "bytes") && !has(r, "enumElems") && (r.Event == harness.SchemaAcceptsUnreadable && has(r, "json:string") ||
				r.Event == harness.SchemaRefusesReadable && has(r, "json:array"))
		}},
	{"format-annotations",
		"format is checked for date-time, date, email, uri, uuid, ipv4 and ipv6; any other format (hostname, time, …) is an annotation for the model, which the reference validator asserts.",
		func(r *harness.Report) bool {
			f := formatAt(r)
			return (r.Event == harness.RuntimeAcceptsInvalid || r.Event == harness.SchemaRefusesReadable) && r.Keyword == "format" &&
				f != "" && !slices.Contains([]string{"date-time", "date", "email", "uri", "uuid", "ipv4", "ipv6"}, f)
		}},
	{"date-time",
		"time.Time and format date-time are checked as package time parses RFC 3339 (upper-case T and Z, a second of 60 refused, a four-digit year); other validators accept a little more, and encoding/json refuses it.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaAcceptsUnreadable && strings.Contains(r.Unmarshal, "parsing time") ||
				r.Event == harness.RuntimeRefusesValid && has(r, "byValidator") && strings.Contains(r.Runtime, "RFC 3339") ||
				(r.Event == harness.RuntimeAcceptsInvalid || r.Event == harness.SchemaRefusesReadable) && r.Keyword == "format" && strings.Contains(r.Schema, "date-time")
		}},
	{"output-tag-keywords",
		"A result that breaks a keyword of a jsonschema tag of its type fails its output schema: the tool's to avoid; mcpgen warns when an output reaches such a type.",
		func(r *harness.Report) bool {
			return r.Event == harness.OutputInvalid && r.Source == "json.Marshal" && has(r, "tagKeyword")
		}},
	{"nil-containers",
		"A nil slice or map in a result is sent as [] or {}, which the output schema describes; json.Marshal writes null.",
		func(r *harness.Report) bool {
			return r.Event == harness.OutputInvalid && r.Source == "json.Marshal" && has(r, "json:null") && has(r, "container")
		}},
	{"own-methods",
		"A type that decodes itself (UnmarshalJSON, UnmarshalText) is described by the JSON form its methods read (a string for UnmarshalText, the stated schema or any value for UnmarshalJSON); what the method refuses within that form is refused when decoded, with the method's error.",
		func(r *harness.Report) bool {
			if r.Event != harness.SchemaAcceptsUnreadable || !has(r, "decodesItself") {
				return false
			}
			return has(r, "schemaAny") ||
				has(r, "json:string") && has(r, "schemaType:string") ||
				has(r, "json:number") && (has(r, "schemaType:number") || has(r, "schemaType:integer"))
		}},
	{"map-keys",
		"An integer map key is written in decimal, as encoding/json writes it, and checked against the key type's range when decoded; a key of a type with UnmarshalText is any string, which its method may refuse when decoded. encoding/json also reads +1 and 01 as integer keys.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaAcceptsUnreadable && has(r, "mapKey") ||
				r.Event == harness.SchemaRefusesReadable && (r.Keyword == "propertyNames" || has(r, "mapKey"))
		}},
	{"uint8-enum-lists",
		"A slice of a named uint8 type with constants is a list of its constants; encoding/json also reads (and writes) it as a base64 string.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && has(r, "enumElems") && has(r, "json:string")
		}},
	{"json-number",
		"json.Number is a number; encoding/json also reads a string that holds one.",
		func(r *harness.Report) bool {
			return r.Event == harness.SchemaRefusesReadable && strings.TrimLeft(r.GoType, "*") == "json.Number" && has(r, "json:string")
		}},
}

func has(r *harness.Report, flag string) bool { return slices.Contains(r.Flags, flag) }

// isInteger reports a Go integer kind at the report's path.
func isInteger(r *harness.Report) bool {
	for _, f := range r.Flags {
		if k, ok := strings.CutPrefix(f, "goKind:"); ok {
			return strings.HasPrefix(k, "int") || strings.HasPrefix(k, "uint")
		}
	}
	return false
}

// jsonAt is the JSON text at the report's path, or "".
func jsonAt(r *harness.Report) string {
	v, ok := valueAt(r.JSON, r.Path)
	if !ok {
		return ""
	}
	return string(v)
}

// formatAt is the format of the schema at the report's path.
func formatAt(r *harness.Report) string {
	var s struct{ Format string }
	json.Unmarshal([]byte(r.SchemaAt), &s)
	return s.Format
}

// policyOf returns the policy that explains r, or nil.
func policyOf(r *harness.Report) *policy {
	for i := range policies {
		if policies[i].match(r) {
			return &policies[i]
		}
	}
	return nil
}

// families group the constructs that are one case for mcpgen: a struct
// that takes the methods of a type it embeds.
var families = map[string]string{
	"stamp":                                "struct embedding time.Time",
	"stamp-with-field":                     "struct embedding time.Time",
	"struct-promoting-time.Time-methods":   "struct embedding time.Time",
	"embeds-json-methods":                  "struct embedding a type with JSON methods",
	"struct-promoting-json-struct-methods": "struct embedding a type with JSON methods",
	"struct-promoting-json-int-methods":    "struct embedding a type with JSON methods",
	"embeds-text-methods":                  "struct embedding a type with text methods",
	"struct-promoting-text-struct-methods": "struct embedding a type with text methods",
	"struct-promoting-text-int-methods":    "struct embedding a type with text methods",
}

// basicKinds are the JSON kinds of Go's basic types, which findings
// name instead of the types.
var basicKinds = map[string]string{
	"string": "string", "bool": "boolean", "float32": "number", "float64": "number",
	"int": "integer", "int8": "integer", "int16": "integer", "int32": "integer", "int64": "integer",
	"uint": "integer", "uint8": "integer", "uint16": "integer", "uint32": "integer", "uint64": "integer",
}

var floatError = regexp.MustCompile(`cannot unmarshal number .* of type float(32|64)`)

var declName = regexp.MustCompile(`\b(?:fz\.test/tools/other|fz\.test/tools|tools|other)\.([A-Za-z_]\w*)`)

// construct names the Go type of a finding by the grammar's constructs:
// [<enum-uint8>] for []tools.Day4.
func (b *batch) construct(goType string) string {
	if k, ok := basicKinds[goType]; ok {
		return k
	}
	labels := map[string]string{}
	for _, d := range b.g.decls {
		labels[d.name] = d.label
	}
	return declName.ReplaceAllStringFunc(goType, func(m string) string {
		name := declName.FindStringSubmatch(m)[1]
		l, ok := labels[name]
		if !ok {
			return m
		}
		l = strings.TrimSuffix(strings.TrimSuffix(l, "-sentinel"), "-two-files")
		if f, ok := families[l]; ok {
			l = f
		}
		return "<" + l + ">"
	})
}

// defectClass is the class of a disagreement no policy explains: the
// event, the keyword, the construct where it happened. One reproducer is
// kept per class.
func (b *batch) defectClass(r *harness.Report) string {
	event := r.Event
	keyword := r.Keyword
	switch {
	case strings.Contains(r.Unmarshal, "encoding/json panicked"):
		return "encoding/json panics on a member the schema offers at " + b.construct(r.GoType)
	case strings.Contains(r.Unmarshal, "cannot set embedded pointer to unexported struct"):
		return "the schema offers the members of an embedded pointer to an unexported struct, which encoding/json cannot set"
	case r.Event == harness.SchemaAcceptsOutside:
		kind := "a tag's enum"
		if has(r, "sentinel") {
			kind = "an unexported sentinel constant"
		}
		return r.Event + ": " + kind + " at " + b.construct(r.GoType)
	case r.Event == harness.DurationUnit, r.Event == harness.EnumNames, r.Event == harness.EnumOrder:
		return r.Event
	}
	switch event {
	case harness.SchemaRefusesReadable, harness.SchemaAcceptsUnreadable:
		// Two sides of one wrong schema.
		event, keyword = "schema disagrees with encoding/json", ""
	case harness.DefaultNotApplied, harness.DefaultInvalid:
		return event
	}
	parts := []string{event}
	if keyword != "" {
		parts = append(parts, keyword)
	}
	if r.GoType != "" {
		parts = append(parts, "at "+b.construct(r.GoType))
	}
	if has(r, "stringOption") {
		parts[len(parts)-1] = "at a number or boolean with ,string"
		if has(r, "goKind:string") {
			parts[len(parts)-1] = "at a string with ,string"
		}
	}
	if r.Event == harness.RuntimeRefusesValid {
		if has(r, "byValidator") {
			parts = append(parts, "(validator)")
		} else {
			parts = append(parts, "(decoder)")
		}
	}
	return strings.Join(parts, " ")
}

// issueItem guesses the item of issue 29 a defect class matches, for the
// findings list; "new" when none does.
func issueItem(class string) string {
	rules := []struct{ re, item string }{
		{`determin|enum-order`, "1.1"},
		{`encoding/json panics.*<struct embedding`, "1.2 (methods promoted through an embedded pointer: encoding/json panics on nil)"},
		{`encoding/json panics`, "1.8 (a tagged embedded pointer to an unexported struct: encoding/json panics)"},
		{`not an identifier`, "new (a decoder's name made from a type with tags)"},
		{`embedded pointer to an unexported struct`, "1.8"},
		{`<text-int`, "1.2 (integer-kinded type with text methods)"},
		{`<struct embedding`, "1.2 (a method promoted from an embedded field)"},
		{`<marshal-only`, "1.2 (output-only type that marshals itself)"},
		{`output.*required`, "1.3"},
		{`json\.RawMessage`, "1.6"},
		{`default-invalid`, "1.7"},
		{`map key`, "1.9"},
		{`<json-struct|<json-int>|big\.Int|slog\.Level`, "1b.1"},
		{`output-invalid.*(language\.Tag|netip|time\.Time|net\.IP|<text-struct>)`, "1b.1 (an output of a type that marshals itself)"},
		{`does not compile`, "1b.2"},
		{`outside the user's module`, "1b.5"},
		{`sentinel|a const block that types only its first`, "2.2"},
		{`<enum-uint8>|<named-slice-uint8-enum>`, "1.5"},
		{`default-not-applied|default on a required member`, "2.3"},
		{`a tag's enum`, "1.4"},
		{`validation keywords in a type an output reaches`, "2.4"},
		{`duration-unit`, "2.7"},
		{`enum-names`, "2.8"},
		{`unexported field with a json tag|minItems on a string|a bound on a ,string number`, "2.10"},
		{`generator panic`, "2.1"},
		{`did you mean`, "2.5"},
		{`comma inside a pattern`, "2.6"},
	}
	for _, r := range rules {
		if regexp.MustCompile(r.re).MatchString(class) {
			return r.item
		}
	}
	return "new"
}
