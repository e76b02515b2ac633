package runtime

// The sessions a server can notify: list changes and resource updates go
// to every connected client, whatever its transport.

// join registers ss as a session the server can send notifications to.
func (s *Server) join(ss *session) {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	if s.live == nil {
		s.live = map[*session]struct{}{}
	}
	s.live[ss] = struct{}{}
}

// leave forgets ss.
func (s *Server) leave(ss *session) {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	delete(s.live, ss)
}

// liveSessions returns the sessions to notify.
func (s *Server) liveSessions() []*session {
	s.liveMu.Lock()
	defer s.liveMu.Unlock()
	out := make([]*session, 0, len(s.live))
	for ss := range s.live {
		out = append(out, ss)
	}
	return out
}

// listChanged tells every initialized client that the list of kind
// ("tools", "resources", "prompts") changed.
func (s *Server) listChanged(kind string) {
	msg := []byte(`{"jsonrpc":"2.0","method":"notifications/` + kind + `/list_changed"}`)
	for _, ss := range s.liveSessions() {
		if ss.protocolVersion() != "" {
			ss.send(msg)
		}
	}
	s.notifyListChanged(kind)
}

// send sends a notification that belongs to no call.
func (ss *session) send(msg []byte) {
	if ss.notify != nil {
		ss.notify(msg)
	}
}

// subscribe records that the client wants notifications/resources/updated
// for uri, or no longer wants it.
func (ss *session) subscribe(uri string, on bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !on {
		delete(ss.subs, uri)
		return
	}
	if ss.subs == nil {
		ss.subs = map[string]bool{}
	}
	ss.subs[uri] = true
}

// subscribed reports whether the client subscribed to uri.
func (ss *session) subscribed(uri string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.subs[uri]
}
