// Package canned answers the benchmark's MCP requests with canned bytes,
// without any MCP library, JSON decoding or validation. It is the floor
// of the measurements: no real server or host can answer faster through
// the same driver on the same machine, so the ratio of a peer's figure to
// the floor's bounds the ratio any server could reach against that peer.
package canned

import (
	"bytes"
	"strconv"
)

var (
	initializeResult = []byte(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1.0.0"}}`)
	toolsListResult  = []byte(`{"tools":[{"name":"greet","description":"Greet greets a person by name.","inputSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}},` +
		`{"name":"create_ticket","description":"CreateTicket creates a ticket on the project board.","inputSchema":{"type":"object","properties":{"title":{"type":"string"},"description":{"type":"string"},"kind":{"type":"string","enum":["bug","feature","task"]}},"required":["title","description","kind"]}}]}`)
	greetResult   = []byte(`{"content":[{"type":"text","text":"Hello, Ada! Welcome."}]}`)
	ticketResult  = []byte(`{"content":[{"type":"text","text":"Ticket 'Crash on save' created successfully (ID: TKT-42)"}]}`)
	invalidResult = []byte(`{"content":[{"type":"text","text":"invalid arguments"}],"isError":true}`)
	emptyResult   = []byte(`{}`)
)

// Answer appends the JSON-RPC answer to msg (one JSON-RPC message) to b.
// It returns b unchanged, and false, for a notification.
func Answer(b, msg []byte) ([]byte, bool) {
	id, ok := ID(msg)
	if !ok {
		return b, false
	}
	var result []byte
	switch {
	case bytes.Contains(msg, []byte(`"method":"tools/call"`)):
		switch {
		case bytes.Contains(msg, []byte(`"name":"Ada"`)):
			result = greetResult
		case bytes.Contains(msg, []byte(`"kind":"bug"`)):
			result = ticketResult
		default:
			result = invalidResult
		}
	case bytes.Contains(msg, []byte(`"method":"initialize"`)):
		result = initializeResult
	case bytes.Contains(msg, []byte(`"method":"tools/list"`)):
		result = toolsListResult
	default:
		result = emptyResult
	}
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}'), true
}

// ID returns the raw numeric id of a JSON-RPC request: the digits after
// its last "id": member (the _meta of the CLI's tools/call comes before
// it, and holds no such member).
func ID(msg []byte) ([]byte, bool) {
	i := bytes.LastIndex(msg, []byte(`"id":`))
	if i < 0 {
		return nil, false
	}
	rest := msg[i+5:]
	j := 0
	for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
		j++
	}
	if j == 0 {
		return nil, false
	}
	_, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	return rest[:j], err == nil
}
