// Package mcptest holds what the tests of the runtime's packages share,
// as encoding/json/internal/jsontest serves two packages: the MCP
// messages they send (Request, Call, Initialize, PerRequest), the
// decoders of what comes back (Result, Error, ToolError), and the reader
// of committed fuzz corpora (ReadCorpus). It imports no runtime package,
// so that the runtime's own internal tests can use it.
package mcptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// AllCaps are the capabilities of a client that can answer every
// question: forms and URLs, sampling, roots.
const AllCaps = `{"elicitation":{"form":{},"url":{}},"sampling":{},"roots":{}}`

// Request returns a JSON-RPC request: params are the members of the
// params object without braces, or "" for none. id is encoded as JSON (a
// number or a string).
func Request(id any, method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q}`, jsonOf(id), method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{%s}}`, jsonOf(id), method, params)
}

// Call returns a tools/call of tool with arguments, a JSON object (or ""
// for none).
func Call(id any, tool, arguments string) string {
	params := fmt.Sprintf(`"name":%q`, tool)
	if arguments != "" {
		params += `,"arguments":` + arguments
	}
	return Request(id, "tools/call", params)
}

// Initialize returns an initialize request for the revision rev, with no
// client capabilities.
func Initialize(id any, rev string) string {
	return Request(id, "initialize", fmt.Sprintf(`"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}`, rev))
}

// PerRequest returns a request of revision 2026-07-28: params (members
// without braces, or "") and the _meta that names the revision and
// declares caps, the client's capabilities.
func PerRequest(id any, method, params, caps string) string {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	if params != "" {
		meta = params + "," + meta
	}
	return Request(id, method, meta)
}

// Result decodes the result of a response into v, failing the test on an
// error response.
func Result(t testing.TB, resp string, v any) {
	t.Helper()
	var m struct{ Result json.RawMessage }
	if err := json.Unmarshal([]byte(resp), &m); err != nil || m.Result == nil {
		t.Fatalf("not a result: %s", resp)
	}
	if err := json.Unmarshal(m.Result, v); err != nil {
		t.Fatalf("result %s: %v", m.Result, err)
	}
}

// Error returns the code and the data (as JSON, "" for none) of an error
// response, failing the test on anything else.
func Error(t testing.TB, resp string) (code int, data string) {
	t.Helper()
	var m struct {
		Error *struct {
			Code int
			Data json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(resp), &m); err != nil || m.Error == nil {
		t.Fatalf("not an error: %s", resp)
	}
	return m.Error.Code, string(m.Error.Data)
}

// ToolError returns the response a server writes for a tool call that
// failed with text, a result with isError set.
func ToolError(id any, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}],"isError":true}}`, jsonOf(id), jsonOf(text))
}

func jsonOf(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// ReadCorpus reads the []byte seeds of the committed corpus in dir (such
// as testdata/fuzz/FuzzServeStdio).
func ReadCorpus(t testing.TB, dir string) [][]byte {
	t.Helper()
	entries, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, name := range entries {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		seed, err := ParseCorpusFile(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, seed)
	}
	return out
}

// ParseCorpusFile reads a "go test fuzz v1" file holding one []byte.
func ParseCorpusFile(data []byte) ([]byte, error) {
	header, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(header) != "go test fuzz v1" {
		return nil, fmt.Errorf("not a go test fuzz v1 file")
	}
	rest = bytes.TrimSpace(rest)
	if !bytes.HasPrefix(rest, []byte("[]byte(")) || !bytes.HasSuffix(rest, []byte(")")) {
		return nil, fmt.Errorf("want one []byte value")
	}
	s, err := strconv.Unquote(string(rest[len("[]byte(") : len(rest)-1]))
	return []byte(s), err
}
