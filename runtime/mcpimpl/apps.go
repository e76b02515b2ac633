package mcpimpl

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/wire"
)

// EmbeddedText reads a resource whose contents are a package's variable
// (//mcp:resource on a string or []byte variable, usually a //go:embed
// file, such as an MCP App's HTML): one text content of type mimeType
// holding the variable's value when Register ran.
func EmbeddedText[S ~string | ~[]byte](content S, mimeType string) runtime.ResourceHandler {
	text := string(content)
	return func(_ context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
		return runtime.TextResource(req.URI, mimeType, text), nil
	}
}

// EmbeddedBlob is EmbeddedText for binary contents, sent base64-encoded.
func EmbeddedBlob[B ~[]byte](content B, mimeType string) runtime.ResourceHandler {
	return func(_ context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
		return BlobContents(req.URI, mimeType, content)
	}
}

// CheckOrigin returns why runtime.Server.AddResource would refuse s as an
// entry of an MCP App's CSP, or nil.
func CheckOrigin(s string) error { return wire.CheckOrigin(s) }
