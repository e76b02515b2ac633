package otel

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/mcpgen/mcpgen/runtime"
)

// sessionState is what the middleware keeps of a session while it lasts:
// what mcp.server.session.duration is recorded with when it ends.
type sessionState struct {
	mu        sync.Mutex
	revision  string // the first revision a request of it named
	transport string // runtime.RequestInfo.Transport
}

// watchSession starts keeping req's session, the first time one of its
// requests arrives, and records its duration when it ends; later
// requests only fill in a revision not known yet (the session's
// initialize is served before any revision is).
func (m *middleware) watchSession(req *runtime.RequestInfo) {
	if v, ok := m.sessions.Load(req.Session); ok {
		st := v.(*sessionState)
		if req.Revision != "" {
			st.mu.Lock()
			if st.revision == "" {
				st.revision = req.Revision
			}
			st.mu.Unlock()
		}
		return
	}
	st := &sessionState{revision: req.Revision, transport: req.Transport}
	if _, loaded := m.sessions.LoadOrStore(req.Session, st); loaded {
		return
	}
	s := req.Session
	s.OnEnd(func() {
		m.sessions.Delete(s)
		ctx := context.Background()
		if !m.session.Enabled(ctx) {
			return
		}
		st.mu.Lock()
		attrs := sessionAttributes(st)
		st.mu.Unlock()
		m.session.Record(ctx, time.Since(s.Started()).Seconds(), metric.WithAttributeSet(attrs))
	})
}

// sessionAttributes are the attributes of mcp.server.session.duration:
// the conventions give it the protocol's version and the network
// protocol's name, not the transport.
func sessionAttributes(st *sessionState) attribute.Set {
	attrs := make([]attribute.KeyValue, 0, 2)
	if st.revision != "" {
		attrs = append(attrs, keyProtocolVersion.String(st.revision))
	}
	if st.transport == "http" {
		attrs = append(attrs, keyNetworkProtocolName.String("http"))
	}
	return attribute.NewSet(attrs...)
}
