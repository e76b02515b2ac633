package runtime

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// listResources answers resources/list: the resources added with
// AddResource, then those of ListResources, whose cursors it passes on.
func (ss *session) listResources(c *call) []byte {
	id := c.msg.ID.Raw()
	srv := ss.srv
	cursor, errResp := stringParam(id, c.msg.Params, "cursor", false)
	if errResp != nil {
		return errResp
	}
	var page []*Resource
	if cursor == "" {
		srv.mu.RLock()
		page = append(page, srv.resources...)
		srv.mu.RUnlock()
	}
	next := ""
	if srv.ListResources != nil {
		listed, n, err := srv.ListResources(&c.ctx, cursor)
		if err != nil {
			return jsonrpc.Error(id, jsonrpc.InternalError, "listing resources: "+err.Error())
		}
		page, next = append(page, listed...), n
	} else if cursor != "" {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, "invalid params: unknown cursor "+strconv.Quote(cursor))
	}
	b := []byte(`{"resources":[`)
	for i, r := range page {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = r.appendJSON(b); err != nil {
			return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("listing resource %s: %v", r.URI, err))
		}
	}
	b = append(b, ']')
	b = appendField(b, "nextCursor", next)
	return jsonrpc.AppendResult(nil, id, append(b, '}'))
}

// listTemplates answers resources/templates/list.
func (ss *session) listTemplates(id []byte) []byte {
	srv := ss.srv
	srv.mu.RLock()
	templates := append([]*ResourceTemplate(nil), srv.templates...)
	srv.mu.RUnlock()
	b := []byte(`{"resourceTemplates":[`)
	for i, t := range templates {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = t.appendJSON(b); err != nil {
			return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("listing template %s: %v", t.URITemplate, err))
		}
	}
	return jsonrpc.AppendResult(nil, id, append(b, "]}"...))
}

// readResource answers resources/read. A URI that no resource or template
// answers gets the resource-not-found error, with the URI in its data.
func (ss *session) readResource(c *call) (resp []byte) {
	id := c.msg.ID.Raw()
	uri, errResp := stringParam(id, c.msg.Params, "uri", true)
	if errResp != nil {
		return errResp
	}
	modern := c.modern != nil
	handler, req := ss.srv.findResource(uri)
	if handler == nil {
		return resourceNotFound(id, uri, modern)
	}
	if mv := c.msg.Params.Get("_meta"); mv.Exists() && mv.Kind() == jsonvalue.Object {
		req.Meta = mv.Raw()
	}
	if modern {
		if errResp := ss.beginRound(c, "resources/read", uri, jsonvalue.Value{}); errResp != nil {
			return errResp
		}
	}
	c.state = ss.handlerState(c, uri)
	res, err := func() (res *ResourceResult, err error) {
		defer ss.recoverHandler("resource", uri, &err)
		return handler(&c.ctx, req)
	}()
	if modern {
		if resp := ss.endRound(c, "resources/read", uri, jsonvalue.Value{}); resp != nil {
			return resp
		}
		var capErr *capabilityError
		if errors.As(err, &capErr) {
			return missingCapability(id, capErr)
		}
	}
	var notFound *ResourceNotFoundError
	switch {
	case errors.As(err, &notFound):
		return resourceNotFound(id, cmp.Or(notFound.URI, uri), modern)
	case isInvalidParams(err):
		return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("reading %s: %v", uri, err))
	case err != nil:
		return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("reading %s: %v", uri, err))
	case res == nil:
		return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("reading %s: the handler returned no result", uri))
	}
	b, err := res.appendJSON(nil)
	if err != nil {
		return jsonrpc.Error(id, jsonrpc.InternalError, fmt.Sprintf("reading %s: %v", uri, err))
	}
	if modern {
		return completeResult(jsonrpc.AppendResult(nil, id, b), id, cmp.Or(res.Cache, &privateNow))
	}
	return jsonrpc.AppendResult(nil, id, b)
}

// privateNow is the cache hint of a read whose result sets none: stale at
// once, and for its user only.
var privateNow = CacheHint{Private: true}

// resourceNotFound is the error answer to a read of a URI that names
// nothing, with the URI in its data: -32002 in the legacy era, invalid
// params (-32602) in the modern one, which dropped -32002.
func resourceNotFound(id []byte, uri string, modern bool) []byte {
	data := jsonvalue.AppendString([]byte(`{"uri":`), uri)
	code := codeResourceNotFound
	if modern {
		code = jsonrpc.InvalidParams
	}
	return jsonrpc.ErrorWithData(id, code, "resource not found: "+uri, append(data, '}'))
}

// subscribeResource answers resources/subscribe and unsubscribe.
func (ss *session) subscribeResource(id []byte, params jsonvalue.Value, on bool) []byte {
	uri, errResp := stringParam(id, params, "uri", true)
	if errResp != nil {
		return errResp
	}
	ss.subscribe(uri, on)
	return jsonrpc.AppendResult(nil, id, []byte("{}"))
}

// stringParam returns the string parameter name; a missing one is ""
// unless required.
func stringParam(id []byte, params jsonvalue.Value, name string, required bool) (string, []byte) {
	var v jsonvalue.Value
	if params.Exists() {
		v = params.Get(name)
	}
	switch {
	case !v.Exists() && !required:
		return "", nil
	case !v.Exists() || v.Kind() != jsonvalue.String:
		return "", jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: %q must be a string", name))
	}
	return v.Str(), nil
}

// callNotify is where the notifications of c go: its own sink, else the
// session's.
func (ss *session) callNotify(c *call) func([]byte) {
	if c.notify != nil {
		return c.notify
	}
	return ss.notify
}
