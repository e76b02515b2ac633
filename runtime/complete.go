package runtime

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/uritemplate"
)

// A CompleteHandler proposes values for an argument of a prompt or a
// variable of a resource template, as the user types (completion/complete).
type CompleteHandler func(ctx context.Context, req *CompleteRequest) (*CompleteResult, error)

// A CompleteRequest asks for values of one argument.
type CompleteRequest struct {
	// Argument is the name of the argument or template variable.
	Argument string
	// Value is what the user has typed so far.
	Value string
	// Context holds the arguments already filled, by name.
	Context map[string]string
}

// A CompleteResult proposes values. MCP sends at most 100 of them; the
// runtime cuts a longer list and sets HasMore.
type CompleteResult struct {
	Values []string
	// Total is the number of matching values, if known (0: unknown).
	Total int
	// HasMore says that there are more values than Values holds.
	HasMore bool
}

// maxCompletions is the most values completion/complete may send.
const maxCompletions = 100

// CompletePrefix returns the values that begin with prefix, in order: a
// completion of an argument with a fixed set of values.
func CompletePrefix(values []string, prefix string) *CompleteResult {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return &CompleteResult{Values: out, Total: len(out)}
}

// complete answers completion/complete for an argument of a prompt or a
// variable of a resource template. Every member it reads must have its
// JSON type; one that has another is invalid params, named.
func (ss *session) complete(c *call) response {
	params := c.msg.Params
	ref, arg := params.Get("ref"), params.Get("argument")
	switch {
	case ref.Kind() != jsonvalue.Object:
		return invalidParams(`"ref" must be an object naming a prompt or a resource template`)
	case arg.Kind() != jsonvalue.Object:
		return invalidParams(`"argument" must be an object with the argument's name and value`)
	}
	refType, bad := stringParam(ref, "type", true)
	if bad != nil {
		return *bad
	}
	argName, bad := stringParam(arg, "name", true)
	if bad != nil {
		return *bad
	}
	value, bad := stringParam(arg, "value", false)
	if bad != nil {
		return *bad
	}
	var filled map[string]string
	if cv := params.Get("context"); cv.Exists() {
		if cv.Kind() != jsonvalue.Object {
			return invalidParams(`"context" must be an object`)
		}
		var msg string
		if filled, msg = stringMap(cv.Get("arguments")); msg != "" {
			return invalidParams("context.arguments %s", msg)
		}
	}
	var handler CompleteHandler
	var known bool
	switch refType {
	case "ref/prompt":
		p, resp, ok := c.promptOf(ref)
		if !ok {
			return resp
		}
		handler, known = p.Complete, p.hasArgument(argName)
	case "ref/resource":
		uri, bad := stringParam(ref, "uri", true)
		if bad != nil {
			return *bad
		}
		t, ok := ss.srv.templates.Get(uri)
		if !ok {
			return invalidParams("%s", ss.srv.templates.Unknown("resource template", uri))
		}
		if c.tokenInfo != nil {
			if resp, ok := c.allow("resource template", uri, t.Scopes); !ok {
				return resp
			}
		}
		handler, known = t.Complete, t.hasVar(argName)
	default:
		return invalidParams("ref type %q is neither ref/prompt nor ref/resource", refType)
	}
	if !known {
		return invalidParams("no argument %q to complete", argName)
	}
	res := &CompleteResult{}
	if handler == nil {
		return response{result: res}
	}
	err, stop, resp := ss.runHandler(c, handlerRun{kind: "completion", target: argName}, func(ctx context.Context) error {
		var err error
		res, err = handler(ctx, &CompleteRequest{Argument: argName, Value: value, Context: filled})
		return err
	})
	switch {
	case stop:
		return resp
	case err != nil:
		return errorResponse(jsonrpc.InternalError, "completing %s: %v", argName, err)
	case res == nil:
		res = &CompleteResult{}
	}
	return response{result: res}
}

// appendResult writes the members of the result of completion/complete,
// with at most maxCompletions values.
func (r *CompleteResult) appendResult(b []byte) ([]byte, error) {
	values, more, total := r.Values, r.HasMore, r.Total
	if len(values) > maxCompletions {
		values, more = values[:maxCompletions], true
		total = max(total, len(r.Values))
	}
	b = append(b, `"completion":{"values":[`...)
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonvalue.AppendString(b, v)
	}
	b = append(b, ']')
	if total > 0 {
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(total), 10)
	}
	if more {
		b = append(b, `,"hasMore":true`...)
	}
	return append(b, '}'), nil
}

// size estimates the encoded size of r.
func (r *CompleteResult) size() int { return 64 + 32*min(len(r.Values), maxCompletions) }

func (t *ResourceTemplate) hasVar(name string) bool {
	return slices.ContainsFunc(t.template.Vars(), func(v uritemplate.Var) bool { return v.Name == name })
}
