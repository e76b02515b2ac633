package mcpimpl

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// Read adapts a typed resource function to a runtime.ResourceHandler: it
// decodes the template's variables into In with decode (NoInput for a
// resource with a fixed URI), calls fn, and turns its Out into contents of
// type mimeType with contents (TextContents, BlobContents, JSONContents or
// ResultContents).
func Read[In, Out any](fn func(context.Context, In) (Out, error), decode func(vars map[string]string) (In, error), contents func(uri, mimeType string, out Out) (*runtime.ResourceResult, error), mimeType string) runtime.ResourceHandler {
	return func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
		in, err := decode(req.Vars)
		if err != nil {
			return nil, err
		}
		out, err := fn(ctx, in)
		if err != nil {
			return nil, err
		}
		return contents(req.URI, mimeType, out)
	}
}

// NoInput decodes the variables of a resource with a fixed URI, or the
// arguments of a prompt without any: there are none.
func NoInput(map[string]string) (struct{}, error) { return struct{}{}, nil }

// TextContents returns one text content holding s.
func TextContents[S ~string](uri, mimeType string, s S) (*runtime.ResourceResult, error) {
	return runtime.TextResource(uri, mimeType, string(s)), nil
}

// BlobContents returns one binary content holding b, sent base64-encoded.
func BlobContents[B ~[]byte](uri, mimeType string, b B) (*runtime.ResourceResult, error) {
	if b == nil {
		b = B{}
	}
	return &runtime.ResourceResult{Contents: []runtime.ResourceContents{{URI: uri, MIMEType: mimeType, Blob: b}}}, nil
}

// JSONContents returns one text content holding v encoded as JSON.
func JSONContents[T any](uri, mimeType string, v T) (*runtime.ResourceResult, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", uri, err)
	}
	return runtime.TextResource(uri, mimeType, string(data)), nil
}

// VerbatimContents returns r as it is: the function built its own contents.
func VerbatimContents(_, _ string, r *runtime.ResourceResult) (*runtime.ResourceResult, error) {
	return r, nil
}

// Get adapts a typed prompt function to a runtime.PromptHandler: it decodes
// the arguments into In with decode, calls fn, and turns its Out into
// messages with messages (UserMessage or PromptResult).
func Get[In, Out any](fn func(context.Context, In) (Out, error), decode func(args map[string]string) (In, error), messages func(Out) (*runtime.PromptResult, error)) runtime.PromptHandler {
	return func(ctx context.Context, req *runtime.PromptRequest) (*runtime.PromptResult, error) {
		in, err := decode(req.Arguments)
		if err != nil {
			return nil, err
		}
		out, err := fn(ctx, in)
		if err != nil {
			return nil, err
		}
		return messages(out)
	}
}

// UserMessage returns a prompt of one user message holding s.
func UserMessage[S ~string](s S) (*runtime.PromptResult, error) {
	return runtime.UserPrompt(string(s)), nil
}

// VerbatimMessages returns r as it is: the function built its own messages.
func VerbatimMessages(r *runtime.PromptResult) (*runtime.PromptResult, error) {
	return r, nil
}

// Complete returns the completer of a prompt or a resource template: an
// argument with a fixed set of values (the constants of its type)
// completes from them by prefix; any other goes to fn, if set, and else
// has no values to propose.
func Complete(fixed map[string][]string, fn runtime.CompleteHandler) runtime.CompleteHandler {
	return func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
		if values, ok := fixed[req.Argument]; ok {
			return runtime.CompletePrefix(values, req.Value), nil
		}
		if fn != nil {
			return fn(ctx, req)
		}
		return &runtime.CompleteResult{}, nil
	}
}

// An ArgError reports an argument or a template variable whose text does
// not convert to its field's type; the client gets -32602.
type ArgError struct {
	Name, Value, Want string
}

// Error words the problem as the validator words a tool's arguments:
// count: must be a decimal integer of 64 bits; got "ten".
func (e *ArgError) Error() string {
	return fmt.Sprintf("%s: must be %s; got %q", e.Name, e.Want, e.Value)
}

// InvalidParams marks the error as the client's: the runtime answers it
// with -32602 rather than -32603.
func (e *ArgError) InvalidParams() bool { return true }

// ParseInt converts the argument name, whose text is s, to an integer of
// bits bits.
func ParseInt(name, s string, bits int) (int64, error) {
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		return 0, &ArgError{name, s, fmt.Sprintf("a decimal integer of %d bits", bits)}
	}
	return n, nil
}

// ParseUint converts the argument name, whose text is s, to an unsigned
// integer of bits bits.
func ParseUint(name, s string, bits int) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		return 0, &ArgError{name, s, fmt.Sprintf("a decimal unsigned integer of %d bits", bits)}
	}
	return n, nil
}

// ParseFloat converts the argument name, whose text is s, to a number.
func ParseFloat(name, s string, bits int) (float64, error) {
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		return 0, &ArgError{name, s, "a number"}
	}
	return f, nil
}

// ParseBool converts the argument name, whose text is s, to a bool.
func ParseBool(name, s string) (bool, error) {
	switch s {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, &ArgError{name, s, "true or false"}
}

// OneOf checks that the argument name, whose text is s, is one of values.
func OneOf(name, s string, values ...string) (string, error) {
	if !slices.Contains(values, s) {
		quoted := make([]string, len(values))
		for i, v := range values {
			quoted[i] = strconv.Quote(v)
		}
		return "", &ArgError{name, s, "one of " + strings.Join(quoted, ", ")}
	}
	return s, nil
}

// Unmarshal decodes data, JSON that the runtime has checked against a
// schema (the answer to a form), into dst with decode, the decoder mcpgen
// generated for T.
func Unmarshal[T any](data []byte, dst *T, decode func(Value, *T) error) error {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return err
	}
	return decode(Value{v: v}, dst)
}
