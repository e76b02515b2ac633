package board_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/board"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// extAppsVersion is the @modelcontextprotocol/ext-apps version that
// .ci/install-ext-apps.sh installs, with the tools the test needs.
const extAppsVersion = "2.0.4"

// browserKit returns Debian's Chromium ($MCPGEN_CHROMIUM, else
// /usr/bin/chromium) and the folder .ci/install-ext-apps.sh installs
// ext-apps, the MCP client, esbuild and playwright-core into
// ($MCPGEN_EXT_APPS, else its place in the cache), and node. Without one
// the test is skipped, loudly, unless $MCPGEN_REQUIRE_CHROMIUM is set (CI
// sets it): then it fails.
func browserKit(t *testing.T) (chromium, kit, node string) {
	t.Helper()
	chromium = cmp.Or(os.Getenv("MCPGEN_CHROMIUM"), "/usr/bin/chromium")
	kit = os.Getenv("MCPGEN_EXT_APPS")
	if kit == "" {
		cache := os.Getenv("MCPGEN_CACHE")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache", "mcpgen")
		}
		kit = filepath.Join(cache, "ext-apps-"+extAppsVersion)
	}
	var missing []string
	if fi, err := os.Stat(chromium); err != nil || fi.IsDir() {
		missing = append(missing, "Chromium at "+chromium+" (.ci/install-chromium.sh, or set MCPGEN_CHROMIUM)")
	}
	for _, pkg := range []string{"@modelcontextprotocol/ext-apps", "@modelcontextprotocol/client", "esbuild", "playwright-core"} {
		if _, err := os.Stat(filepath.Join(kit, "node_modules", pkg, "package.json")); err != nil {
			missing = append(missing, pkg+" in "+kit+" (.ci/install-ext-apps.sh, or set MCPGEN_EXT_APPS)")
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node in PATH")
	}
	if missing == nil {
		return chromium, kit, node
	}
	how := "the MCP Apps host in a real browser did NOT run: missing " + strings.Join(missing, "; ")
	if os.Getenv("MCPGEN_REQUIRE_CHROMIUM") != "" {
		t.Fatal("MCPGEN_REQUIRE_CHROMIUM is set but " + how)
	}
	t.Skip("SKIPPED: " + how)
	return "", "", ""
}

// viewCSP is the Content-Security-Policy a web host gives the sandbox of
// a view whose _meta.ui.csp is csp, as the extension writes it: nothing
// but what the view declared, and inline scripts and styles of its own.
// Each entry must be an origin, or the host refuses the view.
func viewCSP(csp runtime.UIResourceCSP) (string, error) {
	for _, list := range [][]string{csp.ConnectDomains, csp.ResourceDomains, csp.FrameDomains, csp.BaseURIDomains} {
		for _, origin := range list {
			if err := mcpimpl.CheckOrigin(origin); err != nil {
				return "", err
			}
		}
	}
	or := func(list []string, none string) string { return cmp.Or(strings.Join(list, " "), none) }
	res := strings.Join(csp.ResourceDomains, " ")
	return strings.Join([]string{
		"default-src 'none'",
		"script-src 'self' 'unsafe-inline' " + res,
		"style-src 'self' 'unsafe-inline' " + res,
		"connect-src 'self' " + strings.Join(csp.ConnectDomains, " "),
		"img-src 'self' data: " + res,
		"font-src 'self' " + res,
		"media-src 'self' data: " + res,
		"frame-src " + or(csp.FrameDomains, "'none'"),
		"object-src 'none'",
		"base-uri " + or(csp.BaseURIDomains, "'self'"),
	}, "; "), nil
}

// TestBrowserHost renders the board's MCP App in headless Chromium, in a
// host page built on @modelcontextprotocol/ext-apps' AppBridge and the
// official MCP client, which reaches this server over Streamable HTTP
// declaring the extension. It checks that the server advertises the
// extension and links the view in both _meta keys, that the view is read
// as text/html;profile=mcp-app with its CSP, that the view shows
// show_board's result and that a click in it calls move_ticket through
// the bridge (the board's ticket moves), and that under the advertised CSP
// the view reaches the origin it declared and is blocked from another: the
// browser reports a connect-src violation, and that origin's server never
// hears of it. A screenshot is kept in $MCPGEN_ARTIFACTS.
func TestBrowserHost(t *testing.T) {
	chromium, kit, node := browserKit(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	bundle := filepath.Join(t.TempDir(), "host.js")
	esbuild := exec.CommandContext(ctx, filepath.Join(kit, "node_modules", ".bin", "esbuild"), "testdata/host.js",
		"--bundle", "--format=esm", "--platform=browser", "--log-level=warning", "--outfile="+bundle)
	esbuild.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(kit, "node_modules"))
	if out, err := esbuild.CombinedOutput(); err != nil {
		t.Fatalf("bundling the host page with esbuild: %v\n%s", err, out)
	}

	// The origins a view may be given: https://api.board.example, which
	// the view's CSP names, and https://elsewhere.example, which it does
	// not. Chromium maps both to this server, which records who asked.
	var mu sync.Mutex
	var reached []string
	outside := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reached = append(reached, r.Host+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		fmt.Fprint(w, "live")
	}))
	defer outside.Close()

	// The sandbox proxy, on an origin of its own (localhost, where the
	// host is 127.0.0.1), with the view's CSP.
	var sentCSP []string
	sandbox := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/sandbox.html" {
			http.NotFound(w, r)
			return
		}
		var csp runtime.UIResourceCSP
		if err := json.Unmarshal([]byte(r.URL.Query().Get("csp")), &csp); err != nil {
			http.Error(w, "csp: "+err.Error(), http.StatusBadRequest)
			return
		}
		header, err := viewCSP(csp)
		if err != nil {
			http.Error(w, "csp: "+err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		sentCSP = append(sentCSP, header)
		mu.Unlock()
		w.Header().Set("Content-Security-Policy", header)
		http.ServeFile(w, r, "testdata/sandbox.html")
	}))
	defer sandbox.Close()
	sandboxURL := strings.Replace(sandbox.URL, "127.0.0.1", "localhost", 1) + "/sandbox.html"

	b := board.NewBoard()
	mux := http.NewServeMux()
	mux.Handle("/mcp", board.NewServer(b).HTTPHandler(&runtime.HTTPOptions{Sessions: true}))
	mux.HandleFunc("/host.html", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, "testdata/host.html") })
	mux.HandleFunc("/host.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
	host := httptest.NewServer(mux)
	defer host.Close()

	_, outsidePort, _ := net.SplitHostPort(outside.Listener.Addr().String())
	artifacts := os.Getenv("MCPGEN_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	} else if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	screenshot := filepath.Join(artifacts, "mcp-apps-board.png")
	os.Remove(screenshot)
	const allowed, forbidden = "https://api.board.example/live", "https://elsewhere.example/collect"
	cfg, _ := json.Marshal(map[string]any{
		"playwright":    filepath.Join(kit, "node_modules", "playwright-core", "index.mjs"),
		"chromium":      chromium,
		"url":           host.URL + "/host.html?tool=show_board&sandbox=" + url.QueryEscape(sandboxURL),
		"resolverRules": fmt.Sprintf("MAP api.board.example:443 127.0.0.1:%s, MAP elsewhere.example:443 127.0.0.1:%[1]s", outsidePort),
		"screenshot":    screenshot,
		"probe":         []string{allowed, forbidden},
	})
	drive := exec.CommandContext(ctx, node, "testdata/drive.mjs", string(cfg))
	drive.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr bytes.Buffer
	drive.Stderr = &stderr
	stdout, err := drive.Output()
	if err != nil {
		t.Fatalf("drive.mjs: %v\n%s\n%s", err, stdout, stderr.Bytes())
	}
	var out struct {
		Console []string
		Host    struct {
			Log, Errors        []string
			ServerCapabilities struct{ Extensions map[string]json.RawMessage }
			Tools              []struct {
				Name  string
				Icons []runtime.Icon
				Meta  struct {
					UI         *runtime.UIToolMeta `json:"ui"`
					FlatUIMeta string              `json:"ui/resourceUri"`
				} `json:"_meta"`
			}
			View struct {
				URI, MIMEType string
				UI            struct {
					CSP           runtime.UIResourceCSP
					PrefersBorder *bool
				}
			}
		}
		Before, Status, After string
		Calls                 []struct{ Name string }
		Probe                 struct {
			Fetched    map[string]string
			Violations []struct{ Directive, Blocked string }
		}
	}
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("drive.mjs printed %s: %v\n%s", stdout, err, stderr.Bytes())
	}
	if len(out.Host.Errors) > 0 {
		t.Fatalf("the host page failed: %s\nits log:\n%s\nthe console:\n%s", out.Host.Errors, strings.Join(out.Host.Log, "\n"), strings.Join(out.Console, "\n"))
	}
	t.Logf("the host's log:\n%s", strings.Join(out.Host.Log, "\n"))
	if fi, err := os.Stat(screenshot); err != nil || fi.Size() == 0 {
		t.Errorf("no screenshot at %s: %v", screenshot, err)
	} else {
		t.Logf("screenshot: %s", screenshot)
	}

	if _, ok := out.Host.ServerCapabilities.Extensions["io.modelcontextprotocol/ui"]; !ok {
		t.Errorf("the server's capabilities do not declare io.modelcontextprotocol/ui: %v", out.Host.ServerCapabilities.Extensions)
	}
	tools := map[string]int{}
	for i, tl := range out.Host.Tools {
		tools[tl.Name] = i
	}
	show, move := out.Host.Tools[tools["show_board"]], out.Host.Tools[tools["move_ticket"]]
	if show.Meta.UI == nil || show.Meta.UI.ResourceURI != "ui://board/view" || show.Meta.FlatUIMeta != "ui://board/view" {
		t.Errorf("show_board's _meta links %+v and %q, want ui://board/view in both keys", show.Meta.UI, show.Meta.FlatUIMeta)
	}
	if len(show.Icons) != 1 || show.Icons[0].Src != "https://board.example/icon.svg" {
		t.Errorf("show_board's icons = %+v", show.Icons)
	}
	if move.Meta.UI == nil || !slices.Equal(move.Meta.UI.Visibility, []string{"app"}) {
		t.Errorf("move_ticket's _meta.ui = %+v, want visibility [app]", move.Meta.UI)
	}
	if v := out.Host.View; v.MIMEType != runtime.AppMIMEType || !slices.Equal(v.UI.CSP.ConnectDomains, []string{"https://api.board.example"}) || v.UI.PrefersBorder == nil || !*v.UI.PrefersBorder {
		t.Errorf("the view read as %+v", v)
	}
	mu.Lock()
	csp := slices.Clone(sentCSP)
	mu.Unlock()
	if len(csp) != 1 || !strings.Contains(csp[0], "connect-src 'self' https://api.board.example;") {
		t.Errorf("the sandbox was served with CSP %q", csp)
	}

	// The view showed show_board's result, and its click ran move_ticket.
	if !strings.Contains(out.Before, "T-2 Link it from a tool") {
		t.Errorf("the view showed %q, without show_board's tickets", out.Before)
	}
	if out.Status != "T-2 moved to doing" {
		t.Errorf("the view's status after the click is %q, want move_ticket's answer", out.Status)
	}
	if tk, _ := b.Ticket("T-2"); tk.Column != board.Doing {
		t.Errorf("T-2 is in %s after the click: move_ticket did not run", tk.Column)
	}
	if !slices.ContainsFunc(out.Calls, func(c struct{ Name string }) bool { return c.Name == "move_ticket" }) {
		t.Errorf("the bridge relayed %+v, not move_ticket", out.Calls)
	}

	// Under the advertised CSP: the declared origin is reached, the other
	// is blocked by the browser before any request leaves it.
	if got := out.Probe.Fetched[allowed]; got != "live" {
		t.Errorf("the view's fetch of %s (its CSP's connectDomains) = %q, want live", allowed, got)
	}
	if got := out.Probe.Fetched[forbidden]; !strings.HasPrefix(got, "failed:") {
		t.Errorf("the view's fetch of %s (not in its CSP) = %q, want it to fail", forbidden, got)
	}
	if !slices.ContainsFunc(out.Probe.Violations, func(v struct{ Directive, Blocked string }) bool {
		return v.Directive == "connect-src" && v.Blocked == forbidden
	}) {
		t.Errorf("the browser reported violations %+v, want connect-src blocking %s", out.Probe.Violations, forbidden)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(reached, "api.board.example/live") || slices.ContainsFunc(reached, func(s string) bool { return strings.HasPrefix(s, "elsewhere.example") }) {
		t.Errorf("the outside server was reached for %q, want api.board.example only", reached)
	}
}
