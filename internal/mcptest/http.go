package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Headers returns the headers a conforming client of Streamable HTTP
// sends with a POST, plus extra, pairs of name and value; an empty value
// deletes the header.
func Headers(extra ...string) http.Header {
	hdr := http.Header{
		"Content-Type": {"application/json"},
		"Accept":       {"application/json, text/event-stream"},
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i+1] == "" {
			hdr.Del(extra[i])
		} else {
			hdr.Set(extra[i], extra[i+1])
		}
	}
	return hdr
}

// A Reply is an HTTP response, read to its end.
type Reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// Send sends one request with client and reads the whole response. A
// "Host" header in hdr sets the request's host.
func Send(ctx context.Context, client *http.Client, method, url, body string, hdr http.Header) (Reply, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return Reply{}, err
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v[0]
			continue
		}
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		return Reply{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return Reply{resp.StatusCode, resp.Header, data}, err
}

// Client is the client of Do and Post: a server that stops answering
// fails the test instead of hanging it.
var Client = &http.Client{Timeout: 30 * time.Second}

// Do is Send with Client, failing the test on errors.
func Do(t testing.TB, method, url, body string, hdr http.Header) Reply {
	t.Helper()
	r, err := Send(context.Background(), Client, method, url, body, hdr)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return r
}

// Post sends a JSON-RPC message to url with Headers(extra...).
func Post(t testing.TB, url, body string, extra ...string) Reply {
	t.Helper()
	return Do(t, http.MethodPost, url, body, Headers(extra...))
}

// Messages decodes the JSON-RPC messages of r: one for a JSON body, one
// per event for an event stream.
func (r Reply) Messages() ([]Message, error) {
	var datas []string
	switch ct := r.Header.Get("Content-Type"); ct {
	case "application/json":
		datas = append(datas, string(r.Body))
	case "text/event-stream":
		for _, ev := range strings.Split(strings.TrimSpace(string(r.Body)), "\n\n") {
			var data []string
			for line := range strings.Lines(ev) {
				line = strings.TrimRight(line, "\n")
				switch {
				case strings.HasPrefix(line, "data: "):
					data = append(data, strings.TrimPrefix(line, "data: "))
				case line == "event: message":
				default:
					return nil, fmt.Errorf("unexpected line %q in event stream:\n%s", line, r.Body)
				}
			}
			datas = append(datas, strings.Join(data, "\n"))
		}
	default:
		return nil, fmt.Errorf("Content-Type %q, want application/json or text/event-stream; status %d, body %s", ct, r.Status, r.Body)
	}
	var msgs []Message
	for _, d := range datas {
		var m Message
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			return nil, fmt.Errorf("message %s: %w", d, err)
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// MustMessages is Messages, failing the test on errors.
func (r Reply) MustMessages(t testing.TB) []Message {
	t.Helper()
	msgs, err := r.Messages()
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// Response returns the reply's only message, which must be a response.
func (r Reply) Response(t testing.TB) Message {
	t.Helper()
	msgs := r.MustMessages(t)
	if len(msgs) != 1 || msgs[0].Method != "" {
		t.Fatalf("want one response, got %d messages: %s", len(msgs), r.Body)
	}
	return msgs[0]
}

// WantError checks that the reply is an HTTP error of status carrying a
// JSON-RPC error code without an id, as a server answers a request it
// refuses before reading it.
func (r Reply) WantError(t testing.TB, status, code int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
	m := r.Response(t)
	if m.Error == nil || m.Error.Code != code || string(m.ID) != "null" {
		t.Fatalf("body %s, want a JSON-RPC error %d with id null", r.Body, code)
	}
}

// WantRequestError checks that the reply has status and ends with a
// JSON-RPC error of code answering the request id; what names the case.
func (r Reply) WantRequestError(t testing.TB, what string, status, code int, id any) {
	t.Helper()
	msgs, err := r.Messages()
	var m Message
	if err == nil && len(msgs) > 0 {
		m = msgs[len(msgs)-1]
	}
	if r.Status != status || m.Error == nil || m.Error.Code != code || string(m.ID) != string(jsonOf(id)) {
		t.Errorf("%s: status %d body %s, want %d with error %d and id %s", what, r.Status, r.Body, status, code, jsonOf(id))
	}
}

// Bearer returns an http.RoundTripper that sends each request with token
// as its bearer token (Authorization: Bearer token), for clients that
// take a transport, such as the official SDKs'.
func Bearer(token string) http.RoundTripper { return bearer(token) }

// bearer is the transport Bearer returns.
type bearer string

// RoundTrip sends a copy of r with the token.
func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
