package uritemplate

import (
	"maps"
	"testing"
)

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		tmpl, uri string
		want      map[string]string // nil: no match
	}{
		{"notes://{id}", "notes://N1", map[string]string{"id": "N1"}},
		{"notes://{id}", "notes://a%20b", map[string]string{"id": "a b"}},
		{"notes://{id}", "notes://a/b", nil},
		{"notes://{id}", "other://N1", nil},
		{"repo://{owner}/{name}/issues/{number}", "repo://go/tools/issues/42", map[string]string{"owner": "go", "name": "tools", "number": "42"}},
		{"repo://{owner}/{name}/issues/{number}", "repo://go/tools/issues/", map[string]string{"owner": "go", "name": "tools", "number": ""}},
		{"file:///{+path}", "file:///etc/app.json", map[string]string{"path": "etc/app.json"}},
		{"file:///{+path}.md", "file:///docs/a.b.md", map[string]string{"path": "docs/a.b"}},
		{"test://static/{a}?x={b}", "test://static/1?x=2", map[string]string{"a": "1", "b": "2"}},
		{"a+b://{x}", "a+b://1", map[string]string{"x": "1"}},
		{"a+b://{x}", "aab://1", nil},
		{"notes://{id}", "notes://%zz", nil},
	} {
		tm, err := Parse(c.tmpl)
		if err != nil {
			t.Fatalf("%s: %v", c.tmpl, err)
		}
		got, ok := tm.Match(c.uri)
		if ok != (c.want != nil) || !maps.Equal(got, c.want) {
			t.Errorf("%s against %s: %v %v, want %v", c.tmpl, c.uri, got, ok, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"x://{a,b}", "x://{?q}", "x://{a*}", "x://{a", "x://a}", "x://{a}/{a}", "x://{}", "x://{#f}"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
}
