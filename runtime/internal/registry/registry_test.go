package registry

import (
	"fmt"
	"strings"
	"testing"
)

// TestRegistry: items keep their order, a key is taken once, a removal
// leaves the slices All returned before it as they were, and a change
// drops the encoded lists.
func TestRegistry(t *testing.T) {
	var r Registry[string]
	if !r.Add("a", "A") || !r.Add("b", "B") || r.Add("a", "again") {
		t.Fatal("Add: a key is taken once")
	}
	if v, ok := r.Get("a"); !ok || v != "A" {
		t.Errorf("Get(a) = %q, %v", v, ok)
	}
	if v, ok := r.GetBytes([]byte("b")); !ok || v != "B" {
		t.Errorf("GetBytes(b) = %q, %v", v, ok)
	}
	encodes := 0
	list := func() string {
		b, _ := r.List(0, func(items []string) ([]byte, error) {
			encodes++
			return []byte(strings.Join(items, ",")), nil
		})
		return string(b)
	}
	if list() != "A,B" || list() != "A,B" || encodes != 1 {
		t.Errorf("List encoded %d times for one set of items", encodes)
	}
	before := r.All()
	if !r.Remove("a") || r.Remove("a") {
		t.Fatal("Remove: once")
	}
	if strings.Join(before, ",") != "A,B" || strings.Join(r.All(), ",") != "B" || r.Len() != 1 {
		t.Errorf("after Remove: before %v, now %v", before, r.All())
	}
	if list() != "B" || encodes != 2 {
		t.Errorf("List after a change: %q, %d encodings", list(), encodes)
	}
}

// TestUnknown: the message for an unknown key names what there is, at
// most MaxNamedInError of them.
func TestUnknown(t *testing.T) {
	var r Registry[int]
	if got := r.Unknown("tool", "x"); got != `unknown tool "x"; this server has no tools` {
		t.Errorf("empty: %s", got)
	}
	for i := range MaxNamedInError + 3 {
		r.Add(fmt.Sprint("t", i), i)
	}
	got := r.Unknown("tool", "x")
	if !strings.HasPrefix(got, `unknown tool "x"; available tools: t0, t1,`) || !strings.HasSuffix(got, "t31 and 3 more") {
		t.Errorf("full: %s", got)
	}
}
