package gen

import (
	"go/token"
	"go/types"

	"github.com/invopop/jsonschema"
)

// How encoding/json reads and writes a named type: through the type's own
// methods when it has them, by its Go structure otherwise. The schema of
// a type follows the same choice, so that it never describes a form that
// the type's methods refuse.
//
// encoding/json decodes into addressable values, so it looks for
// UnmarshalJSON, then UnmarshalText, in the method set of *T. It encodes
// with MarshalJSON, then MarshalText, from the method set of T, or of *T
// when the value is addressable (reached through a pointer or a slice
// element). A method promoted from an embedded field counts: type Stamp
// struct{ time.Time } is read and written as a time.Time.

// A jsonMethod is the method through which encoding/json reads or writes
// a type instead of by its structure.
type jsonMethod struct {
	fn   *types.Func
	text bool // UnmarshalText or MarshalText: the JSON is a string
	// nilVia is the embedded pointer the method is promoted through, if
	// any: encoding/json calls the method through it while it is nil.
	nilVia *types.Var
}

// owner is the type that declares the method: the type itself, or a type
// it embeds.
func (m *jsonMethod) owner() *types.Named {
	recv := m.fn.Signature().Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	n, _ := types.Unalias(recv).(*types.Named)
	if n != nil {
		n = n.Origin()
	}
	return n
}

// The interfaces of encoding/json and encoding whose methods it calls.
var (
	byteSlice       = types.NewSlice(types.Typ[types.Byte])
	errorType       = types.Universe.Lookup("error").Type()
	jsonUnmarshaler = methodInterface("UnmarshalJSON", []types.Type{byteSlice}, []types.Type{errorType})
	textUnmarshaler = methodInterface("UnmarshalText", []types.Type{byteSlice}, []types.Type{errorType})
	jsonMarshaler   = methodInterface("MarshalJSON", nil, []types.Type{byteSlice, errorType})
	textMarshaler   = methodInterface("MarshalText", nil, []types.Type{byteSlice, errorType})
)

// methodInterface is interface{ name(params) results }.
func methodInterface(name string, params, results []types.Type) *types.Interface {
	vars := func(ts []types.Type) *types.Tuple {
		vs := make([]*types.Var, len(ts))
		for i, t := range ts {
			vs[i] = types.NewParam(token.NoPos, nil, "", t)
		}
		return types.NewTuple(vs...)
	}
	sig := types.NewSignatureType(nil, nil, nil, vars(params), vars(results), false)
	it := types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, name, sig)}, nil)
	return it.Complete()
}

// A methodCache remembers which method encoding/json uses for a type:
// the answer takes a method-set lookup, asked for the same types by every
// field, decoder and guard that meets them.
type methodCache map[methodKey]*jsonMethod

type methodKey struct {
	t   types.Type
	use methodUse
}

// methodUse is what a type's method is looked up for.
type methodUse uint8

const (
	reading           methodUse = iota // decodeMethod
	writing                            // encodeMethod, a value that cannot be addressed
	writingAddessable                  // encodeMethod, an addressable value
)

// lookup returns find(t), computed once per type and use.
func (c methodCache) lookup(t types.Type, use methodUse, find func() *jsonMethod) *jsonMethod {
	k := methodKey{t, use}
	m, ok := c[k]
	if !ok {
		m = find()
		c[k] = m
	}
	return m
}

// decodeMethod is the package-level decodeMethod, remembered.
func (c methodCache) decodeMethod(t types.Type) *jsonMethod {
	return c.lookup(t, reading, func() *jsonMethod { return decodeMethod(t) })
}

// encodeMethod is the package-level encodeMethod, remembered.
func (c methodCache) encodeMethod(t types.Type, addressable bool) *jsonMethod {
	use := writing
	if addressable {
		use = writingAddessable
	}
	return c.lookup(t, use, func() *jsonMethod { return encodeMethod(t, addressable) })
}

// decodeMethod returns the method through which encoding/json decodes a
// value of type t, or nil when it decodes t by its structure.
func decodeMethod(t types.Type) *jsonMethod {
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	ptr := types.NewPointer(t)
	switch {
	case types.Implements(ptr, jsonUnmarshaler):
		return lookupMethod(ptr, "UnmarshalJSON", false)
	case types.Implements(ptr, textUnmarshaler):
		return lookupMethod(ptr, "UnmarshalText", true)
	}
	return nil
}

// encodeMethod returns the method through which encoding/json encodes a
// value of type t, addressable or not, or nil when it encodes t by its
// structure.
func encodeMethod(t types.Type, addressable bool) *jsonMethod {
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	if addressable {
		t = types.NewPointer(t)
	}
	switch {
	case types.Implements(t, jsonMarshaler):
		return lookupMethod(t, "MarshalJSON", false)
	case types.Implements(t, textMarshaler):
		return lookupMethod(t, "MarshalText", true)
	}
	return nil
}

// lookupMethod finds the method name of t, which t is known to have.
func lookupMethod(t types.Type, name string, text bool) *jsonMethod {
	obj, index, _ := types.LookupFieldOrMethod(t, false, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	return &jsonMethod{fn: fn, text: text, nilVia: embeddedPointer(t, index)}
}

// embeddedPointer returns the first embedded field of pointer type on the
// path index (as LookupFieldOrMethod gives it, the method last) from t to
// a promoted method, or nil. Through such a field the method is called
// on a nil receiver when the field is nil, which it is in every value
// encoding/json makes.
func embeddedPointer(t types.Type, index []int) *types.Var {
	for _, i := range index[:max(len(index)-1, 0)] {
		t = derefType(t)
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil
		}
		f := st.Field(i)
		if _, ptr := types.Unalias(f.Type()).(*types.Pointer); ptr {
			return f
		}
		t = f.Type()
	}
	return nil
}

// pointerOnlyMarshaler reports whether *t, but not t, has a method that
// encoding/json encodes with: t is then written by its method or by its
// structure depending on whether the value is addressable.
func pointerOnlyMarshaler(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return false
	}
	ptr := types.NewPointer(t)
	return (types.Implements(ptr, jsonMarshaler) || types.Implements(ptr, textMarshaler)) &&
		!types.Implements(t, jsonMarshaler) && !types.Implements(t, textMarshaler)
}

// knownJSON are the types of the standard library that read and write
// their own JSON (not text), with the schema of what they accept and
// write.
var knownJSON = map[string]func() *jsonschema.Schema{
	// RFC 3339 both ways; null is accepted and leaves the time as it is.
	"time.Time": func() *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Format: "date-time"} },
	// Any JSON value, kept as it was sent.
	"encoding/json.RawMessage": func() *jsonschema.Schema { return &jsonschema.Schema{} },
	// A JSON number of any size, written as one; a fraction or an
	// exponent is refused by its SetString.
	"math/big.Int": func() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer"} },
	// The level's name, such as "INFO" or "WARN+2".
	"log/slog.Level": func() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} },
}

// knownSchema returns the schema of a type the standard library gives its
// own JSON methods, by the type that declares the method.
func knownSchema(m *jsonMethod) *jsonschema.Schema {
	if m.text {
		return &jsonschema.Schema{Type: "string"}
	}
	owner := m.owner()
	if owner == nil || owner.Obj().Pkg() == nil {
		return nil
	}
	if f := knownJSON[owner.Obj().Pkg().Path()+"."+owner.Obj().Name()]; f != nil {
		return f()
	}
	return nil
}
