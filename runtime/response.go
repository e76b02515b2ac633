package runtime

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/registry"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// A response is the answer to one request before it is encoded: a result
// or a JSON-RPC error. Method handlers return it by value; the transport
// encodes it once (append), with what the request's revision adds, and
// derives from it, never from bytes, whatever else it must decide: the
// HTTP status (status), whether a new session stands.
type response struct {
	// result encodes a typed result (a tool's, a resource's, a prompt's);
	// when it is nil, members holds the result's members, already encoded
	// (a cached list), and no members at all is the empty result {}.
	result  resultEncoder
	members []byte
	// kind is the result's resultType under the per-request revision.
	kind resultKind
	// cache, if set, is the cache hint of a result under the per-request
	// revision (ttlMs and cacheScope).
	cache *CacheHint
	// err, if set, makes this an error response.
	err *rpcError
}

// A resultEncoder writes the members of a result object, without its
// braces. It fails only for what the program put in the result that
// cannot be encoded (a _meta value that encoding/json refuses, say).
type resultEncoder interface {
	appendResult(b []byte) ([]byte, error)
	// size estimates the encoded size, to allocate the response once.
	size() int
}

// resultKind is a result's resultType under the per-request revision.
type resultKind uint8

const (
	resultComplete      resultKind = iota // "complete": the request's answer
	resultInputRequired                   // "input_required": questions first
	resultTask                            // "task": a task that will answer (tasks extension)
)

func (k resultKind) String() string {
	switch k {
	case resultInputRequired:
		return "input_required"
	case resultTask:
		return "task"
	}
	return "complete"
}

// An rpcError is a JSON-RPC error: its code, its message, and its data
// (a JSON value), if any.
type rpcError struct {
	code    int
	message string
	data    []byte
	// scopes, if set, are the scopes an operation needs that the
	// request's token lacks: Streamable HTTP answers 403 with a challenge
	// that names them and says challenge (see call.allow).
	scopes    []string
	challenge string
}

// errorResponse returns the error response code with a message.
func errorResponse(code int, format string, args ...any) response {
	return response{err: &rpcError{code: code, message: fmt.Sprintf(format, args...)}}
}

// invalidParams returns the -32602 error response for params that are not
// what the method needs: "invalid params: " and what is wrong.
func invalidParams(format string, args ...any) response {
	return errorResponse(jsonrpc.InvalidParams, "invalid params: "+format, args...)
}

// errorWithData returns the error response code with a message and data,
// a JSON value.
func errorWithData(code int, message string, data []byte) response {
	return response{err: &rpcError{code: code, message: message, data: data}}
}

// rawResult returns a result whose members are already encoded.
func rawResult(members []byte) response { return response{members: members} }

// emptyResult is the result {}.
var emptyResult = response{}

// status is the HTTP status of r as the answer to a POST: the per-request
// revision maps error codes to statuses (see wire.HTTPStatus); before it,
// every JSON-RPC answer is 200. A token that lacks an operation's scopes
// is 403 under every revision.
func (r *response) status(perRequest bool) int {
	switch {
	case r.err == nil:
		return 200
	case r.err.scopes != nil:
		return 403
	case !perRequest:
		return 200
	}
	return wire.HTTPStatus(r.err.code)
}

// size estimates the encoded size of r, envelope included.
func (r *response) size() int {
	n := 96 + len(r.members)
	if r.result != nil {
		n += r.result.size()
	}
	if r.err != nil {
		n += len(r.err.message) + len(r.err.data)
	}
	return n
}

// append appends r as the JSON-RPC response to the request id. perRequest
// says the request is of the per-request revision: its result then begins
// with its resultType, and the cache hint if any. A result that cannot be
// encoded is answered with an internal error that says why.
func (r *response) append(b, id []byte, perRequest bool) []byte {
	if r.err != nil {
		return r.err.append(b, id)
	}
	start := len(b)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":{`...)
	if perRequest || r.kind != resultComplete {
		b = append(b, `"resultType":"`...)
		b = append(b, r.kind.String()...)
		b = append(b, '"')
		if r.cache != nil {
			b = r.cache.appendMembers(append(b, ','))
		}
		b = append(b, ',') // taken back below if no member follows
	}
	mark := len(b)
	if r.result != nil {
		var err error
		if b, err = r.result.appendResult(b); err != nil {
			e := rpcError{code: jsonrpc.InternalError, message: "the result could not be encoded: " + err.Error()}
			return e.append(b[:start], id)
		}
	} else {
		b = append(b, r.members...)
	}
	if len(b) == mark && b[mark-1] == ',' {
		b = b[:mark-1]
	}
	return append(b, "}}"...)
}

// append appends the error response to the request id.
func (e *rpcError) append(b, id []byte) []byte {
	return jsonrpc.AppendError(b, id, e.code, e.message, e.data)
}

// listResult answers a list method with the items of r, of the kind (such
// as "tool"), as the array member, each written by entry, which writes
// nothing for an item the client is not shown; variant tells lists that
// differ by the request apart (see registry.Registry.List).
func listResult[T any](r *registry.Registry[T], kind string, variant int, member string, entry func(b []byte, item T) ([]byte, error)) response {
	list, err := r.List(variant, func(items []T) ([]byte, error) {
		b := append([]byte{'"'}, member...)
		b = append(b, `":[`...)
		first := len(b)
		for _, item := range items {
			var err error
			if b, err = appendItem(b, first, item, entry); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	})
	if err != nil {
		return errorResponse(jsonrpc.InternalError, "listing %ss: %v", kind, err)
	}
	return rawResult(list)
}

// appendItem writes item with entry after the items of a list written
// since start, with a comma between two; an entry that writes nothing
// leaves the item out (a tool the client is not shown), comma and all.
func appendItem[T any](b []byte, start int, item T, entry func(b []byte, item T) ([]byte, error)) ([]byte, error) {
	at := len(b)
	if at > start {
		b = append(b, ',')
	}
	n := len(b)
	b, err := entry(b, item)
	if err == nil && len(b) == n {
		b = b[:at]
	}
	return b, err
}

// A CacheHint tells clients of revision 2026-07-28 for how long they may
// reuse a result without asking again, and whether caches shared between
// users may keep it.
type CacheHint struct {
	// TTL is how long the result stays fresh; zero means it is stale at
	// once, so clients ask again each time they need it.
	TTL time.Duration
	// Private, if true, limits reuse to the same user (cacheScope
	// "private"); otherwise any cache may serve the result to anyone
	// ("public").
	Private bool
}

// appendMembers writes the hint's ttlMs and cacheScope members.
func (h *CacheHint) appendMembers(b []byte) []byte {
	b = append(b, `"ttlMs":`...)
	b = strconv.AppendInt(b, max(h.TTL.Milliseconds(), 0), 10)
	if h.Private {
		return append(b, `,"cacheScope":"private"`...)
	}
	return append(b, `,"cacheScope":"public"`...)
}

// A bufferPool lends the buffers that responses are encoded into. A
// transport copies a response out before it returns (into the HTTP
// response's buffer, or the line writer's), so the buffer can serve the
// next response: one allocation less per call. A buffer that grew past
// maxPooledBuffer is left to the garbage collector, so that one large
// answer does not keep its memory.
type bufferPool struct{ p sync.Pool }

// maxPooledBuffer bounds the buffers a bufferPool keeps.
const maxPooledBuffer = 64 << 10

// get returns an empty buffer of at least size bytes' capacity; put gives
// it back once its bytes are copied out.
func (bp *bufferPool) get(size int) *[]byte {
	b, _ := bp.p.Get().(*[]byte)
	if b == nil {
		b = new([]byte)
	}
	if cap(*b) < size {
		*b = make([]byte, 0, size)
	}
	*b = (*b)[:0]
	return b
}

func (bp *bufferPool) put(b *[]byte) {
	if cap(*b) <= maxPooledBuffer {
		bp.p.Put(b)
	}
}
