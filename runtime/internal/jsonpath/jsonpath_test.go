package jsonpath

import (
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	long := strings.Repeat("k", 250)
	deep := make([]Step, 0, 4001)
	for range 2000 {
		deep = append(deep, Member("kids"), Member(long))
	}
	deep = append(deep, Member("value"))
	k40 := strings.Repeat("k", 40)
	for _, c := range []struct {
		steps []Step
		want  string
	}{
		{nil, ""},
		{[]Step{Member("address"), Member("city")}, "address.city"},
		{[]Step{Member("labels"), Index(2)}, "labels[2]"},
		{[]Step{Member("counts"), Member("a b")}, `counts["a b"]`},
		{[]Step{Member(""), Index(0), Member("x")}, `[""][0].x`},
		{[]Step{Member("grid"), Index(0), Index(1)}, "grid[0][1]"},
		{[]Step{Member(strings.Repeat("é", 30))}, `["` + strings.Repeat("é", 20) + `…"]`},
		{deep, "kids." + k40 + "….kids…(3991 more levels)….kids." + k40 + "….kids." + k40 + "….kids." + k40 + "….value"},
	} {
		if got := Format(c.steps); got != c.want {
			t.Errorf("Format(%d steps) = %s\nwant %s", len(c.steps), got, c.want)
		}
	}
}

// TestFormatDeep: a path 100,000 levels deep under 250-byte keys is
// written short, the same from either end.
func TestFormatDeep(t *testing.T) {
	deep := make([]Step, 100_000)
	for i := range deep {
		deep[i] = Member(strings.Repeat("x", 250))
	}
	got := Format(deep)
	if len(got) > MaxSteps*(MaxName+8)+64 {
		t.Errorf("path of %d bytes", len(got))
	}
	if FormatReversed(deep) != got {
		t.Error("FormatReversed differs on a symmetric path")
	}
}
