package schema

import "github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"

// AppendCanonical appends a form of v in which equal JSON values have
// equal bytes, whatever the order of their members, the escapes of their
// strings or the way their numbers are written: the validator compares
// values for enum, const and uniqueItems in this form, and the runtime
// digests a request's arguments in it. The zero Value (no value at all)
// is written as null.
func AppendCanonical(b []byte, v jsonvalue.Value) []byte {
	if !v.Exists() {
		return append(b, "null"...)
	}
	return canonical(b, v)
}
