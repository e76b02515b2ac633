package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
)

// A difference is where two Go values differ first.
type difference struct {
	path   []string // a JSON path, for a Go path: field names become JSON names where known
	detail string
}

// diff returns the first difference between a (what the handler
// received) and b (what encoding/json decoded), or nil. Times compare
// as instants with their offsets, json.RawMessage as bytes, floats by
// bits (so -0 differs from 0), nil slices and maps differ from empty ones.
func diff(a, b reflect.Value) *difference {
	return diffAt(a, b, nil)
}

func diffAt(a, b reflect.Value, path []string) *difference {
	at := func(format string, args ...any) *difference {
		return &difference{path: path, detail: fmt.Sprintf(format, args...)}
	}
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() != b.IsValid() {
			return at("one value is missing")
		}
		return nil
	}
	if a.Type() != b.Type() {
		return at("types %v and %v", a.Type(), b.Type())
	}
	t := a.Type()
	switch {
	case t == timeType && a.CanInterface():
		ta, tb := a.Interface().(time.Time), b.Interface().(time.Time)
		_, oa := ta.Zone()
		_, ob := tb.Zone()
		if !ta.Equal(tb) || oa != ob {
			return at("%s and %s", ta.Format(time.RFC3339Nano), tb.Format(time.RFC3339Nano))
		}
		return nil
	case t == rawType:
		ra, rb := a.Bytes(), b.Bytes()
		if a.IsNil() != b.IsNil() || !bytes.Equal(ra, rb) {
			return at("json.RawMessage %s, encoding/json %s", showRaw(a), showRaw(b))
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return at("%s and %s", nilOr(a), nilOr(b))
			}
			return nil
		}
		return diffAt(a.Elem(), b.Elem(), path)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return at("%s and %s", nilOr(a), nilOr(b))
			}
			return nil
		}
		return diffAt(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return at("%s and %s", nilOr(a), nilOr(b))
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return at("%d and %d elements", a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := diffAt(a.Index(i), b.Index(i), append(clip(path), strconv.Itoa(i))); d != nil {
				return d
			}
		}
		return nil
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return at("%s and %s", nilOr(a), nilOr(b))
		}
		if a.Len() != b.Len() {
			return at("%d and %d entries", a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			vb := b.MapIndex(k)
			key := fmt.Sprint(k)
			if !vb.IsValid() {
				return at("key %s only in the handler's map", key)
			}
			if d := diffAt(a.MapIndex(k), vb, append(clip(path), key)); d != nil {
				return d
			}
		}
		return nil
	case reflect.Struct:
		names := jsonNames(t)
		for i := range t.NumField() {
			name := names[i]
			if name == "" {
				name = t.Field(i).Name
			}
			p := path
			if !t.Field(i).Anonymous || names[i] != "" {
				p = append(clip(path), name)
			}
			if d := diffAt(a.Field(i), b.Field(i), p); d != nil {
				return d
			}
		}
		return nil
	case reflect.Float32, reflect.Float64:
		fa, fb := a.Float(), b.Float()
		if math.Float64bits(fa) != math.Float64bits(fb) && !(math.IsNaN(fa) && math.IsNaN(fb)) {
			return at("%v and %v", fa, fb)
		}
		return nil
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return at("%v and %v", a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return at("%d and %d", a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return at("%d and %d", a.Uint(), b.Uint())
		}
	case reflect.String:
		if a.String() != b.String() {
			return at("%q and %q", a.String(), b.String())
		}
	}
	return nil
}

func nilOr(v reflect.Value) string {
	if v.IsNil() {
		return "nil"
	}
	if v.Kind() == reflect.Slice || v.Kind() == reflect.Map {
		return fmt.Sprintf("non-nil (%d)", v.Len())
	}
	return "non-nil"
}

func showRaw(v reflect.Value) string {
	if v.IsNil() {
		return "nil"
	}
	return strconv.Quote(string(v.Bytes()))
}

// jsonNames returns the JSON name of each field of a struct, "" for an
// untagged embedded struct (whose fields are promoted) and for fields
// encoding/json leaves out.
func jsonNames(t reflect.Type) []string {
	names := make([]string, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := jsonTagName(tag)
		if name == "" && !f.Anonymous {
			name = f.Name
		}
		names[i] = name
	}
	return names
}

func jsonTagName(tag string) (string, string, bool) {
	for i := range len(tag) {
		if tag[i] == ',' {
			return tag[:i], tag[i+1:], true
		}
	}
	return tag, "", false
}

// compactJSON compacts a JSON text, or returns it as it is.
func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}
