// Command http-gosdk serves greet and create_ticket with the official Go
// SDK over Streamable HTTP at http://$MCPGEN_BENCH_ADDR/mcp, as its README
// does (mcp.NewStreamableHTTPHandler served by net/http): stateless
// (StreamableHTTPOptions.Stateless), or with -sessions with sessions. Both
// answer application/json (JSONResponse), as mcpgen does, rather than the
// default one-event text/event-stream.
//
// With -issuer URL it requires JWT access tokens of that issuer as the
// SDK's documentation shows: auth.RequireBearerToken in front of the
// handler, with the scope mcp, and the metadata document at
// /.well-known/oauth-protected-resource/mcp
// (auth.ProtectedResourceMetadataHandler). The SDK has no JWT verifier: its
// TokenVerifier here is mcpgen's (auth.NewJWTVerifier) plus the audience
// check the SDK provides (oauthex.MatchesResource), the same verification
// http-mcpgen -issuer does, with its cache of accepted tokens unless
// -nocache is given.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	gosdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/auth"

	"github.com/mcpgen/mcpgen/bench/internal/issuer"
	"github.com/mcpgen/mcpgen/bench/internal/peers/gosdk"
)

func main() {
	sessions := flag.Bool("sessions", false, "give every client an Mcp-Session-Id session")
	issuerURL := flag.String("issuer", "", "require JWT access tokens of this `issuer`")
	nocache := flag.Bool("nocache", false, "with -issuer: check every token's signature (the verifier's cache off)")
	flag.Parse()
	server := gosdk.NewServer()
	var handler http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: !*sessions, JSONResponse: true})
	addr := os.Getenv("MCPGEN_BENCH_ADDR")
	mux := http.NewServeMux()
	if *issuerURL != "" {
		resource := "http://" + addr + "/mcp"
		metadata := "http://" + addr + "/.well-known/oauth-protected-resource/mcp"
		handler = gosdkauth.RequireBearerToken(verifier(*issuerURL, resource, *nocache),
			&gosdkauth.RequireBearerTokenOptions{ResourceMetadataURL: metadata, Scopes: []string{issuer.Scope}})(handler)
		mux.Handle("/.well-known/oauth-protected-resource/mcp", gosdkauth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource: resource, AuthorizationServers: []string{*issuerURL}, ScopesSupported: []string{issuer.Scope}, BearerMethodsSupported: []string{"header"},
		}))
	}
	mux.Handle("/mcp", handler)
	hs := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(hs.ListenAndServe())
}

// verifier adapts mcpgen's JWT verifier to the SDK's TokenVerifier, with
// the audience check the mcpgen runtime makes itself.
func verifier(issuerURL, resource string, nocache bool) gosdkauth.TokenVerifier {
	cfg := auth.JWTConfig{Issuer: issuerURL}
	if nocache {
		cfg.CacheTTL = -1
	}
	v, err := auth.NewJWTVerifier(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return func(ctx context.Context, token string, _ *http.Request) (*gosdkauth.TokenInfo, error) {
		ti, err := v.VerifyToken(ctx, token)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", gosdkauth.ErrInvalidToken, err)
		}
		if !oauthex.MatchesResource(ti.Audience, resource) {
			return nil, fmt.Errorf("%w: not issued for this server", gosdkauth.ErrInvalidToken)
		}
		return &gosdkauth.TokenInfo{Scopes: ti.Scopes, Expiration: ti.Expiry, UserID: ti.Subject, Extra: ti.Claims}, nil
	}
}
