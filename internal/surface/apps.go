package surface

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// An Icon is an image a client may show for a tool, as the
// specification's Icon has it.
type Icon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// ToolUI is a tool's link to its MCP App view (_meta.ui): the view's URI,
// and who may call the tool, nil for the model and the view both.
type ToolUI struct {
	ResourceURI string   `json:"resourceUri"`
	Visibility  []string `json:"visibility,omitempty"`
}

// ResourceUI is how an MCP App's view asks to be shown (_meta.ui): the
// origins its CSP allows, the browser features it asks for, its domain and
// border.
type ResourceUI struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
	Permissions     []string `json:"permissions,omitempty"`
	Domain          string   `json:"domain,omitempty"`
	PrefersBorder   *bool    `json:"prefersBorder,omitempty"`
}

// Kinds of change of MCP Apps and icons.
const (
	KindApp  = "app"  // a tool's link to its view, or a view's _meta.ui
	KindIcon = "icon" // a tool's icons
)

// visibility is who may call a tool: the link's visibility, or the
// extension's default, the model and the view.
func (u *ToolUI) visibility() []string {
	if u == nil || u.Visibility == nil {
		return []string{"model", "app"}
	}
	return u.Visibility
}

// toolApp compares a tool's icons and its link to a view. A link added,
// removed or moved to another view breaks no client: the tool answers
// with text for every client, and the server serves the view it names.
// Taking the model or the view off the tool's visibility breaks whoever
// called it.
func (c *comparison) toolApp(subject, place, oldPlace string, old, new *Tool) {
	add := func(breaking bool, kind, member, what, why string) {
		c.add(Change{Breaking: breaking, Kind: kind, Subject: subject, Member: member, What: what, Why: why, Place: place, OldPlace: oldPlace})
	}
	if !reflect.DeepEqual(old.Icons, new.Icons) {
		add(false, KindIcon, "icons", "changed", "images clients may show; no call depends on them")
	}
	switch {
	case old.UI == nil && new.UI != nil:
		add(false, KindApp, "ui", "view "+new.UI.ResourceURI+" linked", "clients that render MCP Apps show the view; the tool still answers with text for the others")
	case old.UI != nil && new.UI == nil:
		add(false, KindApp, "ui", "view "+old.UI.ResourceURI+" unlinked", "clients that render MCP Apps show the tool's text result instead of the view")
	case old.UI != nil && old.UI.ResourceURI != new.UI.ResourceURI:
		add(false, KindApp, "ui.resourceUri", fmt.Sprintf("%s → %s", old.UI.ResourceURI, new.UI.ResourceURI), "the server serves the view it links; clients read it when they render the tool")
	}
	ov, nv := old.UI.visibility(), new.UI.visibility()
	for _, who := range []string{"model", "app"} {
		switch {
		case slices.Contains(ov, who) && !slices.Contains(nv, who):
			why := "the model no longer sees the tool, and clients that do not render MCP Apps no longer list it: prompts and plans that call it fail"
			if who == "app" {
				why = "hosts refuse the view's calls of the tool: a view written against the old surface fails"
			}
			add(true, KindApp, "ui.visibility", who+" removed", why)
		case !slices.Contains(ov, who) && slices.Contains(nv, who):
			add(false, KindApp, "ui.visibility", who+" added", "the tool may be called by more; no call that worked fails")
		}
	}
}

// resourceApp compares a view's _meta.ui: the client applies it to the
// view that this server serves with it, so no client depends on it.
func (c *comparison) resourceApp(subject, place, oldPlace string, old, new *Resource) {
	if reflect.DeepEqual(old.UI, new.UI) {
		return
	}
	var what []string
	o, n := old.UI, new.UI
	if o == nil {
		o = &ResourceUI{}
	}
	if n == nil {
		n = &ResourceUI{}
	}
	for _, f := range []struct {
		name     string
		old, new []string
	}{
		{"connectDomains", o.ConnectDomains, n.ConnectDomains},
		{"resourceDomains", o.ResourceDomains, n.ResourceDomains},
		{"frameDomains", o.FrameDomains, n.FrameDomains},
		{"baseUriDomains", o.BaseURIDomains, n.BaseURIDomains},
		{"permissions", o.Permissions, n.Permissions},
	} {
		if !slices.Equal(f.old, f.new) {
			what = append(what, fmt.Sprintf("%s %s → %s", f.name, listOrNone(f.old), listOrNone(f.new)))
		}
	}
	if o.Domain != n.Domain {
		what = append(what, fmt.Sprintf("domain %s → %s", orNone(o.Domain), orNone(n.Domain)))
	}
	if !reflect.DeepEqual(o.PrefersBorder, n.PrefersBorder) {
		what = append(what, "prefersBorder changed")
	}
	if what == nil {
		return
	}
	c.add(Change{Kind: KindApp, Subject: subject, Member: "ui", What: strings.Join(what, "; "),
		Why: "the client sandboxes the view this server serves with it as it asks; no client depends on it", Place: place, OldPlace: oldPlace})
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "(none)"
	}
	return strings.Join(l, ",")
}
