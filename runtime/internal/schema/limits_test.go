package schema

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonpath"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// TestCompileRefusesBadPatterns: a regular expression that does not
// compile is refused wherever it is, in pattern as in patternProperties;
// a schema never silently drops a constraint.
func TestCompileRefusesBadPatterns(t *testing.T) {
	for _, c := range []string{
		`{"type":"string","pattern":"(unclosed"}`,
		`{"type":"object","patternProperties":{"(unclosed":{"type":"string"}}}`,
		`{"type":"object","properties":{"a":{"patternProperties":{"[z-a]":true}}}}`,
	} {
		if _, err := Compile([]byte(c)); err == nil || !strings.Contains(err.Error(), "error parsing regexp") {
			t.Errorf("%s: compiled (%v)", c, err)
		}
	}
}

// TestDeepViolationPaths: an input that recurses through a map 4,000
// levels deep, with 250-byte keys and 20 bad values at the bottom, gets a
// short report whose paths still say where each problem starts and ends.
// Writing the paths costs time linear in their length (it was quadratic:
// 31 s of CPU and a 20 MiB reply for such a request).
func TestDeepViolationPaths(t *testing.T) {
	s, err := Compile([]byte(`{"$ref":"#/$defs/Node","$defs":{"Node":{"type":"object","properties":{"kids":{"type":"object","additionalProperties":{"$ref":"#/$defs/Node"}},"n":{"type":"integer"}},"additionalProperties":false}}}`))
	if err != nil {
		t.Fatal(err)
	}
	const depth = 4000
	key := strings.Repeat("k", 250)
	var b strings.Builder
	for range depth {
		b.WriteString(`{"kids":{"` + key + `":`)
	}
	b.WriteString(`{"kids":{`)
	for i := range 20 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"bad` + string(rune('a'+i)) + `":{"n":"x"}`)
	}
	b.WriteString(`}}`)
	b.WriteString(strings.Repeat("}}", depth))
	v, err := jsonvalue.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	vs := s.Validate(v)
	if len(vs) != 20 {
		t.Fatalf("%d violations, want 20", len(vs))
	}
	total := 0
	for _, x := range vs {
		total += len(x.Path) + len(x.Msg)
		if !strings.HasPrefix(x.Path, "kids.") || !strings.Contains(x.Path, "more levels") || !strings.HasSuffix(x.Path, ".n") {
			t.Errorf("path %s", x.Path)
		}
	}
	if max := 20 * (jsonpath.MaxSteps*(jsonpath.MaxName+8) + 100); total > max {
		t.Errorf("report of %d bytes, want at most %d", total, max)
	}
}
