package gen

import (
	"cmp"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// An argField is a field of the input of a resource template or a prompt:
// MCP gives it as a string, which the generated decoder converts.
type argField struct {
	name        string // the variable or argument name: the field's JSON name
	field       string // the Go field
	typ         types.Type
	conv        argConv
	bits        int
	required    bool
	description string
	enum        []string // the constants of a named string type
	pos         token.Pos
}

// argConv says how the text of an argument becomes its field's value.
type argConv int

const (
	convString argConv = iota
	convEnum           // a named string type with constants: one of them
	convInt
	convUint
	convFloat
	convBool
)

// argFields reads the fields of an input struct whose values arrive as
// strings (URI variables, prompt arguments): each exported field is one,
// named by its JSON name, and must have a type a string converts to.
func (p *pass) argFields(in types.Type, owner, what string) ([]argField, bool) {
	named := types.Unalias(derefType(in)).(*types.Named)
	st := named.Underlying().(*types.Struct)
	p.ix.noteStruct(named)
	var out []argField
	ok := true
	for i := range st.NumFields() {
		v := st.Field(i)
		if v.Embedded() {
			p.errorf(v.Pos(), "%s: embedded field %s: the input of a %s lists its fields one by one; declare them in %s", owner, v.Name(), strings.Fields(owner)[0], named.Obj().Name())
			ok = false
			continue
		}
		tags := parseTags(st.Tag(i))
		if !v.Exported() || tags.skip {
			continue
		}
		a := argField{name: cmp.Or(tags.name, v.Name()), field: v.Name(), typ: v.Type(), pos: v.Pos()}
		a.required = tags.required || !tags.omitEmpty
		if f, _ := p.ix.field(v); f != nil {
			a.description = cmp.Or(tags.desc, fieldDoc(f))
		}
		b, isBasic := types.Unalias(v.Type()).Underlying().(*types.Basic)
		switch {
		case !isBasic:
			p.errorf(v.Pos(), "%s: field %s has type %s, which a %s cannot carry: use a string, a number, a bool, or a named string type with constants", owner, v.Name(), typeString(v.Type(), named.Obj().Pkg()), what)
			ok = false
			continue
		case b.Info()&types.IsString != 0:
			a.conv = convString
			if n, isNamed := types.Unalias(v.Type()).(*types.Named); isNamed {
				for _, c := range p.ix.enumValues(n) {
					if s, isStr := c.(string); isStr {
						a.enum = append(a.enum, s)
					}
				}
				if a.enum != nil {
					a.conv = convEnum
				}
			}
		case b.Info()&types.IsBoolean != 0:
			a.conv = convBool
		case b.Info()&types.IsUnsigned != 0:
			a.conv, a.bits = convUint, basicBits(b.Kind())
		case b.Info()&types.IsInteger != 0:
			a.conv, a.bits = convInt, basicBits(b.Kind())
		case b.Info()&types.IsFloat != 0:
			a.conv, a.bits = convFloat, basicBits(b.Kind())
		default:
			p.errorf(v.Pos(), "%s: field %s has type %s, which a %s cannot carry", owner, v.Name(), typeString(v.Type(), named.Obj().Pkg()), what)
			ok = false
			continue
		}
		out = append(out, a)
	}
	return out, ok
}

// basicBits is the size in bits of a numeric kind (int and uint: 64).
func basicBits(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32, types.Float32:
		return 32
	}
	return 64
}

// checkCompleter checks the completer a directive names: a method of the
// receiver of h, if h is a method and the receiver has one of that name,
// or else a function of the package; either of the type
// runtime.CompleteHandler. It reports whether the completer is a method.
func (p *pass) checkCompleter(h *handlerFunc, name string, pos token.Pos, owner string) (method, ok bool) {
	pkg := p.pkg
	var fn *types.Func
	if h.recv != nil {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(h.recv.named), false, pkg, name)
		fn, method = obj.(*types.Func) // nil for no method, or a field, of that name
	}
	if !method {
		fn, _ = pkg.Scope().Lookup(name).(*types.Func)
	}
	if fn == nil {
		if h.recv != nil {
			p.errorf(pos, "%s: complete=%s: %s has no method %s, and package %s no function %[4]s", owner, name, h.recv.named.Obj().Name(), name, pkg.Name())
		} else {
			p.errorf(pos, "%s: complete=%s: no function %s in package %s", owner, name, name, pkg.Name())
		}
		return false, false
	}
	sig := fn.Type().(*types.Signature)
	params, r := sig.Params(), sig.Results()
	if sig.TypeParams().Len() == 0 && params.Len() == 2 && r.Len() == 2 && isContext(params.At(0).Type()) &&
		isRuntimeType(params.At(1).Type(), "CompleteRequest") && isPointer(params.At(1).Type()) &&
		isRuntimeType(r.At(0).Type(), "CompleteResult") && isPointer(r.At(0).Type()) && isError(r.At(1).Type()) {
		if method && h.recv != nil && !h.recv.pointer {
			if _, ptrRecv := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer); ptrRecv {
				h.recv.pointer = true // Register must take *T to call it
			}
		}
		return method, true
	}
	p.errorf(pos, "%s: complete=%s: %s must be func(context.Context, *runtime.CompleteRequest) (*runtime.CompleteResult, error), not %s", owner, name, name, typeString(sig, pkg))
	return false, false
}

// completes reports whether something completes the arguments: a
// completer, or an argument with constants.
func completes(args []argField, completer string) bool {
	return completer != "" || hasEnum(args)
}

// hasEnum reports whether an argument's type has constants.
func hasEnum(args []argField) bool {
	return slices.ContainsFunc(args, func(a argField) bool { return a.enum != nil })
}
