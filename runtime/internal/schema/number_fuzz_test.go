package schema

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// FuzzNumber feeds arbitrary bytes that are a JSON number to the exact
// decimal arithmetic of the validator and compares it with math/big.
// Run it with
//
//	go test ./runtime/internal/schema -run XXX -fuzz FuzzNumber -fuzztime 5m -parallel 1
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "1", "-1.5", "0.25", "1e2", "1E-7", "123456789012345678901234567890", "1.0000000000000000000001", "-2147483648", "9007199254740993", "7e-3", "1e400", "0.000"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := jsonvalue.Parse(raw)
		if err != nil || v.Kind() != jsonvalue.Number || len(v.Raw()) != len(raw) {
			return
		}
		checkNumber(t, raw)
	})
}

// checkNumber compares the validator's exact decimal arithmetic with
// math/big on numbers small enough for big.Rat to be quick.
func checkNumber(t *testing.T, raw []byte) {
	d := parseDecimal(raw)
	if e := bytes.IndexAny(raw, "eE"); len(raw) > 300 || (e >= 0 && len(raw)-e > 5) {
		return // an exponent beyond ±999: big.Rat would be slow, or refuse
	}
	r, ok := new(big.Rat).SetString(string(raw))
	if !ok {
		t.Fatalf("big.Rat cannot read the JSON number %q", raw)
	}
	if isInteger(raw) != r.IsInt() {
		t.Fatalf("isInteger(%s) = %v", raw, isInteger(raw))
	}
	for _, c := range fuzzBounds {
		cd := parseDecimal([]byte(c))
		cr, _ := new(big.Rat).SetString(c)
		if got, want := cmpDecimal(&d, &cd), r.Cmp(cr); got != want {
			t.Fatalf("cmpDecimal(%s, %s) = %d, want %d", raw, c, got, want)
		}
		if got, want := string(d.appendCanonical(nil)) == string(cd.appendCanonical(nil)), r.Cmp(cr) == 0; got != want {
			t.Fatalf("canonical forms of %s and %s: equal=%v, want %v", raw, c, got, want)
		}
		if cr.Sign() > 0 {
			m, err := newMultiple([]byte(c))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := m.isMultiple(&d), new(big.Rat).Quo(r, cr).IsInt(); got != want {
				t.Fatalf("isMultiple(%s, %s) = %v, want %v", raw, c, got, want)
			}
		}
	}
}

var fuzzBounds = []string{"0", "1", "-1", "0.25", "127", "-2147483648", "1e-7", "3", "7e-3", "123456789012345678901234567890"}
