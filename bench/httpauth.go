package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/issuer"
)

// httpAuthPart measures what authorization costs per call: mcpgen and the
// official Go SDK, stateless, each without and with a JWT access token
// checked on every request, through the HTTP part's driver. Both verify
// the same RS256 token of the same issuer (internal/issuer) with the same
// verifier (auth.NewJWTVerifier, keys fetched once through discovery),
// then check its audience and scope: mcpgen with
// HTTPOptions.Authorization, the SDK with auth.RequireBearerToken and
// oauthex.MatchesResource. What differs is what each library does around
// the verification.
func (e *env) httpAuthPart() ([]verdict, error) {
	cfg := e.cfg
	is, err := issuer.Start()
	if err != nil {
		return nil, err
	}
	defer is.Close()
	server := func(lib, name, bin string, withIssuer bool) httpServer {
		s := httpServer{Server: driver.Server{Name: name, Argv: []string{filepath.Join(e.bin, bin)}}, lib: lib}
		if withIssuer {
			s.Name += ", JWT"
			s.Argv = append(s.Argv, "-issuer", is.URL)
			s.issuer = is
		}
		return s
	}
	servers := []httpServer{
		server(mcpgen, "mcpgen (stateless", "http-mcpgen", false),
		server(mcpgen, "mcpgen (stateless", "http-mcpgen", true),
		server(gosdk, "go-sdk (stateless", "http-gosdk", false),
		server(gosdk, "go-sdk (stateless", "http-gosdk", true),
	}
	for i := range servers {
		servers[i].Name += ")"
	}
	runs := map[string][]*httpRun{}
	for round := range cfg.HTTPRounds {
		for _, s := range rotate(servers, round) {
			progress("httpauth: round %d/%d: %s", round+1, cfg.HTTPRounds, s.Name)
			r, err := e.measureHTTP(s)
			if err != nil {
				return nil, err
			}
			runs[s.Name] = append(runs[s.Name], r)
		}
	}
	// Medians of the rounds.
	cpu := func(name string, i int) time.Duration {
		var xs []time.Duration
		for _, r := range runs[name] {
			xs = append(xs, r.levels[i].CPUPerCall)
		}
		return median(xs)
	}
	perSecond := func(name string, i int) float64 {
		var xs []float64
		for _, r := range runs[name] {
			xs = append(xs, r.levels[i].PerSecond())
		}
		return median(xs)
	}
	p99 := func(name string, i int) time.Duration {
		var xs []time.Duration
		for _, r := range runs[name] {
			xs = append(xs, r.levels[i].Quantile(0.99))
		}
		return median(xs)
	}

	w := e.out
	fmt.Fprintf(w, "## 6a. Streamable HTTP with authorization: the cost per call\n\n")
	fmt.Fprintf(w, "The HTTP part's driver and workload (%s with each of %s clients, median of %d round(s), servers in rotated order), against mcpgen and the official Go SDK, stateless, each without and with a JWT access token on every request. The token is one RS256 token (2048-bit key) of a local issuer, for the server's /mcp, with the scope the server requires; both servers verify it with the same verifier (auth.NewJWTVerifier, keys fetched once through OpenID discovery), then check its audience and scope: mcpgen with HTTPOptions.Authorization, go-sdk with auth.RequireBearerToken (and oauthex.MatchesResource in its TokenVerifier), as the SDK documents. Added CPU is the server's CPU per call with the token minus without.\n\n",
		dur(cfg.HTTPTime), joinInts(cfg.HTTPClients), cfg.HTTPRounds)
	header := []string{"server"}
	for _, n := range cfg.HTTPClients {
		header = append(header, clientsLabel(n)+" calls/s", "p99", "CPU/call")
	}
	var rows [][]string
	for _, s := range servers {
		row := []string{s.Name}
		for i := range cfg.HTTPClients {
			row = append(row, rate(perSecond(s.Name, i)), dur(p99(s.Name, i)), dur(cpu(s.Name, i)))
		}
		rows = append(rows, row)
	}
	table(w, header, rows)

	header = []string{"library"}
	for _, n := range cfg.HTTPClients {
		header = append(header, "added CPU/call "+clientsLabel(n), "throughput with/without "+clientsLabel(n))
	}
	rows = nil
	for i := 0; i < len(servers); i += 2 {
		without, with := servers[i].Name, servers[i+1].Name
		row := []string{servers[i].lib}
		for j := range cfg.HTTPClients {
			row = append(row, dur(cpu(with, j)-cpu(without, j)), fmt.Sprintf("%.2f", perSecond(with, j)/perSecond(without, j)))
		}
		rows = append(rows, row)
	}
	table(w, header, rows)
	return nil, nil
}
