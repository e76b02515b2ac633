package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// listPrompts answers prompts/list.
func (ss *session) listPrompts(id []byte) []byte {
	srv := ss.srv
	srv.mu.RLock()
	prompts := append([]*Prompt(nil), srv.prompts...)
	srv.mu.RUnlock()
	b := []byte(`{"prompts":[`)
	for i, p := range prompts {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = p.appendJSON(b); err != nil {
			return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("listing prompt %s: %v", p.Name, err))
		}
	}
	return jsonrpc.AppendResult(nil, id, append(b, "]}"...))
}

// getPrompt answers prompts/get. An unknown prompt, an argument that is
// not a string, an unknown argument and a missing required one are
// invalid params, each named.
func (ss *session) getPrompt(c *call) []byte {
	id, params := c.msg.ID.Raw(), c.msg.Params
	name, errResp := stringParam(id, params, "name", true)
	if errResp != nil {
		return errResp
	}
	p := ss.srv.prompt(name)
	if p == nil {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: unknown prompt %q; available prompts: %s", name, ss.srv.promptNames()))
	}
	args, msg := stringMap(params.Get("arguments"))
	if msg != "" {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: arguments "+msg)
	}
	for key := range args {
		if !p.hasArgument(key) {
			return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: prompt %s has no argument %q", name, key))
		}
	}
	for _, a := range p.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: prompt %s needs the argument %q", name, a.Name))
		}
	}
	req := &PromptRequest{Name: name, Arguments: args}
	if mv := params.Get("_meta"); mv.Exists() && mv.Kind() == jsonvalue.Object {
		req.Meta = mv.Raw()
	}
	argsValue := params.Get("arguments")
	if c.modern != nil {
		if errResp := ss.beginRound(c, "prompts/get", name, argsValue); errResp != nil {
			return errResp
		}
	}
	c.state = ss.handlerState(c, name)
	res, err := func() (res *PromptResult, err error) {
		defer ss.recoverHandler("prompt", name, &err)
		return p.Handler(&c.ctx, req)
	}()
	if c.modern != nil {
		if resp := ss.endRound(c, "prompts/get", name, argsValue); resp != nil {
			return resp
		}
		var capErr *capabilityError
		if errors.As(err, &capErr) {
			return missingCapability(id, capErr)
		}
	}
	switch {
	case isInvalidParams(err):
		return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("prompt %s: %v", name, err))
	case err != nil:
		return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("prompt %s: %v", name, err))
	case res == nil:
		return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("prompt %s: the handler returned no result", name))
	}
	b, err := res.appendJSON(nil)
	if err != nil {
		return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("prompt %s: %v", name, err))
	}
	if c.modern != nil {
		return completeResult(jsonrpc.AppendResult(nil, id, b), id, nil)
	}
	return jsonrpc.AppendResult(nil, id, b)
}

func (p *Prompt) hasArgument(name string) bool {
	for _, a := range p.Arguments {
		if a.Name == name {
			return true
		}
	}
	return false
}

func (s *Server) promptNames() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	names := make([]string, len(s.prompts))
	for i, p := range s.prompts {
		names[i] = p.Name
	}
	return fmt.Sprint(names)
}

// stringMap reads an object of strings, such as a prompt's arguments; an
// absent or null value is an empty map. It returns what is wrong, if
// anything.
func stringMap(v jsonvalue.Value) (map[string]string, string) {
	out := map[string]string{}
	if !v.Exists() || v.Kind() == jsonvalue.Null {
		return out, ""
	}
	if v.Kind() != jsonvalue.Object {
		return nil, "must be an object"
	}
	for name, m := range v.Members() {
		if m.Kind() != jsonvalue.String {
			return nil, fmt.Sprintf("%s must be a string, not %s", strconv.Quote(name), m.Kind())
		}
		out[strings.Clone(name)] = m.Str()
	}
	return out, ""
}

// complete answers completion/complete for an argument of a prompt or a
// variable of a resource template.
func (ss *session) complete(c *call) []byte {
	id, params := c.msg.ID.Raw(), c.msg.Params
	if !params.Exists() {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: completion/complete needs ref and argument")
	}
	ref, arg := params.Get("ref"), params.Get("argument")
	refType, errResp := stringParam(id, ref, "type", true)
	if errResp != nil {
		return errResp
	}
	argName, errResp := stringParam(id, arg, "name", true)
	if errResp != nil {
		return errResp
	}
	value, errResp := stringParam(id, arg, "value", false)
	if errResp != nil {
		return errResp
	}
	var context map[string]string
	if cv := params.Get("context"); cv.Exists() {
		var msg string
		if context, msg = stringMap(cv.Get("arguments")); msg != "" {
			return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: context.arguments "+msg)
		}
	}
	var handler CompleteHandler
	var known bool
	switch refType {
	case "ref/prompt":
		name, errResp := stringParam(id, ref, "name", true)
		if errResp != nil {
			return errResp
		}
		p := ss.srv.prompt(name)
		if p == nil {
			return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: unknown prompt %q", name))
		}
		handler, known = p.Complete, p.hasArgument(argName)
	case "ref/resource":
		uri, errResp := stringParam(id, ref, "uri", true)
		if errResp != nil {
			return errResp
		}
		t := ss.srv.template(uri)
		if t == nil {
			return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: unknown resource template %q", uri))
		}
		handler, known = t.Complete, t.hasVar(argName)
	default:
		return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: ref type %q is neither ref/prompt nor ref/resource", refType))
	}
	if !known {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: no argument %q to complete", argName))
	}
	res := &CompleteResult{}
	if handler != nil {
		c.state = ss.handlerState(c, argName)
		var err error
		res, err = func() (res *CompleteResult, err error) {
			defer ss.recoverHandler("completion", argName, &err)
			return handler(&c.ctx, &CompleteRequest{Argument: argName, Value: value, Context: context})
		}()
		if err != nil {
			return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("completing %s: %v", argName, err))
		}
		if res == nil {
			res = &CompleteResult{}
		}
	}
	return jsonrpc.AppendResult(nil, id, res.appendJSON(nil))
}

// appendJSON writes the result of completion/complete, with at most
// maxCompletions values.
func (r *CompleteResult) appendJSON(b []byte) []byte {
	values, more, total := r.Values, r.HasMore, r.Total
	if len(values) > maxCompletions {
		values, more = values[:maxCompletions], true
		total = max(total, len(r.Values))
	}
	b = append(b, `{"completion":{"values":[`...)
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
	return append(b, "}}"...)
}

// template returns the resource template written uriTemplate, or nil.
func (s *Server) template(uriTemplate string) *ResourceTemplate {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, t := range s.templates {
		if t.URITemplate == uriTemplate {
			return t
		}
	}
	return nil
}

func (t *ResourceTemplate) hasVar(name string) bool {
	for _, v := range t.template.Vars() {
		if v.Name == name {
			return true
		}
	}
	return false
}
