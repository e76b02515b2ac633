package runtime

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
)

// subscriptions/listen (revision 2026-07-28) replaces the legacy era's
// session-wide notifications and resources/subscribe: a client opens a
// request that lasts until it goes away, and gets on it the kinds of
// notification it asked for, each tagged with the request's id.

// A subscriptions/listen request gives back its share of the server's
// admission once acknowledged, since it lasts as long as its client wants
// (see call.detach); these bound what the open ones hold instead.
const (
	// maxListeners bounds the listen requests open on a server at once.
	maxListeners = 256
	// maxListenParams bounds the params of one listen request, which are
	// kept while it is open.
	maxListenParams = 64 << 10
)

// keepAliveInterval is how often a listen stream over HTTP sends a
// comment, so that proxies do not take it for idle and close it.
const keepAliveInterval = 25 * time.Second

// A listener is an open subscriptions/listen request.
type listener struct {
	mu   sync.Mutex // held while sending, so the acknowledgement goes first
	id   []byte     // the request's id, as JSON: the subscription id
	send func([]byte)

	tools, prompts, resources bool // list changes wanted
	uris                      []string
	closed                    bool // the request has ended: send nothing more
}

// features reports which kinds of primitive the server offers.
func (s *Server) features() (tools, resources, prompts, completions bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	tools = len(s.tools) > 0
	resources = len(s.resources) > 0 || len(s.templates) > 0 || s.ListResources != nil
	prompts = len(s.prompts) > 0
	completions = slices.ContainsFunc(s.prompts, func(p *Prompt) bool { return p.Complete != nil }) ||
		slices.ContainsFunc(s.templates, func(t *ResourceTemplate) bool { return t.Complete != nil })
	return
}

// listen serves subscriptions/listen: it acknowledges what it will send,
// then forwards those notifications until the request ends. A request
// ended by the server (shutdown) gets a final result; one the client
// cancelled gets none.
func (ss *session) listen(c *call) []byte {
	id := c.msg.ID.Raw()
	var filter jsonvalue.Value
	if c.msg.Params.Exists() {
		filter = c.msg.Params.Get("notifications")
	}
	if !filter.Exists() || filter.Kind() != jsonvalue.Object {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, `invalid params: "notifications" must be an object saying which notifications to send`)
	}
	if n := len(c.msg.Params.Raw()); n > maxListenParams {
		return jsonrpc.Error(id, jsonrpc.InvalidParams, fmt.Sprintf("invalid params: the params of subscriptions/listen take %d bytes, more than the limit of %d", n, maxListenParams))
	}
	srv := ss.srv
	tools, resources, prompts, _ := srv.features()
	wants := func(name string) bool {
		v := filter.Get(name)
		return v.Exists() && v.Kind() == jsonvalue.Bool && v.IsTrue()
	}
	l := &listener{
		id:        slices.Clone(id),
		send:      ss.callNotify(c),
		tools:     tools && wants("toolsListChanged"),
		prompts:   prompts && wants("promptsListChanged"),
		resources: resources && wants("resourcesListChanged"),
	}
	if uv := filter.Get("resourceSubscriptions"); resources && uv.Exists() && uv.Kind() == jsonvalue.Array {
		for _, u := range uv.Elems() {
			if u.Kind() == jsonvalue.String {
				l.uris = append(l.uris, u.Str())
			}
		}
	}
	if l.send == nil {
		return jsonrpc.Error(id, jsonrpc.InternalError, "this transport cannot stream notifications")
	}

	ack := []byte(`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{`)
	ack = l.appendMeta(ack)
	ack = append(ack, `,"notifications":{`...)
	sep := ""
	for _, f := range []struct {
		name string
		on   bool
	}{{"toolsListChanged", l.tools}, {"promptsListChanged", l.prompts}, {"resourcesListChanged", l.resources}} {
		if f.on {
			ack = append(ack, sep+`"`+f.name+`":true`...)
			sep = ","
		}
	}
	if l.uris != nil {
		ack = append(ack, sep+`"resourceSubscriptions":[`...)
		for i, u := range l.uris {
			if i > 0 {
				ack = append(ack, ',')
			}
			ack = jsonvalue.AppendString(ack, u)
		}
		ack = append(ack, ']')
	}
	ack = append(ack, "}}}"...)

	l.mu.Lock()
	if !srv.addListener(l) {
		l.mu.Unlock()
		return jsonrpc.Error(id, jsonrpc.InvalidRequest, fmt.Sprintf("invalid request: %d subscriptions/listen requests are open on this server, the most it keeps; end one first", maxListeners))
	}
	l.send(ack)
	l.mu.Unlock()
	defer srv.removeListener(l)
	c.detach()

	var tick <-chan time.Time
	if c.keepAlive != nil {
		t := time.NewTicker(keepAliveInterval)
		defer t.Stop()
		tick = t.C
	}
	for done := false; !done; {
		select {
		case <-c.ctx.Done():
			done = true
		case <-tick:
			if !c.keepAlive() {
				done = true
			}
		}
	}
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	b := []byte(`{"resultType":"complete",`)
	b = append(l.appendMeta(b), '}')
	return jsonrpc.AppendResult(nil, id, b)
}

// endListens ends the subscriptions/listen requests in flight, as a
// shutdown does: at the end of a stdio client's input nothing could cancel
// them any more, and they would keep the server from returning.
func (ss *session) endListens() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, c := range ss.inflight {
		for ; c != nil; c = c.sameID {
			if c.msg.Method == "subscriptions/listen" {
				c.cancel()
			}
		}
	}
}

// appendMeta writes the _meta member that names the subscription.
func (l *listener) appendMeta(b []byte) []byte {
	b = append(b, `"_meta":{"`+metaSubscriptionID+`":`...)
	b = append(b, l.id...)
	return append(b, '}')
}

// notify sends the notification method, with params members (JSON object
// members without braces, or ""), tagged with the subscription.
func (l *listener) notify(method, params string) {
	b := []byte(`{"jsonrpc":"2.0","method":"` + method + `","params":{`)
	b = l.appendMeta(b)
	if params != "" {
		b = append(append(b, ','), params...)
	}
	b = append(b, "}}"...)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.send(b)
	}
}

// addListener registers l, unless maxListeners are open already.
func (s *Server) addListener(l *listener) bool {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	if len(s.listeners) >= maxListeners {
		return false
	}
	if s.listeners == nil {
		s.listeners = map[*listener]struct{}{}
	}
	s.listeners[l] = struct{}{}
	return true
}

func (s *Server) removeListener(l *listener) {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	delete(s.listeners, l)
}

// listenersOf returns the listeners that want the notifications which
// wants selects.
func (s *Server) listenersOf(wants func(*listener) bool) []*listener {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	var out []*listener
	for l := range s.listeners {
		if wants(l) {
			out = append(out, l)
		}
	}
	return out
}

// notifyListChanged tells the listeners that want it that the list of
// kind ("tools", "resources", "prompts") changed.
func (s *Server) notifyListChanged(kind string) {
	ls := s.listenersOf(func(l *listener) bool {
		switch kind {
		case "tools":
			return l.tools
		case "prompts":
			return l.prompts
		}
		return l.resources
	})
	for _, l := range ls {
		l.notify("notifications/"+kind+"/list_changed", "")
	}
}

// notifyUpdated tells the listeners subscribed to uri that it changed.
func (s *Server) notifyUpdated(uri string) {
	ls := s.listenersOf(func(l *listener) bool { return slices.Contains(l.uris, uri) })
	if len(ls) == 0 {
		return
	}
	params := string(jsonvalue.AppendString([]byte(`"uri":`), uri))
	for _, l := range ls {
		l.notify("notifications/resources/updated", params)
	}
}
