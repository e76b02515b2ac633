package surface

import (
	"slices"
	"testing"
)

// TestCompareApps: a tool's icons and its link to a view, and a view's
// _meta.ui, change nothing a client depends on, but for the tool's
// visibility: taking the model or the view off it breaks whoever called
// it.
func TestCompareApps(t *testing.T) {
	tool := func(ui *ToolUI, icons ...Icon) *Surface {
		return &Surface{Format: Format, Server: Server{Name: "s"}, Tools: []*Tool{{Name: "t", InputSchema: objA, UI: ui, Icons: icons}}}
	}
	view := func(ui *ResourceUI) *Surface {
		return &Surface{Format: Format, Server: Server{Name: "s"}, Resources: []*Resource{{URI: "ui://v", Name: "v", MIMEType: "text/html;profile=mcp-app", UI: ui}}}
	}
	link := &ToolUI{ResourceURI: "ui://v"}
	for _, c := range []struct {
		name     string
		old, new *Surface
		want     []string
	}{
		{"same", tool(link), tool(&ToolUI{ResourceURI: "ui://v"}), nil},
		{"icon added", tool(nil), tool(nil, Icon{Src: "https://e/i.png"}), []string{"compatible icon tool t icons"}},
		{"link added", tool(nil), tool(link), []string{"compatible app tool t ui"}},
		{"link removed", tool(link), tool(nil), []string{"compatible app tool t ui"}},
		{"another view", tool(link), tool(&ToolUI{ResourceURI: "ui://w"}), []string{"compatible app tool t ui.resourceUri"}},
		{"model taken off", tool(link), tool(&ToolUI{ResourceURI: "ui://v", Visibility: []string{"app"}}), []string{"breaking app tool t ui.visibility"}},
		{"view taken off", tool(link), tool(&ToolUI{ResourceURI: "ui://v", Visibility: []string{"model"}}), []string{"breaking app tool t ui.visibility"}},
		{"model given back", tool(&ToolUI{ResourceURI: "ui://v", Visibility: []string{"app"}}), tool(link), []string{"compatible app tool t ui.visibility"}},
		{"an app-only tool unlinked: the model sees it", tool(&ToolUI{ResourceURI: "ui://v", Visibility: []string{"app"}}), tool(nil),
			[]string{"compatible app tool t ui", "compatible app tool t ui.visibility"}},
		{"CSP narrowed", view(&ResourceUI{ConnectDomains: []string{"https://a.example", "https://b.example"}}), view(&ResourceUI{ConnectDomains: []string{"https://a.example"}}),
			[]string{"compatible app resource ui://v ui"}},
		{"view's UI the same", view(&ResourceUI{Domain: "d.example"}), view(&ResourceUI{Domain: "d.example"}), nil},
	} {
		got := summary(Compare(c.old, c.new))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
