// Package e2e holds the end-to-end tests of authorization over
// Streamable HTTP, with real parts only: a server built on the runtime and
// auth.NewJWTVerifier (or auth.NewIntrospectionVerifier) served by
// ListenAndServeHTTP, ORY Hydra as the authorization server
// (internal/hydratest), and as clients the official Go SDK, the official
// TypeScript SDK and the Claude Code CLI. It has no code of its own.
package e2e
