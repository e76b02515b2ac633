package runtime

import (
	"context"
	"strings"
	"testing"
)

// TestCaller: one caller is named the same way everywhere. The holder of
// a token is its issuer and subject, so that the same subject of two
// issuers is two callers (the per-client bounds once counted them as one,
// by subject alone); an HTTP client without a token is its host, whatever
// its port; stdio and a Conn have one client, which needs no name.
func TestCaller(t *testing.T) {
	token := func(iss, sub string) context.Context {
		return context.WithValue(context.Background(), tokenKey{}, &TokenInfo{Issuer: iss, Subject: sub})
	}
	a := callerOf(token("https://a.example", "ann"), "10.0.0.1:5000")
	b := callerOf(token("https://b.example", "ann"), "10.0.0.1:5000")
	if a.share() == b.share() || a.holder == b.holder {
		t.Errorf("the same subject of two issuers is one caller: %q", a.share())
	}
	if a.share() != a.holder || !strings.Contains(a.holder, "https://a.example") {
		t.Errorf("a token's holder shares by its token: %q, %q", a.share(), a.holder)
	}
	p1 := callerOf(context.Background(), "10.0.0.1:5000")
	p2 := callerOf(context.Background(), "10.0.0.1:6000")
	if p1.share() != p2.share() || p1.share() != "addr:10.0.0.1" || p1.holder != "" {
		t.Errorf("one host on two ports: %q, %q", p1.share(), p2.share())
	}
	if s := callerOf(context.Background(), "").share(); s != "" {
		t.Errorf("the one client of stdio: %q", s)
	}
}

// TestSessionOwner: what a request creates belongs to its token's holder,
// else its HTTP session, else its connection (the same name for every
// request of it); a request served on its own without a token owns
// nothing it could be told apart by. Only what a session alone can reach
// ends with it.
func TestSessionOwner(t *testing.T) {
	held := &session{transport: "http", id: "s1", caller: caller{holder: "sub:i\nann"}}
	if held.owner() != "sub:i\nann" || held.ownedAlone() != "" {
		t.Errorf("a token's holder: %q, %q", held.owner(), held.ownedAlone())
	}
	httpSession := &session{transport: "http", id: "s1"}
	if httpSession.owner() != "session:s1" || httpSession.ownedAlone() != "session:s1" {
		t.Errorf("an HTTP session: %q, %q", httpSession.owner(), httpSession.ownedAlone())
	}
	if o := (&session{transport: "http"}).owner(); o != "" {
		t.Errorf("a request on its own: %q", o)
	}
	conn := &session{transport: "conn"}
	if conn.ownedAlone() != "" {
		t.Errorf("a connection that created nothing owns %q", conn.ownedAlone())
	}
	first := conn.owner()
	if !strings.HasPrefix(first, "conn:") || conn.owner() != first || conn.ownedAlone() != first {
		t.Errorf("a connection: %q, then %q, %q", first, conn.owner(), conn.ownedAlone())
	}
	if (&session{transport: "stdio"}).owner() == first {
		t.Error("two connections share an owner")
	}
}
