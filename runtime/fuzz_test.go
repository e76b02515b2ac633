package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/mcptest"
)

// The seed corpus is in testdata/fuzz/FuzzServeStdio/. Run the target with
//
//	go test ./runtime -run XXX -fuzz FuzzServeStdio -fuzztime 5m -parallel 1

// fuzzMaxMessage is the line limit of the stdio fuzz server: small, so
// that the fuzzer reaches it.
const fuzzMaxMessage = 512

// FuzzServeStdio feeds arbitrary bytes, as lines, through (*Server).Serve
// with a small MaxMessageSize and a few trivial tools. Serve must never
// panic, must return on its own at EOF (a context deadline bounds the
// wait, so a deadlock fails instead of hanging), and must write only
// complete lines, each a JSON-RPC response or notification; every
// response's id must come from the input, no id may be answered more
// often than it was sent, and every well-formed request gets an answer.
func FuzzServeStdio(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		srv := newFuzzServer()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var out lockedBuffer
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, bytes.NewReader(data), &out) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Serve: %v (input %q)", err, data)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("Serve did not return (deadlock?) on %q", data)
		}
		if ctx.Err() != nil {
			t.Fatalf("Serve only returned because its context expired (a hang) on %q", data)
		}
		checkServeOutput(t, data, out.Bytes())
	})
}

const fuzzEchoSchema = `{"type":"object","properties":{"n":{"type":"integer","minimum":-5,"maximum":10},` +
	`"s":{"type":"string","maxLength":8},"do":{"enum":["panic","error","log","progress","nil"]}},"additionalProperties":false}`

func newFuzzServer() *Server {
	srv := &Server{
		Name: "fuzz", Version: "1",
		MaxMessageSize:  fuzzMaxMessage,
		MaxInFlight:     2,
		ShutdownTimeout: 2 * time.Second,
		Logger:          slog.New(slog.DiscardHandler),
		AskTimeout:      20 * time.Millisecond,
	}
	srv.AddTool(&Tool{
		Name: "ask",
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			action, content, err := Elicit(ctx, "?", `{"type":"object","properties":{"n":{"type":"integer"}}}`)
			if err != nil {
				return nil, err
			}
			return TextResult(string(action) + string(content)), nil
		},
	})
	srv.AddTool(&Tool{
		Name:        "echo",
		InputSchema: fuzzEchoSchema,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			var in struct {
				Do string `json:"do"`
			}
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			switch in.Do {
			case "panic":
				panic("fuzz panic")
			case "error":
				return nil, errors.New("fuzz error")
			case "log":
				Logger(ctx).Info("fuzz log", "args", string(req.Arguments))
			case "progress":
				ReportProgress(ctx, 1, 2, "half")
			case "nil":
				return nil, nil
			}
			return TextResult(string(req.Arguments)), nil
		},
	})
	srv.AddTool(&Tool{
		Name:    "slow",
		Timeout: 5 * time.Millisecond,
		Handler: func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	return srv
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.b.Bytes())
}

// checkServeOutput checks every line Serve wrote for the input in.
func checkServeOutput(t *testing.T, in, out []byte) {
	if len(out) > 0 && out[len(out)-1] != '\n' {
		t.Fatalf("output does not end with a complete line: %q", out)
	}
	answered := map[string]int{} // response id -> responses
	tooLong := 0                 // "message of N bytes exceeds the limit" errors
	for line := range bytes.Lines(out) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if !json.Valid(line) {
			t.Fatalf("output line is not JSON: %q (input %q)", line, in)
		}
		switch line[0] {
		case '{':
			msg := checkOutMessage(t, line, in, answered, true)
			if strings.HasPrefix(msg, "invalid request: message of ") && strings.HasSuffix(msg, fmt.Sprintf(" bytes exceeds the limit of %d bytes", fuzzMaxMessage)) {
				if !bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","id":null,`)) {
					t.Fatalf("a refusal of an overlong line with an id: %s", line)
				}
				tooLong++
			}
		case '[':
			var batch []json.RawMessage
			if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
				t.Fatalf("output batch %q: %v", line, err)
			}
			for _, e := range batch {
				if len(e) == 0 || e[0] != '{' {
					t.Fatalf("batch element %q is not an object", e)
				}
				checkOutMessage(t, e, in, answered, false)
			}
		default:
			t.Fatalf("output line is neither an object nor a batch: %q", line)
		}
	}

	// What was sent, line by line as the server splits it.
	sent := map[string]int{}     // id -> lines (or batch elements) carrying it
	expected := map[string]int{} // id -> well-formed single requests
	cancels := bytes.Contains(in, []byte("notifications/cancelled"))
	overlong := 0
	for seg := range bytes.Lines(in) {
		if messageSize(seg) > fuzzMaxMessage {
			overlong++
			continue // refused with a null id
		}
		line := bytes.Trim(seg, " \t\r\n")
		if !json.Valid(line) {
			continue
		}
		// encoding/json's reading, with a map so that member names match
		// exactly; a message that repeats a name is refused whole.
		repeated := hasRepeatedName(line)
		batch := line[0] == '['
		var elems []json.RawMessage
		if batch {
			json.Unmarshal(line, &elems)
		} else {
			elems = []json.RawMessage{line}
		}
		for _, e := range elems {
			var o map[string]json.RawMessage
			if e[0] != '{' || json.Unmarshal(e, &o) != nil {
				continue
			}
			id, ok := o["id"]
			if !ok {
				continue
			}
			sent[string(id)]++
			if batch || repeated || (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
				continue
			}
			var method string
			if string(o["jsonrpc"]) != `"2.0"` || json.Unmarshal(o["method"], &method) != nil || method == "" {
				continue
			}
			if (method == "tools/call" || method == "subscriptions/listen") && cancels {
				continue // it may have been cancelled: no response then
			}
			expected[string(id)]++
		}
	}
	if tooLong != overlong {
		t.Fatalf("%d lines over the limit, %d refusals (input %q, output %q)", overlong, tooLong, in, out)
	}
	for id, n := range answered {
		if id != "null" && n > sent[id] {
			t.Fatalf("id %s answered %d times but sent %d times (input %q, output %q)", id, n, sent[id], in, out)
		}
	}
	for id := range expected {
		if answered[id] == 0 {
			t.Fatalf("request with id %s got no response (input %q, output %q)", id, in, out)
		}
	}
}

// messageSize is the size of the message on a line: without its "\n" or
// "\r\n" terminator, as the limit counts it.
func messageSize(line []byte) int {
	if !bytes.HasSuffix(line, []byte("\n")) {
		return len(line)
	}
	return len(bytes.TrimSuffix(line[:len(line)-1], []byte("\r")))
}

// hasRepeatedName reports whether any object of the JSON text data has
// a member name twice, by encoding/json's reading of the names.
func hasRepeatedName(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // a number out of float64's range (1e700) is still a token
	type frame struct {
		names map[string]bool // nil for an array
		key   bool            // an object's next token is a member name
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if n := len(stack); n > 0 && stack[n-1].names != nil && stack[n-1].key {
			if name, ok := tok.(string); ok {
				if stack[n-1].names[name] {
					return true
				}
				stack[n-1].names[name] = true
				stack[n-1].key = false
				continue
			}
		} else if n > 0 && stack[n-1].names != nil {
			stack[n-1].key = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{names: map[string]bool{}, key: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if n := len(stack); n > 0 && stack[n-1].names != nil {
				stack[n-1].key = true
			}
		}
	}
}

// checkOutMessage checks one message the server wrote. (A map, not a
// struct: encoding/json would match "Result" to a field tagged "result".)
func checkOutMessage(t *testing.T, b, in []byte, answered map[string]int, notificationOK bool) (errMsg string) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("output message %s: %v", b, err)
	}
	for k := range m {
		switch k {
		case "jsonrpc", "id", "method", "params", "result", "error":
		default:
			t.Fatalf("output message with member %q: %s", k, b)
		}
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("output message without jsonrpc 2.0: %s", b)
	}
	if method, ok := m["method"]; ok {
		params := m["params"]
		if !notificationOK || m["result"] != nil || m["error"] != nil || len(params) == 0 || params[0] != '{' {
			t.Fatalf("malformed notification or request %s", b)
		}
		switch string(method) {
		case `"notifications/progress"`, `"notifications/message"`, `"notifications/cancelled"`,
			`"notifications/subscriptions/acknowledged"`:
			if m["id"] != nil {
				t.Fatalf("a notification with an id: %s", b)
			}
		case `"elicitation/create"`: // the ask tool's question
			if m["id"] == nil {
				t.Fatalf("a question without an id: %s", b)
			}
		default:
			t.Fatalf("unexpected message %s", b)
		}
		return ""
	}
	id, result, rpcErr := m["id"], m["result"], m["error"]
	if id == nil || (result == nil) == (rpcErr == nil) || m["params"] != nil {
		t.Fatalf("malformed response %s", b)
	}
	switch id[0] {
	case 'n': // null
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if !bytes.Contains(in, id) {
			t.Fatalf("response id %s does not occur in the input %q", id, in)
		}
	default:
		t.Fatalf("response id %s is neither a string, a number nor null", id)
	}
	answered[string(id)]++
	if rpcErr != nil {
		var e map[string]json.RawMessage
		if err := json.Unmarshal(rpcErr, &e); err != nil || len(e) != 2 && (len(e) != 3 || e["data"] == nil) {
			t.Fatalf("error is not {code, message[, data]}: %s", b)
		}
		var code int
		var msg string
		if json.Unmarshal(e["code"], &code) != nil || json.Unmarshal(e["message"], &msg) != nil || msg == "" {
			t.Fatalf("error without an integer code or a message: %s", b)
		}
		if code > -32000 || code < -32800 {
			t.Fatalf("error code is not a JSON-RPC code: %s", b)
		}
		return msg
	}
	if result[0] != '{' {
		t.Fatalf("result is not an object: %s", b)
	}
	return ""
}

// TestFuzzSeedsAreMeaningful keeps the committed corpora from rotting
// into trivia: each must hold a dozen seeds, and they must reach the
// interesting paths.
func TestFuzzSeedsAreMeaningful(t *testing.T) {
	{
		target := "FuzzServeStdio"
		seeds := mcptest.ReadCorpus(t, "testdata/fuzz/"+target)
		if len(seeds) < 12 {
			t.Errorf("%s: %d seeds, want at least 12", target, len(seeds))
		}
		var valid, invalid, deep, badUTF8, long int
		for _, s := range seeds {
			if json.Valid(s) {
				valid++
			} else {
				invalid++
			}
			if bytes.Count(s, []byte("[")) > 1000 {
				deep++
			}
			if !utf8.Valid(s) {
				badUTF8++
			}
			for line := range bytes.Lines(s) {
				if messageSize(line) > fuzzMaxMessage {
					long++
					break
				}
			}
		}
		if invalid == 0 || deep == 0 || badUTF8 == 0 || long == 0 {
			t.Errorf("%s: seeds lack variety: %d valid, %d invalid JSON, %d deep, %d with invalid UTF-8, %d with an overlong line",
				target, valid, invalid, deep, badUTF8, long)
		}
	}

	// The stdio seeds, served, must produce every kind of answer.
	var all bytes.Buffer
	for _, s := range mcptest.ReadCorpus(t, "testdata/fuzz/FuzzServeStdio") {
		srv := newFuzzServer()
		var out lockedBuffer
		if err := srv.Serve(context.Background(), bytes.NewReader(s), &out); err != nil {
			t.Fatal(err)
		}
		all.Write(out.Bytes())
	}
	for _, want := range []string{`"code":-32700`, `"code":-32600`, `"code":-32601`, `"code":-32602`, `exceeds the limit`,
		`"isError":true`, `invalid arguments for tool echo`, `notifications/progress`, `notifications/message`,
		`"protocolVersion"`, `"tools":[`, `internal error (incident `, `timed out`, `[{"jsonrpc"`} {
		if !bytes.Contains(all.Bytes(), []byte(want)) {
			t.Errorf("no seed of FuzzServeStdio produces %s", want)
		}
	}
}
