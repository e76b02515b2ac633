package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// Directives on type declarations: //mcp:form makes a struct type a form
// that runtime.ElicitForm asks the user to fill, and //mcp:output gives a
// type the JSON Schema that claude.Options.OutputType asks the model's
// answer to follow; //mcp:config (config.go) makes a struct the server's
// configuration. Each generates methods of the type, so they need no
// registration.
const (
	directiveForm   = "form"
	directiveOutput = "output"
)

// A typeDirective is one //mcp:form or //mcp:output type.
type typeDirective struct {
	kind      string // directiveForm, directiveOutput or directiveConfig
	named     *types.Named
	pos       token.Pos      // the directive
	schema    string         // indented JSON, once built
	constName string         // the schema's constant in the generated file
	config    []*configField // for //mcp:config, its fields (config.go)
}

// typeDirectives finds the //mcp:form and //mcp:output directives of a
// file's type declarations; attached records the comments it used.
func (p *pass) typeDirectives(f *ast.File, attached map[*ast.Comment]bool) []*typeDirective {
	var out []*typeDirective
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && !gd.Lparen.IsValid() {
				doc = gd.Doc
			}
			if doc == nil {
				continue
			}
			for _, c := range doc.List {
				d, ok := ast.ParseDirective(c.Slash, c.Text)
				if !ok || d.Tool != "mcp" || d.Name != directiveForm && d.Name != directiveOutput && d.Name != directiveConfig && d.Name != directiveSchema {
					continue
				}
				attached[c] = true
				if d.Name == directiveSchema {
					if tn, _ := p.info.Defs[ts.Name].(*types.TypeName); tn != nil {
						if named, _ := types.Unalias(tn.Type()).(*types.Named); named != nil {
							p.typeSchemaDirective(d, named)
						}
					}
					continue
				}
				if strings.TrimSpace(d.Args) != "" {
					p.errorf(d.ArgsPos, "//mcp:%s takes no arguments", d.Name)
					continue
				}
				tn, _ := p.info.Defs[ts.Name].(*types.TypeName)
				if tn == nil {
					continue // the package is too broken to type-check, and says so
				}
				named, _ := types.Unalias(tn.Type()).(*types.Named)
				switch {
				case named == nil || ts.TypeParams != nil:
					p.errorf(c.Slash, "//mcp:%s: %s must be a named, non-generic type", d.Name, ts.Name.Name)
				case d.Name == directiveForm && !isStruct(named):
					p.errorf(c.Slash, "//mcp:form: %s must be a struct type: a form is an object of fields", ts.Name.Name)
				case d.Name == directiveConfig && !isStruct(named):
					p.errorf(c.Slash, "//mcp:config: %s must be a struct type: a configuration is a set of named values", ts.Name.Name)
				case slices.ContainsFunc(out, func(td *typeDirective) bool { return td.named == named }):
					p.errorf(c.Slash, "%s has both //mcp:form and //mcp:output, or one twice: a type has one schema", ts.Name.Name)
				default:
					out = append(out, &typeDirective{kind: d.Name, named: named, pos: c.Slash})
				}
			}
		}
	}
	return out
}

// buildSchema derives td's schema: for an output, the JSON Schema of the
// type, as a tool's output; for a form, the subset of JSON Schema that
// elicitation allows, each field that falls outside it reported.
func (td *typeDirective) buildSchema(p *pass) {
	// Inline, and without "$schema": the Claude Code CLI checks an output
	// schema with a validator that knows draft-07 only, and elicitation
	// forms are flat.
	sb := newSchemaBuilder(p, true)
	if td.kind == directiveOutput {
		var s *jsonschema.Schema
		if isStruct(td.named) {
			s = sb.expandNamed(td.named, typePath(td.named), td.pos)
		} else {
			s = sb.schema(td.named, typePath(td.named), td.pos)
		}
		sb.addDefs(s)
		td.schema = encodeSchema(s)
		return
	}
	sb.form = true
	s := sb.expandNamed(td.named, typePath(td.named), td.pos)
	st := td.named.Underlying().(*types.Struct)
	fields := sb.jsonFields(st, td.named, typePath(td.named), td.pos)
	ok := true
	for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
		pos := td.pos
		for _, f := range fields {
			if f.name == pair.Key {
				pos = f.v.Pos()
			}
		}
		if why := formField(pair.Value); why != "" {
			p.errorf(pos, "form %s: field %q: %s; a form holds strings, numbers, integers, booleans, enums of strings and arrays of such enums, one level deep", td.named.Obj().Name(), pair.Key, why)
			ok = false
		}
	}
	if !ok {
		return
	}
	form := &jsonschema.Schema{Type: "object", Title: s.Title, Description: s.Description, Properties: s.Properties, Required: s.Required}
	td.schema = encodeSchema(form)
}

// formField returns why s is not a field elicitation can ask for, or "".
func formField(s *jsonschema.Schema) string {
	switch {
	case s.Ref != "":
		return "a nested type"
	case len(s.AnyOf) > 0 || len(s.AllOf) > 0 || s.Not != nil || s.If != nil:
		return "a combination of schemas"
	case len(s.OneOf) > 0 && !titledConsts(s.OneOf):
		return "a combination of schemas"
	}
	switch s.Type {
	case "string":
		if s.Format != "" && !slices.Contains([]string{"email", "uri", "date", "date-time"}, s.Format) {
			return "format " + s.Format + " (elicitation knows email, uri, date and date-time)"
		}
		if s.Pattern != "" {
			return "a pattern (elicitation has none)"
		}
		return ""
	case "number", "integer", "boolean":
		return ""
	case "array":
		if s.Items == nil || s.Items.Type != "string" || len(s.Items.Enum) == 0 && !titledConsts(s.Items.AnyOf) {
			return "an array of anything but an enum of strings"
		}
		return ""
	case "":
		if len(s.Enum) > 0 || len(s.OneOf) > 0 {
			return ""
		}
		return "a value of any type"
	}
	return "a value of type " + s.Type
}

// titledConsts reports whether ss are {"const": …, "title": …} options, the
// titled enum of elicitation.
func titledConsts(ss []*jsonschema.Schema) bool {
	for _, s := range ss {
		if s.Const == nil {
			return false
		}
	}
	return len(ss) > 0
}

// methods are the methods the directive generates.
func (td *typeDirective) methods() []string {
	switch td.kind {
	case directiveForm:
		return []string{"MCPSchema", "UnmarshalMCP"}
	case directiveConfig:
		return []string{"LoadEnv"}
	}
	return []string{"MCPSchema"}
}

// checkFormCalls reports each call of runtime.ElicitForm whose destination
// is not a pointer to a form, a type marked //mcp:form (or with the
// methods the directive generates): the call would fail at run time.
func (p *pass) checkFormCalls(typeDirs []*typeDirective) {
	for _, f := range p.files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 3 || !p.isRuntimeFunc(call.Fun, "ElicitForm") {
				return true
			}
			if t := p.info.TypeOf(call.Args[2]); t != nil {
				if why := p.notForm(t, typeDirs); why != "" {
					p.errorf(call.Args[2].Pos(), "runtime.ElicitForm: %s", why)
				}
			}
			return true
		})
	}
}

// isRuntimeFunc reports whether fun names the function of package runtime
// called name.
func (p *pass) isRuntimeFunc(fun ast.Expr, name string) bool {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	fn, ok := p.info.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == runtimePath && fn.Name() == name
}

// notForm says why a value of type t cannot receive a form's answer, or
// returns "" when it can (or when its static type does not tell).
func (p *pass) notForm(t types.Type, typeDirs []*typeDirective) string {
	if types.IsInterface(t) {
		return "" // known only at run time
	}
	isForm := func(n *types.Named) bool {
		if slices.ContainsFunc(typeDirs, func(td *typeDirective) bool { return td.kind == directiveForm && td.named == n }) {
			return true
		}
		for _, m := range []string{"MCPSchema", "UnmarshalMCP"} {
			obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), false, p.pkg, m)
			if obj == nil || p.inGenerated(obj.Pos()) {
				return false
			}
		}
		return true
	}
	ptr := false
	if pt, ok := types.Unalias(t).(*types.Pointer); ok {
		t, ptr = pt.Elem(), true
	}
	named, _ := types.Unalias(t).(*types.Named)
	switch {
	case named == nil:
		return fmt.Sprintf("%s is not a pointer to a form: pass &v, where the type of v is a struct marked //mcp:form", typeString(t, p.pkg))
	case !isForm(named):
		return fmt.Sprintf("%s is not a form: mark %s //mcp:form, and run go generate", typeString(named, p.pkg), typeString(named, p.pkg))
	case !ptr:
		return fmt.Sprintf("pass a pointer to the %s to fill, not a copy of it", typeString(named, p.pkg))
	}
	return ""
}
