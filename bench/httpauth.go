package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/issuer"
)

// httpAuthPart measures what authorization costs per call: mcpgen and the
// official Go SDK, stateless, each without a token, with a JWT access
// token whose signature is checked on every request (the verifier's cache
// off), and with the same token remembered once verified (the cache on,
// as by default), through the HTTP part's driver. Both verify the same
// RS256 token of the same issuer (internal/issuer) with the same verifier
// (auth.NewJWTVerifier, keys fetched once through discovery), then check
// its audience and scope: mcpgen with HTTPOptions.Authorization, the SDK
// with auth.RequireBearerToken and oauthex.MatchesResource. What differs
// is what each library does around the verification.
func (e *env) httpAuthPart() ([]verdict, error) {
	cfg := e.cfg
	is, err := issuer.Start()
	if err != nil {
		return nil, err
	}
	defer is.Close()
	server := func(lib, name, bin string, token string) httpServer {
		s := httpServer{Server: driver.Server{Name: name, Argv: []string{filepath.Join(e.bin, bin)}}, lib: lib}
		switch token {
		case verifiedEach:
			s.Argv = append(s.Argv, "-issuer", is.URL, "-nocache")
		case cachedToken:
			s.Argv = append(s.Argv, "-issuer", is.URL)
		}
		if token != "" {
			s.Name += ", JWT " + token
			s.issuer = is
		}
		s.Name += ")"
		return s
	}
	var servers []httpServer
	for _, lib := range []struct{ lib, name, bin string }{{mcpgen, "mcpgen (stateless", "http-mcpgen"}, {gosdk, "go-sdk (stateless", "http-gosdk"}} {
		for _, token := range []string{"", verifiedEach, cachedToken} {
			servers = append(servers, server(lib.lib, lib.name, lib.bin, token))
		}
	}
	runs := map[string][]*httpRun{}
	for round := range cfg.HTTPRounds {
		for _, s := range rotate(servers, round) {
			progress("httpauth: round %d/%d: %s", round+1, cfg.HTTPRounds, s.Name)
			r, err := e.measureHTTP(s, cfg.HTTPClients...)
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
	fmt.Fprintf(w, "The HTTP part's driver and workload (%s with each of %s clients, median of %d round(s), servers in rotated order), against mcpgen and the official Go SDK, stateless, each without a token, with a JWT access token %s (the verifier's cache off: JWTConfig.CacheTTL -1), and with the same token, %s (the verifier remembers a token it accepted, as by default). The token is one RS256 token (2048-bit key) of a local issuer, for the server's /mcp, with the scope the server requires, and every client sends it with every request; both servers verify it with the same verifier (auth.NewJWTVerifier, keys fetched once through OpenID discovery), then check its audience and scope: mcpgen with HTTPOptions.Authorization, go-sdk with auth.RequireBearerToken (and oauthex.MatchesResource in its TokenVerifier), as the SDK documents. Added CPU is the server's CPU per call with the token minus without.\n\n",
		dur(cfg.HTTPTime), joinInts(cfg.HTTPClients), cfg.HTTPRounds, verifiedEach, cachedToken)
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

	header = []string{"library, token"}
	for _, n := range cfg.HTTPClients {
		header = append(header, "added CPU/call "+clientsLabel(n), "throughput with/without "+clientsLabel(n))
	}
	rows = nil
	var vs []verdict
	for i := 0; i < len(servers); i += 3 {
		without := servers[i].Name
		for j, token := range []string{verifiedEach, cachedToken} {
			with := servers[i+1+j].Name
			row := []string{servers[i].lib + ", " + token}
			for k := range cfg.HTTPClients {
				row = append(row, added(cpu(with, k)-cpu(without, k)), fmt.Sprintf("%.2f", perSecond(with, k)/perSecond(without, k)))
			}
			rows = append(rows, row)
		}
	}
	table(w, header, rows)

	// The targets compare two of mcpgen's servers: read them from
	// back-to-back pairs.
	without, with := servers[0], servers[2]
	ws, wos, err := alternate(cfg.Pairs, e.httpAt16(with), e.httpAt16(without))
	if err != nil {
		return nil, err
	}
	ratio, rlo, rhi := paired(throughputs(ws), throughputs(wos))
	extra, elo, ehi := pairedDiff(cpus(ws), cpus(wos))
	fmt.Fprintf(w, "mcpgen with the token cached and without a token, back to back (%s), 16 clients: %s and %s calls/s, server CPU per call %s and %s (medians); pair by pair, throughput with/without %.2f (%.2f–%.2f), added CPU per call %s (%s to %s).\n\n",
		pairsText(cfg.Pairs, cfg.HTTPTime), rate(median(throughputs(ws))), rate(median(throughputs(wos))), dur(median(cpus(ws))), dur(median(cpus(wos))),
		ratio, rlo, rhi, added(extra), added(elo), added(ehi))
	vs = append(vs,
		verdict{target: "HTTP with a repeated JWT, 16 clients: throughput ≥ 0.85 of without a token", figure: fmt.Sprintf("%.2f (%.2f–%.2f, %d back-to-back pair(s))", ratio, rlo, rhi, cfg.Pairs), ratio: ratio, met: ratio >= 0.85},
		verdict{target: "HTTP with a repeated JWT, 16 clients: added server CPU per call ≤ 5 µs", figure: fmt.Sprintf("%s (%s to %s, %d back-to-back pair(s))", added(extra), added(elo), added(ehi), cfg.Pairs), ratio: extra.Seconds() * 1e6, met: extra <= 5*time.Microsecond})
	return vs, nil
}

// The two ways a token is checked in the authorization part.
const (
	verifiedEach = "verified on every request"
	cachedToken  = "cached"
)

// added formats a difference of CPU per call, which noise can make
// negative.
func added(d time.Duration) string {
	if d < 0 {
		return "−" + dur(-d)
	}
	return dur(d)
}
