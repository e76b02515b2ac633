package mcpimpl

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// parse parses a request's arguments as the runtime does.
func parse(t *testing.T, data []byte) Value {
	t.Helper()
	v, err := jsonvalue.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return Value{v: v, strings: new(jsonvalue.StringArena)}
}

// aliases reports whether s shares memory with buf.
func aliases(s string, buf []byte) bool {
	if len(s) == 0 || len(buf) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	start := uintptr(unsafe.Pointer(&buf[0]))
	return p >= start && p < start+uintptr(len(buf))
}

// TestDecodedValuesDoNotAliasTheRequest: nothing a handler receives
// shares memory with the request, not even a map key, which a parsed
// member name may do (jsonvalue's memberName). A kept key would otherwise
// keep the whole request line alive.
func TestDecodedValuesDoNotAliasTheRequest(t *testing.T) {
	buf := []byte(`{"plain":"value","esc\u0061ped":"x","é":"y"}`)
	var m map[string]string
	if err := DecodeMap(parse(t, buf), &m, DecodeString); err != nil {
		t.Fatal(err)
	}
	if len(m) != 3 || m["plain"] != "value" || m["escaped"] != "x" || m["é"] != "y" {
		t.Fatalf("decoded %q", m)
	}
	for k, v := range m {
		if aliases(k, buf) || aliases(v, buf) {
			t.Errorf("%q: %q shares memory with the request", k, v)
		}
	}
	var s string
	if err := DecodeString(parse(t, []byte(`"text"`)), &s); err != nil || s != "text" {
		t.Fatalf("DecodeString: %q, %v", s, err)
	}
}

// keptKey keeps the text UnmarshalText is given, as it may not: the text
// is only lent to it.
type keptKey string

func (k *keptKey) UnmarshalText(text []byte) error {
	if string(text) == "bad" {
		return errors.New("bad key")
	}
	if len(text) > 0 {
		*k = keptKey(unsafe.String(&text[0], len(text)))
	}
	return nil
}

// TestDecodeTextMap: a map key whose type has UnmarshalText is decoded by
// it, as encoding/json does, from a copy of the member name, and an error
// of UnmarshalText names the key.
func TestDecodeTextMap(t *testing.T) {
	buf := []byte(`{"plain":1,"esc\u0061ped":2,"":3}`)
	var m map[keptKey]int
	if err := DecodeTextMap(parse(t, buf), &m, DecodeInt); err != nil {
		t.Fatal(err)
	}
	if len(m) != 3 || m["plain"] != 1 || m["escaped"] != 2 || m[""] != 3 {
		t.Fatalf("decoded %v", m)
	}
	for k := range m {
		if aliases(string(k), buf) {
			t.Errorf("%q shares memory with the request", k)
		}
	}
	err := DecodeTextMap(parse(t, []byte(`{"good":1,"bad":2}`)), &m, DecodeInt)
	if err == nil || FieldError("m", err).Error() != "m.bad: bad key" {
		t.Errorf("a key UnmarshalText refuses: %v", err)
	}
}

// TestFieldErrorKeepsNoAlias: an error names the member it is about
// without holding on to the request.
func TestFieldErrorKeepsNoAlias(t *testing.T) {
	buf := []byte(`{"count":"x"}`)
	var err error
	for name := range parse(t, buf).Members() {
		err = FieldError(name, errors.New("bad"))
	}
	var fe *fieldError
	if !errors.As(err, &fe) || err.Error() != "count: bad" {
		t.Fatalf("error %v", err)
	}
	for _, st := range fe.steps {
		if aliases(st.Name, buf) {
			t.Error("the error's path shares memory with the request")
		}
	}
}

// TestFieldErrorPaths: paths are written as the validator writes them,
// and a member named "" (a map key) does not break them.
func TestFieldErrorPaths(t *testing.T) {
	bad := errors.New("bad")
	for _, c := range []struct {
		err  error
		want string
	}{
		{FieldError("m", FieldError("", bad)), `m[""]: bad`},
		{FieldError("a b", FieldError("c", bad)), `["a b"].c: bad`},
		{FieldError("tags", elemError(2, FieldError("x", bad))), `tags[2].x: bad`},
		{FieldError("grid", elemError(0, elemError(1, bad))), `grid[0][1]: bad`},
		{FieldError("[0]", bad), `["[0]"]: bad`},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
	var m map[string]int
	err := DecodeMap(parse(t, []byte(`{"":1e2}`)), &m, DecodeInt)
	if err == nil || FieldError("m", err).Error() != `m[""]: json: cannot unmarshal number 1e2 into Go value of type int` {
		t.Errorf("map key \"\": %v", FieldError("m", err))
	}
}

// Stamp is embedded, so that encoding/json decodes the whole input.
type Stamp struct {
	When time.Time `json:"when"`
}

type stamped struct {
	Stamp
	ID string `json:"id"`
}

// TestDecodeJSONNamesTheField: a value that encoding/json's decoding of a
// field's type refuses is reported with the field's name.
func TestDecodeJSONNamesTheField(t *testing.T) {
	var in stamped
	err := DecodeJSON(parse(t, []byte(`{"id":"a","when":"yesterday"}`)), &in)
	if err == nil || !strings.HasPrefix(err.Error(), `when: parsing time "yesterday"`) {
		t.Errorf("error %v", err)
	}
	if err := DecodeJSON(parse(t, []byte(`{"id":"a","when":"2026-11-22T10:00:00Z"}`)), &in); err != nil || in.ID != "a" || in.When.Year() != 2026 {
		t.Errorf("a valid input: %+v, %v", in, err)
	}
}
