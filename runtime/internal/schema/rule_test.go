package schema

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// TestViolationRule: a violation's Rule says what the value must be, and
// nothing of the value, for every check that can fail on a string or a
// number, even when the schema's own text holds "; got ".
func TestViolationRule(t *testing.T) {
	for _, tc := range []struct{ schema, value string }{
		{`{"type":"integer"}`, `"ZZsecret"`},
		{`{"const":"x"}`, `"ZZsecret"`},
		{`{"enum":["a","b"]}`, `"ZZsecret"`},
		{`{"type":"string","format":"email"}`, `"ZZsecret"`},
		{`{"type":"string","format":"uri"}`, `"ZZsecret"`},
		{`{"type":"string","pattern":"^tok_"}`, `"ZZsecret"`},
		{`{"type":"string","pattern":"; got ZZ"}`, `"ZZsecret"`},
		{`{"type":"string","minLength":64}`, `"ZZsecret"`},
		{`{"type":"string","maxLength":2}`, `"ZZsecret"`},
		{`{"anyOf":[{"type":"integer"},{"type":"boolean"}]}`, `"ZZsecret"`},
		{`{"oneOf":[{"type":"string","pattern":"^a"},{"type":"string","pattern":"^b"}]}`, `"ZZsecret"`},
		{`{"type":"number","minimum":1e300}`, `77777`},
		{`{"type":"number","maximum":1}`, `77777`},
		{`{"type":"number","exclusiveMinimum":1e300}`, `77777`},
		{`{"type":"number","exclusiveMaximum":1}`, `77777`},
		{`{"type":"number","multipleOf":2}`, `77777`},
	} {
		s, err := Compile([]byte(tc.schema))
		if err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		v, err := jsonvalue.Parse([]byte(tc.value))
		if err != nil {
			t.Fatal(err)
		}
		vios := s.Validate(v)
		if len(vios) == 0 {
			t.Errorf("%s: %s passes", tc.schema, tc.value)
		}
		secret := strings.Trim(tc.value, `"`)
		for _, vio := range vios {
			if rule := vio.Rule(); rule == "" || strings.Contains(rule, secret) || strings.Contains(rule, "secret") {
				t.Errorf("%s: the rule of %q is %q", tc.schema, vio.Msg, rule)
			}
		}
	}
}
