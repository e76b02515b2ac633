package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// The server tells its clients when a list changes (tools, prompts,
// resources) and when a resource they subscribed to is updated. Clients
// of a session revision hear it on their session, once initialized (and
// for updates, once subscribed with resources/subscribe); clients of the
// per-request revision hear it on the subscriptions/listen requests they
// hold open. A fanout reaches both, and never waits for a client: a
// session's sink queues (stdio and Conn write in order, HTTP keeps an
// event log), and each listen request has a bounded queue of its own,
// drained by the request's goroutine; a listener that falls behind is
// ended.
type fanout struct {
	mu        sync.Mutex
	sessions  map[*session]struct{}
	listeners map[*listener]struct{}
	byClient  map[string]int // open listeners per client
}

// join registers ss as a session the server can notify; leave forgets it.
// A server whose replicas share a store then hears the others' changes
// too, once it has joined the bus, which join starts without waiting for
// it (see joinBusLater).
func (f *fanout) join(ss *session) {
	f.mu.Lock()
	if f.sessions == nil {
		f.sessions = map[*session]struct{}{}
	}
	f.sessions[ss] = struct{}{}
	f.mu.Unlock()
	ss.srv.joinBusLater()
}

func (f *fanout) leave(ss *session) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.sessions, ss)
}

// snapshot returns the sessions and the listeners that want, for one
// notification.
func (f *fanout) snapshot(wants func(*listener) bool) ([]*session, []*listener) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sessions := make([]*session, 0, len(f.sessions))
	for ss := range f.sessions {
		sessions = append(sessions, ss)
	}
	var ls []*listener
	for l := range f.listeners {
		if wants(l) {
			ls = append(ls, l)
		}
	}
	return sessions, ls
}

// listChanged tells every client that wants it that the list of the
// feature changed.
func (f *fanout) listChanged(kind feature) {
	method := map[feature]string{tools: wire.NotifyToolsChanged, prompts: wire.NotifyPromptsChanged, resources: wire.NotifyResourcesChanged}[kind]
	sessions, ls := f.snapshot(func(l *listener) bool { return l.lists[kind] })
	msg := []byte(`{"jsonrpc":"2.0","method":"` + method + `"}`)
	for _, ss := range sessions {
		if ss.sessionRevision() != "" && ss.notify != nil {
			ss.notify(msg)
		}
	}
	for _, l := range ls {
		l.enqueue(method, "")
	}
}

// updated tells the clients subscribed to uri that it changed; reading
// it needs scopes (see Server.resourceScopes), which a listener's token
// must hold, as resources/read checks them (a session's subscription
// was checked by resources/subscribe).
func (f *fanout) updated(uri string, scopes []string) {
	sessions, ls := f.snapshot(func(l *listener) bool { return slices.Contains(l.uris, uri) && l.mayRead(scopes) })
	params := string(jsonvalue.AppendString([]byte(`"uri":`), uri))
	msg := []byte(`{"jsonrpc":"2.0","method":"` + wire.NotifyUpdated + `","params":{` + params + `}}`)
	for _, ss := range sessions {
		ss.mu.Lock()
		subscribed := ss.subs.has(uri)
		ss.mu.Unlock()
		if subscribed && ss.notify != nil {
			ss.notify(msg)
		}
	}
	for _, l := range ls {
		l.enqueue(wire.NotifyUpdated, params)
	}
}

// listChanged tells the connected clients that the list of kind changed,
// here and, through the bus, on the other replicas.
func (s *Server) listChanged(kind feature) {
	s.fanout.listChanged(kind)
	s.publishLater(busMessage{Kind: "list", Feature: kind.String()})
}

// updated tells the clients subscribed to uri that it changed, here and,
// through the bus, on the other replicas.
func (s *Server) updated(uri string) {
	s.fanout.updated(uri, s.resourceScopes(uri))
	s.publishLater(busMessage{Kind: "uri", URI: uri})
}

// resourceScopes are the scopes a token needs to read uri (see
// findResource): none for a URI that names nothing.
func (s *Server) resourceScopes(uri string) []string {
	_, _, scopes := s.findResource(uri)
	return scopes
}

// taskStatus sends the task id's DetailedTask (detail, a JSON object) to
// the listeners that follow it and belong to its owner.
func (f *fanout) taskStatus(id, owner string, detail []byte) {
	_, ls := f.snapshot(func(l *listener) bool { return l.owner == owner && slices.Contains(l.tasks, id) })
	if len(ls) == 0 {
		return
	}
	params := string(detail[1 : len(detail)-1])
	for _, l := range ls {
		l.enqueue(wire.NotifyTasks, params)
	}
}

// The bounds of a session's resource subscriptions (resources/subscribe).
const (
	maxSubscriptions     = 1024
	maxSubscriptionBytes = 256 << 10
)

// subscriptions are the resources a session subscribed to, bounded in
// number and in bytes.
type subscriptions struct {
	uris  map[string]struct{}
	bytes int
}

// add subscribes to uri, unless that passes a bound.
func (s *subscriptions) add(uri string) error {
	if _, ok := s.uris[uri]; ok {
		return nil
	}
	if len(s.uris) >= maxSubscriptions || s.bytes+len(uri) > maxSubscriptionBytes {
		return fmt.Errorf("this session holds %d subscriptions (%d bytes of URIs), the most it may (%d, %d bytes): unsubscribe first", len(s.uris), s.bytes, maxSubscriptions, maxSubscriptionBytes)
	}
	if s.uris == nil {
		s.uris = map[string]struct{}{}
	}
	s.uris[uri] = struct{}{}
	s.bytes += len(uri)
	return nil
}

func (s *subscriptions) remove(uri string) {
	if _, ok := s.uris[uri]; ok {
		delete(s.uris, uri)
		s.bytes -= len(uri)
	}
}

func (s *subscriptions) has(uri string) bool {
	_, ok := s.uris[uri]
	return ok
}

// subscriptions/listen (per-request revision) replaces the session-wide
// notifications and resources/subscribe: a client opens a request that
// lasts until it goes away, and gets on it the kinds of notification it
// asked for, each tagged with the request's id.

// Defaults of the bounds on subscriptions/listen requests, which give
// back their share of the server's admission once acknowledged (see
// call.detach) and are bounded by these instead.
const (
	defaultMaxListens          = 256
	defaultMaxListensPerClient = 16
	// maxListenParams bounds the params of one listen request, which are
	// kept while it is open.
	maxListenParams = 64 << 10
	// maxListenQueue bounds the notifications queued for one listener:
	// past it, the listener is ended.
	maxListenQueue = 256
)

// keepAliveInterval is how often a stream over HTTP that has sent nothing
// else gets a comment line, so that proxies do not take it for idle and
// close it.
const keepAliveInterval = 15 * time.Second

// A listener is an open subscriptions/listen request.
type listener struct {
	id     []byte // the request's id, as JSON: the subscription id
	client string // whose share it counts in (see caller.share)
	lists  map[feature]bool
	uris   []string
	// tasks are the tasks whose status changes the listener follows,
	// which belong to owner (see session.owner).
	tasks []string
	owner string
	// token is the request's verified token, whose scopes each resource
	// update is checked against; nil without one.
	token *TokenInfo

	mu     sync.Mutex
	queue  [][]byte
	behind bool          // the queue overflowed: end the listener
	wake   chan struct{} // signalled when the queue grows
}

// enqueue queues the notification method, with params members (JSON
// object members without braces, or ""), tagged with the subscription.
// It never waits: a listener whose queue is full is marked behind, and its
// request ends.
func (l *listener) enqueue(method, params string) {
	b := []byte(`{"jsonrpc":"2.0","method":"` + method + `","params":{`)
	b = l.appendMeta(b)
	if params != "" {
		b = append(append(b, ','), params...)
	}
	b = append(b, "}}"...)
	l.mu.Lock()
	if len(l.queue) >= maxListenQueue {
		l.behind = true
	} else {
		l.queue = append(l.queue, b)
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// mayRead reports whether the listener's token, if it has one, holds
// scopes: what reading the resource an update is about needs.
func (l *listener) mayRead(scopes []string) bool {
	return l.token == nil || len(missingScopes(l.token, scopes)) == 0
}

// take returns what is queued, and whether the listener fell behind.
func (l *listener) take() ([][]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.queue
	l.queue = nil
	return q, l.behind
}

// appendMeta writes the _meta member that names the subscription.
func (l *listener) appendMeta(b []byte) []byte {
	b = append(b, `"_meta":{"`+wire.MetaSubscriptionID+`":`...)
	b = append(b, l.id...)
	return append(b, '}')
}

// addListener registers l, unless the server or l's client holds as many
// as it may.
func (s *Server) addListener(l *listener) error {
	f := &s.fanout
	f.mu.Lock()
	defer f.mu.Unlock()
	maxAll, maxClient := s.maxListens()
	switch {
	case len(f.listeners) >= maxAll:
		return fmt.Errorf("%d subscriptions/listen requests are open on this server, the most it keeps; end one first", len(f.listeners))
	case f.byClient[l.client] >= maxClient:
		return fmt.Errorf("this client holds %d subscriptions/listen requests, the most one client may; end one first", f.byClient[l.client])
	}
	if f.listeners == nil {
		f.listeners, f.byClient = map[*listener]struct{}{}, map[string]int{}
	}
	f.listeners[l] = struct{}{}
	f.byClient[l.client]++
	return nil
}

// listenTasks reads the taskIds a subscriptions/listen request asks to
// follow, keeping those of c's caller that exist. When it returns !ok,
// resp answers the request: the client did not declare the tasks
// extension, or the store cannot be reached.
func (ss *session) listenTasks(c *call, filter jsonvalue.Value) (ids []string, owner string, resp response, ok bool) {
	tv := filter.Get("taskIds")
	if !tv.Exists() {
		return nil, "", response{}, true
	}
	if !c.meta.Caps.HasExtension(wire.ExtTasks) {
		return nil, "", missingCapability(&capabilityError{what: "task status notifications", need: []byte(tasksCapabilityRequirement)}), false
	}
	if tv.Kind() != jsonvalue.Array {
		return nil, "", invalidParams(`"notifications.taskIds" must be an array of task ids`), false
	}
	owner = ss.owner()
	ctx, cancel := context.WithTimeout(&c.ctx, storeTimeout)
	defer cancel()
	ids = []string{}
	for _, v := range tv.Elems() {
		if v.Kind() != jsonvalue.String || slices.Contains(ids, v.Str()) {
			continue
		}
		r, _, err := ss.srv.loadTask(ctx, v.Str())
		switch {
		case errors.Is(err, errTaskNotFound):
			continue
		case err != nil:
			return nil, "", storeError("task "+v.Str(), err), false
		}
		if r.Owner == owner {
			ids = append(ids, v.Str())
		}
	}
	return ids, owner, response{}, true
}

func (s *Server) removeListener(l *listener) {
	f := &s.fanout
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.listeners[l]; !ok {
		return
	}
	delete(f.listeners, l)
	if f.byClient[l.client]--; f.byClient[l.client] == 0 {
		delete(f.byClient, l.client)
	}
}

// maxListens returns the bounds on open listen requests, for the server
// and for one client.
func (s *Server) maxListens() (all, perClient int) {
	all, perClient = defaultMaxListens, defaultMaxListensPerClient
	if s.MaxListens > 0 {
		all = s.MaxListens
	}
	if s.MaxListensPerClient > 0 {
		perClient = s.MaxListensPerClient
	}
	return all, min(all, perClient)
}

// listen answers subscriptions/listen: it acknowledges what it will send,
// then forwards those notifications until the request ends. A request
// ended by the server (shutdown) gets a final result; one the client
// cancelled gets none; one whose client does not read what it is sent,
// so that its queue overflows, is ended with an error.
func (ss *session) listen(c *call) response {
	filter := c.msg.Params.Get("notifications")
	if filter.Kind() != jsonvalue.Object {
		return invalidParams(`"notifications" must be an object saying which notifications to send`)
	}
	if n := len(c.msg.Params.Raw()); n > maxListenParams {
		return invalidParams("the params of subscriptions/listen take %d bytes, more than the limit of %d", n, maxListenParams)
	}
	send := c.sink()
	if send == nil {
		return errorResponse(jsonrpc.InternalError, "this transport cannot stream notifications")
	}
	srv := ss.srv
	wants := func(name string) bool { return filter.Get(name).IsTrue() }
	l := &listener{
		id:     slices.Clone(c.id()),
		client: ss.caller.share(),
		lists: map[feature]bool{
			tools:     srv.offers(tools) && wants("toolsListChanged"),
			prompts:   srv.offers(prompts) && wants("promptsListChanged"),
			resources: srv.offers(resources) && wants("resourcesListChanged"),
		},
		wake: make(chan struct{}, 1),
	}
	if uv := filter.Get("resourceSubscriptions"); srv.offers(resources) && uv.Kind() == jsonvalue.Array {
		for _, u := range uv.Elems() {
			if u.Kind() != jsonvalue.String {
				continue
			}
			// As resources/subscribe: a URI the token may not read is
			// refused (403 over HTTP); updated checks again, for a
			// resource added since.
			if c.tokenInfo != nil {
				if resp, ok := c.allow("resource", u.Str(), srv.resourceScopes(u.Str())); !ok {
					return resp
				}
			}
			l.uris = append(l.uris, u.Str())
		}
	}
	l.token = c.tokenInfo
	tasks, owner, resp, ok := ss.listenTasks(c, filter)
	if !ok {
		return resp
	}
	l.tasks, l.owner = tasks, owner
	if err := srv.addListener(l); err != nil {
		return errorResponse(jsonrpc.InvalidRequest, "invalid request: %v", err)
	}
	srv.joinBus(&c.ctx)
	defer srv.removeListener(l)
	send(l.acknowledgement())
	c.detach()

	var tick <-chan time.Time
	if c.keepAlive != nil {
		t := time.NewTicker(keepAliveInterval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-c.ctx.Done():
			return rawResult(l.appendMeta(nil))
		case <-tick:
			if !c.keepAlive() {
				return rawResult(l.appendMeta(nil))
			}
		case <-l.wake:
			queued, behind := l.take()
			for _, msg := range queued {
				send(msg)
			}
			if behind {
				return errorResponse(jsonrpc.InternalError, "this listener fell behind: more than %d notifications waited for the client to read them; open a new subscriptions/listen", maxListenQueue)
			}
		}
	}
}

// acknowledgement is the notification that opens a listen stream, saying
// what it will carry.
func (l *listener) acknowledgement() []byte {
	ack := []byte(`{"jsonrpc":"2.0","method":"` + wire.NotifyAcknowledged + `","params":{`)
	ack = l.appendMeta(ack)
	ack = append(ack, `,"notifications":{`...)
	sep := ""
	for _, f := range []struct {
		name string
		on   bool
	}{{"toolsListChanged", l.lists[tools]}, {"promptsListChanged", l.lists[prompts]}, {"resourcesListChanged", l.lists[resources]}} {
		if f.on {
			ack = append(ack, sep+`"`+f.name+`":true`...)
			sep = ","
		}
	}
	for _, list := range []struct {
		name  string
		items []string
	}{{"resourceSubscriptions", l.uris}, {"taskIds", l.tasks}} {
		if list.items == nil {
			continue
		}
		ack = append(ack, sep+`"`+list.name+`":[`...)
		for i, u := range list.items {
			if i > 0 {
				ack = append(ack, ',')
			}
			ack = jsonvalue.AppendString(ack, u)
		}
		ack = append(ack, ']')
		sep = ","
	}
	return append(ack, "}}}"...)
}

// endListens ends the subscriptions/listen requests in flight, as a
// shutdown does: at the end of a stdio client's input nothing could cancel
// them any more, and they would keep the server from returning.
func (ss *session) endListens() {
	for _, c := range ss.calls(func(c *call) bool { return c.msg.Method == wire.MethodListen }) {
		c.cancel()
	}
}
