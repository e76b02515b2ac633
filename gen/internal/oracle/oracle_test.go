package oracle_test

import (
	"encoding"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/examples/greet"
	"github.com/mcpgen/mcpgen/examples/tickets"
	"github.com/mcpgen/mcpgen/internal/testmodule"
	"github.com/mcpgen/mcpgen/testdata/golden/adapters"
	othershared "github.com/mcpgen/mcpgen/testdata/golden/adapters/other/shared"
	adaptershared "github.com/mcpgen/mcpgen/testdata/golden/adapters/shared"
	"github.com/mcpgen/mcpgen/testdata/golden/apps"
	"github.com/mcpgen/mcpgen/testdata/golden/backtick_doc"
	"github.com/mcpgen/mcpgen/testdata/golden/client_tools"
	"github.com/mcpgen/mcpgen/testdata/golden/collections"
	"github.com/mcpgen/mcpgen/testdata/golden/decoders"
	"github.com/mcpgen/mcpgen/testdata/golden/defaults"
	"github.com/mcpgen/mcpgen/testdata/golden/directive_mistakes"
	"github.com/mcpgen/mcpgen/testdata/golden/directive_options"
	"github.com/mcpgen/mcpgen/testdata/golden/docs"
	"github.com/mcpgen/mcpgen/testdata/golden/embedded"
	"github.com/mcpgen/mcpgen/testdata/golden/enum_rules"
	"github.com/mcpgen/mcpgen/testdata/golden/enums"
	"github.com/mcpgen/mcpgen/testdata/golden/forms"
	"github.com/mcpgen/mcpgen/testdata/golden/generics"
	"github.com/mcpgen/mcpgen/testdata/golden/import_clash"
	"github.com/mcpgen/mcpgen/testdata/golden/inline"
	"github.com/mcpgen/mcpgen/testdata/golden/install"
	"github.com/mcpgen/mcpgen/testdata/golden/json_methods"
	"github.com/mcpgen/mcpgen/testdata/golden/json_tags"
	"github.com/mcpgen/mcpgen/testdata/golden/map_keys"
	"github.com/mcpgen/mcpgen/testdata/golden/names_taken"
	"github.com/mcpgen/mcpgen/testdata/golden/naming"
	"github.com/mcpgen/mcpgen/testdata/golden/nested_defs"
	"github.com/mcpgen/mcpgen/testdata/golden/other_package"
	"github.com/mcpgen/mcpgen/testdata/golden/other_package/shared"
	"github.com/mcpgen/mcpgen/testdata/golden/outputs"
	"github.com/mcpgen/mcpgen/testdata/golden/pointers_nullable"
	"github.com/mcpgen/mcpgen/testdata/golden/recursive"
	"github.com/mcpgen/mcpgen/testdata/golden/scalars"
	"github.com/mcpgen/mcpgen/testdata/golden/scopes"
	"github.com/mcpgen/mcpgen/testdata/golden/shapes_methods"
	"github.com/mcpgen/mcpgen/testdata/golden/shapes_plain"
	"github.com/mcpgen/mcpgen/testdata/golden/shapes_pointer_input"
	"github.com/mcpgen/mcpgen/testdata/golden/surface"
	"github.com/mcpgen/mcpgen/testdata/golden/tags"
	"github.com/mcpgen/mcpgen/testdata/golden/tasks"
	"github.com/mcpgen/mcpgen/testdata/golden/unexported_fields"
	"github.com/mcpgen/mcpgen/testdata/golden/warnings"
)

// The differential test: for every golden schema, the schema mcpgen
// derived statically from go/types must be what invopop/jsonschema's
// Reflector produces at run time for the same Go type (expanded at the
// root, comments loaded with AddGoComments), except for the differences
// below. The general ones are checked where they occur (the Go type at
// that point must justify them); the rest are listed per schema, by JSON
// path.
//
// General differences, where mcpgen knows more or follows encoding/json:
//   - const-enum: a named string or integer type gets the values of its
//     constants as its enum; reflection cannot see constants.
//   - type-doc: a field without a comment of its own is described by the
//     doc comment of its named type; invopop only describes structs.
//   - int-bounds: sized integer types carry their range.
//   - pointer-optional: a pointer field is optional; invopop requires every
//     field without omitempty.
//   - nil-is-null: in an output schema (what encoding/json writes), a
//     pointer or a []byte that may be nil also allows null.
//   - json-number: json.Number is a number on the wire; invopop sees a
//     string type.
//   - recursive-root: invopop leaves a $ref to a recursive root type
//     dangling (it deletes the root's $defs entry); mcpgen keeps the entry.
//     $refs are resolved on both sides before comparing, so this and the
//     naming of $defs (invopop: Page[pkg/path.Item]; mcpgen: Page_Item) do
//     not show.
//   - named-containers: invopop puts named slices and maps in $defs;
//     mcpgen inlines them (also resolved away).
//   - reflow: a description keeps the paragraphs of its doc comment, each
//     on one line; invopop keeps the comment's line breaks.
//   - duration-unit: a time.Duration says that it counts nanoseconds.
//   - int-enum-titles: the constants of an integer type are listed as
//     {"const": …, "title": name} alternatives (const-enum, with names).
//   - own-json: a type that reads (or, in an output, writes) its own JSON
//     with a method mcpgen cannot see into admits any value; invopop
//     describes its fields.
type oracleCase struct {
	schema string       // file under testdata/golden
	typ    reflect.Type // the Go type the schema describes
	value  bool         // an output that is not an object: no "$schema", which the runtime would nest for older clients
	allow  map[string]string
}

// defaultsAllowed are the differences of the defaults case.
var defaultsAllowed = map[string]string{
	"properties.timeout.maximum":                 "a time.Duration's keywords may be written as Go durations (1m); invopop drops what is not a number",
	"properties.timeout.default":                 "the same: default=30s is 30000000000 nanoseconds",
	"properties.filter.properties.sizes.default": "an array's default is a list of its items' type; invopop keeps each as a string",
}

// instanceDoc explains the description of an instance of a generic type.
const instanceDoc = "invopop looks up the comment of an instance of a generic type under its instantiated name (Box[int]) and finds none"

var oracleCases = []oracleCase{
	{schema: "greet/greetInputSchema.json", typ: reflect.TypeFor[greet.GreetInput]()},
	{schema: "forms/signupInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "forms/replyOutputSchema.json", typ: reflect.TypeFor[forms.Reply](), allow: map[string]string{
		"$schema": "//mcp:output leaves it out: the Claude Code CLI checks the schema with a draft-07 validator, which refuses the 2020-12 meta-schema",
	}},
	{schema: "forms/contactFormSchema.json", typ: reflect.TypeFor[forms.Contact](), allow: map[string]string{
		"$schema":              "an elicitation form is the restricted schema MCP defines, without a meta-schema",
		"additionalProperties": "an elicitation form is the restricted schema MCP defines, which has no additionalProperties",
	}},
	{schema: "install/forecastInputSchema.json", typ: reflect.TypeFor[install.ForecastInput]()},
	{schema: "install/configConfigSchema.json", typ: reflect.TypeFor[install.Config](), allow: map[string]string{
		"$schema":                    "a configuration's schema is checked by the runtime alone, and never sent",
		"properties.timeout.minimum": "a time.Duration's keywords may be written as Go durations (1s); invopop drops what is not a number",
		"properties.timeout.default": "the same: default=30s is 30000000000 nanoseconds",
	}},
	{schema: "import_clash/waitInputSchema.json", typ: reflect.TypeFor[import_clash.Input]()},
	{schema: "names_taken/waitInputSchema.json", typ: reflect.TypeFor[names_taken.Input]()},
	{schema: "names_taken/waitOutputSchema.json", typ: reflect.TypeFor[names_taken.Output]()},
	{schema: "tickets/createTicketInputSchema.json", typ: reflect.TypeFor[tickets.CreateTicketInput]()},
	{schema: "shapes_plain/withCtxInputSchema.json", typ: reflect.TypeFor[shapes_plain.Input]()},
	{schema: "shapes_plain/noCtxInputSchema.json", typ: reflect.TypeFor[shapes_plain.Input]()},
	{schema: "shapes_plain/errorOnlyInputSchema.json", typ: reflect.TypeFor[shapes_plain.Input]()},
	{schema: "shapes_plain/ctxOnlyInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "shapes_plain/nothingInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "shapes_plain/bareErrorInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "shapes_pointer_input/searchInputSchema.json", typ: reflect.TypeFor[shapes_pointer_input.Options]()},
	{schema: "shapes_methods/getInputSchema.json", typ: reflect.TypeFor[shapes_methods.GetInput]()},
	{schema: "shapes_methods/countInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "shapes_methods/countOutputSchema.json", typ: reflect.TypeFor[int](), value: true},
	{schema: "shapes_methods/nowInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "shapes_methods/versionInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/textInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/namedTextInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/structInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/structOutputSchema.json", typ: reflect.TypeFor[outputs.Report]()},
	{schema: "outputs/structPointerInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/structPointerOutputSchema.json", typ: reflect.TypeFor[*outputs.Report]()},
	{schema: "outputs/mapInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/mapOutputSchema.json", typ: reflect.TypeFor[map[string]int]()},
	{schema: "outputs/sliceInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/sliceOutputSchema.json", typ: reflect.TypeFor[[]outputs.Report](), value: true},
	{schema: "outputs/numberInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/numberOutputSchema.json", typ: reflect.TypeFor[float64](), value: true},
	{schema: "outputs/nilsInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/nilsOutputSchema.json", typ: reflect.TypeFor[outputs.Optional]()},
	{schema: "outputs/nilNumberInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/nilNumberOutputSchema.json", typ: reflect.TypeFor[*int](), value: true},
	{schema: "outputs/fullInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "outputs/fullValueInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "scopes/deleteNoteInputSchema.json", typ: reflect.TypeFor[scopes.NoteInput]()},
	{schema: "scopes/findNotesInputSchema.json", typ: reflect.TypeFor[scopes.NoteInput]()},
	{schema: "tasks/exportInputSchema.json", typ: reflect.TypeFor[tasks.ExportInput]()},
	{schema: "tasks/quickInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "tasks/reportInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "scalars/scalarsInputSchema.json", typ: reflect.TypeFor[scalars.Input](), allow: map[string]string{
		"properties.ip.format": "net.IP reads IPv6 addresses too; invopop's format ipv4 would have them refused",
	}},
	{schema: "pointers_nullable/pointersInputSchema.json", typ: reflect.TypeFor[pointers_nullable.Input]()},
	{schema: "collections/collectInputSchema.json", typ: reflect.TypeFor[collections.Input]()},
	{schema: "nested_defs/saveInputSchema.json", typ: reflect.TypeFor[nested_defs.Input]()},
	{schema: "nested_defs/saveOutputSchema.json", typ: reflect.TypeFor[nested_defs.Person]()},
	{schema: "inline/saveInputSchema.json", typ: reflect.TypeFor[inline.Input]()},
	{schema: "recursive/walkInputSchema.json", typ: reflect.TypeFor[recursive.Tree]()},
	{schema: "recursive/listInputSchema.json", typ: reflect.TypeFor[recursive.Folder]()},
	{schema: "recursive/forestInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "recursive/forestOutputSchema.json", typ: reflect.TypeFor[[]recursive.Tree](), value: true},
	{schema: "embedded/reportInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "embedded/reportOutputSchema.json", typ: reflect.TypeFor[embedded.Result](), allow: map[string]string{
		"required": "a field promoted through an embedded pointer is not required in an output: json.Marshal writes none of them when the pointer is nil; invopop requires tie",
	}},
	{schema: "embedded/embedPointerInputSchema.json", typ: reflect.TypeFor[embedded.Input](), allow: map[string]string{
		"properties.tie":                 "encoding/json ignores two embedded fields of the same name at the same depth; invopop keeps the last",
		"properties.visible.description": "invopop's AddGoComments skips the fields of unexported types",
	}},
	{schema: "embedded/embedInputSchema.json", typ: reflect.TypeFor[embedded.Input](), allow: map[string]string{
		"properties.tie":                 "encoding/json ignores two embedded fields of the same name at the same depth; invopop keeps the last",
		"properties.visible.description": "invopop's AddGoComments skips the fields of unexported types",
	}},
	{schema: "json_tags/tagsInputSchema.json", typ: reflect.TypeFor[json_tags.Input](), allow: map[string]string{
		"properties.-":              `json:"-," names a field "-" in encoding/json; invopop drops the field`,
		"properties.BadName":        "encoding/json ignores an invalid tag name and uses the Go name; invopop uses the tag as written",
		`properties.bad"name`:       "the other side of the same difference",
		"properties.quoted.pattern": `json:",string": the string holds a decimal integer, as encoding/json reads it; invopop admits any string`,
		"properties.quotedB.enum":   `json:",string": the string holds true or false`,
	}},
	{schema: "docs/documentInputSchema.json", typ: reflect.TypeFor[docs.Input]()},
	{schema: "enums/paintInputSchema.json", typ: reflect.TypeFor[enums.Input]()},
	{schema: "tags/taggedInputSchema.json", typ: reflect.TypeFor[tags.Input]()},
	{schema: "directive_options/readFileInputSchema.json", typ: reflect.TypeFor[directive_options.Input]()},
	{schema: "directive_options/removeFileInputSchema.json", typ: reflect.TypeFor[directive_options.Input]()},
	{schema: "directive_options/slowInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "other_package/assignInputSchema.json", typ: reflect.TypeFor[other_package.Input]()},
	{schema: "other_package/assignOutputSchema.json", typ: reflect.TypeFor[shared.Owner]()},
	{schema: "backtick_doc/runInputSchema.json", typ: reflect.TypeFor[backtick_doc.Input]()},
	{schema: "adapters/assignInputSchema.json", typ: reflect.TypeFor[adaptershared.Task]()},
	{schema: "adapters/moveInputSchema.json", typ: reflect.TypeFor[othershared.Move]()},
	{schema: "adapters/statsInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "adapters/statsOutputSchema.json", typ: statsOutput, allow: map[string]string{
		"properties.count.description": "invopop's AddGoComments keys comments by type name; an anonymous struct has none",
	}},
	{schema: "generics/browseInputSchema.json", typ: reflect.TypeFor[generics.Input](), allow: map[string]string{
		"properties.page.description": "invopop looks up the comment of Page[pkg.Item] under that name and finds none",
	}},
	{schema: "generics/browseOutputSchema.json", typ: reflect.TypeFor[generics.Page[generics.Item]](), allow: map[string]string{
		"description": "invopop looks up the comment of Page[pkg.Item] under that name and finds none",
	}},
	{schema: "generics/countInputSchema.json", typ: reflect.TypeFor[generics.Counted](), allow: map[string]string{
		"properties.count.description": instanceDoc, "properties.label.description": instanceDoc,
	}},
	{schema: "generics/countOutputSchema.json", typ: reflect.TypeFor[generics.Counted](), allow: map[string]string{
		"properties.count.description": instanceDoc, "properties.label.description": instanceDoc,
	}},
	{schema: "generics/labelInputSchema.json", typ: reflect.TypeFor[generics.Tagged](), allow: map[string]string{
		"properties.box.description": instanceDoc,
	}},
	{schema: "generics/waitInputSchema.json", typ: reflect.TypeFor[generics.Delays](), allow: map[string]string{
		"properties.delays.description": instanceDoc,
	}},
	{schema: "import_clash/scheduleInputSchema.json", typ: reflect.TypeFor[import_clash.LaterInput](), allow: map[string]string{
		"properties.when.description": instanceDoc,
	}},
	{schema: "client_tools/echoInputSchema.json", typ: reflect.TypeFor[client_tools.EchoInput]()},
	{schema: "client_tools/countInputSchema.json", typ: reflect.TypeFor[client_tools.CountInput]()},
	{schema: "client_tools/waitInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "decoders/keepInputSchema.json", typ: reflect.TypeFor[decoders.Input](), allow: map[string]string{
		"properties.page.description": "invopop looks up the comment of Page[pkg.Inner] under that name and finds none",
	}},
	{schema: "warnings/undocumentedInputSchema.json", typ: reflect.TypeFor[warnings.Input]()},
	{schema: "directive_mistakes/destructveInputSchema.json", typ: reflect.TypeFor[directive_mistakes.In]()},
	{schema: "directive_mistakes/redOnlyInputSchema.json", typ: reflect.TypeFor[directive_mistakes.In]()},
	{schema: "directive_mistakes/timeoutInputSchema.json", typ: reflect.TypeFor[directive_mistakes.In]()},
	{schema: "directive_mistakes/fetchURLInputSchema.json", typ: reflect.TypeFor[directive_mistakes.In]()},
	{schema: "directive_mistakes/idempotntInputSchema.json", typ: reflect.TypeFor[directive_mistakes.In]()},
	{schema: "directive_mistakes/getItemInputSchema.json", typ: reflect.TypeFor[directive_mistakes.In]()},
	{schema: "naming/recentUrlsInputSchema.json", typ: reflect.TypeFor[naming.In]()},
	{schema: "naming/listIdsInputSchema.json", typ: reflect.TypeFor[naming.In]()},
	{schema: "naming/myApisInputSchema.json", typ: reflect.TypeFor[naming.In]()},
	{schema: "naming/oauthLoginInputSchema.json", typ: reflect.TypeFor[naming.In]()},
	{schema: "naming/ipv6LookupInputSchema.json", typ: reflect.TypeFor[naming.In]()},
	{schema: "naming/htmlToPdfsInputSchema.json", typ: reflect.TypeFor[naming.In]()},
	{schema: "unexported_fields/searchInputSchema.json", typ: reflect.TypeFor[unexported_fields.Query]()},
	{schema: "unexported_fields/searchOutputSchema.json", typ: reflect.TypeFor[unexported_fields.Answer]()},
	{schema: "unexported_fields/pingInputSchema.json", typ: reflect.TypeFor[unexported_fields.Hidden]()},
	{schema: "unexported_fields/locateInputSchema.json", typ: reflect.TypeFor[unexported_fields.Zone]()},
	{schema: "warnings/longInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "apps/moveTicketInputSchema.json", typ: reflect.TypeFor[apps.MoveInput]()},
	{schema: "apps/pingInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "apps/showBoardInputSchema.json", typ: reflect.TypeFor[apps.ShowInput]()},
	{schema: "apps/showBoardOutputSchema.json", typ: reflect.TypeFor[apps.Board]()},
	{schema: "apps/showStatsInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "surface/openTicketInputSchema.json", typ: reflect.TypeFor[surface.OpenInput]()},
	{schema: "surface/openTicketOutputSchema.json", typ: reflect.TypeFor[*surface.Ticket]()},
	{schema: "surface/pingInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "surface/searchInputSchema.json", typ: reflect.TypeFor[surface.SearchInput]()},
	{schema: "surface/searchOutputSchema.json", typ: reflect.TypeFor[[]surface.Ticket](), value: true},
	{schema: "defaults/searchInputSchema.json", typ: reflect.TypeFor[defaults.Input](), allow: defaultsAllowed},
	{schema: "defaults/searchOutputSchema.json", typ: reflect.TypeFor[defaults.Input](), allow: defaultsAllowed},
	{schema: "enum_rules/stockInputSchema.json", typ: reflect.TypeFor[enum_rules.Input]()},
	{schema: "json_methods/currentInputSchema.json", typ: reflect.TypeFor[struct{}]()},
	{schema: "json_methods/currentOutputSchema.json", typ: reflect.TypeFor[json_methods.Code](), value: true},
	{schema: "json_methods/inspectInputSchema.json", typ: reflect.TypeFor[json_methods.Input]()},
	{schema: "json_methods/inspectOutputSchema.json", typ: reflect.TypeFor[json_methods.Output](), allow: map[string]string{
		"properties.tags.items": "a slice's elements are addressable: encoding/json writes them with *Tag's MarshalText",
	}},
	{schema: "json_methods/inspectPointerInputSchema.json", typ: reflect.TypeFor[json_methods.Input]()},
	{schema: "json_methods/inspectPointerOutputSchema.json", typ: reflect.TypeFor[json_methods.Output](), allow: map[string]string{
		"properties.tags.items":               "a slice's elements are addressable: encoding/json writes them with *Tag's MarshalText",
		"properties.tag.type":                 "the result is returned through a pointer, so its fields are addressable: *Tag's MarshalText writes the tag as a string",
		"properties.tag.properties.Name":      "the same",
		"properties.tag.additionalProperties": "the same",
	}},
	{schema: "json_methods/keepInputSchema.json", typ: reflect.TypeFor[json_methods.Raw]()},
	{schema: "map_keys/indexInputSchema.json", typ: reflect.TypeFor[map_keys.Input](), allow: map[string]string{
		"properties.byID.propertyNames":        "integer keys: mcpgen's propertyNames reads them as strconv.ParseInt does (a sign, leading zeros); invopop's patternProperties ^[0-9]+$ refuses negative keys",
		"properties.byID.patternProperties":    "the same",
		"properties.byID.additionalProperties": "the same: mcpgen's values are additionalProperties under the names propertyNames admits",
		"properties.byCount.propertyNames":     "integer keys: the names strconv.ParseUint reads; invopop says nothing of them",
		"properties.byColor.propertyNames":     "keys of an enum type: its constants (const-enum)",
	}},
	{schema: "map_keys/indexOutputSchema.json", typ: reflect.TypeFor[map_keys.Output](), allow: map[string]string{
		"properties.byID.propertyNames":        "integer keys: the names strconv.FormatInt writes; invopop's pattern refuses negative keys",
		"properties.byID.patternProperties":    "the same",
		"properties.byID.additionalProperties": "the same",
		"properties.byCount.propertyNames":     "integer keys: the names strconv.FormatUint writes",
	}},
	{schema: "warnings/aVeryLongToolNameThatMakesTheQualifiedNameTooLongInputSchema.json", typ: reflect.TypeFor[struct{}]()},
}

// wantFile is the file of a golden schema named case/file: in the case's
// want/ directory, under testdata/golden or, for the cases that are
// examples, under examples.
func wantFile(name string) string {
	c, file, _ := strings.Cut(name, "/")
	dir := filepath.Join(testmodule.Root(), "testdata", "golden", c)
	if slices.Contains(exampleCases, c) {
		dir = filepath.Join(testmodule.Root(), "examples", c)
	}
	return filepath.Join(dir, "want", file)
}

// exampleCases are the golden cases that are examples (see gen's golden
// test).
var exampleCases = []string{"greet", "tickets"}

func TestSchemasMatchReflector(t *testing.T) {
	r := &jsonschema.Reflector{ExpandedStruct: true, Anonymous: true}
	for _, dir := range []string{"testdata/golden", "examples"} {
		if err := r.AddGoComments("github.com/mcpgen/mcpgen/gen/internal/oracle", "../../../"+dir, jsonschema.WithFullComment()); err != nil {
			t.Fatal(err)
		}
	}

	covered := map[string]bool{}
	for _, c := range oracleCases {
		covered[c.schema] = true
		t.Run(c.schema, func(t *testing.T) {
			data, err := os.ReadFile(wantFile(c.schema))
			if err != nil {
				t.Fatal(err)
			}
			typ := c.typ
			reflected, err := json.Marshal(r.ReflectFromType(typ))
			if err != nil {
				t.Fatal(err)
			}
			if c.value {
				reflected = withoutSchemaKeyword(t, reflected)
			}
			o := &oracle{comments: r.CommentMap, allow: c.allow, used: map[string]bool{}, encoded: strings.HasSuffix(c.schema, "OutputSchema.json")}
			o.compare("", resolve(decode(t, data)), resolve(decode(t, reflected)), typ)
			for _, d := range o.diffs {
				t.Error(d)
			}
			for path := range c.allow {
				if !o.used[path] {
					t.Errorf("%s: listed as an allowed difference, but the schemas agree there: remove it from the list", path)
				}
			}
		})
	}

	// Every golden schema must be in the table (a skill's frontmatter,
	// want/…Frontmatter.json, is not a schema).
	files, _ := filepath.Glob(filepath.Join(testmodule.Root(), "testdata", "golden", "*", "want", "*Schema.json"))
	more, _ := filepath.Glob(filepath.Join(testmodule.Root(), "examples", "*", "want", "*Schema.json"))
	for _, f := range append(files, more...) {
		name := filepath.Base(filepath.Dir(filepath.Dir(f))) + "/" + filepath.Base(f)
		if !covered[name] {
			t.Errorf("%s is not compared with the Reflector: add it to oracleCases", name)
		}
	}
}

// withoutSchemaKeyword removes "$schema" from the root of a schema.
func withoutSchemaKeyword(t *testing.T, data []byte) []byte {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "$schema")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func decode(t *testing.T, data []byte) any {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// resolve replaces every $ref with the schema it names, and a reference
// to a schema already being expanded (recursion) with a marker, so that
// two schemas compare equal whatever their $defs are called or hold.
func resolve(v any) any {
	root, _ := v.(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	// A definition identical to the root stands for the root, and an
	// inlined copy of a definition for that definition.
	rootKey := canonicalJSON(withoutKeys(root, "$schema", "$defs"))
	defOf := map[string]string{}
	for name, def := range defs {
		defOf[canonicalJSON(withoutKeys(def.(map[string]any), "description"))] = name
	}
	var expand func(v any, stack []string) any
	expand = func(v any, stack []string) any {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				name := strings.TrimPrefix(ref, "#/$defs/")
				def, ok := defs[name]
				target := name
				if !ok || canonicalJSON(def) == rootKey {
					target, def = "#", withoutKeys(root, "$schema", "$defs") // invopop's dangling root reference
				}
				if slices.Contains(stack, target) {
					return map[string]any{"$recursive": true}
				}
				merged := map[string]any{}
				for k, x := range def.(map[string]any) {
					merged[k] = x
				}
				for k, x := range v {
					if k != "$ref" {
						merged[k] = x
					}
				}
				return expand(merged, append(stack, target))
			}
			if name, ok := defOf[canonicalJSON(withoutKeys(v, "description"))]; ok {
				stack = append(stack, name)
			}
			out := map[string]any{}
			for k, x := range v {
				if k != "$defs" {
					out[k] = expand(x, stack)
				}
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				out[i] = expand(x, stack)
			}
			return out
		}
		return v
	}
	return expand(v, []string{"#"})
}

func withoutKeys(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if !slices.Contains(keys, k) {
			out[k] = v
		}
	}
	return out
}

func canonicalJSON(v any) string {
	b, _ := json.Marshal(v) // encoding/json sorts map keys
	return string(b)
}

type oracle struct {
	comments map[string]string
	allow    map[string]string
	used     map[string]bool
	diffs    []string
	encoded  bool // an output schema
}

func (o *oracle) errorf(path, format string, args ...any) {
	o.diffs = append(o.diffs, cmpOr(path, "(root)")+": "+fmt.Sprintf(format, args...))
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func (o *oracle) allowed(path string) bool {
	if _, ok := o.allow[path]; ok {
		o.used[path] = true
		return true
	}
	return false
}

// compare reports how static differs from reflected at path, where the Go
// type is t (nil when unknown).
func (o *oracle) compare(path string, static, reflected any, t reflect.Type) {
	sm, ok1 := static.(map[string]any)
	rm, ok2 := reflected.(map[string]any)
	if !ok1 || !ok2 {
		if canonicalJSON(static) != canonicalJSON(reflected) {
			o.errorf(path, "mcpgen %s, Reflector %s", canonicalJSON(static), canonicalJSON(reflected))
		}
		return
	}
	if alt, ok := orNull(sm); ok && o.encoded && rm["oneOf"] == nil && t != nil && (t.Kind() == reflect.Pointer || t == reflect.TypeFor[[]byte]()) {
		o.compare(path, alt, reflected, t) // nil-is-null
		return
	}
	elem := deref(t)
	switch ownMethods(t, o.encoded) {
	case "text":
		if sm["type"] != "string" {
			o.errorf(path, "a type read or written as text: mcpgen has %s, want a string", canonicalJSON(sm))
		}
		return // own-methods
	case "json":
		return // own-methods: the method decides, invopop cannot see it
	}
	keys := map[string]bool{}
	for k := range sm {
		keys[k] = true
	}
	for k := range rm {
		keys[k] = true
	}
	for k := range keys {
		sv, sok := sm[k]
		rv, rok := rm[k]
		at := join(path, k)
		if o.allowed(at) {
			continue
		}
		switch k {
		case "properties":
			o.properties(path, asMap(sv), asMap(rv), elem)
		case "required":
			o.required(path, asList(sv), asList(rv), elem)
		case "items":
			o.compare(at, sv, rv, elemOf(elem))
		case "additionalProperties":
			o.compare(at, sv, rv, elemOf(elem))
		case "oneOf":
			if !rok && isEnumType(elem) && titledConsts(asList(sv)) {
				continue // int-enum-titles
			}
			sl, rl := asList(sv), asList(rv)
			if len(sl) != len(rl) {
				o.errorf(at, "mcpgen has %d alternatives, Reflector %d", len(sl), len(rl))
				continue
			}
			for i := range sl {
				o.compare(fmt.Sprintf("%s[%d]", at, i), sl[i], rl[i], t)
			}
		case "enum":
			if sok && !rok && isEnumType(elem) {
				continue // const-enum
			}
			o.equal(at, sv, rv)
		case "description":
			if r, ok := rv.(string); ok {
				rv = reflowed(r) // reflow
			}
			if s, ok := sv.(string); ok && elem == reflect.TypeFor[time.Duration]() {
				// duration-unit: the field's own words, then the unit.
				own := strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(s, durationDoc)), ".")
				if r, _ := rv.(string); own == strings.TrimSuffix(r, ".") {
					continue
				}
			}
			if sok && (!rok || sv != rv) && elem != nil && elem.PkgPath() != "" && sv == reflowed(o.comments[elem.PkgPath()+"."+elem.Name()]) {
				continue // type-doc
			}
			if !sok && !rok {
				continue
			}
			o.equal(at, sv, rv)
		case "minimum", "maximum":
			if sok && !rok && isSizedInt(elem) {
				continue // int-bounds
			}
			o.equal(at, sv, rv)
		case "type":
			if sv == "number" && rv == "string" && elem == reflect.TypeFor[json.Number]() {
				continue // json-number
			}
			o.equal(at, sv, rv)
		default:
			o.equal(at, sv, rv)
		}
	}
}

// orNull returns x when s is {"oneOf": [x, {"type": "null"}]}.
func orNull(s map[string]any) (any, bool) {
	alts := asList(s["oneOf"])
	if len(s) != 1 || len(alts) != 2 || canonicalJSON(alts[1]) != `{"type":"null"}` {
		return nil, false
	}
	return alts[0], true
}

func (o *oracle) equal(path string, a, b any) {
	if canonicalJSON(a) != canonicalJSON(b) {
		o.errorf(path, "mcpgen %s, Reflector %s", canonicalJSON(a), canonicalJSON(b))
	}
}

func (o *oracle) properties(path string, static, reflected map[string]any, t reflect.Type) {
	for name, sv := range static {
		at := join(join(path, "properties"), name)
		rv, ok := reflected[name]
		if !ok {
			if !o.allowed(at) {
				o.errorf(at, "only mcpgen has this property")
			}
			continue
		}
		o.compare(at, sv, rv, fieldType(t, name))
	}
	for name := range reflected {
		at := join(join(path, "properties"), name)
		if _, ok := static[name]; !ok && !o.allowed(at) {
			o.errorf(at, "only the Reflector has this property")
		}
	}
}

func (o *oracle) required(path string, static, reflected []any, t reflect.Type) {
	at := join(path, "required")
	for _, name := range reflected {
		if slices.Contains(static, name) {
			continue
		}
		n := name.(string)
		ft := fieldType(t, n)
		if ft != nil && ft.Kind() == reflect.Pointer {
			continue // pointer-optional
		}
		if _, listed := o.allow[join(join(path, "properties"), n)]; listed {
			continue
		}
		o.errorf(at, "the Reflector requires %q, mcpgen does not", n)
	}
	for _, name := range static {
		if !slices.Contains(reflected, name) {
			if _, listed := o.allow[join(join(path, "properties"), name.(string))]; !listed {
				o.errorf(at, "mcpgen requires %q, the Reflector does not", name)
			}
		}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
func asList(v any) []any         { l, _ := v.([]any); return l }

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func elemOf(t reflect.Type) reflect.Type {
	if t == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return t.Elem()
	}
	return nil
}

// fieldType finds the type of the field that encoding/json decodes the
// JSON name into: the shallowest visible field of that name.
func fieldType(t reflect.Type, name string) reflect.Type {
	t = deref(t)
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var best *reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		n := f.Name
		if tag != "" && tag != "-" {
			n = tag
		}
		if n == name && (best == nil || len(f.Index) < len(best.Index)) {
			best = &f
		}
	}
	if best == nil {
		return nil
	}
	return best.Type
}

func isEnumType(t reflect.Type) bool {
	if t == nil || t.PkgPath() == "" {
		return false
	}
	switch t.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

func isSizedInt(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// durationDoc is the sentence that describes a time.Duration.
const durationDoc = "A duration in nanoseconds (1000000000 is one second)."

// reflowed joins the lines of each paragraph of a comment, as mcpgen's
// descriptions do.
func reflowed(s string) string {
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}

// titledConsts reports whether alts are {"const": …, "title": …} schemas.
func titledConsts(alts []any) bool {
	for _, a := range alts {
		m := asMap(a)
		if _, ok := m["const"]; !ok || m["title"] == nil {
			return false
		}
	}
	return len(alts) > 0
}

// ownMethods says whether encoding/json reads t (or, encoded, writes it)
// with a method of its own, which invopop knows nothing of: "json" for
// UnmarshalJSON (MarshalJSON), "text" for UnmarshalText (MarshalText),
// "" for none. The types invopop knows (time.Time, json.RawMessage) and
// net.IP, which invopop describes as a string too, are left to the
// comparison.
//
// A value written through a pointer (Marshal(&v), a slice's element) is
// addressable, and written with the methods of its pointer type too: the
// oracle does not follow addressability, and considers the value's
// methods only; a case lists where it matters.
func ownMethods(t reflect.Type, encoded bool) string {
	t = deref(t)
	if t == nil || t == reflect.TypeFor[json.RawMessage]() || t == reflect.TypeFor[time.Time]() || t == reflect.TypeFor[net.IP]() {
		return ""
	}
	has := func(iface reflect.Type) bool {
		if encoded {
			return t.Implements(iface)
		}
		return reflect.PointerTo(t).Implements(iface)
	}
	own, text := reflect.TypeFor[json.Unmarshaler](), reflect.TypeFor[encoding.TextUnmarshaler]()
	if encoded {
		own, text = reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()
	}
	switch {
	case has(own):
		return "json"
	case has(text):
		return "text"
	}
	return ""
}

// statsOutput is the anonymous struct adapters.Stats returns.
var statsOutput = reflect.TypeOf(func() any { v, _ := adapters.Stats(); return v }())
