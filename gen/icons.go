package gen

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/internal/surface"
)

// An iconOption is one icon= of a directive: an image a client may show
// beside the tool, in the specification's Icon shape.
type iconOption struct {
	src      string
	mimeType string   // from the file's extension, or the data: URI
	sizes    []string // "48x48", "any"
	theme    string   // "light", "dark" or ""
}

// iconSize is a size of the specification's Icon: WIDTHxHEIGHT, or any
// (for a scalable image).
var iconSize = regexp.MustCompile(`^([1-9][0-9]{0,4}x[1-9][0-9]{0,4}|any)$`)

// iconOption reads icon=SRC, or icon="SRC SIZE... THEME": the image (an
// https URL of a PNG, JPEG, SVG or WebP file by its extension, or a
// base64 data: URI of one), then the sizes it is drawn for (48x48, any)
// and the theme it is for (light or dark), if any. Clients refuse icons
// of other schemes, and the MIME type tells them what to expect. It adds
// the icon to icons, and reports whether the option is right.
func (p *pass) iconOption(directive string, a arg, icons *[]iconOption) bool {
	words := strings.Fields(a.value)
	if len(words) == 0 {
		p.errorf(a.valPos, "//mcp:%s: icon= needs an image: an https URL or a data: URI", directive)
		return false
	}
	ic := iconOption{src: words[0]}
	if ic.mimeType = iconSourceType(ic.src); ic.mimeType == "" {
		p.errorf(a.valPos, "//mcp:%s: icon=%s: want an https URL of a PNG, JPEG, SVG or WebP image (by its extension) or a base64 data: URI of one, such as icon=https://example.com/icon.png; clients show no other", directive, ic.src)
		return false
	}
	for _, w := range words[1:] {
		switch {
		case w == "light" || w == "dark":
			if ic.theme != "" {
				p.errorf(a.valPos, "//mcp:%s: icon=%q: one theme, light or dark", directive, a.value)
				return false
			}
			ic.theme = w
		case iconSize.MatchString(w) && !slices.Contains(ic.sizes, w):
			ic.sizes = append(ic.sizes, w)
		default:
			p.errorf(a.valPos, "//mcp:%s: icon=%q: %q is neither a size (48x48, any) nor a theme (light, dark); write icon=\"URL 48x48 dark\"", directive, a.value, w)
			return false
		}
	}
	if slices.ContainsFunc(*icons, func(o iconOption) bool { return o.src == ic.src && o.theme == ic.theme }) {
		p.errorf(a.valPos, "//mcp:%s: icon=%s is given twice", directive, ic.src)
		return false
	}
	*icons = append(*icons, ic)
	return true
}

// iconSourceType is the MIME type of the image src names, or "" when src
// is not an https URL or a base64 data: URI of an image clients show.
func iconSourceType(src string) string {
	if rest, ok := strings.CutPrefix(src, "data:"); ok {
		typ, data, ok := strings.Cut(rest, ";base64,")
		if !ok || data == "" || !slices.Contains([]string{"image/png", "image/jpeg", "image/svg+xml", "image/webp"}, typ) {
			return ""
		}
		if _, err := base64.StdEncoding.DecodeString(data); err != nil {
			return "" // not the base64 it says it is
		}
		return typ
	}
	u, err := url.Parse(src)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return iconType(u.Path)
}

// icons is []runtime.Icon{…}, or nil for none.
func (e *emitter) icons(icons []iconOption) jen.Code {
	if icons == nil {
		return nil
	}
	var items []jen.Code
	for _, ic := range icons {
		fs := []jen.Code{field("Src", jen.Lit(ic.src)), field("MIMEType", jen.Lit(ic.mimeType))}
		if ic.sizes != nil {
			fs = append(fs, field("Sizes", stringsLit(ic.sizes)))
		}
		if ic.theme != "" {
			fs = append(fs, field("Theme", jen.Lit(ic.theme)))
		}
		items = append(items, jen.Values(fs...))
	}
	return jen.Index().Add(e.rt("Icon")).Add(elements(items...))
}

// surfaceIcons are a tool's icons in the surface snapshot.
func surfaceIcons(icons []iconOption) []surface.Icon {
	var out []surface.Icon
	for _, ic := range icons {
		out = append(out, surface.Icon{Src: ic.src, MIMEType: ic.mimeType, Sizes: ic.sizes, Theme: ic.theme})
	}
	return out
}
