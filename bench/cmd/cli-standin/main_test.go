package main

import "testing"

func TestHasID(t *testing.T) {
	line := []byte(`{"type":"control_response","response":{"subtype":"success","request_id":"a-1","response":{"mcp_response":{"jsonrpc":"2.0","id":12,"result":{}}}}}`)
	if !hasID(line, "12") || hasID(line, "1") || hasID(line, "123") {
		t.Error("hasID matched the wrong ids")
	}
}

func TestServerName(t *testing.T) {
	if n, err := serverName([]byte(`{"request":{"subtype":"initialize","sdkMcpServers":["ts"]}}`), nil); err != nil || n != "ts" {
		t.Errorf("from initialize: %q, %v", n, err)
	}
	args := []string{"--verbose", "--mcp-config", `{"mcpServers":{"bench":{"type":"sdk","name":"bench"}}}`}
	if n, err := serverName([]byte(`{"request":{"subtype":"initialize","hooks":null}}`), args); err != nil || n != "bench" {
		t.Errorf("from --mcp-config: %q, %v", n, err)
	}
	args = []string{"--mcp-config", `{"mcpServers":{"bench":{"type":"sdk"}}}`}
	if _, err := serverName([]byte(`{}`), args); err == nil {
		t.Error("an sdk server without name was accepted (the real CLI ignores it)")
	}
}
