package harness

import (
	"encoding"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself reports whether encoding/json decodes a t through a
// method: UnmarshalJSON or UnmarshalText on *t.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler)
}

// A step is where a JSON path leads in the Go type it is decoded into.
type step struct {
	t     reflect.Type         // the Go type at the path
	field *reflect.StructField // the struct field that holds it, if the last token named one
	owner reflect.Type         // that field's struct
}

// typeAt follows path through t as encoding/json decodes it, as far as
// it can: a type that decodes itself, an interface or a missing member
// ends the walk early.
func typeAt(t reflect.Type, path []string) step {
	return walk(t, path, func(t reflect.Type, _ bool) bool { return decodesItself(t) })
}

// outputTypeAt follows path through t as json.Marshal writes a value of
// it: a type that writes itself ends the walk, and whether it does
// depends on whether the value is addressable (a method on *T writes an
// addressable T only).
func outputTypeAt(t reflect.Type, path []string) step {
	return walk(t, path, func(t reflect.Type, addressable bool) bool {
		if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) {
			return true
		}
		p := reflect.PointerTo(t)
		return addressable && t.Kind() != reflect.Pointer && (p.Implements(jsonMarshaler) || p.Implements(textMarshaler))
	})
}

// walk follows path through t, ending at a type that self reports reads
// (or writes) itself, given whether the value there is addressable:
// json.Marshal's argument is not, a slice's elements and what a pointer
// points to are, a field or an array's element is as its holder is, a
// map's values are not.
func walk(t reflect.Type, path []string, self func(t reflect.Type, addressable bool) bool) step {
	s := step{t: t}
	addressable := false
	for _, tok := range path {
		for s.t.Kind() == reflect.Pointer && !self(s.t, addressable) {
			s.t, addressable = s.t.Elem(), true
		}
		if self(s.t, addressable) || s.t == rawType {
			return s
		}
		switch s.t.Kind() {
		case reflect.Struct:
			f, ok := jsonField(s.t, tok)
			if !ok {
				return s
			}
			s.owner, s.field, s.t = s.t, &f, f.Type
		case reflect.Slice:
			s.field, s.t, addressable = nil, s.t.Elem(), true
		case reflect.Array:
			s.field, s.t = nil, s.t.Elem()
		case reflect.Map:
			s.field, s.t, addressable = nil, s.t.Elem(), false
		default:
			return s
		}
	}
	return s
}

// jsonField finds the field encoding/json decodes the member name into:
// the field of that JSON name, else one whose name matches it without
// regard to case; among several, the shallowest, then a tagged one.
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	fields := jsonFields(t)
	if f, ok := fields[name]; ok {
		return f, true
	}
	for _, n := range slices.Sorted(maps.Keys(fields)) {
		if strings.EqualFold(n, name) {
			return fields[n], true
		}
	}
	return reflect.StructField{}, false
}

// jsonFields returns the fields of a struct by JSON name, as
// encoding/json's typeFields finds them: breadth first through untagged
// embedded structs, the shallowest field of a name winning, then the one
// tagged, and a tie dropping the name.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	type cand struct {
		sf     reflect.StructField
		name   string
		tagged bool
	}
	type level struct {
		t     reflect.Type
		index []int
	}
	var fields []cand
	next := []level{{t: t}}
	count, nextCount := map[reflect.Type]int{}, map[reflect.Type]int{}
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current := next
		next = nil
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, lv := range current {
			if visited[lv.t] {
				continue
			}
			visited[lv.t] = true
			for i := range lv.t.NumField() {
				sf := lv.t.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(append([]int(nil), lv.index...), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					c := cand{sf: sf, name: name, tagged: name != ""}
					c.sf.Index = index
					if c.name == "" {
						c.name = sf.Name
					}
					fields = append(fields, c)
					if count[lv.t] > 1 {
						fields = append(fields, c) // so that the tie below drops it
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, level{t: ft, index: index})
				}
			}
		}
	}
	byName := map[string][]cand{}
	for _, c := range fields {
		byName[c.name] = append(byName[c.name], c)
	}
	out := map[string]reflect.StructField{}
	for name, cs := range byName {
		depth := len(cs[0].sf.Index)
		for _, c := range cs {
			depth = min(depth, len(c.sf.Index))
		}
		var top []cand
		for _, c := range cs {
			if len(c.sf.Index) == depth {
				top = append(top, c)
			}
		}
		var tagged []cand
		for _, c := range top {
			if c.tagged {
				tagged = append(tagged, c)
			}
		}
		switch {
		case len(top) == 1:
			out[name] = top[0].sf
		case len(tagged) == 1:
			out[name] = tagged[0].sf
		}
	}
	return out
}

// validTagName is encoding/json's rule for a name in a json tag.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
