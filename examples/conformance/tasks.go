package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// The tools of the suite's tasks scenarios (the extension
// io.modelcontextprotocol/tasks): plain functions, which run as tasks for
// a client that declares the extension because their directives say
// task=optional or task=required.

// GreetInput names whom to greet.
type GreetInput struct {
	Name string `json:"name"` // Whom to greet.
}

// Greet greets a person at once: it never runs as a task.
//
//mcp:tool greet readOnly
func Greet(ctx context.Context, in GreetInput) (string, error) {
	return "Hello, " + in.Name + "!", nil
}

// SlowComputeInput says how long to compute.
type SlowComputeInput struct {
	Seconds float64 `json:"seconds" jsonschema:"minimum=0,maximum=600"` // How long the computation takes.
	Label   string  `json:"label,omitempty"`                            // A label that the result repeats.
}

// SlowCompute computes for the given number of seconds; cancelled, it
// stops.
//
//mcp:tool slow_compute task=optional pollInterval=100ms ttl=15m
func SlowCompute(ctx context.Context, in SlowComputeInput) (string, error) {
	if err := sleep(ctx, time.Duration(in.Seconds*float64(time.Second))); err != nil {
		return "", err
	}
	return fmt.Sprintf("Computed %q in %gs", in.Label, in.Seconds), nil
}

// FailingJob works for a second, then fails: the task completes with a
// tool error.
//
//mcp:tool failing_job task=required pollInterval=100ms
func FailingJob(ctx context.Context) (string, error) {
	if err := sleep(ctx, time.Second); err != nil {
		return "", err
	}
	return "", errors.New("the job failed: the input it needed was missing")
}

// ProtocolErrorJob fails with a JSON-RPC error, as when the server cannot
// do its part of the protocol: the task fails.
//
//mcp:tool protocol_error_job task=optional pollInterval=100ms
func ProtocolErrorJob(ctx context.Context) (string, error) {
	return "", &runtime.ProtocolError{Code: -32603, Message: "internal error: the job's backend is unavailable"}
}

// DeleteInput names the file to delete.
type DeleteInput struct {
	Filename string `json:"filename"` // The file to delete.
}

// confirmForm asks for a confirmation.
const confirmForm = `{"type":"object","properties":{"confirm":{"type":"boolean","description":"Delete it?"}},"required":["confirm"]}`

// ConfirmDelete asks the user to confirm before it deletes a file.
//
//mcp:tool confirm_delete destructive task=optional pollInterval=100ms
func ConfirmDelete(ctx context.Context, in DeleteInput) (string, error) {
	action, content, err := runtime.Elicit(ctx, "Delete "+in.Filename+"?", confirmForm)
	if err != nil {
		return "", err
	}
	var answer struct{ Confirm bool }
	json.Unmarshal(content, &answer)
	if action != runtime.ElicitAccept || !answer.Confirm {
		return in.Filename + " was kept", nil
	}
	return in.Filename + " was deleted", nil
}

// detailsForm asks for a name and a confirmation.
const detailsForm = `{"type":"object","properties":{"name":{"type":"string","description":"Your name"},"confirm":{"type":"boolean","description":"Go on?"}}}`

// MultiInput asks two questions at once, which the client may answer one
// at a time.
//
//mcp:tool multi_input task=optional pollInterval=100ms
func MultiInput(ctx context.Context) (string, error) {
	first := &runtime.ElicitQuestion{Message: "Your name, please.", Schema: detailsForm}
	second := &runtime.ElicitQuestion{Message: "Go on?", Schema: detailsForm}
	if err := runtime.Ask(ctx, first, second); err != nil {
		return "", err
	}
	return fmt.Sprintf("first: %s, second: %s", first.Content, second.Content), nil
}

// toolWithTask is test_tool_with_task: it asks the user's name in the
// tools/call itself (a multi round-trip request), then becomes a task
// (BeginTask) for the work that follows. Written by hand, as DeferTask has
// no directive option.
func toolWithTask() *runtime.Tool {
	return &runtime.Tool{
		Name:             "test_tool_with_task",
		Description:      "Asks for your name, then greets you from a task.",
		Task:             runtime.TaskRequired,
		DeferTask:        true,
		TaskPollInterval: 100 * time.Millisecond,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			q := &runtime.ElicitQuestion{Key: "user_name", Message: "What is your name?", Schema: nameForm}
			if err := runtime.Ask(ctx, q); err != nil {
				return nil, err
			}
			if err := runtime.BeginTask(ctx); err != nil {
				return nil, err
			}
			if err := sleep(ctx, 200*time.Millisecond); err != nil {
				return nil, err
			}
			return runtime.TextResult("Hello, " + field(q.Content, "name") + "!"), nil
		},
	}
}
