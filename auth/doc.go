// Package auth verifies OAuth 2.0 access tokens for an mcpgen server
// served over Streamable HTTP. Each verifier implements
// runtime.TokenVerifier; the runtime calls it for the bearer token of
// every request, then checks the audience against the server's resource
// URI and the scopes against what the operation needs.
//
//   - JWTVerifier checks JWT access tokens (RFC 9068) locally, with the
//     issuer's public keys from its JWK set, found through its RFC 8414 or
//     OpenID Connect discovery document and refreshed as the issuer
//     rotates them. No round trip per request.
//     A token it accepted is accepted again without its signature being
//     checked, for a few minutes (see Revocation below).
//   - IntrospectionVerifier asks the authorization server about opaque
//     tokens (RFC 7662), caching active answers briefly.
//
// Start with NewJWTVerifier, given the issuer in a JWTConfig, and set the
// verifier as the Verifier of the runtime.Authorization in
// runtime.HTTPOptions, with the URL clients reach the server at as its
// Resource and the issuer among its AuthorizationServers:
//
//	v, err := auth.NewJWTVerifier(auth.JWTConfig{Issuer: "https://auth.example.com"})
//	if err != nil { ... }
//	err = s.ListenAndServeHTTP(ctx, "0.0.0.0:8080", &runtime.HTTPOptions{
//		Authorization: &runtime.Authorization{
//			Verifier:             v,
//			Resource:             "https://mcp.example.com/mcp",
//			AuthorizationServers: []string{"https://auth.example.com"},
//		},
//	})
//
// Use NewIntrospectionVerifier instead when the issuer's tokens are
// opaque, or must stop working as soon as they are revoked.
//
// A token that is not valid gives an error wrapping
// runtime.ErrInvalidToken (the client gets 401 and goes back to the
// authorization server), through the reason when the verifier knows it:
// runtime.ErrTokenExpired, ErrTokenNotValidYet, ErrTokenInvalidAudience,
// ErrTokenInvalidIssuer, ErrTokenUnknownKey, ErrTokenSignatureInvalid,
// ErrTokenMalformed or ErrTokenInactive, which the client reads in the
// challenge's error_description; an authorization server that cannot be reached
// gives another error (503: the client keeps its token and retries).
//
// # Bounds
//
// A token longer than MaxTokenSize (16 KiB) is refused before it is
// decoded. Every document fetched from the authorization server (metadata,
// JWK set, introspection answer) is read to at most 1 MiB, and a JWK set
// of more than 100 keys is refused; the default HTTP client gives up after
// 10 seconds and follows no redirects, and one key refresh is bounded by
// 10 seconds whatever the client. Key refetches for unknown key ids happen
// at most once every 10 seconds, so tokens with made-up kids cannot turn
// the server against its issuer. The introspection cache holds at most
// CacheSize answers, of at most 16 KiB each as the authorization server
// sent them (a larger one is asked for again), and one introspection is
// bounded by 10 seconds whatever the client. The JWT verifier's cache of
// accepted tokens holds at most CacheSize of them and CacheBytes of their
// claims (estimated), evicting the least recently used; refused tokens
// never enter it, so a flood of them evicts nothing.
//
// # Revocation
//
// A JWT is valid until its exp: a resource server cannot learn that it
// was revoked without asking the authorization server. The JWT verifier
// accepts a token it has seen without checking its signature again for
// up to JWTConfig.CacheTTL (5 minutes by default, never past exp), which
// changes nothing a token can do: it checks exp, nbf and iat against the
// clock on every use, and drops a token once the verifier has fetched
// the issuer's keys without the key that signed it (within 15 minutes of
// the withdrawal, as without the cache). CacheTTL: -1 turns the cache
// off. For tokens that must stop working when revoked, use opaque tokens
// and IntrospectionVerifier: a revoked token then works for at most its
// CacheTTL (10 seconds by default; -1 asks on every request).
//
// # Choices
//
// Signatures and registered claims are checked by
// github.com/golang-jwt/jwt/v5: it has no dependencies of its own, takes
// an explicit list of accepted algorithms, and lets the key be chosen per
// token. The JWK set is read and cached here (two small files on the
// standard library, which validates the keys: EC points on their curve,
// RSA moduli of 2048 to 8192 bits) rather than with
// github.com/lestrrat-go/jwx/v3, whose jwk.Cache runs background refresh
// workers that need a lifetime and a Shutdown, and which brings about ten
// modules of its own; this cache fetches on demand (a stale set is
// refreshed by a goroutine that a request starts, and that ends within 10
// seconds, while the set held goes on answering), so a verifier is a
// plain value with nothing to close.
//
// The cache of accepted tokens belongs to the JWT verifier, not to the
// runtime: a JWT's verdict depends on the token, the issuer's keys and
// the clock alone, which the verifier sees, so it can check again what
// the clock decides on every use and drop a verdict when its key goes. A
// cache in front of every runtime.TokenVerifier would also hold the
// verdicts of introspection, which change when a token is revoked, and
// of verifiers whose reasons it cannot see.
//
// Algorithms are taken from the keys, never from the token: a key of type
// RSA verifies RS256 to PS512 only (or just its alg member, if it has
// one), EC keys the ES algorithm of their curve, Ed25519 keys EdDSA. A
// symmetric key in the set is ignored. So a token signed with alg "none",
// or with HS256 and the issuer's public key as the secret, finds no key.
//
// The typ header is not checked: RFC 9068 asks for "at+jwt", but Hydra,
// for one, writes "JWT". What keeps an OpenID ID token
// of the same issuer from passing for an access token is the audience:
// an ID token is issued to the client (aud is its client_id), never to
// the resource, and the runtime refuses a token not issued for the server.
//
// From go-sdk's oauthex this package takes the 1 MiB bound on metadata,
// the https-or-loopback rule for the authorization server's URLs, and "a
// 4xx from one well-known address means try the next". From FastMCP's
// JWTVerifier and IntrospectionTokenVerifier it takes reading scopes from
// scope or scp, as a string or a list, the client from client_id or azp,
// a kid-less token only against a single-key set, the 10-second timeout,
// and client_secret_basic (default) or client_secret_post towards the
// introspection endpoint. Unlike FastMCP it rate-limits the refetch for
// an unknown kid (FastMCP fetches the set again for every such token, so
// made-up kids turn each request into a request to the issuer), takes the
// algorithms from the keys rather than from one configured algorithm,
// refuses HMAC altogether, and caches introspection answers.
package auth
