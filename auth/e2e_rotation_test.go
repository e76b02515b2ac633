package auth_test

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/auth"
	"github.com/mcpgen/mcpgen/internal/hydratest"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// TestKeyRotationUnderServer rotates Hydra's signing key while a server
// runs: tokens signed with the old key keep working while Hydra publishes
// it; a token signed with the new key is refused until the verifier may
// fetch the key set again (MinRefetchGap after its last fetch, moved on
// the verifier's clock), then works; once Hydra withdraws the old key,
// the periodic refresh stops trusting it, once done (the request that
// starts it is answered with the keys held). Hydra's JWK set is fetched
// once per step, never per request.
func TestKeyRotationUnderServer(t *testing.T) {
	t.Parallel()
	var jwksFetches atomic.Int64
	hydra := hydratest.StartWith(t, hydratest.Config{Observe: func(r *http.Request) {
		if r.URL.Path == "/.well-known/jwks.json" {
			jwksFetches.Add(1)
		}
	}})
	clk := newClock()
	srv := serve(t, jwtVerifier(t, hydra, clk), hydra.Issuer(), false)
	client := hydra.RegisterClient(t, hydratest.ClientConfig{Scopes: []string{readScope}, Audience: []string{srv.url}})
	token := func() string { return hydra.Token(t, client, []string{readScope}, []string{srv.url}) }
	call := func(what, tok string, want int, fetches int64) {
		t.Helper()
		for range 3 { // the same answer every time, with no fetch for the repeats
			r := mcptest.Post(t, srv.url, mcptest.Call(1, "list_notes", `{}`), "Authorization", "Bearer "+tok)
			if r.Status != want {
				t.Errorf("%s: %d %q, want %d", what, r.Status, r.Header.Get("WWW-Authenticate"), want)
			}
		}
		if got := jwksFetches.Load(); got != fetches {
			t.Errorf("%s: Hydra's JWK set fetched %d times, want %d", what, got, fetches)
		}
	}

	old := token()
	oldHeader, _, _ := segments(t, old)
	call("before the rotation", old, 200, 1)

	kid := hydra.RotateKeys(t, "ES256")
	fresh := token()
	if h, _, _ := segments(t, fresh); h["kid"] != kid {
		t.Fatalf("Hydra signs with %v after the rotation, want kid %q", h["kid"], kid)
	}
	call("the old key after the rotation", old, 200, 1)
	call("the new key, right after the last fetch", fresh, 401, 1)
	clk.Add(auth.MinRefetchGap)
	call("the new key, once a fetch is allowed", fresh, 200, 2)
	call("the old key, still published", old, 200, 2)

	hydra.DeleteKey(t, oldHeader["kid"].(string))
	call("the old key, withdrawn but cached", old, 200, 2)
	clk.Add(auth.RefreshAfter)
	for deadline := time.Now().Add(linepeer.HangGuard); mcptest.Post(t, srv.url, mcptest.Call(1, "list_notes", `{}`), "Authorization", "Bearer "+old).Status == 200; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the withdrawn key is still trusted after the refresh")
		}
	}
	call("the old key, withdrawn and refreshed", old, 401, 3)
	call("the new key, after the refresh", fresh, 200, 3)
}
