// Localissuer runs an OAuth 2.0 authorization server on loopback for
// trying a server with authorization: ORY Hydra, the one the tests use,
// in memory. It registers a client that may get client-credentials tokens
// for one resource (the server's URL, default http://127.0.0.1:8080/mcp)
// with the scopes asked for, gets one, prints the issuer, the token and
// the command that gets another, and serves until it is interrupted;
// nothing outlives it.
//
// Usage, from a clone of the repository:
//
//	go run ./internal/localissuer [-scope 'a b'] [-lifespan 1h] [-addr 127.0.0.1:4444] [RESOURCE]
//
// Hydra is $MCPGEN_HYDRA, or the binary -hydra names, or else the one
// .ci/install-hydra.sh builds into the cache (minutes, once).
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "localissuer: %v\n", err)
		os.Exit(1)
	}
}

// config is what the command line asks for.
type config struct {
	hydra    string        // Hydra's binary
	public   string        // host:port of Hydra's public API, the issuer
	admin    string        // host:port of Hydra's admin API
	scopes   []string      // the scopes the client may ask for, and its first token has
	lifespan time.Duration // of the client's access tokens
	resource string        // the audience of its tokens
}

// parse reads the command line.
func parse(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("localissuer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./internal/localissuer [flags] [RESOURCE]\n\n"+
			"Runs ORY Hydra on loopback, registers a client_credentials client whose tokens\n"+
			"are for RESOURCE (default %s), and prints a token.\n\n", defaultResource)
		fs.PrintDefaults()
	}
	var c config
	fs.StringVar(&c.hydra, "hydra", os.Getenv("MCPGEN_HYDRA"), "Hydra's `binary` (default $MCPGEN_HYDRA, else .ci/install-hydra.sh builds it)")
	fs.StringVar(&c.public, "addr", "127.0.0.1:4444", "`host:port` of the public API: the issuer is http://ADDR")
	fs.StringVar(&c.admin, "admin", "127.0.0.1:4445", "`host:port` of the admin API, where clients are registered")
	scope := fs.String("scope", "", "the `scopes` the client may ask for, separated by spaces: notes:read notes:write")
	fs.DurationVar(&c.lifespan, "lifespan", time.Hour, "how long an access token is valid")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	c.scopes = strings.Fields(*scope)
	c.resource = defaultResource
	switch fs.NArg() {
	case 0:
	case 1:
		c.resource = fs.Arg(0)
	default:
		fs.Usage()
		return config{}, fmt.Errorf("one resource at most, got %q", fs.Args())
	}
	if u, err := url.Parse(c.resource); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return config{}, fmt.Errorf("the resource %q is not an http or https URL", c.resource)
	}
	if c.lifespan <= 0 {
		return config{}, fmt.Errorf("-lifespan %v is not positive", c.lifespan)
	}
	return c, nil
}

// defaultResource is the URL of a server run with -http 127.0.0.1:8080.
const defaultResource = "http://127.0.0.1:8080/mcp"

// run starts Hydra, registers the client, prints its first token and
// waits until ctx ends or Hydra exits.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if c.hydra == "" {
		if c.hydra, err = installHydra(ctx, stderr); err != nil {
			return err
		}
	}
	secret, err := randomHex(32)
	if err != nil {
		return err
	}
	issuer := "http://" + c.public
	publicHost, publicPort, err := net.SplitHostPort(c.public)
	if err != nil {
		return fmt.Errorf("-addr: %w", err)
	}
	adminHost, adminPort, err := net.SplitHostPort(c.admin)
	if err != nil {
		return fmt.Errorf("-admin: %w", err)
	}
	home, err := os.MkdirTemp("", "localissuer")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Hydra's state is in memory: it is gone when Hydra is stopped.
	cmd := exec.CommandContext(ctx, c.hydra, "serve", "all", "--dev", "--sqa-opt-out")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	cmd.Env = []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"DSN=memory",
		"SECRETS_SYSTEM=" + secret,
		"STRATEGIES_ACCESS_TOKEN=jwt",
		"URLS_SELF_ISSUER=" + issuer,
		// Only the client credentials grant is used: no browser is sent
		// to these (port 9 is discard).
		"URLS_LOGIN=http://127.0.0.1:9/login",
		"URLS_CONSENT=http://127.0.0.1:9/consent",
		"SERVE_PUBLIC_HOST=" + publicHost,
		"SERVE_PUBLIC_PORT=" + publicPort,
		"SERVE_ADMIN_HOST=" + adminHost,
		"SERVE_ADMIN_PORT=" + adminPort,
		"LOG_LEVEL=warn",
		"SQA_OPT_OUT=true",
	}
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start Hydra: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	h := &hydra{issuer: issuer, admin: "http://" + c.admin, client: &http.Client{Timeout: 30 * time.Second}}
	if err := h.waitReady(ctx, exited); err != nil {
		cancel()
		<-exited
		return err
	}
	cl, err := h.register(ctx, c)
	if err == nil {
		var token string
		if token, err = h.token(ctx, cl, c); err == nil {
			printToken(stdout, h, cl, c, token)
			fmt.Fprintf(stderr, "localissuer: Hydra serves %s until interrupted (Ctrl-C)\n", issuer)
		}
	}
	if err != nil {
		cancel()
		<-exited
		return err
	}
	select {
	case err := <-exited:
		return fmt.Errorf("Hydra exited: %w", err)
	case <-ctx.Done():
		<-exited
		return nil
	}
}

// installHydra runs .ci/install-hydra.sh, which builds the pinned Hydra
// into the cache once, and returns the path it prints.
func installHydra(ctx context.Context, stderr io.Writer) (string, error) {
	const script = ".ci/install-hydra.sh"
	if _, err := os.Stat(script); err != nil {
		return "", fmt.Errorf("no Hydra: set MCPGEN_HYDRA or -hydra, or run this from the repository's root, where %s builds it: %w", script, err)
	}
	fmt.Fprintf(stderr, "localissuer: %s (the first time, it builds Hydra: minutes)\n", script)
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s: %w", script, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// printToken writes what a user needs: the issuer to give the server, the
// token, and the request that gets another.
func printToken(w io.Writer, h *hydra, cl client, c config, token string) {
	form := "-d grant_type=client_credentials -d audience=" + shellQuote(c.resource)
	if len(c.scopes) > 0 {
		form += " -d scope=" + shellQuote(strings.Join(c.scopes, "+"))
	}
	fmt.Fprintf(w, "issuer:   %s\n", h.issuer)
	fmt.Fprintf(w, "resource: %s\n", c.resource)
	fmt.Fprintf(w, "scopes:   %s\n", strings.Join(c.scopes, " "))
	fmt.Fprintf(w, "token:    %s\n", token)
	fmt.Fprintf(w, "another:  curl -s -u %s %s %s\n", shellQuote(cl.id+":"+cl.secret), form, h.issuer+"/oauth2/token")
}

// shellQuote quotes s for a POSIX shell when it holds more than letters,
// digits and -_.:/+=.
func shellQuote(s string) string {
	safe := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-_.:/+=", r))
	}) < 0
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// hydra talks to a running Hydra.
type hydra struct {
	issuer, admin string
	client        *http.Client
}

// A client is a registered OAuth client.
type client struct {
	id, secret string
}

// waitReady polls Hydra's readiness endpoints and its JWK set (whose
// signing key Hydra generates on the first request, RSA 4096, seconds of
// work) until they answer, Hydra exits, or a minute has passed.
func (h *hydra) waitReady(ctx context.Context, exited <-chan error) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for _, u := range []string{h.issuer + "/health/ready", h.admin + "/health/ready", h.issuer + "/.well-known/jwks.json"} {
		for h.status(ctx, u) != http.StatusOK {
			select {
			case err := <-exited:
				return fmt.Errorf("Hydra exited before it was ready (are %s and %s free?): %w", h.issuer, h.admin, err)
			case <-ctx.Done():
				return fmt.Errorf("Hydra is not ready: GET %s: %w", u, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	return nil
}

// status returns what u answers a GET with, 0 if it does not answer.
func (h *hydra) status(ctx context.Context, u string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0
	}
	res, err := h.client.Do(req)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// register registers a confidential client that may get tokens for
// c.resource with c.scopes by the client credentials grant.
func (h *hydra) register(ctx context.Context, c config) (client, error) {
	secret, err := randomHex(16)
	if err != nil {
		return client{}, err
	}
	body, err := json.Marshal(map[string]any{
		"client_name":                "localissuer",
		"grant_types":                []string{"client_credentials"},
		"response_types":             []string{"token"},
		"scope":                      strings.Join(c.scopes, " "),
		"audience":                   []string{c.resource},
		"token_endpoint_auth_method": "client_secret_basic",
		"access_token_strategy":      "jwt",
		"client_secret":              secret,
		"client_credentials_grant_access_token_lifespan": c.lifespan.String(),
	})
	if err != nil {
		return client{}, err
	}
	var out struct {
		ClientID string `json:"client_id"`
	}
	if err := h.do(ctx, h.admin+"/admin/clients", "application/json", body, nil, http.StatusCreated, &out); err != nil {
		return client{}, fmt.Errorf("register a client: %w", err)
	}
	return client{id: out.ClientID, secret: secret}, nil
}

// token gets an access token for cl by the client credentials grant, for
// c.resource with c.scopes.
func (h *hydra) token(ctx context.Context, cl client, c config) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "audience": {c.resource}}
	if len(c.scopes) > 0 {
		form.Set("scope", strings.Join(c.scopes, " "))
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := h.do(ctx, h.issuer+"/oauth2/token", "application/x-www-form-urlencoded", []byte(form.Encode()), &cl, http.StatusOK, &out); err != nil {
		return "", fmt.Errorf("get a token: %w", err)
	}
	if out.AccessToken == "" {
		return "", errors.New("get a token: no access_token in Hydra's answer")
	}
	return out.AccessToken, nil
}

// do posts body to u, authenticated as cl when it is not nil, checks the
// status and decodes the JSON answer into out.
func (h *hydra) do(ctx context.Context, u, contentType string, body []byte, cl *client, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", contentType)
	if cl != nil {
		// RFC 6749 §2.3.1: the id and secret are form-encoded first.
		req.SetBasicAuth(url.QueryEscape(cl.id), url.QueryEscape(cl.secret))
	}
	res, err := h.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("POST %s: %w", u, err)
	}
	if res.StatusCode != want {
		return fmt.Errorf("POST %s: %s: %s", u, res.Status, firstLine(data))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("POST %s: %w", u, err)
	}
	return nil
}

// firstLine is the first line of data, trimmed, for an error message.
func firstLine(data []byte) string {
	s := bufio.NewScanner(bytes.NewReader(data))
	if s.Scan() {
		return strings.TrimSpace(s.Text())
	}
	return ""
}

// randomHex returns n random bytes in hexadecimal.
func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return hex.EncodeToString(b), nil
}
