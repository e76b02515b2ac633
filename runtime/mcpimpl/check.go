package mcpimpl

import "github.com/mcpgen/mcpgen/runtime/internal/wire"

// CheckHeaderParams returns why runtime.Server.AddTool would refuse a
// tool whose input schema is inputSchema for its x-mcp-header
// annotations (a name that is not a header token, a property that is not
// a string, integer or boolean, a header named twice, an annotation
// clients cannot reach), or nil. mcpgen calls it when it generates the
// tool, so that the refusal is reported there rather than when the
// server starts.
func CheckHeaderParams(inputSchema string) error {
	_, err := wire.HeaderParams([]byte(inputSchema))
	return err
}
