package wire

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

func mustParse(t *testing.T, s string) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNegotiate(t *testing.T) {
	for requested, want := range map[string]string{
		V2024_11_05: V2024_11_05, V2025_06_18: V2025_06_18, V2025_11_25: V2025_11_25,
		V2026_07_28: V2025_11_25, "1999-01-01": V2025_11_25, "": V2025_11_25,
	} {
		if got := Negotiate(requested); got != want {
			t.Errorf("Negotiate(%q) = %q, want %q", requested, got, want)
		}
	}
	if !BatchesAllowed(V2025_03_26) || BatchesAllowed(V2025_06_18) || BatchesAllowed("") {
		t.Error("batches are allowed in 2024-11-05 and 2025-03-26 only")
	}
}

func TestHTTPStatus(t *testing.T) {
	for code, want := range map[int]int{
		jsonrpc.MethodNotFound: 404, jsonrpc.InvalidParams: 400, jsonrpc.ParseError: 400, jsonrpc.InvalidRequest: 400,
		HeaderMismatch: 400, MissingCapability: 400, UnsupportedVersion: 400,
		jsonrpc.InternalError: 200, ResourceNotFound: 200, URLElicitationRequired: 200, 0: 200,
	} {
		if got := HTTPStatus(code); got != want {
			t.Errorf("HTTPStatus(%d) = %d, want %d", code, got, want)
		}
	}
}

func TestReadRequestMeta(t *testing.T) {
	m, err := ReadRequestMeta(mustParse(t, `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
		"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}},"roots":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},
		"io.modelcontextprotocol/logLevel":"warning"}}`))
	if err != nil || m.Version != V2026_07_28 || m.LogLevel != 3 || !m.Caps.ElicitURL || m.Caps.ElicitForm || !m.Caps.Roots ||
		!m.Caps.HasExtension("io.modelcontextprotocol/tasks") || !m.Supported() {
		t.Fatalf("%+v %v", m, err)
	}
	if !HasRequestMeta(mustParse(t, `{"_meta":{"io.modelcontextprotocol/protocolVersion":1}}`)) || HasRequestMeta(mustParse(t, `{"_meta":[1]}`)) || HasRequestMeta(jsonvalue.Value{}) {
		t.Error("HasRequestMeta")
	}
	for params, want := range map[string]string{
		`{}`:          "needs params._meta",
		`{"_meta":1}`: "needs params._meta",
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":1}}`:                                                                                             "must be a string",
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}`:                                                                                           "must be an object",
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/clientCapabilities":[]}}`:                                           "must be an object",
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}`: "must be one of debug",
	} {
		if _, err := ReadRequestMeta(mustParse(t, params)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", params, err, want)
		}
	}
	m.Version = "2027-01-01"
	uv := &UnsupportedVersionError{Requested: m.Version}
	if m.Supported() || string(uv.Data()) != `{"supported":["2026-07-28"],"requested":"2027-01-01"}` {
		t.Errorf("an unsupported version: %v", uv.Data())
	}
}

func TestParseClientCaps(t *testing.T) {
	c := ParseClientCaps(mustParse(t, `{"elicitation":{},"sampling":{"tools":{}}}`))
	if !c.ElicitForm || c.ElicitURL || !c.Sampling || !c.SamplingTools || c.Roots {
		t.Errorf("%+v", c)
	}
	for _, odd := range []string{`[1]`, `"x"`, `{"elicitation":[1],"sampling":"yes","roots":true,"extensions":[1]}`} {
		if c := ParseClientCaps(mustParse(t, odd)); c.ElicitForm || c.Sampling || c.Roots || len(c.Extensions) > 0 {
			t.Errorf("%s declared %+v", odd, c)
		}
	}
}

// TestRequestStateBinding: a sealed state opens only for the request it
// was made for, before it expires, and under the key that sealed it.
func TestRequestStateBinding(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	a := NewBox([]byte("replica key"), StatePurpose)
	digest := ArgsDigest(mustParse(t, `{"b":[1,"\u0041"],"a":{"y":2,"x":1}}`))
	token, err := SealState(a, &RoundState{Method: "tools/call", Target: "t", Digest: digest, Expires: now.Unix() + 60,
		Answers: map[string]json.RawMessage{"k": json.RawMessage(`{"action":"decline"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	// The same arguments, written otherwise, and another replica with the
	// same key.
	same := ArgsDigest(mustParse(t, `{ "a":{"x":1.0,"y":2}, "b":[1,"A"] }`))
	b := NewBox([]byte("replica key"), StatePurpose)
	st, err := OpenState(b, token, "tools/call", "t", same, now)
	if err != nil || string(st.Answers["k"]) != `{"action":"decline"}` {
		t.Fatalf("open: %v %+v", err, st)
	}
	for name, try := range map[string]func() error{
		"other key": func() error {
			_, err := OpenState(NewBox([]byte("other"), StatePurpose), token, "tools/call", "t", same, now)
			return err
		},
		"other purpose": func() error {
			_, err := OpenState(NewBox([]byte("replica key"), "mcpgen task record v1"), token, "tools/call", "t", same, now)
			return err
		},
		"random key": func() error {
			_, err := OpenState(NewBox(nil, StatePurpose), token, "tools/call", "t", same, now)
			return err
		},
		"other method": func() error { _, err := OpenState(a, token, "prompts/get", "t", same, now); return err },
		"other target": func() error { _, err := OpenState(a, token, "tools/call", "u", same, now); return err },
		"other arguments": func() error {
			_, err := OpenState(a, token, "tools/call", "t", ArgsDigest(mustParse(t, `{"a":1}`)), now)
			return err
		},
		"expired": func() error {
			_, err := OpenState(a, token, "tools/call", "t", same, now.Add(61*time.Second))
			return err
		},
		"not base64": func() error { _, err := OpenState(a, "!!", "tools/call", "t", same, now); return err },
		"truncated":  func() error { _, err := OpenState(a, token[:10], "tools/call", "t", same, now); return err },
	} {
		if err := try(); err != ErrBadState {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestHeaderValue(t *testing.T) {
	for in, want := range map[string]string{"plain": "plain", "=?base64?aMOpbGxv?=": "héllo", "": ""} {
		if got, ok := HeaderValue(in); !ok || got != want {
			t.Errorf("HeaderValue(%q) = %q, %v", in, got, ok)
		}
	}
	for _, bad := range []string{"h\u00e9", "tab\there", "=?base64?!!?=", "=?base64?/w==?="} {
		if _, ok := HeaderValue(bad); ok {
			t.Errorf("HeaderValue(%q) accepted", bad)
		}
	}
	hdr := http.Header{}
	hdr.Add("Mcp-Name", "a")
	hdr.Add("Mcp-Name", "b")
	if _, present, err := OneHeader(hdr, "Mcp-Name"); !present || err == nil {
		t.Error("a repeated header was taken")
	}
}

// TestSameParamIntegers: an integer header equals the body's number
// exactly, and only a plain decimal integer is read as one; through a
// float64, 9007199254740993 passed for 9007199254740992.
func TestSameParamIntegers(t *testing.T) {
	for _, tc := range []struct {
		header, body string
		want         bool
	}{
		{"42", "42", true},
		{"42", "42.0", true},
		{"42", "4.2e1", true},
		{"-7", "-7", true},
		{"9007199254740993", "9007199254740992", false},
		{"9007199254740993", "9007199254740993", true},
		{"0x15p1", "42", false},
		{"+42", "42", false},
		{"4.2e1", "42", false},
		{"42.0", "42", true},
		{"42.00", "42.0", true},
		{"42.5", "42.5", false},
		{"42.", "42", false},
		{"042", "42", false},
		{"", "0", false},
		{"-", "0", false},
	} {
		if got := SameParam("integer", tc.header, mustParse(t, tc.body)); got != tc.want {
			t.Errorf("header %q, body %s: %v, want %v", tc.header, tc.body, got, tc.want)
		}
	}
	if SameParam("boolean", "True", mustParse(t, "true")) || !SameParam("boolean", "true", mustParse(t, "true")) {
		t.Error("booleans compare exactly")
	}
}

// TestHeaderParamsReachable: an x-mcp-header is honoured only on a
// property reached from the root through properties alone; one anywhere
// else (a named struct's field under $defs, items, oneOf) makes the tool
// invalid, as clients drop it, and is refused. Before, the runtime walked
// top-level properties only and advertised an annotation under $defs that
// it never checked.
func TestHeaderParamsReachable(t *testing.T) {
	ps, err := HeaderParams([]byte(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"target":{"type":"object","properties":{"id":{"type":"integer","x-mcp-header":"Target-Id"}}},
		"x-mcp-header":{"type":"string","default":{"x-mcp-header":"not an annotation"}}}}`))
	if err != nil || len(ps) != 2 || strings.Join(ps[1].Path, "/") != "target/id" || ps[1].Type != "integer" {
		t.Fatalf("%+v %v", ps, err)
	}
	hdr := http.Header{"Mcp-Param-Region": {"eu"}, "Mcp-Param-Target-Id": {"8"}}
	if msg := CheckParamHeaders(ps, mustParse(t, `{"region":"eu","target":{"id":7}}`), hdr, true); !strings.Contains(msg, "does not match the argument /target/id") {
		t.Errorf("a nested header that differs from the body passed: %q", msg)
	}
	if msg := CheckParamHeaders(ps, mustParse(t, `{"region":"eu","target":{"id":8}}`), hdr, true); msg != "" {
		t.Errorf("agreeing headers refused: %s", msg)
	}
	if msg := CheckParamHeaders(ps, mustParse(t, `{"region":"eu"}`), http.Header{"Mcp-Param-Region": {"eu"}}, true); msg != "" {
		t.Errorf("an absent argument needs no header: %s", msg)
	}
	if msg := CheckParamHeaders(ps, mustParse(t, `{"region":"eu","target":{"id":7}}`), http.Header{"Mcp-Param-Region": {"eu"}}, false); msg != "" {
		t.Errorf("a header that is not required and absent: %s", msg)
	}
	if msg := CheckParamHeaders(ps, mustParse(t, `{"region":"eu","target":{"id":7}}`), hdr, false); msg == "" {
		t.Error("a header that is present must agree, required or not")
	}
	for _, unreachable := range []string{
		`{"type":"object","properties":{"t":{"$ref":"#/$defs/T"}},"$defs":{"T":{"type":"object","properties":{"id":{"type":"string","x-mcp-header":"Id"}}}}}`,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}`,
		`{"type":"object","properties":{"o":{"oneOf":[{"type":"string","x-mcp-header":"O"}]}}}`,
		`{"type":"object","properties":{"c":{"if":{"type":"string","x-mcp-header":"C"}}}}`,
	} {
		if _, err := HeaderParams([]byte(unreachable)); err == nil || !strings.Contains(err.Error(), "not reachable") {
			t.Errorf("%s: %v", unreachable, err)
		}
	}
	for _, schema := range []string{
		`{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A B"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"a"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}`,
		`{"type":"object","x-mcp-header":"Root","properties":{}}`,
	} {
		if _, err := HeaderParams([]byte(schema)); err == nil {
			t.Errorf("accepted %s", schema)
		}
	}
}

// TestBox: a sealed record opens only under the key and purpose that
// sealed it, for the additional data it was sealed with, unchanged.
func TestBox(t *testing.T) {
	b := NewBox([]byte("replica key"), "tasks")
	sealed := b.Seal([]byte("the record"), []byte("task:1"))
	if got, err := NewBox([]byte("replica key"), "tasks").Open(sealed, []byte("task:1")); err != nil || string(got) != "the record" {
		t.Fatalf("open: %q %v", got, err)
	}
	if strings.Contains(string(sealed), "the record") {
		t.Error("the record is in clear")
	}
	changed := append([]byte(nil), sealed...)
	changed[len(changed)-1] ^= 1
	for name, try := range map[string]func() ([]byte, error){
		"other key":  func() ([]byte, error) { return NewBox([]byte("other"), "tasks").Open(sealed, []byte("task:1")) },
		"random key": func() ([]byte, error) { return NewBox(nil, "tasks").Open(sealed, []byte("task:1")) },
		"other purpose": func() ([]byte, error) {
			return NewBox([]byte("replica key"), "sessions").Open(sealed, []byte("task:1"))
		},
		"other key name": func() ([]byte, error) { return b.Open(sealed, []byte("task:2")) },
		"changed":        func() ([]byte, error) { return b.Open(changed, []byte("task:1")) },
		"truncated":      func() ([]byte, error) { return b.Open(sealed[:10], []byte("task:1")) },
	} {
		if _, err := try(); err != ErrBadRecord {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestBoxName: a record's name is the same for every holder of the key
// and purpose, says nothing of the id it stands for, and differs under
// another key or purpose.
func TestBoxName(t *testing.T) {
	b := NewBox([]byte("replica key"), "tasks")
	name := b.Name("TASKID1")
	if again := NewBox([]byte("replica key"), "tasks").Name("TASKID1"); again != name {
		t.Errorf("the same id under the same key: %q, then %q", name, again)
	}
	if len(name) != 43 || strings.Contains(name, "TASKID1") {
		t.Errorf("name %q: want 43 bytes of base64 that do not hold the id", name)
	}
	for what, other := range map[string]string{
		"another id":      b.Name("TASKID2"),
		"another key":     NewBox([]byte("other"), "tasks").Name("TASKID1"),
		"another purpose": NewBox([]byte("replica key"), "sessions").Name("TASKID1"),
	} {
		if other == name {
			t.Errorf("%s has the same name %q", what, name)
		}
	}
}
