package gen

import (
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/invopop/jsonschema"
)

// directiveConfig marks the struct type that holds a server's
// configuration: //mcp:config. Its fields become the MCP bundle's
// user_config and the Registry's environment variables (install.go), and
// the generated LoadEnv method reads them from the environment and checks
// them against the struct's schema, as the runtime checks a tool's
// arguments.
const directiveConfig = "config"

// A configField is one field of a //mcp:config struct: a value the user
// gives when installing the server, which reaches it in an environment
// variable.
type configField struct {
	name        string   // the JSON name, the user_config key
	goName      string   // the Go field's name
	choices     []string // the values of an enum of strings
	env         string   // the environment variable
	kind        string   // user_config type: string, number, boolean, directory or file
	title       string
	description string
	required    bool
	sensitive   bool
	def         any // the default, as the schema has it; nil for none
	min, max    json.Number
	pos         token.Pos
	// duration says that the field is a time.Duration: its variable holds
	// a Go duration (30s, 1h30m), which LoadEnv reads into nanoseconds.
	duration bool
}

// envName is the pattern of an environment variable's name that every
// shell, and Windows, accepts.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// buildConfig derives the schema of a //mcp:config struct, a flat object
// of strings, numbers and booleans, and its fields' install settings; it
// reports each field that an environment variable cannot carry, and a
// second configuration in the package.
func (m *model) buildConfig(td *typeDirective) {
	p, server := m.pass, m.serverName()
	if first := m.config(); first != td {
		at := p.fset.Position(first.pos)
		p.errorf(td.pos, "//mcp:config: a package has one configuration, and %s:%d marks %s already", filepath.Base(at.Filename), at.Line, first.named.Obj().Name())
		return
	}
	sb := newSchemaBuilder(p, true)
	s := sb.expandNamed(td.named, typePath(td.named), td.pos)
	st := td.named.Underlying().(*types.Struct)
	fields := sb.jsonFields(st, td.named, typePath(td.named), td.pos)
	name := td.named.Obj().Name()
	ok := true
	envs := map[string]string{}
	for _, f := range fields {
		prop, _ := s.Properties.Get(f.name)
		if prop == nil {
			continue // reported by the schema builder
		}
		cf, fieldOK := configFieldOf(p, name, st, f, prop, server)
		if !fieldOK {
			ok = false
			continue
		}
		if other, dup := envs[cf.env]; dup {
			p.errorf(cf.pos, "config %s: fields %q and %q both read the environment variable %s", name, other, f.name, cf.env)
			ok = false
			continue
		}
		envs[cf.env] = f.name
		td.config = append(td.config, cf)
	}
	if len(fields) == 0 && len(td.config) == 0 {
		p.errorf(td.pos, "//mcp:config: %s has no exported fields: a configuration is a struct of strings, numbers and booleans", name)
		ok = false
	}
	if !ok {
		td.config = nil
		return
	}
	td.schema = encodeSchema(&jsonschema.Schema{Type: "object", Title: s.Title, Description: s.Description, Properties: s.Properties, Required: s.Required, AdditionalProperties: jsonschema.FalseSchema})
}

// config returns the package's //mcp:config type, or nil.
func (m *model) config() *typeDirective {
	for _, td := range m.typeDirs {
		if td.kind == directiveConfig {
			return td
		}
	}
	return nil
}

// configFieldOf checks one field of a //mcp:config struct and returns its
// install settings.
func configFieldOf(p *pass, structName string, st *types.Struct, f jsonField, prop *jsonschema.Schema, server string) (*configField, bool) {
	pos := f.v.Pos()
	where := fmt.Sprintf("config %s: field %s", structName, f.v.Name())
	if f.v.Embedded() || len(f.index) > 1 {
		p.errorf(pos, "%s: a configuration's fields are its own: write the embedded struct's fields out", where)
		return nil, false
	}
	if b, ok := f.v.Type().(*types.Basic); ok && b.Kind() == types.Invalid {
		return nil, false // the package's type error says why
	}
	cf := &configField{
		name: f.name, goName: f.v.Name(), title: prop.Title, description: prop.Description, required: f.required(),
		def: prop.Default, min: prop.Minimum, max: prop.Maximum, pos: pos,
	}
	switch {
	case isDuration(f.v.Type()):
		// An environment variable is text: it holds a Go duration, which
		// the install files offer as a string, and LoadEnv converts to the
		// nanoseconds the schema checks.
		cf.kind, cf.duration, cf.min, cf.max = "string", true, "", ""
		cf.description = strings.TrimSpace(strings.TrimSuffix(prop.Description, durationDoc)) + " A duration, such as 30s or 1h30m."
		cf.description = strings.TrimSpace(cf.description)
		if n, ok := prop.Default.(json.Number); ok {
			if ns, err := n.Int64(); err == nil {
				cf.def = time.Duration(ns).String()
			}
		}
	case prop.Type == "string":
		cf.kind = "string"
		for _, e := range prop.Enum {
			if s, ok := e.(string); ok {
				cf.choices = append(cf.choices, s)
			}
		}
	case prop.Type == "integer" || prop.Type == "number":
		cf.kind = "number"
	case prop.Type == "boolean":
		cf.kind = "boolean"
	default:
		p.errorf(pos, "%s: type %s: an environment variable and an MCP bundle's user_config carry a string, a number or a boolean, not %s", where, typeString(f.v.Type(), p.pkg), schemaKind(prop))
		return nil, false
	}
	if _, ptr := types.Unalias(f.v.Type()).(*types.Pointer); ptr {
		p.errorf(pos, "%s: type %s: a configuration value is set or not; write %s with omitempty", where, typeString(f.v.Type(), p.pkg), typeString(types.Unalias(f.v.Type()).(*types.Pointer).Elem(), p.pkg))
		return nil, false
	}
	tag, _ := reflect.StructTag(st.Tag(f.index[0])).Lookup("mcp")
	ok := true
	for word := range strings.SplitSeq(tag, ",") {
		key, value, hasValue := strings.Cut(strings.TrimSpace(word), "=")
		switch {
		case key == "" && !hasValue:
		case key == "secret" && !hasValue:
			cf.sensitive = true
		case (key == "directory" || key == "file") && !hasValue:
			if cf.kind != "string" {
				p.errorf(pos, "%s: mcp:%q: a %s is a path, a string; the field is a %s", where, key, key, cf.kind)
				ok = false
			}
			cf.kind = key
		case key == "env" && hasValue:
			if !envName.MatchString(value) {
				p.errorf(pos, "%s: mcp:\"env=%s\": an environment variable's name is letters, digits and _, not starting with a digit", where, value)
				ok = false
			}
			cf.env = value
		default:
			p.errorf(pos, "%s: unknown word %q in the mcp tag (a configuration field knows secret, directory, file and env=NAME)", where, word)
			ok = false
		}
	}
	if cf.sensitive && cf.def != nil {
		p.errorf(pos, "%s: a secret has no default: a default would be written in the install files for everyone to read; leave it out, or drop mcp:\"secret\"", where)
		ok = false
	}
	if cf.sensitive && cf.kind != "string" {
		p.errorf(pos, "%s: mcp:\"secret\" hides a string as the user types it; the field is a %s", where, cf.kind)
		ok = false
	}
	if cf.description == "" {
		p.warnf(pos, "%s has no doc comment: the install files show it without help; say what the value is for", where)
	}
	if cf.env == "" {
		cf.env = defaultEnv(server, f.name)
	}
	if cf.title == "" {
		cf.title = fieldTitle(f.v.Name())
	}
	return cf, ok
}

// schemaKind names what a schema describes, for a diagnostic.
func schemaKind(s *jsonschema.Schema) string {
	switch {
	case s.Ref != "":
		return "a nested struct"
	case s.Type == "array":
		return "a list"
	case s.Type == "object":
		return "an object"
	case s.Type == "":
		return "a value of any type"
	}
	return "a " + s.Type
}

// defaultEnv is the environment variable that a config field is read from
// unless its mcp tag names one: the server's and the field's names in
// upper case, joined by _ (notes, dir → NOTES_DIR).
func defaultEnv(server, field string) string {
	upper := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case 'a' <= r && r <= 'z':
				return r - 'a' + 'A'
			case 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
				return r
			}
			return '_'
		}, snakeCase(s))
	}
	name := upper(server) + "_" + upper(field)
	if name[0] >= '0' && name[0] <= '9' {
		name = "_" + name
	}
	return name
}

// fieldTitle is the title a field gets without jsonschema:"title=…": its
// Go name's words, the first capitalised and initialisms kept upper-case
// (DataDir → Data dir, APIKey → API key).
func fieldTitle(goName string) string {
	ws := words(goName)
	for i, w := range ws {
		switch {
		case commonInitialisms[strings.ToUpper(w)]:
			ws[i] = strings.ToUpper(w)
		case i == 0:
			ws[i] = strings.ToUpper(w[:1]) + strings.ToLower(w[1:])
		default:
			ws[i] = strings.ToLower(w)
		}
	}
	return strings.Join(ws, " ")
}

// loadEnv writes the LoadEnv method of a //mcp:config type:
//
//	// LoadEnv sets c from the environment variables that the install
//	// files pass the configuration in, NOTES_DIR, read with getenv
//	// (os.Getenv), and checks it against its schema: a required variable
//	// that is not set, or a value that does not fit, is an error that
//	// names the variable. A variable that is not set leaves its field
//	// alone, or sets its default.
//	func (c *Config) LoadEnv(getenv func(string) string) error {
//		return mcpimpl.LoadEnv(getenv, configConfigSchema, c, decodeConfig,
//			mcpimpl.ConfigVar{Name: "dir", Env: "NOTES_DIR", Kind: mcpimpl.ConfigString},
//		)
//	}
func (e *emitter) loadEnv(td *typeDirective) {
	f := e.f
	name := td.named.Obj().Name()
	recv := receiverName(name)
	var envs []string
	for _, fl := range td.config {
		envs = append(envs, fl.env)
	}
	vars := "the environment variable that the install files pass the configuration in, " + envs[0]
	if len(envs) > 1 {
		vars = "the environment variables that the install files pass the configuration in, " + strings.Join(envs[:len(envs)-1], ", ") + " and " + envs[len(envs)-1]
	}
	recvType := e.objCode(td.named.Obj())
	loadEnv := e.impl("LoadEnv")
	args := []jen.Code{jen.Id("getenv"), jen.Id(td.constName), jen.Id(recv), e.dec.ref(td.named)}
	for _, fl := range td.config {
		kind := "ConfigString"
		switch {
		case fl.duration:
			kind = "ConfigDuration"
		case fl.kind == "number":
			kind = "ConfigNumber"
		case fl.kind == "boolean":
			kind = "ConfigBool"
		}
		configVar := e.impl("ConfigVar")
		fields := []jen.Code{field("Name", jen.Lit(fl.name)), field("Env", jen.Lit(fl.env)), field("Kind", e.impl(kind))}
		if d := defaultText(fl.def); d != "" {
			fields = append(fields, field("Default", jen.Lit(d)))
		}
		if fl.sensitive {
			fields = append(fields, field("Secret", jen.True())) // never quoted in LoadEnv's errors
		}
		args = append(args, jen.Line().Add(configVar).Values(fields...)) // one variable a line
	}
	args = append(args, jen.Line())
	f.Line()
	comments(f.Group, wrap("LoadEnv sets "+recv+" from "+vars+", read with getenv (os.Getenv), and checks it against its schema: a required variable that is not set, or a value that does not fit, is an error that names the variable. A variable that is not set leaves its field alone, or sets its default.", 70)...)
	f.Func().Params(jen.Id(recv).Op("*").Add(recvType)).Id("LoadEnv").Params(jen.Id("getenv").Func().Params(jen.String()).String()).Error().Block(
		jen.Return(loadEnv.Call(args...)),
	)
}
