package jsonvalue

import "testing"

// TestWrongKinds: every method answers for a value of any kind, so that a
// reader walking a message of the wrong shape finds nothing. Get on an
// array used to walk its elements as name/value pairs and slice out of
// range ("ref":[1] in completion/complete crashed the server).
func TestWrongKinds(t *testing.T) {
	for _, text := range []string{`[1]`, `[1,2,3]`, `[{"a":1}]`, `"a"`, `1`, `true`, `null`, `[]`} {
		v, err := Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Get("a"); got.Exists() {
			t.Errorf("%s: Get found %s", text, got.Raw())
		}
		for name := range v.Members() {
			t.Errorf("%s: Members yielded %q", text, name)
		}
		if v.Kind() != Array && v.Len() != 0 {
			t.Errorf("%s: Len = %d", text, v.Len())
		}
		if v.Kind() != String && v.Str() != "" {
			t.Errorf("%s: Str = %q", text, v.Str())
		}
	}
	obj, _ := Parse([]byte(`{"a":[1]}`))
	for range obj.Elems() {
		t.Error("Elems yielded a member of an object")
	}
	var zero Value
	if zero.Kind() != Absent || zero.Raw() != nil || zero.Str() != "" || zero.IsTrue() || zero.Len() != 0 || zero.Get("a").Exists() {
		t.Error("the zero Value is not empty of everything")
	}
	for range zero.Members() {
		t.Error("Members of the zero Value yielded")
	}
	if got := obj.Get("a").Get("b").Get("c"); got.Exists() {
		t.Errorf("a chain of Gets through an array found %s", got.Raw())
	}
}

func TestIs(t *testing.T) {
	v, err := Parse([]byte(`{"a":"mcp_message","b":"mcp\u005fmessage","c":7,"d":"mcp_messages"}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"a": true, "b": true, "c": false, "d": false, "e": false} {
		if got := v.Get(name).Is("mcp_message"); got != want {
			t.Errorf("%s: Is = %v", name, got)
		}
	}
	if n := testing.AllocsPerRun(100, func() { v.Get("a").Is("mcp_message") }); n != 0 {
		t.Errorf("Is on a plain string allocates %v times", n)
	}
}
