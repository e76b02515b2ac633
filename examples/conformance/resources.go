package main

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// The resources and prompts of the suite's server scenarios (resources-*,
// prompts-*, completion-complete), each a plain function.

// StaticText is a static text resource for testing.
//
//mcp:resource test://static-text name=static_text
func StaticText(ctx context.Context) (string, error) {
	return "This is the content of the static text resource.", nil
}

// StaticBinary is a static binary resource (a 1x1 PNG image) for testing.
//
//mcp:resource test://static-binary name=static_binary mimeType=image/png
func StaticBinary(ctx context.Context) ([]byte, error) {
	return redPixelPNG, nil
}

// TemplateID names the data of one template resource.
type TemplateID struct {
	// ID is the resource's id.
	ID string `json:"id"`
}

// TemplateData is a resource template whose contents say which id was
// asked for.
//
//mcp:resource test://template/{id}/data name=template_data
func TemplateData(ctx context.Context, in TemplateID) (map[string]string, error) {
	return map[string]string{"id": in.ID, "templateTest": "true", "data": "Data for ID: " + in.ID}, nil
}

// WatchedResource is a resource clients subscribe to.
//
//mcp:resource test://watched-resource name=watched_resource
func WatchedResource(ctx context.Context) (string, error) {
	return "Watched resource content", nil
}

// SimplePrompt is a simple prompt without arguments.
//
//mcp:prompt test_simple_prompt
func SimplePrompt(ctx context.Context) (string, error) {
	return "This is a simple prompt for testing.", nil
}

// PromptArgs are the arguments of test_prompt_with_arguments.
type PromptArgs struct {
	// Arg1 is the first test argument.
	Arg1 string `json:"arg1"`
	// Arg2 is the second test argument.
	Arg2 string `json:"arg2"`
}

// PromptWithArguments is a prompt with required arguments.
//
//mcp:prompt test_prompt_with_arguments complete=CompleteArg
func PromptWithArguments(ctx context.Context, in PromptArgs) (string, error) {
	return fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", in.Arg1, in.Arg2), nil
}

// CompleteArg proposes values of the arguments of
// test_prompt_with_arguments.
func CompleteArg(ctx context.Context, req *runtime.CompleteRequest) (*runtime.CompleteResult, error) {
	return runtime.CompletePrefix([]string{"paris", "park", "test", "testing"}, req.Value), nil
}

// EmbeddedArgs are the arguments of test_prompt_with_embedded_resource.
type EmbeddedArgs struct {
	// ResourceURI is the URI of the resource to embed.
	ResourceURI string `json:"resourceUri"`
}

// PromptWithEmbeddedResource is a prompt that embeds a resource.
//
//mcp:prompt test_prompt_with_embedded_resource
func PromptWithEmbeddedResource(ctx context.Context, in EmbeddedArgs) (*runtime.PromptResult, error) {
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		{Role: "user", Content: runtime.EmbeddedResource{Resource: runtime.ResourceContents{URI: in.ResourceURI, MIMEType: "text/plain", Text: "Embedded resource content for testing."}}},
		{Role: "user", Content: runtime.TextContent{Text: "Please process the embedded resource above."}},
	}}, nil
}

// PromptWithImage is a prompt with an image.
//
//mcp:prompt test_prompt_with_image
func PromptWithImage(ctx context.Context) (*runtime.PromptResult, error) {
	return &runtime.PromptResult{Messages: []runtime.PromptMessage{
		{Role: "user", Content: runtime.ImageContent{Data: redPixelPNG, MIMEType: "image/png"}},
		{Role: "user", Content: runtime.TextContent{Text: "Please analyze the image above."}},
	}}, nil
}

// contextForm is the form test_input_required_result_prompt asks.
const contextForm = `{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`

// InputRequiredPrompt asks the user what context the prompt should use
// (revision 2026-07-28).
//
//mcp:prompt test_input_required_result_prompt
func InputRequiredPrompt(ctx context.Context) (string, error) {
	q := &runtime.ElicitQuestion{Key: "user_context", Message: "What context should the prompt use?", Schema: contextForm}
	if err := runtime.Ask(ctx, q); err != nil {
		return "", err
	}
	return "Prompt with context: " + field(q.Content, "context"), nil
}
