package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/testdata/golden/decoders"
)

// TestGeneratedDecoders: the decoder mcpgen generates for decoders.Input
// must store exactly what encoding/json stores for the same arguments, for
// arguments the schema accepts: hand-picked edge cases, then random ones.
func TestGeneratedDecoders(t *testing.T) {
	s := decoders.NewServer()
	cases := []string{
		`{}`,
		`{"s":"plain","b":true,"i":-42,"i8":-128,"i64":9007199254740993,"u16":65535,"u64":18446744073709551615,"f32":3.4028235e38,"f64":-1.5e-300}`,
		`{"s":"esc \"q\" \\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 \ud800 lone","level":"high"}`,
		`{"i":1.0,"i8":1e2,"u16":2E3,"f32":1e-46,"f64":0}`,
		`{"ps":"p","pi":null,"inners":[],"ints":[1,-2,3],"counts":{"a":1,"b":-1}}`,
		`{"pi":7,"inner":{"name":"x","score":0.5,"next":{"name":"y"},"tags":["a",""]},"pinner":{"name":"z"}}`,
		`{"inners":[{"name":"a"},{"name":"b","tags":[]}],"byName":{"k":{"name":"v"},"n":{"name":""}}}`,
		`{"page":{"items":[{"name":"p1"},{"name":"p2","next":{"name":"p3"}}]}}`,
		`{"upper":{"a":1,"b\u00e9":2,"":3,"\ud800":4}}`,
		`{"when":"2026-11-21T10:00:00+01:00","raw":{"a":[1,{"b":null}]},"any":[1,"two",{"three":3}],"custom":{"V":"c"},"bytes":"aGVsbG8=","matrix":[[1,2],[3.5],[]]}`,
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		cases = append(cases, randomInput(r))
	}
	for _, args := range cases {
		decoders.Last = decoders.Input{}
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"keep","arguments":%s}}`, args)
		resp := string(s.NewConn(nil).Handle(context.Background(), []byte(req)))
		var want decoders.Input
		if err := json.Unmarshal([]byte(args), &want); err != nil {
			// encoding/json refuses some numbers the schema allows (1.0
			// for an int); the generated decoder leaves those to it, so
			// the call fails the same way.
			if !strings.Contains(resp, `"isError":true`) || !strings.Contains(resp, "cannot unmarshal number") {
				t.Errorf("arguments %s: encoding/json says %v, the server %s", args, err, resp)
			}
			continue
		}
		if !strings.Contains(resp, `"text":"kept"`) || strings.Contains(resp, "isError") {
			t.Fatalf("arguments %s: %s", args, resp)
		}
		if !reflect.DeepEqual(decoders.Last, want) {
			t.Errorf("arguments %s:\ngenerated decoder %+v\nencoding/json     %+v", args, decoders.Last, want)
		}
	}
}

// TestGeneratedDecoderErrorsNameTheField: a value the schema accepts but
// encoding/json refuses is reported with its path, down to a map key ""
// and to a field whose type encoding/json decodes.
func TestGeneratedDecoderErrorsNameTheField(t *testing.T) {
	s := decoders.NewServer()
	for args, want := range map[string]string{
		`{"counts":{"":1e2}}`:                                 `invalid arguments: counts[""]: json: cannot unmarshal number 1e2 into Go value of type int`,
		`{"when":"2026-07-28T09:30:00\u005a"}`:                `invalid arguments: when: parsing time "2026-07-28T09:30:00\\u005a"`, // time.Time reads the JSON text undecoded
		`{"inners":[{"name":"a"},{"name":"b","score":1e39}]}`: `invalid arguments: inners[1].score: json: cannot unmarshal number 1e39 into Go value of type float32`,
	} {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"keep","arguments":%s}}`, args)
		var resp struct {
			Result struct {
				Content []struct{ Text string }
				IsError bool
			}
		}
		if err := json.Unmarshal(s.NewConn(nil).Handle(context.Background(), []byte(req)), &resp); err != nil {
			t.Fatal(err)
		}
		if r := resp.Result; !r.IsError || len(r.Content) != 1 || !strings.HasPrefix(r.Content[0].Text, want) {
			t.Errorf("arguments %s: %+v; want an error starting %s", args, r, want)
		}
	}
}

// randomInput writes random arguments that satisfy decoders.Input's schema.
func randomInput(r *rand.Rand) string {
	var b strings.Builder
	fields := []func() string{
		func() string { return `"s":` + randomString(r) },
		func() string { return fmt.Sprintf(`"b":%v`, r.IntN(2) == 0) },
		func() string { return fmt.Sprintf(`"i":%d`, r.Int64()-math.MaxInt64/2) },
		func() string { return fmt.Sprintf(`"i8":%d`, r.IntN(256)-128) },
		func() string { return fmt.Sprintf(`"i64":%d`, r.Int64()) },
		func() string { return fmt.Sprintf(`"u16":%d`, r.IntN(65536)) },
		func() string { return fmt.Sprintf(`"u64":%d`, r.Uint64()) },
		func() string { return fmt.Sprintf(`"f32":%g`, float32(r.NormFloat64()*1e6)) },
		func() string { return fmt.Sprintf(`"f64":%v`, r.NormFloat64()*math.Pow(10, float64(r.IntN(40)-20))) },
		func() string { return `"level":` + []string{`"low"`, `"high"`}[r.IntN(2)] },
		func() string { return `"ps":` + randomString(r) },
		func() string { return []string{`"pi":null`, fmt.Sprintf(`"pi":%d`, r.IntN(1000))}[r.IntN(2)] },
		func() string { return `"inner":` + randomInner(r, 3) },
		func() string { return `"pinner":` + randomInner(r, 2) },
		func() string {
			return `"inners":[` + join(r.IntN(4), func() string { return randomInner(r, 1) }) + `]`
		},
		func() string {
			return `"ints":[` + join(r.IntN(5), func() string { return fmt.Sprint(r.IntN(2000) - 1000) }) + `]`
		},
		func() string {
			k := 0
			return `"counts":{` + join(r.IntN(4), func() string { k++; return fmt.Sprintf(`"k%d":%d`, k, r.IntN(9)) }) + `}`
		},
		func() string {
			return `"page":{"items":[` + join(r.IntN(3), func() string { return randomInner(r, 1) }) + `]}`
		},
		func() string {
			k := 0
			return `"upper":{` + join(r.IntN(4), func() string {
				k++ // distinct names, which UnmarshalText keeps distinct
				return fmt.Sprintf(`%s%d":%d`, strings.TrimSuffix(randomString(r), `"`), k, r.IntN(9))
			}) + `}`
		},
	}
	b.WriteByte('{')
	n := 0
	for _, f := range fields {
		if r.IntN(2) == 0 {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f())
		n++
	}
	b.WriteByte('}')
	return b.String()
}

func randomInner(r *rand.Rand, depth int) string {
	s := `{"name":` + randomString(r)
	if r.IntN(2) == 0 {
		s += fmt.Sprintf(`,"score":%g`, float32(r.Float64()))
	}
	if depth > 0 && r.IntN(3) == 0 {
		s += `,"next":` + randomInner(r, depth-1)
	}
	if r.IntN(2) == 0 {
		s += `,"tags":[` + join(r.IntN(3), func() string { return randomString(r) }) + `]`
	}
	return s + "}"
}

func join(n int, f func() string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f()
	}
	return strings.Join(parts, ",")
}

// randomString is a JSON string literal with escapes, multi-byte runes and
// surrogate pairs, half-pairs included.
func randomString(r *rand.Rand) string {
	pieces := []string{`a`, `Z`, ` `, `\"`, `\\`, `\/`, `\n`, `\t`, `\u0000`, `\u00e9`, `é`, `日本`, `\ud83d\ude00`, `\ud83d`, `\ude00x`, `😀`, `<&>`}
	var b strings.Builder
	b.WriteByte('"')
	for range r.IntN(8) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	b.WriteByte('"')
	return b.String()
}
