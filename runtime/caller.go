package runtime

import (
	"context"
	"crypto/rand"
	"net"
)

// Who is calling. Everything the server keeps per caller names the caller
// the same way, from what callerOf reads of a request: a Streamable HTTP
// session is bound to the holder of the token that opened it, a task (and
// the subscriptions/listen requests that follow it) belongs to its
// creator's owner, and each client's share of the bounds kept per client
// (Server.MaxListensPerClient, the per-client bounds of Server.Tasks, the
// ledger of what it keeps in the store) is counted under its share.

// A caller is who makes a request, as far as the server can tell from it.
type caller struct {
	// holder names the holder of the request's verified token: "sub:", its
	// issuer, a newline, its subject; "" without a token. The tokens of an
	// issuer that name no subject name one holder.
	holder string
	// address is the host an HTTP request came from, without its port
	// (behind a proxy, the proxy's); "" on the other transports.
	address string
}

// callerOf returns the caller of a request: ctx carries its verified
// token, if it has one (see TokenInfoFromContext), and remoteAddr is where
// it came from over HTTP (http.Request.RemoteAddr), "" on the other
// transports.
func callerOf(ctx context.Context, remoteAddr string) caller {
	var c caller
	if ti := TokenInfoFromContext(ctx); ti != nil {
		c.holder = "sub:" + ti.Issuer + "\n" + ti.Subject
	}
	if remoteAddr != "" {
		host, _, err := net.SplitHostPort(remoteAddr)
		if err != nil {
			host = remoteAddr
		}
		c.address = host
	}
	return c
}

// share names the caller for the bounds kept per client: the holder of its
// token, else its address; "" for the one client of stdio or a Conn.
func (c caller) share() string {
	switch {
	case c.holder != "":
		return c.holder
	case c.address != "":
		return "addr:" + c.address
	}
	return ""
}

// owner names the caller of ss's requests as the owner of what they create
// that only the same caller may reach later (a task): the holder of its
// token; else its Streamable HTTP session; else its connection (stdio, a
// Conn), named at random when it first creates something. It is "" for a
// Streamable HTTP request without a session or a token, which the server
// cannot tell from anyone else's: a task's unguessable id alone admits
// then.
func (ss *session) owner() string {
	switch {
	case ss.caller.holder != "":
		return ss.caller.holder
	case ss.transport == "http" && ss.id == "":
		return ""
	case ss.transport == "http":
		return "session:" + ss.id
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.connOwner == "" {
		ss.connOwner = "conn:" + rand.Text()
	}
	return ss.connOwner
}

// ownedAlone is the owner of what only ss can reach, which ends with it:
// its HTTP session's, or its connection's if it created anything; "" when
// what it created belongs to a token's holder, who reaches it from
// elsewhere too, or when it created nothing.
func (ss *session) ownedAlone() string {
	switch {
	case ss.caller.holder != "":
		return ""
	case ss.transport == "http" && ss.id != "":
		return "session:" + ss.id
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.connOwner
}
