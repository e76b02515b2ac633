package mcpimpl

import (
	"encoding"
	"encoding/json"
	"errors"
	"iter"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonpath"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// A Value is a tool call's arguments, or a part of them, already parsed
// and validated against the tool's input schema. Generated code decodes
// Values into the tool's input type without reflection; the Decode
// functions below are its building blocks. Because the schema has been
// checked, a Value holds the JSON type its Go destination expects, except
// null where the schema allows it.
type Value struct {
	v       jsonvalue.Value
	strings *jsonvalue.StringArena // where decoded strings come from; nil: their own
}

// str returns the decoded content of a string value.
func (v Value) str() string {
	if v.strings != nil {
		return v.strings.Str(v.v)
	}
	return v.v.Str()
}

// clone returns a copy of s, a member name that may share the request's
// memory.
func (v Value) clone(s string) string {
	if v.strings != nil {
		return v.strings.Clone(s)
	}
	return strings.Clone(s)
}

// Members iterates over the members of an object, in the order they
// were sent. The name may share memory with the request.
func (v Value) Members() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		for name, m := range v.v.Members() {
			if !yield(name, Value{m, v.strings}) {
				return
			}
		}
	}
}

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.v.Kind() == jsonvalue.Null }

// The Decode functions treat null as encoding/json does: it leaves a
// string, number or boolean as it is, sets a pointer, slice or map to
// nil, and is given to a type's own UnmarshalJSON (json.RawMessage keeps
// it as "null").

// DecodeString stores a JSON string.
func DecodeString[S ~string](v Value, dst *S) error {
	if v.v.Kind() != jsonvalue.String {
		return DecodeJSON(v, dst)
	}
	*dst = S(v.str())
	return nil
}

// DecodeBool stores a JSON boolean.
func DecodeBool[B ~bool](v Value, dst *B) error {
	if v.v.Kind() != jsonvalue.Bool {
		return DecodeJSON(v, dst)
	}
	*dst = B(v.v.IsTrue())
	return nil
}

// DecodeInt stores a JSON number in a signed integer.
func DecodeInt[I ~int | ~int8 | ~int16 | ~int32 | ~int64](v Value, dst *I) error {
	var zero I
	n, err := strconv.ParseInt(string(v.v.Raw()), 10, int(unsafe.Sizeof(zero))*8)
	if v.v.Kind() != jsonvalue.Number || err != nil {
		return DecodeJSON(v, dst) // 1e2, 1.0, out of range: encoding/json's verdict
	}
	*dst = I(n)
	return nil
}

// DecodeUint stores a JSON number in an unsigned integer.
func DecodeUint[U ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](v Value, dst *U) error {
	var zero U
	n, err := strconv.ParseUint(string(v.v.Raw()), 10, int(unsafe.Sizeof(zero))*8)
	if v.v.Kind() != jsonvalue.Number || err != nil {
		return DecodeJSON(v, dst)
	}
	*dst = U(n)
	return nil
}

// DecodeFloat stores a JSON number in a floating-point number.
func DecodeFloat[F ~float32 | ~float64](v Value, dst *F) error {
	var zero F
	bits := int(unsafe.Sizeof(zero)) * 8
	f, err := strconv.ParseFloat(string(v.v.Raw()), bits)
	if v.v.Kind() != jsonvalue.Number || err != nil || math.IsInf(f, 0) {
		return DecodeJSON(v, dst)
	}
	*dst = F(f)
	return nil
}

// DecodeSlice stores a JSON array, decoding each element with elem.
func DecodeSlice[T any](v Value, dst *[]T, elem func(Value, *T) error) error {
	if v.v.Kind() != jsonvalue.Array {
		return DecodeJSON(v, dst)
	}
	s := make([]T, v.v.Len())
	for i, e := range v.v.Elems() {
		if err := elem(Value{e, v.strings}, &s[i]); err != nil {
			return elemError(i, err)
		}
	}
	*dst = s
	return nil
}

// DecodeMap stores a JSON object in a map, decoding each value with elem.
func DecodeMap[K ~string, T any](v Value, dst *map[K]T, elem func(Value, *T) error) error {
	if v.v.Kind() != jsonvalue.Object {
		return DecodeJSON(v, dst)
	}
	m := make(map[K]T, v.v.Len())
	for name, mv := range v.Members() {
		var t T
		if err := elem(mv, &t); err != nil {
			return FieldError(name, err)
		}
		m[K(v.clone(name))] = t // the name may share the request's memory
	}
	*dst = m
	return nil
}

// DecodeTextMap stores a JSON object in a map whose key type decodes
// itself from text (*K is an encoding.TextUnmarshaler): as in
// encoding/json, each member name becomes a key through UnmarshalText,
// given a copy of the name.
func DecodeTextMap[K comparable, PK interface {
	*K
	encoding.TextUnmarshaler
}, T any](v Value, dst *map[K]T, elem func(Value, *T) error) error {
	if v.v.Kind() != jsonvalue.Object {
		return DecodeJSON(v, dst)
	}
	m := make(map[K]T, v.v.Len())
	for name, mv := range v.Members() {
		var t T
		if err := elem(mv, &t); err != nil {
			return FieldError(name, err)
		}
		var k K
		if err := PK(&k).UnmarshalText([]byte(name)); err != nil {
			return FieldError(name, err)
		}
		m[k] = t
	}
	*dst = m
	return nil
}

// DecodePointer stores a JSON value in a new T, decoded with elem; null
// leaves dst nil.
func DecodePointer[T any](v Value, dst **T, elem func(Value, *T) error) error {
	if v.IsNull() {
		*dst = nil
		return nil
	}
	p := new(T)
	if err := elem(v, p); err != nil {
		return err
	}
	*dst = p
	return nil
}

// DecodeJSON stores a JSON value with encoding/json: for the types that
// generated code does not decode itself (time.Time, json.RawMessage, any,
// types with their own UnmarshalJSON or UnmarshalText, structs with
// embedded fields, …).
//
// encoding/json names the field at fault only for a value of the wrong
// JSON type. When a type's own decoding fails instead (a time.Time given
// "yesterday") inside an object, DecodeJSON decodes the members one at a
// time to find it, and names it.
func DecodeJSON[T any](v Value, dst *T) error {
	err := json.Unmarshal(v.v.Raw(), dst)
	var te *json.UnmarshalTypeError
	if err == nil || v.v.Kind() != jsonvalue.Object || errors.As(err, &te) && te.Field != "" {
		return err
	}
	for name, m := range v.v.Members() {
		one := jsonvalue.AppendString([]byte{'{'}, name)
		one = append(append(append(one, ':'), m.Raw()...), '}')
		var probe T
		if merr := json.Unmarshal(one, &probe); merr != nil {
			return FieldError(name, merr)
		}
	}
	return err
}

// NoArguments is the decoder of a tool without input.
func NoArguments(Value, *struct{}) error { return nil }

// PointerTo turns the decoder of T into a decoder of *T, for a tool whose
// input parameter is a pointer.
func PointerTo[T any](elem func(Value, *T) error) func(Value, **T) error {
	return func(v Value, dst **T) error { return DecodePointer(v, dst, elem) }
}

// FieldError reports that decoding the member name failed. The error
// names the member's path as the validator does (address.city,
// labels["a b"], tags[2]), without keeping the request alive.
func FieldError(name string, err error) error {
	return wrapPath(jsonpath.Member(strings.Clone(name)), err)
}

// elemError reports that decoding the i-th element of an array failed.
func elemError(i int, err error) error {
	return wrapPath(jsonpath.Index(i), err)
}

// wrapPath adds step, the level that err crossed on its way out, to its
// path. Steps are kept innermost first, so that a deep path costs time
// linear in its depth.
func wrapPath(step jsonpath.Step, err error) error {
	if fe, ok := err.(*fieldError); ok {
		fe.steps = append(fe.steps, step)
		return fe
	}
	return &fieldError{steps: []jsonpath.Step{step}, err: err}
}

// fieldError is an error at a path inside the arguments.
type fieldError struct {
	steps []jsonpath.Step // innermost first
	err   error
}

func (e *fieldError) Error() string { return jsonpath.FormatReversed(e.steps) + ": " + e.err.Error() }

func (e *fieldError) Unwrap() error { return e.err }
