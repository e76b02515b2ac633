package runtimetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpgen/mcpgen/runtime"
)

// A serverMessage is a message the server sends on its own under a
// session revision: a request (a question) or a notification.
type serverMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// receive takes what the server sends on its own (the Conn's send). A
// question is answered on a goroutine of its own, since send must not
// block and the handler that asks waits in the Conn's Handle; a
// notifications/cancelled withdraws the question it names. Other
// notifications are dropped.
func (c *Client) receive(msg []byte) {
	var m serverMessage
	if err := json.Unmarshal(msg, &m); err != nil || m.Method == "" {
		return
	}
	if m.ID == nil {
		if m.Method == "notifications/cancelled" {
			c.withdraw(m.Params)
		}
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	id := string(m.ID)
	c.pending[id] = cancel
	c.asking.Go(func() {
		defer func() {
			c.mu.Lock()
			delete(c.pending, id)
			c.mu.Unlock()
			cancel()
		}()
		// The answer to a question withdrawn meanwhile answers nothing:
		// the server drops it.
		c.conn.Handle(ctx, c.reply(ctx, &m))
	})
}

// withdraw cancels the answer to the question that a
// notifications/cancelled names.
func (c *Client) withdraw(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	c.mu.Lock()
	cancel := c.pending[string(p.RequestID)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// reply returns the client's response to the server's request m: the
// answer, or a JSON-RPC error.
func (c *Client) reply(ctx context.Context, m *serverMessage) []byte {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	type reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result,omitempty"`
		Error   *rpcError       `json:"error,omitempty"`
	}
	r := reply{JSONRPC: "2.0", ID: m.ID}
	answer, err := c.answer(ctx, m.Method, m.Params, "")
	var ce *runtime.ClientError
	switch {
	case err == nil:
		r.Result = answer
	case errors.As(err, &ce):
		r.Error = &rpcError{ce.Code, ce.Message}
	case errors.Is(err, errUnknownQuestion):
		r.Error = &rpcError{-32601, err.Error()}
	default:
		r.Error = &rpcError{-32603, err.Error()}
	}
	b, _ := json.Marshal(r) // an id and JSON the client made: nothing fails
	return b
}

// answerAll answers the questions of an input_required result, by their
// keys, in the order of the keys.
func (c *Client) answerAll(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	if len(requests) == 0 {
		return nil, errors.New("the server answered input_required with no inputRequests")
	}
	answers := make(map[string]json.RawMessage, len(requests))
	for _, key := range slices.Sorted(maps.Keys(requests)) {
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(requests[key], &req); err != nil {
			return nil, fmt.Errorf("inputRequests[%q]: %w", key, err)
		}
		answer, err := c.answer(ctx, req.Method, req.Params, key)
		if err != nil {
			return nil, fmt.Errorf("answering inputRequests[%q]: %w", key, err)
		}
		answers[key] = answer
	}
	return answers, nil
}

// errUnknownQuestion is a request of the server's that the client has no
// function of Options for.
var errUnknownQuestion = errors.New("the client has no answer to")

// answer asks the function of Options for the request method with params
// and returns the answer, as JSON. key names the question under
// RequestRevision.
func (c *Client) answer(ctx context.Context, method string, params json.RawMessage, key string) (json.RawMessage, error) {
	q, err := question(method, params, key)
	if err != nil {
		return nil, err
	}
	var answer any
	switch q := q.(type) {
	case *runtime.ElicitQuestion:
		if c.opts.Elicit == nil {
			return nil, fmt.Errorf("%w a form: Options.Elicit is not set", errUnknownQuestion)
		}
		if err := c.opts.Elicit(ctx, q); err != nil {
			return nil, err
		}
		answer = struct {
			Action  runtime.ElicitAction `json:"action"`
			Content json.RawMessage      `json:"content,omitempty"`
		}{q.Action, q.Content}
	case *runtime.ElicitURLQuestion:
		if c.opts.ElicitURL == nil {
			return nil, fmt.Errorf("%w a URL: Options.ElicitURL is not set", errUnknownQuestion)
		}
		if err := c.opts.ElicitURL(ctx, q); err != nil {
			return nil, err
		}
		answer = struct {
			Action runtime.ElicitAction `json:"action"`
		}{q.Action}
	case *runtime.SampleQuestion:
		if c.opts.Sample == nil {
			return nil, fmt.Errorf("%w sampling: Options.Sample is not set", errUnknownQuestion)
		}
		if err := c.opts.Sample(ctx, q); err != nil {
			return nil, err
		}
		if q.Result == nil {
			return nil, errors.New("Options.Sample set no Result")
		}
		answer = q.Result
	case *runtime.RootsQuestion:
		if c.opts.Roots == nil {
			return nil, fmt.Errorf("%w roots/list: Options.Roots is not set", errUnknownQuestion)
		}
		if err := c.opts.Roots(ctx, q); err != nil {
			return nil, err
		}
		roots := q.Roots
		if roots == nil {
			roots = []runtime.Root{}
		}
		answer = struct {
			Roots []runtime.Root `json:"roots"`
		}{roots}
	}
	b, err := json.Marshal(answer)
	if err != nil {
		return nil, fmt.Errorf("encoding the answer to %s: %w", method, err)
	}
	return b, nil
}

// question returns the runtime's question for the server's request
// method with params; key names it under RequestRevision.
func question(method string, params json.RawMessage, key string) (runtime.Question, error) {
	switch method {
	case "elicitation/create":
		var p struct {
			Mode            string          `json:"mode"`
			Message         string          `json:"message"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
			URL             string          `json:"url"`
			ElicitationID   string          `json:"elicitationId"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, fmt.Errorf("the params of %s: %w", method, err)
		}
		switch p.Mode {
		case "url":
			return &runtime.ElicitURLQuestion{Key: key, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}, nil
		case "form", "": // 2025-06-18 had forms only, and no mode
			return &runtime.ElicitQuestion{Key: key, Message: p.Message, Schema: string(p.RequestedSchema)}, nil
		}
		return nil, fmt.Errorf("%w an elicitation in mode %q", errUnknownQuestion, p.Mode)
	case "sampling/createMessage":
		req, err := sampleRequest(params)
		if err != nil {
			return nil, fmt.Errorf("the params of %s: %w", method, err)
		}
		return &runtime.SampleQuestion{Key: key, Request: *req}, nil
	case "roots/list":
		return &runtime.RootsQuestion{Key: key}, nil
	}
	return nil, fmt.Errorf("%w %s", errUnknownQuestion, method)
}

// sampleRequest decodes the params of sampling/createMessage.
func sampleRequest(params json.RawMessage) (*runtime.SampleRequest, error) {
	var p struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		SystemPrompt     string          `json:"systemPrompt"`
		MaxTokens        int             `json:"maxTokens"`
		Temperature      *float64        `json:"temperature"`
		StopSequences    []string        `json:"stopSequences"`
		ModelPreferences json.RawMessage `json:"modelPreferences"`
		Tools            []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
		ToolChoice json.RawMessage `json:"toolChoice"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	req := &runtime.SampleRequest{
		SystemPrompt:     p.SystemPrompt,
		MaxTokens:        p.MaxTokens,
		Temperature:      p.Temperature,
		StopSequences:    p.StopSequences,
		ModelPreferences: p.ModelPreferences,
		ToolChoice:       p.ToolChoice,
	}
	for i, m := range p.Messages {
		content, err := decodeContent(m.Content)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		req.Messages = append(req.Messages, runtime.SampleMessage{Role: m.Role, Content: content})
	}
	for _, t := range p.Tools {
		req.Tools = append(req.Tools, runtime.SampleTool{Name: t.Name, Description: t.Description, InputSchema: string(t.InputSchema)})
	}
	return req, nil
}

// SampleText returns the answer of a model that says text: an assistant
// message of one text block, from the model named model.
func SampleText(model, text string) *runtime.SampleResult {
	content, _ := json.Marshal(map[string]string{"type": "text", "text": text}) // strings: nothing fails
	return &runtime.SampleResult{Role: "assistant", Model: model, StopReason: "endTurn", Content: content}
}
