package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// The seed corpus is in testdata/fuzz/FuzzDecode/. Run the target with
//
//	go test ./runtime/internal/jsonrpc -run XXX -fuzz FuzzDecode -fuzztime 5m -parallel 1

// FuzzDecode feeds arbitrary bytes to Decode and checks that it never
// panics and answers exactly what it should, against encoding/json's
// reading of the same bytes.
func FuzzDecode(f *testing.F) {
	f.Fuzz(checkDecode)
}

// checkDecode checks what Decode makes of data against
// encoding/json's reading of it.
func checkDecode(t *testing.T, data []byte) {
	m, errResp := Decode(new(jsonvalue.Tree), data)
	valid := json.Valid(data)
	_, perr := jsonvalue.Parse(data)
	var dup *jsonvalue.DuplicateError
	repeated := errors.As(perr, &dup) // a name repeated somewhere

	// encoding/json's view of a message: a map, because a struct would
	// match member names case-insensitively ("jsonrpC").
	var obj map[string]json.RawMessage
	isObject := valid && bytes.TrimLeft(data, " \t\r\n")[0] == '{' && json.Unmarshal(data, &obj) == nil
	env := struct{ JSONRPC, ID, Method, Params, Result, Error json.RawMessage }{
		obj["jsonrpc"], obj["id"], obj["method"], obj["params"], obj["result"], obj["error"],
	}

	switch {
	case errResp != nil:
		if m.Method != "" || m.ID.Exists() {
			t.Fatalf("Decode returned both a message and an error response for %q", data)
		}
		code, id := checkErrorResponse(t, errResp)
		switch {
		case !valid:
			if code != ParseError || string(id) != "null" {
				t.Fatalf("invalid JSON %q answered with code %d, id %s; want %d, null", data, code, id, ParseError)
			}
		case code == ParseError:
			t.Fatalf("valid JSON %q answered with a parse error", data)
		case repeated:
			if code != InvalidRequest || string(id) != "null" {
				t.Fatalf("%q, with a repeated member name, answered with code %d, id %s; want %d, null", data, code, id, InvalidRequest)
			}
		case string(id) != "null" && (!isObject || string(id) != string(env.ID)):
			t.Fatalf("error response id %s is not the request's id %s; input %q", id, env.ID, data)
		}
	case repeated:
		t.Fatalf("Decode accepted %q, which repeats a member name", data)
	case m.IsResponse() && (m.Result.Exists() || m.Error.Exists()):
		if !isObject || env.Method != nil || (env.Result == nil && env.Error == nil) {
			t.Fatalf("Decode took %q for a response", data)
		}
	case !m.IsResponse():
		if !isObject {
			t.Fatalf("Decode made a message of %q, which is not a JSON object", data)
		}
		var method string
		if err := json.Unmarshal(env.Method, &method); err != nil || method != m.Method {
			t.Fatalf("method %q, encoding/json reads %s (%v); input %q", m.Method, env.Method, err, data)
		}
		if string(env.JSONRPC) != `"2.0"` {
			t.Fatalf("accepted jsonrpc %s in %q", env.JSONRPC, data)
		}
		switch {
		case !m.ID.Exists():
			if env.ID != nil {
				t.Fatalf("a message with id %s decoded as a notification: %q", env.ID, data)
			}
		case m.ID.Kind() != jsonvalue.String && m.ID.Kind() != jsonvalue.Number:
			t.Fatalf("accepted an id of kind %s: %q", m.ID.Kind(), data)
		case string(m.ID.Raw()) != string(env.ID):
			t.Fatalf("id %s, encoding/json reads %s; input %q", m.ID.Raw(), env.ID, data)
		}
		if m.Params.Exists() && m.Params.Kind() != jsonvalue.Object {
			t.Fatalf("params of kind %s accepted: %q", m.Params.Kind(), data)
		}
	default: // a notification with bad params: the zero Message
		if !isObject || (env.Result == nil && env.Error == nil && env.ID != nil) {
			t.Fatalf("Decode ignored %q without a word", data)
		}
	}
}

// checkErrorResponse checks that b is a JSON-RPC error response with a
// code that malformed input deserves, and returns its code and id.
func checkErrorResponse(t *testing.T, b []byte) (int, json.RawMessage) {
	t.Helper()
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &r); err != nil || r.JSONRPC != "2.0" || r.ID == nil || r.Error.Message == "" {
		t.Fatalf("not an error response: %s (%v)", b, err)
	}
	switch r.Error.Code {
	case ParseError, InvalidRequest, InvalidParams:
	default:
		t.Fatalf("unexpected error code in %s", b)
	}
	return r.Error.Code, r.ID
}
