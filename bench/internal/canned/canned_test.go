package canned

import "testing"

func TestAnswer(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Hello, Ada! Welcome."}]}}`},
		{`{"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"},"_meta":{"claudecode/toolUseId":"toolu_1","progressToken":5}},"jsonrpc":"2.0","id":5}`,
			`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"Hello, Ada! Welcome."}]}}`},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ``},
	} {
		got, ok := Answer(nil, []byte(c.msg))
		if string(got) != c.want || ok != (c.want != "") {
			t.Errorf("Answer(%s) = %s, %v; want %s", c.msg, got, ok, c.want)
		}
	}
}
