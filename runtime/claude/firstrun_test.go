package claude_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/claudetest"
	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime/claude"
)

// The tests in this file pin what a new user meets first: a run that
// fails says why.

// TestResultErr: ResultMessage.Err is nil for a run that succeeded and
// says why one failed, in the CLI's words, for the failures the CLI
// 2.1.330 reported (a failure with subtype "success" included).
func TestResultErr(t *testing.T) {
	linepeer.CheckLeaks(t)
	cli := newCLISide(t, nil, nil)
	cases := []struct {
		line string
		want string // "" for success
	}{
		{`{"type":"result","subtype":"success","is_error":false,"result":"Hello","terminal_reason":"completed"}`, ""},
		{`{"type":"result","subtype":"success","is_error":true,"result":"Not logged in · Please run /login","terminal_reason":"api_error"}`,
			"claude: the run failed: Not logged in · Please run /login (success, api_error)"},
		{`{"type":"result","subtype":"error_max_turns","is_error":true,"terminal_reason":"max_turns","errors":["Reached maximum number of turns (1)"]}`,
			"claude: the run failed: Reached maximum number of turns (1) (error_max_turns, max_turns)"},
		{`{"type":"result","subtype":"error_during_execution","is_error":true}`, "claude: the run failed: error_during_execution"},
	}
	for _, c := range cases {
		cli.Send(c.line)
		m, err := cli.cc.Receive(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		err = m.(*claude.ResultMessage).Err()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: Err() = %v, want nil", c.line, err)
		case c.want != "" && (err == nil || err.Error() != c.want || !errors.Is(err, claude.ErrRunFailed)):
			t.Errorf("%s:\nErr() = %v\nwant %s, wrapping ErrRunFailed", c.line, err, c.want)
		}
	}
}

// TestCLINotLoggedIn runs the real CLI with no credentials, as a new
// user's first run may: the CLI does not fail, it ends the run with a
// result that is an error with subtype "success". Query returns it
// without error; Err says "Not logged in", and so does
// DecodeStructuredOutput, which used to say only "(success, api_error)".
func TestCLINotLoggedIn(t *testing.T) {
	linepeer.CheckLeaks(t)
	api := claudetest.API(t, "mcp__demo_tools__greet", `{"name":"Alice"}`)
	opts := offline(t, api)
	// No key: the empty value hides one this process may have. The base
	// URL still points at the fake API, so nothing could leave the
	// machine even if the CLI tried.
	opts.Env = append(opts.Env, "ANTHROPIC_API_KEY=", "CLAUDE_CODE_OAUTH_TOKEN=", "ANTHROPIC_AUTH_TOKEN=")
	opts.OutputSchema = `{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}`
	var stderr strings.Builder
	opts.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var said string
	res, err := claude.Query(ctx, "hi", opts, func(m claude.Message) {
		if a, ok := m.(*claude.AssistantMessage); ok && a.Error != "" {
			said = a.Error
		}
	})
	if err != nil {
		t.Fatalf("Query: %v\nstderr: %s", err, stderr.String())
	}
	if err := res.Err(); !errors.Is(err, claude.ErrRunFailed) || !strings.Contains(err.Error(), "Not logged in") {
		t.Errorf("Err() = %v, want the CLI's \"Not logged in\"", err)
	}
	var v struct{ Answer string }
	if err := res.DecodeStructuredOutput(&v); !errors.Is(err, claude.ErrNoStructuredOutput) || !strings.Contains(err.Error(), "Not logged in") {
		t.Errorf("DecodeStructuredOutput: %v, want ErrNoStructuredOutput saying \"Not logged in\"", err)
	}
	if said != "authentication_failed" {
		t.Errorf("the assistant message's error is %q, want authentication_failed", said)
	}
	if n := len(api.Requests()); n != 0 {
		t.Errorf("the CLI sent %d requests to the API without credentials", n)
	}
}

// TestSystemSubtypes: every "system" line is a *SystemMessage with its
// subtype, also one whose members share a name of init's with another
// shape (it used to arrive as an *OtherMessage).
func TestSystemSubtypes(t *testing.T) {
	linepeer.CheckLeaks(t)
	cli := newCLISide(t, nil, nil)
	cli.Send(`{"type":"system","subtype":"session_writes_lost","session_id":"s1","lost":3}`)
	cli.Send(`{"type":"system","subtype":"agents_changed","session_id":"s1","agents":[{"name":"greeter"}],"tools":{"count":2}}`)
	for _, want := range []string{"session_writes_lost", "agents_changed"} {
		m, err := cli.cc.Receive(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := m.(*claude.SystemMessage); !ok || s.Subtype != want || s.SessionID != "s1" {
			t.Errorf("%T %s, want a *SystemMessage of subtype %s", m, m.Raw(), want)
		}
	}
}
