package runtimetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/linepeer"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/runtimetest"
	"github.com/mcpgen/mcpgen/runtime/store"
)

// revisions are the two forms of the protocol every test runs under.
var revisions = []string{runtimetest.SessionRevision, runtimetest.RequestRevision}

// eachRevision runs f as a subtest for each form of the protocol.
func eachRevision(t *testing.T, f func(t *testing.T, rev string)) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) { f(t, rev) })
	}
}

func ptr[T any](v T) *T { return &v }

// The items of the kit's server, as a client lists them: each is
// registered as a copy with a handler, and what the client lists must
// equal the original.
func contentTool() *runtime.Tool {
	return &runtime.Tool{
		Name:         "content",
		Title:        "Content",
		Description:  "Returns a block of every kind.",
		InputSchema:  `{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}`,
		OutputSchema: `{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`,
		Annotations:  &runtime.ToolAnnotations{Title: "Content", ReadOnlyHint: ptr(true)},
		Icons:        []runtime.Icon{{Src: "https://example.com/i.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
		SearchHint:   "blocks",
		AlwaysLoad:   true,
		Meta:         map[string]any{"example/k": "v"},
	}
}

func statusResource() *runtime.Resource {
	return &runtime.Resource{
		URI:         "app://status",
		Name:        "status",
		Title:       "Status",
		Description: "How the app is.",
		MIMEType:    "text/plain",
		Size:        2,
		Annotations: &runtime.ResourceAnnotations{Audience: []string{"user"}, Priority: ptr(0.5), LastModified: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)},
		Icons:       []runtime.Icon{{Src: "https://example.com/s.png"}},
		Meta:        map[string]any{"example/k": "v"},
	}
}

func viewResource() *runtime.Resource {
	return &runtime.Resource{
		URI:      "ui://view",
		Name:     "view",
		MIMEType: runtime.AppMIMEType,
		UI:       &runtime.UIResourceMeta{CSP: &runtime.UIResourceCSP{ConnectDomains: []string{"https://api.example.com"}}, PrefersBorder: ptr(true)},
	}
}

func noteTemplate() *runtime.ResourceTemplate {
	return &runtime.ResourceTemplate{URITemplate: "notes://{id}", Name: "note", Title: "Note", MIMEType: "text/markdown", Meta: map[string]any{"example/k": "v"}}
}

func briefPrompt() *runtime.Prompt {
	return &runtime.Prompt{
		Name:        "brief",
		Title:       "Brief",
		Description: "Briefs the model on a note.",
		Arguments:   []runtime.PromptArgument{{Name: "id", Description: "The note.", Required: true}, {Name: "style"}},
		Icons:       []runtime.Icon{{Src: "https://example.com/p.png"}},
		Meta:        map[string]any{"example/k": "v"},
	}
}

// contentResult is what the tool content returns: a block of every kind.
func contentResult() *runtime.ToolResult {
	return &runtime.ToolResult{
		Content: []runtime.Content{
			runtime.TextContent{Text: "text"},
			runtime.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"},
			runtime.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
			runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: "app://status", MIMEType: "text/plain", Text: "ok"}},
			runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: "app://logo", MIMEType: "image/png", Blob: []byte{1, 2, 3}}},
			runtime.ResourceLink{URI: "notes://N1", Name: "N1", Title: "Note 1", Description: "The first note.", MIMEType: "text/markdown", Size: 12},
		},
		StructuredContent: map[string]int{"count": 6},
		Meta:              map[string]any{"example/k": "v"},
	}
}

// kitServer serves the items above, with handlers.
func kitServer() *runtime.Server {
	s := &runtime.Server{Name: "kit", Version: "1", Logger: linepeer.DiscardLogger(), AskTimeout: 5 * time.Second}
	tool := contentTool()
	tool.Handler = func(context.Context, *runtime.ToolRequest) (*runtime.ToolResult, error) { return contentResult(), nil }
	s.AddTool(tool)

	status := statusResource()
	status.Handler = func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
		return &runtime.ResourceResult{
			Contents: []runtime.ResourceContents{{URI: req.URI, MIMEType: "text/plain", Text: "ok"}, {URI: req.URI, MIMEType: "application/octet-stream", Blob: []byte{}}},
			Meta:     map[string]any{"example/k": "v"},
			Cache:    &runtime.CacheHint{TTL: time.Minute},
		}, nil
	}
	s.AddResource(status)
	view := viewResource()
	view.Handler = func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
		return runtime.TextResource(req.URI, runtime.AppMIMEType, "<!doctype html><p>view</p>"), nil
	}
	s.AddResource(view)

	notes := noteTemplate()
	notes.Handler = func(ctx context.Context, req *runtime.ResourceRequest) (*runtime.ResourceResult, error) {
		if req.Vars["id"] != "N1" {
			return nil, &runtime.ResourceNotFoundError{URI: req.URI}
		}
		return runtime.TextResource(req.URI, "text/markdown", "# Note 1"), nil
	}
	notes.Complete = func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
		return runtime.CompletePrefix([]string{"N1", "N2", "X1"}, req.Value), nil
	}
	s.AddResourceTemplate(notes)

	brief := briefPrompt()
	brief.Handler = func(ctx context.Context, req *runtime.PromptRequest) (*runtime.PromptResult, error) {
		return &runtime.PromptResult{
			Description: "A brief on " + req.Arguments["id"],
			Messages: []runtime.PromptMessage{
				{Role: "user", Content: runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: "notes://" + req.Arguments["id"], MIMEType: "text/markdown", Text: "# Note"}}},
				{Role: "assistant", Content: runtime.TextContent{Text: "Style: " + req.Arguments["style"]}},
			},
		}, nil
	}
	brief.Complete = func(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
		if req.Argument == "style" {
			return runtime.CompletePrefix([]string{"brief", "detailed"}, req.Value+req.Context["id"]), nil
		}
		return &runtime.CompleteResult{Values: []string{"N1"}, Total: 7, HasMore: true}, nil
	}
	s.AddPrompt(brief)
	return s
}

// TestLists: what the client lists is what the server registered, as the
// runtime's own types, under both revisions.
func TestLists(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		ctx := t.Context()
		c := runtimetest.NewClient(t, kitServer(), &runtimetest.Options{Revision: rev})
		if c.Revision() != rev {
			t.Errorf("Revision() = %s", c.Revision())
		}
		tools, err := c.ListTools(ctx)
		if err != nil || len(tools) != 1 || !reflect.DeepEqual(tools[0], contentTool()) {
			t.Errorf("ListTools: %v\n got %+v\nwant %+v", err, tools, contentTool())
		}
		resources, err := c.ListResources(ctx)
		if want := []*runtime.Resource{statusResource(), viewResource()}; err != nil || !reflect.DeepEqual(resources, want) {
			t.Errorf("ListResources: %v\n got %+v\nwant %+v", err, resources, want)
		}
		templates, err := c.ListResourceTemplates(ctx)
		if want := []*runtime.ResourceTemplate{noteTemplate()}; err != nil || !reflect.DeepEqual(templates, want) {
			t.Errorf("ListResourceTemplates: %v\n got %+v\nwant %+v", err, templates, want)
		}
		prompts, err := c.ListPrompts(ctx)
		if want := []*runtime.Prompt{briefPrompt()}; err != nil || !reflect.DeepEqual(prompts, want) {
			t.Errorf("ListPrompts: %v\n got %+v\nwant %+v", err, prompts, want)
		}
	})
}

// TestResults: a tool's result, a prompt, a resource's contents and
// completions come back as the handler made them, every kind of content
// block included.
func TestResults(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		ctx := t.Context()
		c := runtimetest.NewClient(t, kitServer(), &runtimetest.Options{Revision: rev})

		res, err := c.CallTool(ctx, "content", map[string]int{"n": 1})
		if err != nil {
			t.Fatal(err)
		}
		want := contentResult()
		if !reflect.DeepEqual(res.Content, want.Content) || res.IsError || !reflect.DeepEqual(res.Meta, want.Meta) {
			t.Errorf("CallTool:\n got %+v\nwant %+v", res, want)
		}
		var out struct{ Count int }
		if err := runtimetest.Structured(res, &out); err != nil || out.Count != 6 {
			t.Errorf("Structured: %+v, %v", out, err)
		}
		if got := runtimetest.Text(res); got != "text" {
			t.Errorf("Text: %q", got)
		}

		prompt, err := c.GetPrompt(ctx, "brief", map[string]string{"id": "N1", "style": "short"})
		wantPrompt := &runtime.PromptResult{
			Description: "A brief on N1",
			Messages: []runtime.PromptMessage{
				{Role: "user", Content: runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: "notes://N1", MIMEType: "text/markdown", Text: "# Note"}}},
				{Role: "assistant", Content: runtime.TextContent{Text: "Style: short"}},
			},
		}
		if err != nil || !reflect.DeepEqual(prompt, wantPrompt) {
			t.Errorf("GetPrompt: %v\n got %+v\nwant %+v", err, prompt, wantPrompt)
		}

		read, err := c.ReadResource(ctx, "app://status")
		wantRead := &runtime.ResourceResult{
			Contents: []runtime.ResourceContents{{URI: "app://status", MIMEType: "text/plain", Text: "ok"}, {URI: "app://status", MIMEType: "application/octet-stream", Blob: []byte{}}},
			Meta:     map[string]any{"example/k": "v"},
		}
		if rev == runtimetest.RequestRevision {
			wantRead.Cache = &runtime.CacheHint{TTL: time.Minute}
		}
		if err != nil || !reflect.DeepEqual(read, wantRead) {
			t.Errorf("ReadResource: %v\n got %+v\nwant %+v", err, read, wantRead)
		}
		view, err := c.ReadResource(ctx, "ui://view")
		if err != nil || len(view.Contents) != 1 || !reflect.DeepEqual(view.Contents[0].UI, viewResource().UI) {
			t.Errorf("ReadResource of a view: %+v, %v", view, err)
		}
		note, err := c.ReadResource(ctx, "notes://N1")
		if err != nil || note.Contents[0].Text != "# Note 1" {
			t.Errorf("ReadResource of a template: %+v, %v", note, err)
		}

		for _, tc := range []struct {
			complete func() (*runtime.CompleteResult, error)
			want     runtime.CompleteResult
		}{
			{func() (*runtime.CompleteResult, error) {
				return c.CompletePrompt(ctx, "brief", &runtime.CompleteRequest{Argument: "style", Value: "d", Context: map[string]string{"id": "e"}})
			}, runtime.CompleteResult{Values: []string{"detailed"}, Total: 1}},
			{func() (*runtime.CompleteResult, error) {
				return c.CompletePrompt(ctx, "brief", &runtime.CompleteRequest{Argument: "id"})
			}, runtime.CompleteResult{Values: []string{"N1"}, Total: 7, HasMore: true}},
			{func() (*runtime.CompleteResult, error) {
				return c.CompleteResource(ctx, "notes://{id}", &runtime.CompleteRequest{Argument: "id", Value: "N"})
			}, runtime.CompleteResult{Values: []string{"N1", "N2"}, Total: 2}},
		} {
			got, err := tc.complete()
			if err != nil || !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("complete: %+v, %v; want %+v", got, err, tc.want)
			}
		}
	})
}

// TestProtocolErrors: what the server answers with a JSON-RPC error is
// an error that errors.As finds as a *runtime.ProtocolError, with the
// code and data the server sent.
func TestProtocolErrors(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		ctx := t.Context()
		c := runtimetest.NewClient(t, kitServer(), &runtimetest.Options{Revision: rev})
		notFound := -32002
		if rev == runtimetest.RequestRevision {
			notFound = -32602
		}
		for _, tc := range []struct {
			name     string
			call     func() error
			code     int
			contains string
			data     string
		}{
			{"unknown tool", func() error { _, err := c.CallTool(ctx, "nope", nil); return err }, -32602, `unknown tool "nope"`, ""},
			{"missing argument", func() error { _, err := c.GetPrompt(ctx, "brief", nil); return err }, -32602, "id", ""},
			{"unknown prompt", func() error { _, err := c.GetPrompt(ctx, "nope", nil); return err }, -32602, "nope", ""},
			{"missing resource", func() error { _, err := c.ReadResource(ctx, "notes://N9"); return err }, notFound, "notes://N9", `{"uri":"notes://N9"}`},
			{"unknown completion", func() error {
				_, err := c.CompletePrompt(ctx, "nope", &runtime.CompleteRequest{Argument: "x"})
				return err
			}, -32602, "nope", ""},
		} {
			err := tc.call()
			var pe *runtime.ProtocolError
			if !errors.As(err, &pe) || pe.Code != tc.code || !strings.Contains(pe.Message, tc.contains) || string(pe.Data) != tc.data {
				t.Errorf("%s: %v (%+v); want code %d, a message with %q, data %s", tc.name, err, pe, tc.code, tc.contains, tc.data)
			}
		}
		// A failure of the tool is a result, not an error.
		res, err := c.CallTool(ctx, "content", json.RawMessage(`{"n":"one"}`))
		if err != nil || !res.IsError || !strings.Contains(runtimetest.Text(res), "n: must be an integer") {
			t.Errorf("bad arguments: %+v, %v", res, err)
		}
		if err := runtimetest.Structured(res, new(any)); err == nil || !strings.Contains(err.Error(), "must be an integer") {
			t.Errorf("Structured of a failed result: %v", err)
		}
		if _, err := c.CallTool(ctx, "content", func() {}); err == nil || !strings.Contains(err.Error(), "encoding the arguments of content") {
			t.Errorf("arguments encoding/json refuses: %v", err)
		}
	})
}

// TestOutputWrapped: under a session revision, a tool whose output is
// not an object has its schema and structured content wrapped in a
// "result" member, which the client sees; under RequestRevision, not.
func TestOutputWrapped(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		s := &runtime.Server{Name: "wrap"}
		s.AddTool(&runtime.Tool{Name: "list", OutputSchema: `{"type":"array","items":{"type":"string"}}`, Handler: func(context.Context, *runtime.ToolRequest) (*runtime.ToolResult, error) {
			return &runtime.ToolResult{Content: []runtime.Content{runtime.TextContent{Text: `["a"]`}}, StructuredContent: []string{"a"}}, nil
		}})
		c := runtimetest.NewClient(t, s, &runtimetest.Options{Revision: rev})
		tools, err := c.ListTools(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.CallTool(t.Context(), "list", nil)
		if err != nil {
			t.Fatal(err)
		}
		schema, structured := `{"type":"array","items":{"type":"string"}}`, `["a"]`
		if rev == runtimetest.SessionRevision {
			schema, structured = `{"type":"object","properties":{"result":`+schema+`},"required":["result"]}`, `{"result":["a"]}`
		}
		if tools[0].OutputSchema != schema || string(res.StructuredContent.(json.RawMessage)) != structured {
			t.Errorf("output schema %s, structured content %s; want %s and %s", tools[0].OutputSchema, res.StructuredContent, schema, structured)
		}
	})
}

// A askedQuestions are the questions a handler of askServer asked, and
// what the client's functions saw of them.
type askedQuestions struct {
	form   runtime.ElicitQuestion
	url    runtime.ElicitURLQuestion
	sample runtime.SampleQuestion
	roots  runtime.RootsQuestion
}

const nameForm = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`

// theQuestions are the questions the tool all asks at once.
func theQuestions() askedQuestions {
	return askedQuestions{
		form: runtime.ElicitQuestion{Key: "form", Message: "Who are you?", Schema: nameForm},
		url:  runtime.ElicitURLQuestion{Key: "url", Message: "Sign in", URL: "https://example.com/login", ElicitationID: "e1"},
		sample: runtime.SampleQuestion{Key: "sample", Request: runtime.SampleRequest{
			Messages: []runtime.SampleMessage{
				{Role: "user", Content: runtime.TextContent{Text: "Hi"}},
				{Role: "assistant", Content: runtime.ImageContent{Data: []byte("img"), MIMEType: "image/png"}},
			},
			SystemPrompt:     "Be brief.",
			MaxTokens:        50,
			Temperature:      ptr(0.5),
			StopSequences:    []string{"END"},
			ModelPreferences: json.RawMessage(`{"hints":[{"name":"small"}]}`),
			Tools:            []runtime.SampleTool{{Name: "lookup", Description: "Looks up.", InputSchema: `{"type":"object"}`}},
			ToolChoice:       json.RawMessage(`{"mode":"auto"}`),
		}},
		roots: runtime.RootsQuestion{Key: "roots"},
	}
}

// askServer has tools that ask the client: all asks every kind of
// question at once and answers with the answers; seq asks n forms one
// after the other, n its argument.
func askServer() *runtime.Server {
	s := &runtime.Server{Name: "ask", Logger: linepeer.DiscardLogger(), AskTimeout: 5 * time.Second}
	s.AddTool(&runtime.Tool{Name: "all", Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
		q := theQuestions()
		if err := runtime.Ask(ctx, &q.form, &q.url, &q.sample, &q.roots); err != nil {
			return nil, err
		}
		return runtime.TextResult(fmt.Sprintf("form %s %s; url %s; sample %s %s; roots %v",
			q.form.Action, q.form.Content, q.url.Action, q.sample.Result.Model, q.sample.Result.Text(), q.roots.Roots)), nil
	}})
	s.AddTool(&runtime.Tool{
		Name:        "seq",
		InputSchema: `{"type":"object","properties":{"n":{"type":"integer"}}}`,
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.ToolResult, error) {
			var in struct{ N int }
			if err := req.Bind(&in); err != nil {
				return nil, err
			}
			var names []string
			for i := range in.N {
				_, content, err := runtime.Elicit(ctx, fmt.Sprintf("Name %d?", i), nameForm)
				if err != nil {
					return nil, err
				}
				names = append(names, string(content))
			}
			return runtime.TextResult(strings.Join(names, ",")), nil
		}})
	return s
}

// answerAll are Options that answer every question, and record what they
// were asked in asked.
func answerAll(rev string, asked *askedQuestions) *runtimetest.Options {
	return &runtimetest.Options{
		Revision: rev,
		Elicit: func(ctx context.Context, q *runtime.ElicitQuestion) error {
			asked.form = *q
			q.Action, q.Content = runtime.ElicitAccept, json.RawMessage(`{"name":"Ada"}`)
			return nil
		},
		ElicitURL: func(ctx context.Context, q *runtime.ElicitURLQuestion) error {
			asked.url = *q
			q.Action = runtime.ElicitDecline
			return nil
		},
		Sample: func(ctx context.Context, q *runtime.SampleQuestion) error {
			asked.sample = *q
			q.Result = runtimetest.SampleText("m1", "hello")
			return nil
		},
		Roots: func(ctx context.Context, q *runtime.RootsQuestion) error {
			asked.roots = *q
			q.Roots = []runtime.Root{{URI: "file:///src", Name: "src"}}
			return nil
		},
	}
}

// TestQuestions: the functions of Options get the handler's questions as
// the runtime's own types, as the handler asked them, and their answers
// reach the handler, under both revisions. Under RequestRevision the
// questions carry their keys; under a session revision, where there are
// none, the URL question carries its elicitation id instead.
func TestQuestions(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		linepeer.CheckLeaks(t)
		var asked askedQuestions
		c := runtimetest.NewClient(t, askServer(), answerAll(rev, &asked))
		res, err := c.CallTool(t.Context(), "all", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := runtimetest.Text(res), `form accept {"name":"Ada"}; url decline; sample m1 hello; roots [{file:///src src}]`; got != want {
			t.Errorf("the handler got %s, want %s", got, want)
		}
		want := theQuestions()
		if rev == runtimetest.SessionRevision {
			want.form.Key, want.url.Key, want.sample.Key, want.roots.Key = "", "", "", ""
		} else {
			want.url.ElicitationID = ""
		}
		// The answers the functions filled in are in what they recorded
		// only for the fields they had before answering.
		asked.form.Action, asked.form.Content, asked.url.Action, asked.sample.Result = "", nil, "", nil
		if !reflect.DeepEqual(asked, want) {
			t.Errorf("the client was asked\n%+v\nwant\n%+v", asked, want)
		}
	})
}

// TestQuestionsInSequence: a handler that asks again after each answer
// takes a round per question under RequestRevision, up to the client's
// bound of 64 rounds: 63 questions one after the other are answered, 64
// are refused with an error that says why.
func TestQuestionsInSequence(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		var asked askedQuestions
		c := runtimetest.NewClient(t, askServer(), answerAll(rev, &asked))
		res, err := c.CallTool(t.Context(), "seq", map[string]int{"n": 63})
		if err != nil || strings.Count(runtimetest.Text(res), "Ada") != 63 {
			t.Fatalf("63 questions: %v, %v", runtimetest.Text(res), err)
		}
		res, err = c.CallTool(t.Context(), "seq", map[string]int{"n": 64})
		if rev == runtimetest.SessionRevision {
			if err != nil || strings.Count(runtimetest.Text(res), "Ada") != 64 {
				t.Errorf("64 questions under a session revision: %v, %v", runtimetest.Text(res), err)
			}
			return
		}
		if err == nil || !strings.Contains(err.Error(), "tools/call still asked the client after 64 rounds") {
			t.Errorf("64 questions in 65 rounds: %v, %v", res, err)
		}
	})
}

// TestQuestionRefused: an answering function's error is the client's
// error response under a session revision, which the handler gets as a
// *runtime.ClientError with its code; under RequestRevision, where an
// answer cannot be an error, the call fails with it.
func TestQuestionRefused(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		for _, tc := range []struct {
			err  error
			want string
		}{
			{&runtime.ClientError{Code: -1, Message: "no browser"}, "the client answered with error -1: no browser"},
			{errors.New("broken"), "the client answered with error -32603: broken"},
		} {
			opts := &runtimetest.Options{Revision: rev, Elicit: func(context.Context, *runtime.ElicitQuestion) error { return tc.err }}
			c := runtimetest.NewClient(t, askServer(), opts)
			res, err := c.CallTool(t.Context(), "seq", map[string]int{"n": 1})
			if rev == runtimetest.RequestRevision {
				if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), `answering inputRequests["elicitation-1"]`) {
					t.Errorf("%v: %v, %v", tc.err, res, err)
				}
				continue
			}
			if err != nil || !res.IsError || !strings.Contains(runtimetest.Text(res), tc.want) {
				t.Errorf("%v: %+v, %v; want a failed result with %s", tc.err, res, err, tc.want)
			}
		}
	})
}

// TestNoCapability: a client declares a capability for each function of
// Options that is set, and no other: asking it for anything else fails
// at once, as the runtime fails it for a real client (a failed result
// under a session revision, the missing capability error under
// RequestRevision).
func TestNoCapability(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		var asked askedQuestions
		opts := answerAll(rev, &asked)
		opts.Roots = nil
		c := runtimetest.NewClient(t, askServer(), opts)
		res, err := c.CallTool(t.Context(), "all", nil)
		var pe *runtime.ProtocolError
		switch {
		case rev == runtimetest.SessionRevision && (err != nil || !strings.Contains(runtimetest.Text(res), "roots: not supported by this client")):
			t.Errorf("session: %+v, %v", res, err)
		case rev == runtimetest.RequestRevision && (!errors.As(err, &pe) || pe.Code != -32021 || string(pe.Data) != `{"requiredCapabilities":{"roots":{}}}`):
			t.Errorf("per request: %v", err)
		}
		if asked.form.Message != "" {
			t.Errorf("the client was asked %+v though it could not answer everything", asked.form)
		}
	})
}

// TestQuestionWithdrawn: under a session revision a question the server
// gives up on (its AskTimeout passed) is withdrawn: the answering
// function's context ends, its answer is not sent, and Close returns.
func TestQuestionWithdrawn(t *testing.T) {
	linepeer.CheckLeaks(t)
	s := askServer()
	s.AskTimeout = 50 * time.Millisecond
	withdrawn := make(chan error, 1)
	c := runtimetest.NewClient(t, s, &runtimetest.Options{Elicit: func(ctx context.Context, q *runtime.ElicitQuestion) error {
		<-ctx.Done()
		withdrawn <- context.Cause(ctx)
		q.Action = runtime.ElicitCancel
		return nil
	}})
	res, err := c.CallTool(t.Context(), "seq", map[string]int{"n": 1})
	if err != nil || !strings.Contains(runtimetest.Text(res), "the client did not answer within 50ms") {
		t.Errorf("call: %+v, %v", res, err)
	}
	select {
	case err := <-withdrawn:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the function's context ended with %v", err)
		}
	case <-time.After(linepeer.HangGuard):
		t.Fatal("the question was never withdrawn")
	}
	c.Close()
	c.Close() // a second Close does nothing
}

// TestCloseEndsQuestions: Close cancels the context of the functions
// answering questions, and waits for them to return.
func TestCloseEndsQuestions(t *testing.T) {
	linepeer.CheckLeaks(t)
	asking := make(chan struct{})
	returned := false
	c, err := runtimetest.Connect(t.Context(), askServer(), &runtimetest.Options{Elicit: func(ctx context.Context, q *runtime.ElicitQuestion) error {
		close(asking)
		<-ctx.Done()
		time.Sleep(10 * time.Millisecond)
		returned = true
		return ctx.Err()
	}})
	if err != nil {
		t.Fatal(err)
	}
	called := make(chan error, 1)
	go func() {
		_, err := c.CallTool(context.Background(), "seq", map[string]int{"n": 1})
		called <- err
	}()
	<-asking
	c.Close()
	if !returned {
		t.Error("Close returned before the answering function did")
	}
	if err := <-called; err != nil {
		t.Errorf("the call in flight: %v", err)
	}
}

// TestConcurrentCalls: calls from several goroutines, each asking the
// client, get their own answers.
func TestConcurrentCalls(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		linepeer.CheckLeaks(t)
		var asked askedQuestions
		opts := answerAll(rev, &asked)
		opts.Elicit = func(ctx context.Context, q *runtime.ElicitQuestion) error {
			q.Action, q.Content = runtime.ElicitAccept, json.RawMessage(fmt.Sprintf(`{"name":%q}`, q.Message))
			return nil
		}
		c := runtimetest.NewClient(t, askServer(), opts)
		errs := make(chan error, 16)
		for i := range 16 {
			go func() {
				res, err := c.CallTool(t.Context(), "seq", map[string]int{"n": i % 3})
				want := make([]string, i%3)
				for j := range want {
					want[j] = fmt.Sprintf(`{"name":"Name %d?"}`, j)
				}
				if got := runtimetest.Text(res); err == nil && got != strings.Join(want, ",") {
					err = fmt.Errorf("call %d got %s", i, got)
				}
				errs <- err
			}()
		}
		for range 16 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}

// TestRevisions: a client of an older session revision gets it; a
// revision the server does not negotiate is an error of Connect, and a
// server that cannot serve is too.
func TestRevisions(t *testing.T) {
	for _, rev := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		var asked askedQuestions
		c := runtimetest.NewClient(t, askServer(), answerAll(rev, &asked))
		res, err := c.CallTool(t.Context(), "seq", map[string]int{"n": 1})
		if err != nil || runtimetest.Text(res) != `{"name":"Ada"}` {
			t.Errorf("%s: %+v, %v", rev, res, err)
		}
	}
	if _, err := runtimetest.Connect(t.Context(), askServer(), &runtimetest.Options{Revision: "2099-01-01"}); err == nil || !strings.Contains(err.Error(), `runtimetest: initialize: the server answered with revision "2025-11-25", not "2099-01-01"`) {
		t.Errorf("an unknown revision: %v", err)
	}
	keyless := &runtime.Server{Name: "keyless", Store: store.NewMemory()}
	if _, err := runtimetest.Connect(t.Context(), keyless, nil); err == nil {
		t.Error("a server that cannot serve: no error")
	}
}

// TestPages: a list of several pages is read to its end; a server that
// gives the same cursor twice is an error, not a loop.
func TestPages(t *testing.T) {
	eachRevision(t, func(t *testing.T, rev string) {
		s := &runtime.Server{Name: "pages"}
		loop := false
		s.ListResources = func(ctx context.Context, cursor string) ([]*runtime.Resource, string, error) {
			n := 0
			fmt.Sscan(cursor, &n)
			next := fmt.Sprint(n + 1)
			switch {
			case loop:
				next = "1"
			case n == 2:
				next = ""
			}
			return []*runtime.Resource{{URI: fmt.Sprintf("app://%d", n), Name: fmt.Sprint(n)}}, next, nil
		}
		c := runtimetest.NewClient(t, s, &runtimetest.Options{Revision: rev})
		list, err := c.ListResources(t.Context())
		var uris []string
		for _, r := range list {
			uris = append(uris, r.URI)
		}
		if err != nil || !slices.Equal(uris, []string{"app://0", "app://1", "app://2"}) {
			t.Errorf("pages: %v, %v", uris, err)
		}
		loop = true
		if _, err := c.ListResources(t.Context()); err == nil || !strings.Contains(err.Error(), `resources/list gave the cursor "1" twice`) {
			t.Errorf("a loop of cursors: %v", err)
		}
	})
}
