package gen

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// directiveSchema states what mcpgen cannot derive from a type: its JSON
// Schema, for a type that reads or writes its own JSON, or which members
// of a struct may be left out, for a struct whose tags the user cannot
// change (one of another module). In the doc comment of a type of the
// package, it is about that type:
//
//	//mcp:schema {"type": "string", "format": "date-time"}
//	//mcp:schema optional
//	//mcp:schema optional=sort,order
//
// In a package doc comment, it names the type first, by its import path
// (or the name a file imports its package under) and name:
//
//	//mcp:schema k8s.io/apimachinery/pkg/api/resource.Quantity {"anyOf": [{"type": "string"}, {"type": "number"}]}
//	//mcp:schema github.SearchOptions optional
const directiveSchema = "schema"

// A statedSchema is what //mcp:schema says about one type.
type statedSchema struct {
	name     string             // the type as the directive names it
	pos      token.Pos          // the directive
	schema   *jsonschema.Schema // nil when the directive states optional members
	optional bool               // every member may be left out
	members  []string           // these members (JSON names) may be left out
	used     bool               // a schema applied it
}

// isOptional reports whether the directive makes member optional.
func (st *statedSchema) isOptional(member string) bool {
	return st != nil && (st.optional || slices.Contains(st.members, member))
}

// typeKey identifies a named type across instantiations: its package
// path and name.
func typeKey(n *types.Named) string {
	obj := n.Origin().Obj()
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// stated returns what //mcp:schema says about n, or nil.
func (p *pass) stated(n *types.Named) *statedSchema {
	if n == nil || p.statedSchemas == nil {
		return nil
	}
	return p.statedSchemas[typeKey(n)]
}

// stateHint says how to state the schema of n, for a diagnostic.
func (p *pass) stateHint(n *types.Named) string {
	if n.Obj().Pkg() == p.pkg {
		return fmt.Sprintf("//mcp:schema {…} in the doc comment of %s", n.Obj().Name())
	}
	return fmt.Sprintf("//mcp:schema %s {…} in the package doc comment", typeKey(n))
}

// typeSchemaDirective reads //mcp:schema in the doc comment of the type
// declaration of n.
func (p *pass) typeSchemaDirective(d ast.Directive, n *types.Named) {
	p.addStated(d, n, typeKey(n), n.Obj().Name(), d.Args, d.ArgsPos)
}

// packageSchemaDirective reads //mcp:schema in the package doc comment of
// f: its first argument names the type.
func (p *pass) packageSchemaDirective(d ast.Directive, f *ast.File) {
	args := strings.TrimSpace(d.Args)
	name, rest, _ := strings.Cut(args, " ")
	if name == "" || strings.HasPrefix(name, "{") || name == "optional" || strings.HasPrefix(name, "optional=") {
		p.errorf(d.ArgsPos, "//mcp:schema in a package doc comment names the type first: //mcp:schema pkg.Type {…}, or put it in the doc comment of a type of this package")
		return
	}
	restPos := d.ArgsPos + token.Pos(strings.Index(d.Args, name)+len(name))
	n, key, ok := p.resolveTypeName(f, name, d.ArgsPos)
	if !ok {
		return
	}
	p.addStated(d, n, key, name, rest, restPos)
}

// resolveTypeName finds the type that a directive names as Name (of this
// package), pkg.Name (pkg as a file imports it) or import/path.Name. A
// type of a package that is not among the loaded ones is taken on trust,
// by its key; n is then nil.
func (p *pass) resolveTypeName(f *ast.File, name string, pos token.Pos) (n *types.Named, key string, ok bool) {
	dot := strings.LastIndex(name, ".")
	if dot < 0 {
		obj, _ := p.pkg.Scope().Lookup(name).(*types.TypeName)
		if obj == nil {
			p.errorf(pos, "//mcp:schema: package %s declares no type %s", p.pkg.Name(), name)
			return nil, "", false
		}
		n, _ = types.Unalias(obj.Type()).(*types.Named)
		if n == nil {
			p.errorf(pos, "//mcp:schema: %s is not a named type", name)
			return nil, "", false
		}
		return n, typeKey(n), true
	}
	path, typeName := name[:dot], name[dot+1:]
	if !strings.Contains(path, "/") {
		for _, spec := range f.Imports {
			if pn := p.info.PkgNameOf(spec); pn != nil && pn.Name() == path {
				path = pn.Imported().Path()
				break
			}
		}
	}
	pkg := findPackage(p.pkg, path)
	if pkg == nil {
		return nil, path + "." + typeName, true
	}
	obj, _ := pkg.Scope().Lookup(typeName).(*types.TypeName)
	if obj == nil {
		p.errorf(pos, "//mcp:schema: package %s declares no type %s", path, typeName)
		return nil, "", false
	}
	if n, _ = types.Unalias(obj.Type()).(*types.Named); n == nil {
		p.errorf(pos, "//mcp:schema: %s is not a named type", name)
		return nil, "", false
	}
	return n, typeKey(n), true
}

// findPackage finds the package at path among those pkg imports,
// directly or not.
func findPackage(pkg *types.Package, path string) *types.Package {
	seen := map[*types.Package]bool{}
	var find func(p *types.Package) *types.Package
	find = func(p *types.Package) *types.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == path {
			return p
		}
		for _, imp := range p.Imports() {
			if found := find(imp); found != nil {
				return found
			}
		}
		return nil
	}
	return find(pkg)
}

// addStated records one //mcp:schema directive about the type key (n, if
// known), written name, whose statement is spec, at specPos.
func (p *pass) addStated(d ast.Directive, n *types.Named, key, name, spec string, specPos token.Pos) {
	if p.statedSchemas == nil {
		p.statedSchemas = map[string]*statedSchema{}
	}
	if prev := p.statedSchemas[key]; prev != nil {
		at := p.fset.Position(prev.pos)
		p.errorf(d.Slash, "//mcp:schema: %s:%d states %s already; a type has one statement", filepath.Base(at.Filename), at.Line, name)
		return
	}
	st := &statedSchema{name: name, pos: d.Slash}
	spec = strings.TrimSpace(spec)
	switch {
	case spec == "":
		p.errorf(d.Slash, "//mcp:schema %s: say what: a JSON Schema ({…}), optional, or optional=member,…", name)
		return
	case strings.HasPrefix(spec, "{") || spec == "true":
		s, err := parseStatedSchema(spec)
		if err != nil {
			p.errorf(specPos, "//mcp:schema %s: %v", name, err)
			return
		}
		st.schema = s
	case spec == "optional":
		st.optional = true
	case strings.HasPrefix(spec, "optional="):
		for m := range strings.SplitSeq(strings.TrimPrefix(spec, "optional="), ",") {
			if m = strings.TrimSpace(m); m != "" {
				st.members = append(st.members, m)
			}
		}
		if st.members == nil {
			p.errorf(specPos, "//mcp:schema %s: optional= lists the JSON names of members, separated by commas", name)
			return
		}
	default:
		p.errorf(specPos, "//mcp:schema %s: %q is neither a JSON Schema ({…}) nor optional or optional=member,…", name, spec)
		return
	}
	if n != nil && !isStruct(n) && st.schema == nil {
		p.errorf(specPos, "//mcp:schema %s: optional is about the members of a struct, and %s is not one", name, typeString(n, p.pkg))
		return
	}
	p.statedSchemas[key] = st
}

// parseStatedSchema reads a stated JSON Schema: one that the runtime's
// validator compiles, without references (there is nothing for them to
// refer to), and in keywords that mcpgen's schema model keeps.
func parseStatedSchema(text string) (*jsonschema.Schema, error) {
	if err := mcpimpl.CheckSchema(text); err != nil {
		return nil, fmt.Errorf("not a JSON Schema the runtime can check: %w", err)
	}
	if strings.Contains(text, `"$ref"`) || strings.Contains(text, `"$defs"`) {
		return nil, fmt.Errorf("a stated schema stands alone: $ref and $defs have nothing to refer to")
	}
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return nil, fmt.Errorf("not a JSON Schema: %w", err)
	}
	if text == "true" {
		return &jsonschema.Schema{}, nil
	}
	keepExtensions(&s, text)
	if lost := lostKeywords(text, encodeSchema(&s)); lost != "" {
		return nil, fmt.Errorf("keyword %s is not supported in a stated schema", lost)
	}
	return &s, nil
}

// keepExtensions copies the x-… keywords of the root of text, which the
// schema model does not read, into s's Extras.
func keepExtensions(s *jsonschema.Schema, text string) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return
	}
	for k, raw := range m {
		if !strings.HasPrefix(k, "x-") {
			continue
		}
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil {
			if s.Extras == nil {
				s.Extras = map[string]any{}
			}
			s.Extras[k] = v
		}
	}
}

// lostKeywords returns the first keyword of the JSON text want that got
// lost on its way through the schema model, or "".
func lostKeywords(want, got string) string {
	decode := func(s string) any {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var v any
		d.Decode(&v)
		return v
	}
	var diff func(a, b any) string
	diff = func(a, b any) string {
		am, ok := a.(map[string]any)
		if !ok {
			if reflect.DeepEqual(a, b) {
				return ""
			}
			if al, ok := a.([]any); ok {
				if bl, ok := b.([]any); ok && len(al) == len(bl) {
					for i := range al {
						if k := diff(al[i], bl[i]); k != "" {
							return k
						}
					}
					return ""
				}
			}
			return "?"
		}
		bm, _ := b.(map[string]any)
		for _, k := range slices.Sorted(mapsKeys(am)) {
			if _, ok := bm[k]; !ok {
				return k
			}
			if sub := diff(am[k], bm[k]); sub != "" {
				if sub == "?" {
					return k
				}
				return sub
			}
		}
		return ""
	}
	return diff(decode(want), decode(got))
}

// cloneSchema returns a deep copy of s, so that a field's tags and
// description change only its own schema.
func cloneSchema(s *jsonschema.Schema) *jsonschema.Schema {
	text := encodeSchema(s)
	if text == "true" {
		return &jsonschema.Schema{}
	}
	var c jsonschema.Schema
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		panic("gen: a stated schema does not survive a copy: " + err.Error()) // parseStatedSchema checked it
	}
	return &c
}

// checkStated reports the //mcp:schema directives that no schema used,
// and optional members a struct does not have.
func (p *pass) checkStated() {
	for _, key := range slices.Sorted(mapsKeys(p.statedSchemas)) {
		st := p.statedSchemas[key]
		if !st.used {
			p.warnf(st.pos, "//mcp:schema %s: no tool, resource, prompt or marked type of this package reaches %s", st.name, st.name)
		}
	}
}
