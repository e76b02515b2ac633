#!/usr/bin/env bash
# Scale-out through a real load balancer: examples/conformance as three
# replicas behind HAProxy, configured exactly as deploy/README.md shows (the
# configurations are read from it):
#  1. replicas -stateless, round robin: the official MCP conformance suite
#     through the balancer, compared with .ci/conformance-baseline.yml as
#     .ci/conformance.sh does;
#  2. a bounded load test (bench/cmd/lbload): 20,000 calls by 64 clients, no
#     answer lost or mismatched, the load spread over the three replicas;
#  3. one replica killed (SIGKILL) under load: only the calls in flight at
#     that moment fail, each with an error the client sees (a 502, or a
#     closed connection), every later call succeeds, nothing hangs, and
#     HAProxy's health checks take the replica out;
#  4. replicas with sessions behind the sticky configuration: every call of
#     a session is answered by the replica that started it.
# Installs HAProxy from Debian's packages when it is missing (apt-get, as
# root), and Node 22 with @modelcontextprotocol/conformance into
# ${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/conformance, as conformance.sh does.
# Everything it starts is stopped when it exits, whatever happens. Exits
# non-zero, with a line starting "balancer.sh: FAIL", on any failure.
set -euo pipefail

NODE_VERSION=22.23.3
CONFORMANCE_VERSION=0.1.16

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/conformance"
modules="$cache/node_modules"

log() { printf 'balancer.sh: %s\n' "$*" >&2; }
die() {
	log "FAIL: $*"
	exit 1
}

tmp=$(mktemp -d)
pids=()
cleanup() {
	local pid
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# HAProxy, from Debian's packages.
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
if [[ ! -x $haproxy ]]; then
	[[ $(id -u) == 0 ]] || die "HAProxy is not installed, and installing it needs root: apt-get install haproxy"
	log "installing HAProxy (apt-get install haproxy)"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -qq --no-install-recommends haproxy >"$tmp/apt.log" 2>&1; then
		apt-get update -qq >>"$tmp/apt.log" 2>&1 &&
			apt-get install -y -qq --no-install-recommends haproxy >>"$tmp/apt.log" 2>&1 ||
			{ cat "$tmp/apt.log" >&2; die "apt-get install haproxy failed"; }
	fi
	haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
fi
log "$("$haproxy" -v | head -n 1)"

# Node 22 and the conformance suite, as conformance.sh installs them.
installed() {
	local pj="$modules/$1/package.json"
	[[ -f $pj ]] && sed -n 's/^  "version": "\([^"]*\)".*/\1/p' "$pj" | head -n 1
}
if [[ $(installed node) != "$NODE_VERSION" || $(installed @modelcontextprotocol/conformance) != "$CONFORMANCE_VERSION" ]]; then
	log "installing node@$NODE_VERSION and conformance@$CONFORMANCE_VERSION into $cache"
	mkdir -p "$cache"
	npm install --prefix "$cache" --save-exact --no-audit --no-fund --loglevel=error \
		"node@$NODE_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >&2
fi
node="$modules/node/bin/node"
[[ $("$node" --version) == "v$NODE_VERSION" ]] || die "$node is not Node $NODE_VERSION"
conformance="$modules/@modelcontextprotocol/conformance/dist/index.js"

log "building examples/conformance and bench/cmd/lbload"
go -C "$repo" build -o "$tmp/replica" ./examples/conformance || die "go build ./examples/conformance"
go -C "$repo/bench" build -o "$tmp/lbload" ./cmd/lbload || die "go build ./cmd/lbload in bench"

# free_port prints a loopback port that nothing listens on, below the
# ephemeral range, where outgoing connections could take it meanwhile.
read -r ephemeral _ </proc/sys/net/ipv4/ip_local_port_range
free_port() {
	local port
	for _ in $(seq 100); do
		port=$((10000 + RANDOM % (ephemeral - 10000)))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return
		fi
	done
	die "no free port found"
}

# start_replica NAME ARGS... starts examples/conformance, sets replica_pid
# and replica_addr (host:port, from the URL it logs).
start_replica() {
	local name=$1
	shift
	"$tmp/replica" -http 127.0.0.1:0 "$@" 2>"$tmp/$name.log" &
	replica_pid=$!
	pids+=("$replica_pid")
	replica_addr=
	for _ in $(seq 100); do # up to 10 s
		replica_addr=$(sed -n 's|.*msg="serving MCP over Streamable HTTP" url=http://\([^/ ]*\)/mcp.*|\1|p' "$tmp/$name.log")
		[[ -n $replica_addr ]] && return
		kill -0 "$replica_pid" 2>/dev/null || break
		sleep 0.1
	done
	cat "$tmp/$name.log" >&2
	die "replica $name did not start"
}

# config NAME writes the HAProxy configuration that deploy/README.md marks
# "balancer.sh: NAME" to $tmp/NAME.
config() {
	awk -v mark="<!-- balancer.sh: $1 -->" '
		$0 == mark { found = 1; next }
		found == 1 && /^```/ { found = 2; next }
		found == 2 && /^```/ { exit }
		found == 2 { print }' "$repo/deploy/README.md" >"$tmp/$1"
	[[ -s $tmp/$1 ]] || die "deploy/README.md has no configuration marked \"balancer.sh: $1\""
}

# stats PORT prints HAProxy's status page as CSV.
stats() {
	exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
	printf 'GET /stats;csv HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
	cat <&3
	exec 3<&-
}

# start_haproxy NAME starts HAProxy with configuration NAME (and the
# MCP_* variables of the environment), and waits until it sees r1, r2 and
# r3 up through its health checks (only the stateless configuration has a
# status page: the other one gets a second).
start_haproxy() {
	local name=$1 stats_port=${2:-}
	"$haproxy" -c -q -f "$tmp/$name" || die "HAProxy refuses $name from deploy/README.md"
	"$haproxy" -db -f "$tmp/$name" >"$tmp/$name.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do # up to 10 s
		kill -0 "${pids[-1]}" 2>/dev/null || { cat "$tmp/$name.log" >&2; die "HAProxy ($name) exited"; }
		if [[ -n $stats_port ]]; then
			if [[ $(stats "$stats_port" 2>/dev/null | grep -cE '^mcp_replicas,r[123],.*,UP') == 3 ]]; then
				return
			fi
		elif (exec 3<>"/dev/tcp/${MCP_BIND%:*}/${MCP_BIND#*:}") 2>/dev/null; then
			sleep 1.2
			return
		fi
		sleep 0.1
	done
	cat "$tmp/$name.log" >&2
	stats "$stats_port" >&2 || true
	die "HAProxy ($name) did not see the three replicas up within 10 s"
}

status=0
started=$SECONDS

# Stateless replicas behind round robin.
start_replica r1 -stateless
export MCP_REPLICA1=$replica_addr
start_replica r2 -stateless
export MCP_REPLICA2=$replica_addr
r2_pid=$replica_pid
start_replica r3 -stateless
export MCP_REPLICA3=$replica_addr
lb_port=$(free_port)
stats_port=$(free_port)
export MCP_BIND=127.0.0.1:$lb_port HAPROXY_STATS_BIND=127.0.0.1:$stats_port
config haproxy-stateless.cfg
start_haproxy haproxy-stateless.cfg "$stats_port"
log "HAProxy at 127.0.0.1:$lb_port, replicas $MCP_REPLICA1 $MCP_REPLICA2 $MCP_REPLICA3 (stateless)"

# 1. The conformance suite through the balancer.
required=(server-initialize ping tools-list tools-call-simple-text tools-call-image
	tools-call-audio tools-call-embedded-resource tools-call-mixed-content tools-call-error
	tools-call-with-progress tools-call-with-logging json-schema-2020-12 dns-rebinding-protection)
# The baseline of .ci/conformance.sh, which runs one server with sessions,
# plus the two scenarios that need a session: stateless replicas cannot
# pass them, behind a balancer or not.
awk '{ print } /^server:/ {
	print "  # needs a session (SSE polling with the session id): these replicas are stateless."
	print "  - server-sse-polling"
	print "  # needs a session (several streams of one session): these replicas are stateless."
	print "  - server-sse-multiple-streams"
}' "$repo/.ci/conformance-baseline.yml" >"$tmp/baseline.yml"
grep -q '^  - server-sse-polling$' "$tmp/baseline.yml" || die ".ci/conformance-baseline.yml has no \"server:\" list"
log "1. the conformance suite through the balancer"
if timeout 300 "$node" "$conformance" server --url "http://127.0.0.1:$lb_port/mcp" --suite all \
	--expected-failures "$tmp/baseline.yml" -o "$tmp/results" >"$tmp/suite.out" 2>&1; then
	sed -n '/=== SUMMARY ===/,$p' "$tmp/suite.out"
else
	cat "$tmp/suite.out"
	log "FAIL: the conformance suite through the balancer disagrees with .ci/conformance-baseline.yml (and the two scenarios that need sessions); the checks that did not succeed:"
	"$node" -e '
		const fs = require("fs"), path = require("path"), dir = process.argv[1];
		for (const d of fs.readdirSync(dir).sort()) {
			for (const c of JSON.parse(fs.readFileSync(path.join(dir, d, "checks.json"), "utf8"))) {
				if (c.status === "FAILURE" || c.status === "WARNING") console.log(`${d}: ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
			}
		}' "$tmp/results" || true
	status=1
fi
for s in "${required[@]}"; do
	if ! grep -q "✓ $s: " "$tmp/suite.out"; then
		log "FAIL: required scenario $s did not pass through the balancer"
		status=1
	fi
done

# 2. A bounded load test.
log "2. 20,000 calls by 64 clients through the balancer"
"$tmp/lbload" -addr "127.0.0.1:$lb_port" -clients 64 -calls 20000 -deadline 60s || {
	log "FAIL: the load test through the balancer"
	status=1
}

# 3. A replica killed under load.
log "3. replica r2 killed under load"
disown "$r2_pid" # its death is expected: no "Killed" notice from bash
"$tmp/lbload" -addr "127.0.0.1:$lb_port" -clients 48 -calls 4000 -slow-every 2 -deadline 60s \
	-kill "$r2_pid" -killed r2 -stats "http://127.0.0.1:$stats_port/stats" || {
	log "FAIL: killing a replica under load"
	status=1
}
if kill -0 "$r2_pid" 2>/dev/null && ! grep -q '^State:.*zombie' "/proc/$r2_pid/status" 2>/dev/null; then
	log "FAIL: replica r2 is still running after the kill"
	status=1
fi
for name in r1 r3; do
	if ! grep -q "^mcp_replicas,$name,.*,UP" <(stats "$stats_port"); then
		log "FAIL: HAProxy no longer sees replica $name up"
		status=1
	fi
done
sed -n 's/^\(Server .* is DOWN, reason: [^,]*\).*/HAProxy: \1/p' "$tmp/haproxy-stateless.cfg.log" | while read -r line; do log "$line"; done

# 4. Replicas with sessions behind sticky routing.
log "4. sessions: sticky routing by Mcp-Session-Id"
start_replica s1
export MCP_REPLICA1=$replica_addr
start_replica s2
export MCP_REPLICA2=$replica_addr
start_replica s3
export MCP_REPLICA3=$replica_addr
lb_port=$(free_port)
export MCP_BIND=127.0.0.1:$lb_port
config haproxy-sessions.cfg
start_haproxy haproxy-sessions.cfg
"$tmp/lbload" -addr "127.0.0.1:$lb_port" -sessions -clients 64 -calls 10000 -deadline 60s || {
	log "FAIL: sessions through the sticky configuration"
	status=1
}

if ((status != 0)); then
	die "three replicas behind HAProxy: see the failures above ($((SECONDS - started)) s)"
fi
log "PASS: conformance, load, a replica killed under load, and sticky sessions through HAProxy ($((SECONDS - started)) s)"
