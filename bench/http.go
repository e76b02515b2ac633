package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/issuer"
)

// An httpServer is one Streamable HTTP server of the benchmark: a library
// in one mode. Every library is measured stateless and with sessions,
// each against mcpgen in the same mode.
type httpServer struct {
	driver.Server
	lib      string // mcpgen, gosdk, …; floor for the floor
	sessions bool
	// issuer, if set, is the issuer whose tokens the server requires:
	// every client sends one, issued for the server's /mcp.
	issuer *issuer.Issuer
}

func (e *env) httpServers() []httpServer {
	var ss []httpServer
	add := func(lib string, argv []string, dir string, sessionArg string) {
		for _, sessions := range []bool{false, true} {
			mode, a := "stateless", argv
			if sessions {
				mode, a = "sessions", append(slices.Clip(argv), sessionArg)
			}
			ss = append(ss, httpServer{Server: driver.Server{Name: lib + " (" + mode + ")", Argv: a, Dir: dir}, lib: lib, sessions: sessions})
		}
	}
	add(mcpgen, []string{filepath.Join(e.bin, "http-mcpgen")}, "", "-sessions")
	add(gosdk, []string{filepath.Join(e.bin, "http-gosdk")}, "", "-sessions")
	add(mcpgo, []string{filepath.Join(e.bin, "http-mcpgo")}, "", "-sessions")
	add(tssdk, []string{"node", filepath.Join(e.tsDir, "http.mjs")}, e.tsDir, "sessions")
	return append(ss, httpServer{Server: driver.Server{Name: httpFloor, Argv: []string{filepath.Join(e.bin, "http-floor")}}, lib: floor})
}

// httpFloor is the floor of the HTTP part: canned answers on net/http.
const httpFloor = "floor (canned, net/http, no library)"

// httpRun is one server's figures in one round: one workload per number
// of clients.
type httpRun struct {
	levels []*driver.Stats // as the numbers of clients asked for
	hwm    int64
}

// measureHTTP starts srv, warms it up, and measures it with each of
// clients (cfg.HTTPClients in a round) for cfg.HTTPTime.
func (e *env) measureHTTP(srv httpServer, clients ...int) (*httpRun, error) {
	cfg := e.cfg
	s, err := driver.StartHTTP(srv.Server)
	if err != nil {
		return nil, err
	}
	if srv.issuer != nil {
		tok, err := srv.issuer.Token("http://" + s.Addr + "/mcp")
		if err != nil {
			s.Close()
			return nil, err
		}
		s.Authorization = "Bearer " + tok
	}
	closed := false
	defer func() {
		if !closed {
			s.Close()
		}
	}()
	conns, err := s.Dial(max(slices.Max(clients), 16))
	if err != nil {
		return nil, err
	}
	defer driver.CloseAll(conns)
	if srv.sessions && conns[0].Session == "" {
		return nil, fmt.Errorf("%s: initialize gave no Mcp-Session-Id", srv.Name)
	}
	if !srv.sessions && conns[0].Session != "" {
		return nil, fmt.Errorf("%s: a stateless server gave an Mcp-Session-Id", srv.Name)
	}
	// Warm up on every connection, then with as many clients as the
	// targets are about.
	if _, err := s.Run(conns, driver.Valid, 2*len(conns), 0); err != nil {
		return nil, err
	}
	if _, err := s.Run(conns[:16], driver.Valid, cfg.HTTPWarmup, cfg.HTTPWarmupTime); err != nil {
		return nil, err
	}
	r := &httpRun{}
	for _, n := range clients {
		st, err := s.Run(conns[:n], driver.Valid, 0, cfg.HTTPTime)
		if err != nil {
			return nil, err
		}
		r.levels = append(r.levels, st)
	}
	r.hwm = driver.PeakRSS(s.Pid())
	driver.CloseAll(conns)
	closed = true
	return r, s.Close()
}

// httpFigures are a server's medians over the rounds.
type httpFigures struct {
	rate          []float64 // per number of clients
	p50, p99, cpu []time.Duration
	driverCPU     []time.Duration
	reconnects    int
	peakRSS       int64
}

func (e *env) httpPart() ([]verdict, error) {
	cfg := e.cfg
	servers := e.httpServers()
	runs := map[string][]*httpRun{}
	for round := range cfg.HTTPRounds {
		for _, s := range rotate(servers, round) {
			progress("http: round %d/%d: %s", round+1, cfg.HTTPRounds, s.Name)
			r, err := e.measureHTTP(s, cfg.HTTPClients...)
			if err != nil {
				return nil, err
			}
			runs[s.Name] = append(runs[s.Name], r)
		}
	}
	mem := map[string]*driver.SessionMemory{}
	for _, s := range servers {
		if !s.sessions {
			continue
		}
		progress("http: %d sessions: %s", cfg.HTTPSessions, s.Name)
		m, err := e.openSessions(s)
		if err != nil {
			return nil, err
		}
		mem[s.Name] = m
	}

	figs := map[string]*httpFigures{}
	for name, rs := range runs {
		f := &httpFigures{}
		for i := range cfg.HTTPClients {
			pick := func(get func(*driver.Stats) float64) float64 {
				var xs []float64
				for _, r := range rs {
					xs = append(xs, get(r.levels[i]))
				}
				return median(xs)
			}
			pickD := func(get func(*driver.Stats) time.Duration) time.Duration {
				return time.Duration(pick(func(s *driver.Stats) float64 { return float64(get(s)) }))
			}
			f.rate = append(f.rate, pick((*driver.Stats).PerSecond))
			f.p50 = append(f.p50, pickD(func(s *driver.Stats) time.Duration { return s.Quantile(0.50) }))
			f.p99 = append(f.p99, pickD(func(s *driver.Stats) time.Duration { return s.Quantile(0.99) }))
			f.cpu = append(f.cpu, pickD(func(s *driver.Stats) time.Duration { return s.CPUPerCall }))
			f.driverCPU = append(f.driverCPU, pickD(func(s *driver.Stats) time.Duration { return s.DriverCPUPerCall }))
			for _, r := range rs {
				f.reconnects += r.levels[i].Reconnects
			}
		}
		var hwms []float64
		for _, r := range rs {
			hwms = append(hwms, float64(r.hwm))
		}
		f.peakRSS = int64(median(hwms))
		figs[name] = f
	}

	// The number of clients the targets are about.
	at := slices.Index(cfg.HTTPClients, 16)
	if at < 0 {
		return nil, fmt.Errorf("the HTTP part needs a workload with 16 clients")
	}
	w := e.out
	fmt.Fprintf(w, "## 6. Streamable HTTP: the same driver for every server\n\n")
	fmt.Fprintf(w, "Every server serves greet and create_ticket at /mcp on a loopback port: stateless, and with Mcp-Session-Id sessions. Each client is one goroutine of the driver (internal/driver/http.go) on its own keep-alive HTTP/1.1 connection: it runs initialize and notifications/initialized, keeps the session it is given, then posts tools/call for greet and create_ticket in turn, one at a time, and checks every answer (application/json or text/event-stream). Calls for %s with each of %s clients, after warm-up calls on every connection and up to %d more with 16 clients (at most %s); median of %d round(s), servers in rotated order. CPU is the server process's user+system time per call (its CPU clock, to the nanosecond); the driver's own CPU per call shows how much of the machine the load generator takes; peak RSS is VmHWM after the last workload. "+
		"go-sdk answers with JSONResponse and the TS SDK with enableJsonResponse, so that every server answers application/json, as mcpgen does. The TS SDK runs as its examples do (createMcpExpressApp; stateless: a new McpServer and transport per request, as simpleStatelessStreamableHttp.ts; sessions: one per session, as simpleStreamableHttp.ts); mcp-go stateless is WithStateLess, with sessions WithStateful.\n\n",
		dur(cfg.HTTPTime), joinInts(cfg.HTTPClients), cfg.HTTPWarmup, dur(cfg.HTTPWarmupTime), cfg.HTTPRounds)
	var rows [][]string
	header := []string{"server"}
	for _, n := range cfg.HTTPClients {
		header = append(header, fmt.Sprintf("%s calls/s", clientsLabel(n)), "p50", "p99")
	}
	for _, n := range cfg.HTTPClients {
		header = append(header, "CPU/call "+clientsLabel(n))
	}
	header = append(header, "driver CPU/call 16 clients", "peak RSS")
	reconnects := 0
	for _, s := range servers {
		f := figs[s.Name]
		row := []string{s.Name}
		for i := range cfg.HTTPClients {
			row = append(row, rate(f.rate[i]), dur(f.p50[i]), dur(f.p99[i]))
		}
		for i := range cfg.HTTPClients {
			row = append(row, dur(f.cpu[i]))
		}
		rows = append(rows, append(row, dur(f.driverCPU[at]), mib(f.peakRSS)))
		reconnects += f.reconnects
	}
	table(w, header, rows)
	if reconnects > 0 {
		fmt.Fprintf(w, "The driver reconnected %d time(s) after a server closed an idle keep-alive connection.\n\n", reconnects)
	}

	targets := map[string]float64{gosdk: 2, mcpgo: 1.5, tssdk: 1.5}
	fl := figs[httpFloor]
	rows = nil
	var vs []verdict
	for _, s := range servers {
		if s.lib == mcpgen || s.lib == floor {
			continue
		}
		mine := mcpgenIn(servers, s.sessions)
		m, p := figs[mine], figs[s.Name]
		row := []string{s.Name}
		var at16 float64
		for i := range cfg.HTTPClients {
			med, lo, hi := paired(httpRates(runs[mine], i), httpRates(runs[s.Name], i))
			if i == at {
				at16 = med
			}
			row = append(row, timesRange(med, lo, hi))
		}
		cpu := p.cpu[at].Seconds() / m.cpu[at].Seconds()
		row = append(row, times(p.p99[at].Seconds()/m.p99[at].Seconds()), times(cpu),
			times(float64(p.peakRSS)/float64(m.peakRSS)), fmt.Sprintf("≥ %.1f×", targets[s.lib]), times(fl.rate[at]/p.rate[at]))
		rows = append(rows, row)
		mode := "stateless"
		if s.sessions {
			mode = "with sessions"
		}
		vs = append(vs,
			verdict{target: fmt.Sprintf("HTTP throughput, 16 clients, %s, ≥ %.1f× %s", mode, targets[s.lib], s.lib), figure: times(at16), ratio: at16, met: at16 >= targets[s.lib]},
			verdict{target: fmt.Sprintf("HTTP server CPU per call, 16 clients, %s, ≤ ½ of %s's", mode, s.lib),
				figure: fmt.Sprintf("%s vs %s (%s)", dur(m.cpu[at]), dur(p.cpu[at]), times(cpu)), ratio: cpu, met: cpu >= 2})
	}
	header = []string{"vs (same mode)"}
	for _, n := range cfg.HTTPClients {
		header = append(header, clientsLabel(n))
	}
	header = append(header, "p99 16 clients", "CPU/call 16 clients", "peak RSS", "throughput target (16 clients)", "floor/peer 16 clients")
	fmt.Fprintf(w, "mcpgen's advantage over each peer in the same mode (throughput mcpgen/peer, the median of the rounds' ratios with their range; latency, CPU and RSS peer/mcpgen, ratios of the medians). The last column is the floor's throughput over the peer's: roughly the most a Go server on net/http could reach against that peer through this driver on this machine.\n\n")
	table(w, header, rows)

	// The floor target is a ratio of two of the part's servers: read it
	// from back-to-back pairs.
	var stateless, fls httpServer
	for _, s := range servers {
		switch {
		case s.lib == mcpgen && !s.sessions:
			stateless = s
		case s.lib == floor:
			fls = s
		}
	}
	ms, fs, err := alternate(cfg.Pairs, e.httpAt16(stateless), e.httpAt16(fls))
	if err != nil {
		return nil, err
	}
	med, lo, hi := paired(cpuPerCall(ms), cpuPerCall(fs))
	m := figs[stateless.Name]
	fmt.Fprintf(w, "%s and the floor, back to back (%s): server CPU per call with 16 clients %s against %s (medians), %s the floor's pair by pair (%s the medians of the rounds above: %s against %s).\n\n",
		stateless.Name, pairsText(cfg.Pairs, cfg.HTTPTime), dur(median(cpus(ms))), dur(median(cpus(fs))), timesRange(med, lo, hi), times(m.cpu[at].Seconds()/fl.cpu[at].Seconds()), dur(m.cpu[at]), dur(fl.cpu[at]))
	vs = append(vs, verdict{target: "HTTP server CPU per call, 16 clients, stateless, ≤ 1.3× the floor's",
		figure: fmt.Sprintf("%s vs %s (%s, %d back-to-back pair(s))", dur(median(cpus(ms))), dur(median(cpus(fs))), timesRange(med, lo, hi), cfg.Pairs), ratio: med, met: med <= 1.3})

	fmt.Fprintf(w, "Memory held by open sessions: a fresh server process per peer; after a warm-up session (200 calls, then DELETE) the driver reads VmRSS, opens %d sessions (initialize and notifications/initialized each, over 8 keep-alive connections, so that sessions and not connections are counted), waits 0.5 s and reads VmRSS and VmHWM again; then a call on every %dth session checks that they are all still open. Per session is the growth of VmRSS divided by the sessions; it includes what each runtime has not yet collected of the garbage made while opening them.\n\n",
		cfg.HTTPSessions, max(1, cfg.HTTPSessions/50))
	rows = nil
	mine := mem[mcpgenIn(servers, true)]
	best, bestName := int64(0), ""
	for _, s := range servers {
		m := mem[s.Name]
		if m == nil {
			continue
		}
		adv := ""
		if s.lib != mcpgen {
			adv = times(float64(m.PerSession()) / float64(mine.PerSession()))
			if bestName == "" || m.PerSession() < best {
				best, bestName = m.PerSession(), s.lib
			}
		}
		rows = append(rows, []string{s.Name, fmt.Sprint(m.Sessions), mib(m.RSSBefore), mib(m.RSSAfter), kib(m.PerSession()), mib(m.PeakRSS), dur(m.Elapsed), adv})
	}
	table(w, []string{"server", "sessions", "RSS before", "RSS with the sessions open", "per session", "peak RSS", "time to open them", "mcpgen advantage"}, rows)
	memAdv := float64(best) / float64(mine.PerSession())
	vs = append(vs, verdict{target: "memory per open HTTP session ≤ ½ of the best peer's (" + bestName + ")",
		figure: fmt.Sprintf("%s vs %s (%s)", kib(mine.PerSession()), kib(best), times(memAdv)), ratio: memAdv, met: memAdv >= 2})
	return vs, nil
}

// httpAt16 returns a measurement of srv in a fresh process, warmed up as
// in a round, with 16 clients for cfg.HTTPTime.
func (e *env) httpAt16(srv httpServer) func() (*driver.Stats, error) {
	return func() (*driver.Stats, error) {
		progress("pairs: %s", srv.Name)
		r, err := e.measureHTTP(srv, 16)
		if err != nil {
			return nil, err
		}
		return r.levels[0], nil
	}
}

// mcpgenIn returns the name of mcpgen's server in a mode.
func mcpgenIn(servers []httpServer, sessions bool) string {
	for _, s := range servers {
		if s.lib == mcpgen && s.sessions == sessions {
			return s.Name
		}
	}
	panic("no mcpgen server")
}

func (e *env) openSessions(s httpServer) (*driver.SessionMemory, error) {
	srv, err := driver.StartHTTP(s.Server)
	if err != nil {
		return nil, err
	}
	m, err := srv.OpenSessions(e.cfg.HTTPSessions, 8)
	if cerr := srv.Close(); err == nil {
		err = cerr
	}
	return m, err
}

// httpRates returns the throughput with the i-th number of clients in
// every round.
func httpRates(rs []*httpRun, i int) []float64 {
	var xs []float64
	for _, r := range rs {
		xs = append(xs, r.levels[i].PerSecond())
	}
	return xs
}

func clientsLabel(n int) string {
	if n == 1 {
		return "1 client"
	}
	return fmt.Sprintf("%d clients", n)
}

func joinInts(ns []int) string {
	var s string
	for i, n := range ns {
		switch {
		case i == 0:
		case i == len(ns)-1:
			s += " and "
		default:
			s += ", "
		}
		s += fmt.Sprint(n)
	}
	return s
}

// kib formats a size in KiB.
func kib(b int64) string {
	if b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
}
