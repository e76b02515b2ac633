package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// The seed corpora are in testdata/fuzz/<FuzzName>/. Run a target with
//
//	go test ./runtime -run XXX -fuzz FuzzDecodeMessage -fuzztime 5m -parallel 1

// FuzzDecodeMessage feeds arbitrary bytes to the JSON-RPC decode path. It
// checks that decodeMessage never panics and answers exactly what it
// should; that parseValue accepts exactly what encoding/json's json.Valid
// accepts and builds the same tree encoding/json decodes (member names and
// strings unescaped alike, invalid UTF-8 and lone surrogates becoming
// U+FFFD alike, a repeated member name resolved alike); that the raw bytes
// of every node parse back to that node; that unquote agrees with
// encoding/json and appendString round-trips; and that the exact number
// arithmetic the validator uses agrees with math/big.
func FuzzDecodeMessage(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecodeMessage(t, data)

		v, err := parseValue(data)
		if valid := json.Valid(data); (err == nil) != valid {
			t.Fatalf("parseValue error %v, but json.Valid = %v, for %q", err, valid, data)
		}
		if err == nil {
			checkTree(t, data, &v)
		}

		// The same bytes as the content of a string literal.
		lit := append(append([]byte{'"'}, data...), '"')
		if json.Valid(lit) {
			checkString(t, lit)
		}
	})
}

// checkDecodeMessage checks what decodeMessage makes of data against
// encoding/json's reading of it.
func checkDecodeMessage(t *testing.T, data []byte) {
	m, errResp := decodeMessage(data)
	valid := json.Valid(data)

	// encoding/json's view of a message: a map, because a struct would
	// match member names case-insensitively ("jsonrpC"); a repeated member:
	// the last wins, as in messageFromValue.
	var obj map[string]json.RawMessage
	isObject := valid && bytes.TrimLeft(data, " \t\r\n")[0] == '{' && json.Unmarshal(data, &obj) == nil
	env := struct{ JSONRPC, ID, Method, Params, Result, Error json.RawMessage }{
		obj["jsonrpc"], obj["id"], obj["method"], obj["params"], obj["result"], obj["error"],
	}

	switch {
	case errResp != nil:
		if m != nil {
			t.Fatalf("decodeMessage returned both a message and an error response for %q", data)
		}
		code, id := checkErrorResponse(t, errResp)
		switch {
		case !valid:
			if code != CodeParseError || string(id) != "null" {
				t.Fatalf("invalid JSON %q answered with code %d, id %s; want %d, null", data, code, id, CodeParseError)
			}
		case code == CodeParseError:
			t.Fatalf("valid JSON %q answered with a parse error", data)
		case string(id) != "null" && (!isObject || string(id) != string(env.ID)):
			t.Fatalf("error response id %s is not the request's id %s; input %q", id, env.ID, data)
		}
	case m != nil:
		if !isObject {
			t.Fatalf("decodeMessage made a message of %q, which is not a JSON object", data)
		}
		var method string
		if err := json.Unmarshal(env.Method, &method); err != nil || method != m.method {
			t.Fatalf("method %q, encoding/json reads %s (%v); input %q", m.method, env.Method, err, data)
		}
		if string(env.JSONRPC) != `"2.0"` {
			t.Fatalf("accepted jsonrpc %s in %q", env.JSONRPC, data)
		}
		switch {
		case m.id == nil:
			if env.ID != nil {
				t.Fatalf("a message with id %s decoded as a notification: %q", env.ID, data)
			}
		case m.id.kind != kindString && m.id.kind != kindNumber:
			t.Fatalf("accepted an id of kind %s: %q", m.id.kind, data)
		case string(m.id.raw) != string(env.ID):
			t.Fatalf("id %s, encoding/json reads %s; input %q", m.id.raw, env.ID, data)
		}
		if m.params != nil && m.params.kind != kindObject {
			t.Fatalf("params of kind %s accepted: %q", m.params.kind, data)
		}
	default: // a response from the client, or a notification with bad params
		if !isObject || (env.Result == nil && env.Error == nil && env.ID != nil) {
			t.Fatalf("decodeMessage ignored %q without a word", data)
		}
	}
}

// checkErrorResponse checks that b is a JSON-RPC error response and
// returns its code and id.
func checkErrorResponse(t *testing.T, b []byte) (int, json.RawMessage) {
	t.Helper()
	answered := map[string]int{}
	checkOutMessage(t, b, b, answered, false)
	var r map[string]json.RawMessage
	var e map[string]json.RawMessage
	var code int
	if json.Unmarshal(b, &r) != nil || json.Unmarshal(r["error"], &e) != nil || json.Unmarshal(e["code"], &code) != nil {
		t.Fatalf("not an error response: %s", b)
	}
	switch code {
	case CodeParseError, CodeInvalidRequest, CodeInvalidParams:
	default:
		t.Fatalf("unexpected error code in %s", b)
	}
	return code, r["id"]
}

// checkTree compares the tree parsed from data with encoding/json's
// decoding, and re-parses the raw bytes of its nodes.
func checkTree(t *testing.T, data []byte, v *value) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("json.Valid accepted %q but Decode failed: %v", data, err)
	}
	if got := toAny(v); !reflect.DeepEqual(got, want) {
		t.Fatalf("parseValue and encoding/json disagree on %q:\nours: %#v\njson: %#v", data, got, want)
	}
	// Re-parsing every node's raw costs the sum of the nodes' sizes,
	// quadratic in the nesting; past a budget only small nodes are
	// re-parsed, so that deeply nested inputs stay quick to fuzz.
	budget := 64 << 10
	var walk func(n *value, depth int)
	walk = func(n *value, depth int) {
		if budget > 0 || len(n.raw) <= 256 {
			budget -= len(n.raw)
			w, err := parseValue(n.raw)
			if err != nil {
				t.Fatalf("the raw bytes %q of a node do not parse: %v", n.raw, err)
			}
			if !sameTree(&w, n) {
				t.Fatalf("the raw bytes %q of a node parse to a different value", n.raw)
			}
		}
		switch n.kind {
		case kindString:
			checkString(t, n.raw)
		case kindNumber:
			checkNumber(t, n.raw)
		case kindArray:
			for i := range n.elems {
				walk(&n.elems[i], depth+1)
			}
		case kindObject:
			for i, raw := range memberNames(t, n) {
				m := &n.members[i]
				var name string
				if err := json.Unmarshal(raw, &name); err != nil || name != m.name {
					t.Fatalf("member name %q, encoding/json reads %q from %q (%v)", m.name, name, raw, err)
				}
				checkString(t, raw)
				walk(&m.value, depth+1)
			}
		}
	}
	walk(v, 0)
}

// memberNames returns the raw bytes of the member names of the object v,
// found by re-scanning v.raw.
func memberNames(t *testing.T, v *value) [][]byte {
	var out [][]byte
	p := parser{data: v.raw, pos: 1}
	for range v.members {
		p.skipSpace()
		start := p.pos
		if err := p.skipString(); err != nil {
			t.Fatalf("re-scanning %q: %v", v.raw, err)
		}
		out = append(out, v.raw[start:p.pos])
		p.skipSpace()
		p.pos++ // ':'
		p.skipSpace()
		if _, err := p.value(0); err != nil {
			t.Fatalf("re-scanning %q: %v", v.raw, err)
		}
		p.skipSpace()
		p.pos++ // ',' or '}'
	}
	return out
}

func toAny(v *value) any {
	switch v.kind {
	case kindNull:
		return nil
	case kindBool:
		return string(v.raw) == "true"
	case kindNumber:
		return json.Number(v.raw)
	case kindString:
		return v.str()
	case kindArray:
		out := make([]any, 0, len(v.elems))
		for i := range v.elems {
			out = append(out, toAny(&v.elems[i]))
		}
		return out
	default:
		out := make(map[string]any, len(v.members))
		for i := range v.members {
			out[v.members[i].name] = toAny(&v.members[i].value)
		}
		return out
	}
}

func sameTree(a, b *value) bool {
	if a.kind != b.kind || !bytes.Equal(a.raw, b.raw) || len(a.elems) != len(b.elems) || len(a.members) != len(b.members) {
		return false
	}
	for i := range a.elems {
		if !sameTree(&a.elems[i], &b.elems[i]) {
			return false
		}
	}
	for i := range a.members {
		if a.members[i].name != b.members[i].name || !sameTree(&a.members[i].value, &b.members[i].value) {
			return false
		}
	}
	return true
}

// checkString compares unquote with encoding/json on the string literal
// lit, and round-trips the result through appendString.
func checkString(t *testing.T, lit []byte) {
	got, err := unquote(lit)
	if err != nil {
		t.Fatalf("unquote(%q): %v", lit, err)
	}
	var want string
	if err := json.Unmarshal(lit, &want); err != nil {
		t.Fatalf("encoding/json cannot unmarshal %q: %v", lit, err)
	}
	if got != want {
		t.Fatalf("unquote(%q) = %q, encoding/json: %q", lit, got, want)
	}
	if !utf8.ValidString(got) {
		t.Fatalf("unquote(%q) is not valid UTF-8", lit)
	}
	enc := appendString(nil, got)
	var back string
	if err := json.Unmarshal(enc, &back); err != nil || back != got {
		t.Fatalf("appendString(%q) = %s, which decodes to %q (%v)", got, enc, back, err)
	}
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

// ---------------------------------------------------------------------

// fuzzMaxMessage is the line limit of the stdio fuzz server: small, so
// that the fuzzer reaches it.
const fuzzMaxMessage = 512

// FuzzServeStdio feeds arbitrary bytes, as lines, through (*Server).Serve
// with a small MaxMessageSize and a few trivial tools. Serve must never
// panic, must return on its own at EOF (a context deadline bounds the
// wait, so a deadlock fails instead of hanging), and must write only
// complete lines, each a JSON-RPC response or notification; every
// response's id must come from the input, no id may be answered more
// often than it was sent, and every well-formed request gets an answer.
func FuzzServeStdio(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		srv := newFuzzServer()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var out lockedBuffer
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, bytes.NewReader(data), &out) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Serve: %v (input %q)", err, data)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("Serve did not return (deadlock?) on %q", data)
		}
		if ctx.Err() != nil {
			t.Fatalf("Serve only returned because its context expired (a hang) on %q", data)
		}
		checkServeOutput(t, data, out.Bytes())
	})
}

const fuzzEchoSchema = `{"type":"object","properties":{"n":{"type":"integer","minimum":-5,"maximum":10},` +
	`"s":{"type":"string","maxLength":8},"do":{"enum":["panic","error","log","progress","nil"]}},"additionalProperties":false}`

func newFuzzServer() *Server {
	srv := &Server{
		Name: "fuzz", Version: "1",
		MaxMessageSize:  fuzzMaxMessage,
		MaxInFlight:     2,
		ShutdownTimeout: 2 * time.Second,
		Logger:          slog.New(slog.DiscardHandler),
	}
	srv.AddTool(&Tool{
		Name:        "echo",
		InputSchema: fuzzEchoSchema,
		Handler: func(ctx context.Context, req *Request) (*Result, error) {
			var in struct {
				Do string `json:"do"`
			}
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			switch in.Do {
			case "panic":
				panic("fuzz panic")
			case "error":
				return nil, errors.New("fuzz error")
			case "log":
				Logger(ctx).Info("fuzz log", "args", string(req.Arguments))
			case "progress":
				ReportProgress(ctx, 1, 2, "half")
			case "nil":
				return nil, nil
			}
			return TextResult(string(req.Arguments)), nil
		},
	})
	srv.AddTool(&Tool{
		Name:    "slow",
		Timeout: 5 * time.Millisecond,
		Handler: func(ctx context.Context, req *Request) (*Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	return srv
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.b.Bytes())
}

// checkServeOutput checks every line Serve wrote for the input in.
func checkServeOutput(t *testing.T, in, out []byte) {
	if len(out) > 0 && out[len(out)-1] != '\n' {
		t.Fatalf("output does not end with a complete line: %q", out)
	}
	answered := map[string]int{} // response id -> responses
	tooLong := 0                 // "message of N bytes exceeds the limit" errors
	for line := range bytes.Lines(out) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if !json.Valid(line) {
			t.Fatalf("output line is not JSON: %q (input %q)", line, in)
		}
		switch line[0] {
		case '{':
			msg := checkOutMessage(t, line, in, answered, true)
			if strings.HasPrefix(msg, "invalid request: message of ") && strings.HasSuffix(msg, fmt.Sprintf(" bytes exceeds the limit of %d bytes", fuzzMaxMessage)) {
				if !bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","id":null,`)) {
					t.Fatalf("a refusal of an overlong line with an id: %s", line)
				}
				tooLong++
			}
		case '[':
			var batch []json.RawMessage
			if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
				t.Fatalf("output batch %q: %v", line, err)
			}
			for _, e := range batch {
				if len(e) == 0 || e[0] != '{' {
					t.Fatalf("batch element %q is not an object", e)
				}
				checkOutMessage(t, e, in, answered, false)
			}
		default:
			t.Fatalf("output line is neither an object nor a batch: %q", line)
		}
	}

	// What was sent, line by line as the server splits it.
	sent := map[string]int{}     // id -> lines (or batch elements) carrying it
	expected := map[string]int{} // id -> well-formed single requests
	cancels := bytes.Contains(in, []byte("notifications/cancelled"))
	overlong := 0
	for seg := range bytes.Lines(in) {
		if len(seg) > fuzzMaxMessage {
			overlong++
			continue // refused with a null id
		}
		line := bytes.Trim(seg, " \t\r\n")
		v, err := parseValue(line)
		if err != nil {
			continue
		}
		objs := []*value{&v}
		if v.kind == kindArray {
			objs = nil
			for i := range v.elems {
				objs = append(objs, &v.elems[i])
			}
		}
		for _, o := range objs {
			if o.kind != kindObject {
				continue
			}
			id := lastMember(o, "id")
			if id == nil {
				continue
			}
			sent[string(id.raw)]++
			if v.kind != kindObject || (id.kind != kindString && id.kind != kindNumber) {
				continue
			}
			jsonrpc, method := lastMember(o, "jsonrpc"), lastMember(o, "method")
			if jsonrpc == nil || string(jsonrpc.raw) != `"2.0"` || method == nil || method.kind != kindString {
				continue
			}
			if method.str() == "tools/call" && cancels {
				continue // it may have been cancelled: no response then
			}
			expected[string(id.raw)]++
		}
	}
	if tooLong != overlong {
		t.Fatalf("%d lines over the limit, %d refusals (input %q, output %q)", overlong, tooLong, in, out)
	}
	for id, n := range answered {
		if id != "null" && n > sent[id] {
			t.Fatalf("id %s answered %d times but sent %d times (input %q, output %q)", id, n, sent[id], in, out)
		}
	}
	for id := range expected {
		if answered[id] == 0 {
			t.Fatalf("request with id %s got no response (input %q, output %q)", id, in, out)
		}
	}
}

// lastMember returns the last member called name, as encoding/json and
// messageFromValue resolve a repeated name.
func lastMember(o *value, name string) *value {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].name == name {
			return &o.members[i].value
		}
	}
	return nil
}

// checkOutMessage checks one message the server wrote. (A map, not a
// struct: encoding/json would match "Result" to a field tagged "result".)
func checkOutMessage(t *testing.T, b, in []byte, answered map[string]int, notificationOK bool) (errMsg string) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("output message %s: %v", b, err)
	}
	for k := range m {
		switch k {
		case "jsonrpc", "id", "method", "params", "result", "error":
		default:
			t.Fatalf("output message with member %q: %s", k, b)
		}
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("output message without jsonrpc 2.0: %s", b)
	}
	if method, ok := m["method"]; ok {
		params := m["params"]
		if !notificationOK || m["id"] != nil || m["result"] != nil || m["error"] != nil ||
			(string(method) != `"notifications/progress"` && string(method) != `"notifications/message"`) ||
			len(params) == 0 || params[0] != '{' {
			t.Fatalf("malformed notification %s", b)
		}
		return ""
	}
	id, result, rpcErr := m["id"], m["result"], m["error"]
	if id == nil || (result == nil) == (rpcErr == nil) || m["params"] != nil {
		t.Fatalf("malformed response %s", b)
	}
	switch id[0] {
	case 'n': // null
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if !bytes.Contains(in, id) {
			t.Fatalf("response id %s does not occur in the input %q", id, in)
		}
	default:
		t.Fatalf("response id %s is neither a string, a number nor null", id)
	}
	answered[string(id)]++
	if rpcErr != nil {
		var e map[string]json.RawMessage
		if err := json.Unmarshal(rpcErr, &e); err != nil || len(e) != 2 {
			t.Fatalf("error is not {code, message}: %s", b)
		}
		var code int
		var msg string
		if json.Unmarshal(e["code"], &code) != nil || json.Unmarshal(e["message"], &msg) != nil || msg == "" {
			t.Fatalf("error without an integer code or a message: %s", b)
		}
		if code > -32000 || code < -32800 {
			t.Fatalf("error code is not a JSON-RPC code: %s", b)
		}
		return msg
	}
	if result[0] != '{' {
		t.Fatalf("result is not an object: %s", b)
	}
	return ""
}

// TestFuzzSeedsAreMeaningful keeps the committed corpora from rotting
// into trivia: each must hold a dozen seeds, and they must reach the
// interesting paths.
func TestFuzzSeedsAreMeaningful(t *testing.T) {
	for _, target := range []string{"FuzzDecodeMessage", "FuzzServeStdio"} {
		seeds := readCorpus(t, target)
		if len(seeds) < 12 {
			t.Errorf("%s: %d seeds, want at least 12", target, len(seeds))
		}
		var valid, invalid, deep, badUTF8, long int
		for _, s := range seeds {
			if json.Valid(s) {
				valid++
			} else {
				invalid++
			}
			if bytes.Count(s, []byte("[")) > 1000 {
				deep++
			}
			if !utf8.Valid(s) {
				badUTF8++
			}
			for line := range bytes.Lines(s) {
				if len(line) > fuzzMaxMessage {
					long++
					break
				}
			}
		}
		if invalid == 0 || deep == 0 || badUTF8 == 0 || long == 0 || (target == "FuzzDecodeMessage" && valid == 0) {
			t.Errorf("%s: seeds lack variety: %d valid, %d invalid JSON, %d deep, %d with invalid UTF-8, %d with an overlong line",
				target, valid, invalid, deep, badUTF8, long)
		}
	}

	// The stdio seeds, served, must produce every kind of answer.
	var all bytes.Buffer
	for _, s := range readCorpus(t, "FuzzServeStdio") {
		srv := newFuzzServer()
		var out lockedBuffer
		if err := srv.Serve(context.Background(), bytes.NewReader(s), &out); err != nil {
			t.Fatal(err)
		}
		all.Write(out.Bytes())
	}
	for _, want := range []string{`"code":-32700`, `"code":-32600`, `"code":-32601`, `"code":-32602`, `exceeds the limit`,
		`"isError":true`, `invalid arguments for tool echo`, `notifications/progress`, `notifications/message`,
		`"protocolVersion"`, `"tools":[`, `fuzz panic`, `timed out`, `[{"jsonrpc"`} {
		if !bytes.Contains(all.Bytes(), []byte(want)) {
			t.Errorf("no seed of FuzzServeStdio produces %s", want)
		}
	}
}

// readCorpus reads the []byte seeds of a committed corpus.
func readCorpus(t *testing.T, target string) [][]byte {
	t.Helper()
	entries, err := filepath.Glob("testdata/fuzz/" + target + "/*")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, name := range entries {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		seed, err := parseCorpusFile(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, seed)
	}
	return out
}

// parseCorpusFile reads a "go test fuzz v1" file holding one []byte.
func parseCorpusFile(data []byte) ([]byte, error) {
	header, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(header) != "go test fuzz v1" {
		return nil, fmt.Errorf("not a go test fuzz v1 file")
	}
	rest = bytes.TrimSpace(rest)
	if !bytes.HasPrefix(rest, []byte("[]byte(")) || !bytes.HasSuffix(rest, []byte(")")) {
		return nil, fmt.Errorf("want one []byte value")
	}
	s, err := strconv.Unquote(string(rest[len("[]byte(") : len(rest)-1]))
	return []byte(s), err
}
