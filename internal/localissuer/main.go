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
	"context"
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

	"github.com/mcpgen/mcpgen/internal/hydra"
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
	for _, f := range []struct{ name, addr string }{{"-addr", c.public}, {"-admin", c.admin}} {
		if _, _, err := net.SplitHostPort(f.addr); err != nil {
			return config{}, fmt.Errorf("%s: %w", f.name, err)
		}
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
	secret, err := hydra.RandomHex(32)
	if err != nil {
		return err
	}
	issuer := "http://" + c.public
	home, err := os.MkdirTemp("", "localissuer")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	// Hydra's state is in memory: it is gone when Hydra is stopped.
	env, err := hydra.Env(home, secret, issuer, c.public, c.admin)
	if err != nil {
		return err
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.hydra, "serve", "all", "--dev", "--sqa-opt-out")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start Hydra: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	h := &server{hydra.API{Issuer: issuer, Admin: "http://" + c.admin, HTTP: &http.Client{Timeout: 30 * time.Second}}}
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
func printToken(w io.Writer, h *server, cl *hydra.Client, c config, token string) {
	form := "-d grant_type=client_credentials -d audience=" + shellQuote(c.resource)
	if len(c.scopes) > 0 {
		form += " -d scope=" + shellQuote(strings.Join(c.scopes, "+"))
	}
	fmt.Fprintf(w, "issuer:   %s\n", h.Issuer)
	fmt.Fprintf(w, "resource: %s\n", c.resource)
	fmt.Fprintf(w, "scopes:   %s\n", strings.Join(c.scopes, " "))
	fmt.Fprintf(w, "token:    %s\n", token)
	fmt.Fprintf(w, "another:  curl -s -u %s %s %s\n", shellQuote(cl.ID+":"+cl.Secret), form, h.TokenURL())
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

// A server is a running Hydra.
type server struct {
	hydra.API
}

// waitReady polls Hydra's readiness endpoints and its JWK set (whose
// signing key Hydra generates on the first request, RSA 4096, seconds of
// work) until they answer, Hydra exits, or a minute has passed.
func (h *server) waitReady(ctx context.Context, exited <-chan error) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for _, u := range []string{h.Issuer + "/health/ready", h.Admin + "/health/ready", h.Issuer + "/.well-known/jwks.json"} {
		for h.status(ctx, u) != http.StatusOK {
			select {
			case err := <-exited:
				return fmt.Errorf("Hydra exited before it was ready (are %s and %s free?): %w", h.Issuer, h.Admin, err)
			case <-ctx.Done():
				return fmt.Errorf("Hydra is not ready: GET %s: %w", u, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	return nil
}

// status returns what u answers a GET with, 0 if it does not answer.
func (h *server) status(ctx context.Context, u string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0
	}
	res, err := h.HTTP.Do(req)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// register registers a confidential client that may get tokens for
// c.resource with c.scopes by the client credentials grant.
func (h *server) register(ctx context.Context, c config) (*hydra.Client, error) {
	cl, err := h.RegisterClient(ctx, hydra.ClientConfig{Name: "localissuer", Scopes: c.scopes, Audience: []string{c.resource}, TokenLifespan: c.lifespan})
	if err != nil {
		return nil, fmt.Errorf("register a client: %w", err)
	}
	return cl, nil
}

// token gets an access token for cl by the client credentials grant, for
// c.resource with c.scopes.
func (h *server) token(ctx context.Context, cl *hydra.Client, c config) (string, error) {
	token, err := h.Token(ctx, cl, c.scopes, []string{c.resource})
	if err != nil {
		return "", fmt.Errorf("get a token: %w", err)
	}
	return token, nil
}
