package runtimetest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// The decoders below turn what the server sent into the runtime's own
// types, by the members the specification names, with encoding/json.

// decodeContent decodes one content block: text, image, audio, an
// embedded resource or a resource link. A block of another type is an
// error, since the runtime has no type for it.
func decodeContent(raw json.RawMessage) (runtime.Content, error) {
	var b struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Data     []byte          `json:"data"`
		MIMEType string          `json:"mimeType"`
		Resource json.RawMessage `json:"resource"`
		// A resource link's members.
		URI         string `json:"uri"`
		Name        string `json:"name"`
		Title       string `json:"title"`
		Description string `json:"description"`
		Size        int64  `json:"size"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("content block: %w", err)
	}
	switch b.Type {
	case "text":
		return runtime.TextContent{Text: b.Text}, nil
	case "image":
		return runtime.ImageContent{Data: b.Data, MIMEType: b.MIMEType}, nil
	case "audio":
		return runtime.AudioContent{Data: b.Data, MIMEType: b.MIMEType}, nil
	case "resource":
		rc, err := decodeContents(b.Resource)
		if err != nil {
			return nil, err
		}
		return runtime.EmbeddedResource{Resource: rc}, nil
	case "resource_link":
		return runtime.ResourceLink{URI: b.URI, Name: b.Name, Title: b.Title, Description: b.Description, MIMEType: b.MIMEType, Size: b.Size}, nil
	}
	return nil, fmt.Errorf("a content block of type %q, which package runtime has no type for", b.Type)
}

// decodeContents decodes the contents of one resource.
func decodeContents(raw json.RawMessage) (runtime.ResourceContents, error) {
	var c struct {
		URI      string  `json:"uri"`
		MIMEType string  `json:"mimeType"`
		Text     string  `json:"text"`
		Blob     *[]byte `json:"blob"`
		Meta     struct {
			UI *runtime.UIResourceMeta `json:"ui"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return runtime.ResourceContents{}, fmt.Errorf("resource contents: %w", err)
	}
	rc := runtime.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, UI: c.Meta.UI}
	if c.Blob != nil { // "" decodes to an empty, non-nil slice: a blob still
		rc.Blob = *c.Blob
	}
	return rc, nil
}

// toolResult decodes the result of tools/call. StructuredContent is kept
// as the server sent it, a json.RawMessage.
func toolResult(raw json.RawMessage) (*runtime.ToolResult, error) {
	var r struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
		Meta              map[string]any    `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	res := &runtime.ToolResult{IsError: r.IsError, Meta: r.Meta}
	if r.StructuredContent != nil {
		res.StructuredContent = r.StructuredContent
	}
	for i, raw := range r.Content {
		c, err := decodeContent(raw)
		if err != nil {
			return nil, fmt.Errorf("content %d: %w", i, err)
		}
		res.Content = append(res.Content, c)
	}
	return res, nil
}

// promptResult decodes the result of prompts/get.
func promptResult(raw json.RawMessage) (*runtime.PromptResult, error) {
	var r struct {
		Description string `json:"description"`
		Messages    []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Meta map[string]any `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	res := &runtime.PromptResult{Description: r.Description, Meta: r.Meta}
	for i, m := range r.Messages {
		c, err := decodeContent(m.Content)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		res.Messages = append(res.Messages, runtime.PromptMessage{Role: m.Role, Content: c})
	}
	return res, nil
}

// resourceResult decodes the result of resources/read; its cache hint is
// there under RequestRevision only.
func resourceResult(raw json.RawMessage) (*runtime.ResourceResult, error) {
	var r struct {
		Contents   []json.RawMessage `json:"contents"`
		Meta       map[string]any    `json:"_meta"`
		TTLMs      *int64            `json:"ttlMs"`
		CacheScope string            `json:"cacheScope"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	res := &runtime.ResourceResult{Meta: r.Meta}
	if r.TTLMs != nil {
		res.Cache = &runtime.CacheHint{TTL: time.Duration(*r.TTLMs) * time.Millisecond, Private: r.CacheScope == "private"}
	}
	for i, raw := range r.Contents {
		c, err := decodeContents(raw)
		if err != nil {
			return nil, fmt.Errorf("contents %d: %w", i, err)
		}
		res.Contents = append(res.Contents, c)
	}
	return res, nil
}

// decodeTool decodes a tool as tools/list lists it. The _meta entries
// that Tool has fields for (SearchHint, AlwaysLoad) fill them; the rest
// are Meta.
func decodeTool(raw json.RawMessage) (*runtime.Tool, error) {
	var t struct {
		Name         string                   `json:"name"`
		Title        string                   `json:"title"`
		Description  string                   `json:"description"`
		InputSchema  json.RawMessage          `json:"inputSchema"`
		OutputSchema json.RawMessage          `json:"outputSchema"`
		Annotations  *runtime.ToolAnnotations `json:"annotations"`
		Icons        []runtime.Icon           `json:"icons"`
		Meta         map[string]any           `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	tool := &runtime.Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		InputSchema:  string(t.InputSchema),
		OutputSchema: string(t.OutputSchema),
		Annotations:  t.Annotations,
		Icons:        t.Icons,
	}
	if hint, ok := t.Meta["anthropic/searchHint"].(string); ok {
		tool.SearchHint = hint
		delete(t.Meta, "anthropic/searchHint")
	}
	if load, ok := t.Meta["anthropic/alwaysLoad"].(bool); ok {
		tool.AlwaysLoad = load
		delete(t.Meta, "anthropic/alwaysLoad")
	}
	if len(t.Meta) > 0 {
		tool.Meta = t.Meta
	}
	return tool, nil
}

// decodePrompt decodes a prompt as prompts/list lists it.
func decodePrompt(raw json.RawMessage) (*runtime.Prompt, error) {
	var p struct {
		Name        string                   `json:"name"`
		Title       string                   `json:"title"`
		Description string                   `json:"description"`
		Arguments   []runtime.PromptArgument `json:"arguments"`
		Icons       []runtime.Icon           `json:"icons"`
		Meta        map[string]any           `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return &runtime.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: p.Arguments, Icons: p.Icons, Meta: p.Meta}, nil
}

// decodeResource decodes a resource as resources/list lists it; its
// _meta.ui, the sandbox of an MCP App's view, is UI.
func decodeResource(raw json.RawMessage) (*runtime.Resource, error) {
	var r struct {
		URI         string                       `json:"uri"`
		Name        string                       `json:"name"`
		Title       string                       `json:"title"`
		Description string                       `json:"description"`
		MIMEType    string                       `json:"mimeType"`
		Size        int64                        `json:"size"`
		Annotations *runtime.ResourceAnnotations `json:"annotations"`
		Icons       []runtime.Icon               `json:"icons"`
		Meta        map[string]any               `json:"_meta"`
	}
	var ui struct {
		Meta struct {
			UI *runtime.UIResourceMeta `json:"ui"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &ui); err != nil {
		return nil, fmt.Errorf("_meta.ui: %w", err)
	}
	delete(r.Meta, "ui")
	if len(r.Meta) == 0 {
		r.Meta = nil
	}
	return &runtime.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size, Annotations: r.Annotations, Icons: r.Icons, Meta: r.Meta, UI: ui.Meta.UI}, nil
}

// decodeTemplate decodes a resource template as
// resources/templates/list lists it.
func decodeTemplate(raw json.RawMessage) (*runtime.ResourceTemplate, error) {
	var t struct {
		URITemplate string                       `json:"uriTemplate"`
		Name        string                       `json:"name"`
		Title       string                       `json:"title"`
		Description string                       `json:"description"`
		MIMEType    string                       `json:"mimeType"`
		Annotations *runtime.ResourceAnnotations `json:"annotations"`
		Icons       []runtime.Icon               `json:"icons"`
		Meta        map[string]any               `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	return &runtime.ResourceTemplate{URITemplate: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType, Annotations: t.Annotations, Icons: t.Icons, Meta: t.Meta}, nil
}
