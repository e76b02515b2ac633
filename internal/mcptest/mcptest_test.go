package mcptest

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestMessages: what the builders write is JSON-RPC, and a reply is read
// from a JSON body and from an event stream alike.
func TestMessages(t *testing.T) {
	for _, msg := range []string{
		Request(1, "ping", ""), Request("a", "tools/list", `"cursor":"x"`), Notification("notifications/cancelled", `"requestId":1`),
		Call(2, "greet", Object("name", "Ada", "n", 2)), Initialize(3, "2025-11-25"), PerRequest(4, "tools/list", "", TasksCaps), Initialized,
	} {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(msg), &m); err != nil || m.JSONRPC != "2.0" || m.Method == "" {
			t.Errorf("%s: %v", msg, err)
		}
	}
	if got := Object("text", `a"b`, "n", 1); got != `{"text":"a\"b","n":1}` {
		t.Errorf("Object: %s", got)
	}
	jsonReply := Reply{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}`)}
	if text := MustToolText(t, jsonReply.Response(t)); text != "hi" {
		t.Errorf("tool text %q", text)
	}
	stream := Reply{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"no\"}}\n\n")}
	msgs := stream.MustMessages(t)
	if len(msgs) != 2 || msgs[0].Method != "notifications/progress" || msgs[1].Error.Code != -32602 {
		t.Errorf("stream: %+v", msgs)
	}
	stream.WantRequestError(t, "the stream's error", 200, -32602, 1)
}
