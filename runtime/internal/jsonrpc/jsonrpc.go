// Package jsonrpc decodes JSON-RPC 2.0 messages and writes responses, for
// every transport of the runtime: stdio, Streamable HTTP and the Claude
// Code control protocol.
package jsonrpc

import (
	"errors"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// JSON-RPC's error codes; MCP's own are in package wire.
const (
	ParseError     = -32700
	InvalidRequest = -32600
	MethodNotFound = -32601
	InvalidParams  = -32602
	InternalError  = -32603
)

// NullID is the id of a response to a request whose id is unknown.
var NullID = []byte("null")

// A Message is one decoded JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID, and Result or Error). Its
// fields point into the tree it was decoded from, which points into the
// input.
type Message struct {
	ID     jsonvalue.Value // absent for a notification
	Method string          // "" for a response
	Params jsonvalue.Value // absent when absent or null
	Result jsonvalue.Value // of a response
	Error  jsonvalue.Value // of an error response
}

// IsRequest reports whether m expects a response.
func (m *Message) IsRequest() bool { return m.Method != "" && m.ID.Exists() }

// IsResponse reports whether m answers a request, or is the zero Message
// that stands for a malformed notification: neither gets an answer.
func (m *Message) IsResponse() bool { return m.Method == "" }

// IDBytes is the message's id as JSON, or null.
func (m *Message) IDBytes() []byte {
	if !m.ID.Exists() {
		return NullID
	}
	return m.ID.Raw()
}

// Decode decodes one JSON-RPC message into t. Malformed input yields the
// error response to send instead; a malformed notification yields the
// zero Message (there is no one to tell), which needs no answer, as a
// response does. A message that repeats a member name in any object is
// malformed (see package jsonvalue).
func Decode(t *jsonvalue.Tree, data []byte) (Message, []byte) {
	v, err := t.Parse(data)
	if err != nil {
		return Message{}, ParseErrorResponse(err)
	}
	return FromValue(v)
}

// ParseErrorResponse is the answer to input that could not be parsed: a
// parse error, or an invalid request for a repeated member name.
func ParseErrorResponse(err error) []byte {
	var dup *jsonvalue.DuplicateError
	if errors.As(err, &dup) {
		return ErrorResponse(NullID, InvalidRequest, "invalid request: "+err.Error())
	}
	return ErrorResponse(NullID, ParseError, "parse error: "+err.Error())
}

// FromValue decodes the JSON-RPC message v; see Decode.
func FromValue(v jsonvalue.Value) (Message, []byte) {
	if v.Kind() != jsonvalue.Object {
		if v.Kind() == jsonvalue.Array {
			return Message{}, ErrorResponse(NullID, InvalidRequest, "invalid request: JSON-RPC batches are not supported in this context")
		}
		return Message{}, ErrorResponse(NullID, InvalidRequest, "invalid request: a JSON-RPC message must be an object, not "+v.Kind().String())
	}
	var m Message
	var version, method jsonvalue.Value
	for name, mem := range v.Members() {
		switch name {
		case "jsonrpc":
			version = mem
		case "id":
			m.ID = mem
		case "method":
			method = mem
		case "params":
			m.Params = mem
		case "result":
			m.Result = mem
		case "error":
			m.Error = mem
		}
	}
	if !method.Exists() && (m.Result.Exists() || m.Error.Exists()) {
		// A response; it is never answered, whatever its shape.
		return m, nil
	}
	m.Result, m.Error = jsonvalue.Value{}, jsonvalue.Value{}
	if m.ID.Exists() && m.ID.Kind() != jsonvalue.String && m.ID.Kind() != jsonvalue.Number {
		// A null id is a request the client cannot match an answer to;
		// like an object or array id, it is not a valid request.
		return Message{}, ErrorResponse(NullID, InvalidRequest, "invalid request: id must be a string or a number")
	}
	if !version.Exists() || string(version.Raw()) != `"2.0"` {
		return Message{}, ErrorResponse(m.IDBytes(), InvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if !method.Exists() {
		return Message{}, ErrorResponse(m.IDBytes(), InvalidRequest, `invalid request: missing "method"`)
	}
	if method.Kind() != jsonvalue.String || len(method.Raw()) == 2 {
		return Message{}, ErrorResponse(m.IDBytes(), InvalidRequest, `invalid request: "method" must be a non-empty string`)
	}
	m.Method = methodName(method)
	if m.Params.Exists() && m.Params.Kind() != jsonvalue.Object && m.Params.Kind() != jsonvalue.Null {
		if m.IsRequest() {
			return Message{}, ErrorResponse(m.IDBytes(), InvalidParams, `invalid params: "params" must be an object`)
		}
		return Message{}, nil
	}
	if m.Params.Exists() && m.Params.Kind() == jsonvalue.Null {
		m.Params = jsonvalue.Value{}
	}
	return m, nil
}

// methodName returns the string method holds. The methods clients send
// most come from constants, which saves decoding a string per message.
func methodName(method jsonvalue.Value) string {
	switch string(method.Raw()) { // no allocation: compared, not kept
	case `"tools/call"`:
		return "tools/call"
	case `"tools/list"`:
		return "tools/list"
	case `"resources/read"`:
		return "resources/read"
	case `"prompts/get"`:
		return "prompts/get"
	case `"notifications/cancelled"`:
		return "notifications/cancelled"
	case `"notifications/progress"`:
		return "notifications/progress"
	}
	return method.Str()
}

// ErrorResponse returns an error response, for what is refused before a
// request is read (the runtime's method handlers answer with typed
// responses, which AppendError writes too).
func ErrorResponse(id []byte, code int, msg string) []byte {
	return ErrorWithData(id, code, msg, nil)
}

// ErrorWithData returns an error response whose error carries data, a
// JSON value; nil means none.
func ErrorWithData(id []byte, code int, msg string, data []byte) []byte {
	return AppendError(make([]byte, 0, 64+len(msg)+len(data)), id, code, msg, data)
}

// AppendError appends the error response to the request id to b: its
// code, its message, and its data (a JSON value), unless nil.
func AppendError(b, id []byte, code int, msg string, data []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"error":`...)
	b = AppendErrorObject(b, code, msg, data)
	return append(b, '}')
}

// AppendErrorObject appends the error object alone: its code, message
// and data (JSON, or nil for none).
func AppendErrorObject(b []byte, code int, msg string, data []byte) []byte {
	b = append(b, `{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = jsonvalue.AppendString(b, msg)
	if data != nil {
		b = append(b, `,"data":`...)
		b = append(b, data...)
	}
	return append(b, '}')
}
