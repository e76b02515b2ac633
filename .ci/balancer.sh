#!/usr/bin/env bash
# Scale-out through a real load balancer: examples/conformance as three
# replicas behind HAProxy, configured exactly as deploy/README.md shows (the
# configurations are read from it), sharing a Redis (-redis) for tasks and
# notifications:
#  1. replicas -stateless, round robin: the official MCP conformance suite,
#     at the two versions .ci/conformance.sh runs, through the balancer; no
#     scenario may fail but those that need a session (the tasks extension's
#     among those that must pass: a task created on one replica is polled,
#     answered and cancelled on the others);
#  2. a bounded load test (bench/cmd/lbload): 20,000 calls by 64 clients, no
#     answer lost or mismatched, the load spread over the three replicas;
#     then tasks through the balancer (bench/cmd/lbtasks), each polled to its
#     end on whichever replica round robin picks;
#  3. Redis stopped for 5 s and started again under a load of tasks: every
#     request is answered, right or with an error that says the task store
#     cannot be reached, none hangs, and tasks complete again once it is back;
#  4. one replica killed (SIGKILL) under load: only the calls in flight at
#     that moment fail, each with an error the client sees (a 502, or a
#     closed connection), every later call succeeds, nothing hangs, and
#     HAProxy's health checks take the replica out;
#  5. the replica that runs a task killed: the task fails, on the others,
#     within the lease (15 s), with an error that says its server stopped;
#  6. examples/notes as three replicas sharing the Redis: add_note on one
#     reaches a subscriptions/listen on another, each of 50 within 1 s;
#  7. replicas with sessions behind the sticky configuration: every call of
#     a session is answered by the replica that started it.
# Installs HAProxy and Redis from Debian's packages when they are missing
# (apt-get, as root; .ci/install-redis.sh), and Node 22 with
# @modelcontextprotocol/conformance at the versions .ci/conformance.sh pins
# into ${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/conformance, as conformance.sh
# does.
# Everything it starts is stopped when it exits, whatever happens. Exits
# non-zero, with a line starting "balancer.sh: FAIL", on any failure.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The versions of Node and of the suite that conformance.sh pins, so that
# both scripts share one install.
eval "$(grep -E '^(NODE_VERSION|CONFORMANCE_VERSION|CONFORMANCE_NEXT_VERSION)=[^ ]+' "$repo/.ci/conformance.sh" | sed 's/ *#.*//')"
: "${NODE_VERSION:?not found in .ci/conformance.sh}" "${CONFORMANCE_VERSION:?not found in .ci/conformance.sh}" "${CONFORMANCE_NEXT_VERSION:?not found in .ci/conformance.sh}"
cache="${MCPGEN_CACHE:-$HOME/.cache/mcpgen}/conformance"
modules="$cache/node_modules"

log() { printf 'balancer.sh: %s\n' "$*" >&2; }
die() {
	log "FAIL: $*"
	exit 1
}

tmp=$(mktemp -d)
pids=()     # started here, stopped and waited for on exit
disowned=() # started here and left to die: stopped on exit
cleanup() {
	local pid
	for pid in "${pids[@]}" "${disowned[@]}"; do
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
if [[ $(installed node) != "$NODE_VERSION" ||
	$(installed @modelcontextprotocol/conformance) != "$CONFORMANCE_VERSION" ||
	$(installed conformance-next) != "$CONFORMANCE_NEXT_VERSION" ]]; then
	log "installing node@$NODE_VERSION, conformance@$CONFORMANCE_VERSION and @$CONFORMANCE_NEXT_VERSION into $cache"
	mkdir -p "$cache"
	npm install --prefix "$cache" --save-exact --no-audit --no-fund --loglevel=error \
		"node@$NODE_VERSION" \
		"@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" \
		"conformance-next@npm:@modelcontextprotocol/conformance@$CONFORMANCE_NEXT_VERSION" >&2
fi
node="$modules/node/bin/node"
[[ $("$node" --version) == "v$NODE_VERSION" ]] || die "$node is not Node $NODE_VERSION"
conformance="$modules/@modelcontextprotocol/conformance/dist/index.js"
conformance_next="$modules/conformance-next/dist/index.js"

# Redis, from Debian's packages.
redis_server=$("$repo/.ci/install-redis.sh") || die "installing Redis failed"

log "building examples/conformance, examples/notes, bench/cmd/lbload and bench/cmd/lbtasks"
go -C "$repo/examples/conformance" build -o "$tmp/replica" . || die "go build examples/conformance"
go -C "$repo/examples/notes" build -o "$tmp/notes" . || die "go build examples/notes"
go -C "$repo/bench" build -o "$tmp/lbload" ./cmd/lbload || die "go build ./cmd/lbload in bench"
go -C "$repo/bench" build -o "$tmp/lbtasks" ./cmd/lbtasks || die "go build ./cmd/lbtasks in bench"

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

# start_redis starts Redis on $redis_port (chosen the first time), without
# persistence, and waits until it answers; stop_redis stops it.
redis_port=
redis_pid=
start_redis() {
	[[ -n $redis_port ]] || redis_port=$(free_port)
	mkdir -p "$tmp/redis"
	"$redis_server" --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no --dir "$tmp/redis" \
		--loglevel warning >>"$tmp/redis.log" 2>&1 &
	redis_pid=$!
	pids+=("$redis_pid")
	for _ in $(seq 100); do # up to 10 s
		if exec 3<>"/dev/tcp/127.0.0.1/$redis_port" 2>/dev/null; then
			printf 'PING\r\n' >&3
			local pong
			read -r -t 1 pong <&3 || true
			exec 3<&-
			[[ $pong == +PONG* ]] && return
		fi
		kill -0 "$redis_pid" 2>/dev/null || break
		sleep 0.1
	done
	cat "$tmp/redis.log" >&2
	die "Redis did not start"
}
stop_redis() {
	kill "$redis_pid"
	wait "$redis_pid" 2>/dev/null || true
}

# start_replica NAME ARGS... starts examples/conformance, sets replica_pid
# and replica_addr (host:port, from the URL it logs). start_notes NAME
# ARGS... does the same for examples/notes.
start_replica() { start_program "$tmp/replica" "$@"; }
start_notes() { start_program "$tmp/notes" "$@"; }
start_program() {
	local program=$1 name=$2
	shift 2
	: >"$tmp/$name.log"
	"$program" -http 127.0.0.1:0 "$@" 2>"$tmp/$name.log" &
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

# stats PORT prints HAProxy's status page as CSV (in a subshell, which
# its connection does not outlive).
stats() (
	exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
	printf 'GET /stats;csv HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
	cat <&3
)

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

# Stateless replicas behind round robin, sharing the key that seals a
# call's state between the rounds of asking the client (2026-07-28), and
# the tasks' records, so that any replica can finish a call that another
# began, and answer for a task that another runs; and sharing a Redis, for
# those records and for the notifications between them.
# Every client of the load is HAProxy's address to the replicas, one
# client: it may keep tens of thousands of tasks, not the default 1024.
MCPGEN_STATE_KEY=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
export MCPGEN_STATE_KEY
start_redis
redis_url=redis://127.0.0.1:$redis_port
share=(-kept-tasks 1000000 -kept-task-bytes 4294967296)
start_replica r1 -stateless -redis "$redis_url" "${share[@]}"
export MCP_REPLICA1=$replica_addr
r1_pid=$replica_pid
start_replica r2 -stateless -redis "$redis_url" "${share[@]}"
export MCP_REPLICA2=$replica_addr
r2_pid=$replica_pid
start_replica r3 -stateless -redis "$redis_url" "${share[@]}"
export MCP_REPLICA3=$replica_addr
r3_pid=$replica_pid
lb_port=$(free_port)
stats_port=$(free_port)
export MCP_BIND=127.0.0.1:$lb_port HAPROXY_STATS_BIND=127.0.0.1:$stats_port
config haproxy-stateless.cfg
start_haproxy haproxy-stateless.cfg "$stats_port"
log "HAProxy at 127.0.0.1:$lb_port, replicas $MCP_REPLICA1 $MCP_REPLICA2 $MCP_REPLICA3 (stateless), Redis at 127.0.0.1:$redis_port"

# 1. The conformance suite through the balancer, at both versions that
# .ci/conformance.sh runs. conformance.sh holds one server with sessions to
# each baseline exactly; here every scenario must pass except those the
# baseline expects to fail and those that need a session, which stateless
# replicas cannot pass: under 2025-11-25 a server asks the client
# (sampling, elicitation) with a request on the stream of the call, whose
# answer comes back in another POST, and SSE polling resumes a session's
# stream. Under 2026-07-28 asking needs no session (input_required), and
# those scenarios must pass across the replicas, as must the tasks
# extension's, whose tasks live in Redis, and the list changes that one
# replica makes while another holds the subscriptions/listen stream, which
# Redis carries. A scenario of a baseline that passes here is reported, not
# failed: conformance.sh keeps the baselines current.
needs_session=(tools-call-sampling tools-call-elicitation elicitation-sep1034-defaults
	elicitation-sep1330-enums server-sse-polling server-sse-multiple-streams)
# Checks, as scenario:check, that need a single process: none.
needs_one_process=()
required=(server-initialize ping tools-list tools-call-simple-text tools-call-image
	tools-call-audio tools-call-embedded-resource tools-call-mixed-content tools-call-error
	tools-call-with-progress tools-call-with-logging json-schema-2020-12 dns-rebinding-protection)
# The skills extension's scenarios, whose every check must succeed (the
# suite counts a skipped check as passed): their lists and files come from
# any replica, and a cursor of one is good on the others.
skills=(sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory)
required_next=(server-stateless http-header-validation
	http-custom-header-server-validation input-required-result-basic-elicitation
	input-required-result-basic-sampling input-required-result-basic-list-roots
	input-required-result-request-state input-required-result-multiple-input-requests
	input-required-result-multi-round input-required-result-missing-input-response
	input-required-result-result-type input-required-result-unsupported-methods
	input-required-result-tampered-state input-required-result-capability-check
	input-required-result-ignore-extra-params input-required-result-validate-input
	tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal
	tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-required-task-error
	tasks-mrtr-composition "${skills[@]}")
# suite NAME JS BASELINE REQUIRED... runs one version of the suite through
# the balancer and judges it.
suite() {
	local name=$1 js=$2 baseline=$3 out="$tmp/suite-$1"
	shift 3
	log "1. the conformance suite $name through the balancer"
	timeout 300 "$node" "$js" server --url "http://127.0.0.1:$lb_port/mcp" --suite all \
		-o "$out.results" >"$out.out" 2>&1 || true # it fails for the expected failures; judged below
	sed -n '/=== SUMMARY ===/,/^Total/p' "$out.out"
	# A scenario fails when one of its checks is a FAILURE or a WARNING, as
	# the suite counts them against a baseline.
	if ! "$node" -e '
		const fs = require("fs"), path = require("path");
		const [dir, baseline, oneProcess, ...needsSession] = process.argv.slice(1);
		const allowed = new Set(needsSession), excused = new Set(oneProcess.split(" "));
		let section = "";
		for (const line of fs.readFileSync(baseline, "utf8").split("\n")) {
			const key = line.match(/^(\w+):/), item = line.match(/^\s+-\s+(\S+)/);
			if (key) section = key[1];
			else if (item && section === "server") allowed.add(item[1]);
		}
		const dirs = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
		if (dirs.length < 20) {
			console.log(`balancer.sh: FAIL: the suite ran ${dirs.length} scenarios`);
			process.exit(1);
		}
		let bad = 0;
		for (const d of dirs) {
			const name = d.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
			const checks = JSON.parse(fs.readFileSync(path.join(dir, d, "checks.json"), "utf8"));
			const failed = checks.filter((c) => (c.status === "FAILURE" || c.status === "WARNING") && !excused.has(`${name}:${c.id}`));
			if (failed.length > 0 && !allowed.has(name)) {
				bad++;
				for (const c of failed) console.log(`balancer.sh: FAIL: ${name}: ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
			} else if (failed.length === 0 && allowed.has(name) && !needsSession.includes(name)) {
				console.log(`balancer.sh: note: ${name} passes through the balancer, although its baseline expects it to fail`);
			}
		}
		process.exit(bad > 0 ? 1 : 0);' "$out.results" "$baseline" "${needs_one_process[*]}" "${needs_session[@]}"; then
		log "FAIL: the conformance suite $name through the balancer failed scenarios that neither ${baseline#"$repo/"} expects to fail nor need a session"
		status=1
	fi
	local s
	for s in "$@"; do
		if ! grep -q "✓ $s: " "$out.out"; then
			log "FAIL: required scenario $s did not pass through the balancer in the suite $name"
			status=1
		fi
	done
}
suite "$CONFORMANCE_VERSION" "$conformance" "$repo/.ci/conformance-baseline.yml" "${required[@]}"
suite "$CONFORMANCE_NEXT_VERSION" "$conformance_next" "$repo/.ci/conformance-baseline-next.yml" "${required[@]}" "${required_next[@]}"
"$node" "$repo/.ci/lib/all-checks-pass.js" "$tmp/suite-$CONFORMANCE_NEXT_VERSION.results" "balancer.sh" "${skills[@]}" || status=1

# 2. A bounded load test.
log "2. 20,000 calls by 64 clients through the balancer"
"$tmp/lbload" -addr "127.0.0.1:$lb_port" -clients 64 -calls 20000 -deadline 60s || {
	log "FAIL: the load test through the balancer"
	status=1
}

log "2. tasks through the balancer, each polled to its end on any replica, for 10 s by 16 clients; then plain calls, which need no store"
"$tmp/lbtasks" -mode load -url "http://127.0.0.1:$lb_port/mcp" -clients 16 -duration 10s || {
	log "FAIL: tasks through the balancer"
	status=1
}
"$tmp/lbtasks" -mode load -plain -url "http://127.0.0.1:$lb_port/mcp" -clients 16 -duration 10s || {
	log "FAIL: plain calls through the balancer"
	status=1
}

# 3. Redis restarted under load.
log "3. Redis stopped for 5 s and started again, under a load of tasks"
"$tmp/lbtasks" -mode load -outage -url "http://127.0.0.1:$lb_port/mcp" -clients 16 -duration 14s >"$tmp/outage.out" &
outage_pid=$!
sleep 3
stop_redis
sleep 5
start_redis
if wait "$outage_pid"; then cat "$tmp/outage.out"; else
	cat "$tmp/outage.out"
	log "FAIL: Redis restarted under load"
	status=1
fi

# 4. A replica killed under load.
log "4. replica r2 killed under load"
# Its death is expected: no "Killed" notice from bash, and no wait for it.
disown "$r2_pid"
disowned+=("$r2_pid")
for i in "${!pids[@]}"; do
	[[ ${pids[i]} == "$r2_pid" ]] && unset 'pids[i]'
done
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

# 5. The replica that runs a task killed.
log "5. the replica that runs a task killed: the task must fail on the others within the lease"
for pid in "$r1_pid" "$r3_pid"; do # whichever runs it is killed: its death is expected
	disown "$pid"
	disowned+=("$pid")
	for i in "${!pids[@]}"; do
		[[ ${pids[i]} == "$pid" ]] && unset 'pids[i]'
	done
done
"$tmp/lbtasks" -mode lost -url "http://127.0.0.1:$lb_port/mcp" -pids "r1=$r1_pid,r3=$r3_pid" -bound 30s || {
	log "FAIL: a task whose replica was killed"
	status=1
}

# 6. A change made on one replica reaches a listener on another.
log "6. examples/notes as three replicas sharing Redis: add_note on n3, heard by a listener on n1"
start_notes n1 -stateless -redis "$redis_url"
n1_addr=$replica_addr
start_notes n2 -stateless -redis "$redis_url"
start_notes n3 -stateless -redis "$redis_url"
"$tmp/lbtasks" -mode notify -listen "http://$n1_addr/mcp" -change "http://$replica_addr/mcp" -n 50 -bound 1s || {
	log "FAIL: a change on one replica did not reach a listener on another in time"
	status=1
}

# 7. Replicas with sessions behind sticky routing.
log "7. sessions: sticky routing by Mcp-Session-Id"
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

# 8. With MCPGEN_BALANCER_BENCH=1, the figures of BENCHMARKS.md: calls
# through the balancer with the Redis store and with each replica's own
# memory. Tasks with their own memory work behind round robin only with one
# replica (the three server lines then name the same one).
if [[ ${MCPGEN_BALANCER_BENCH:-} == 1 ]]; then
	log "8. Redis store against each replica's own memory, through HAProxy (MCPGEN_BALANCER_BENCH=1)"
	bench_config() { # NAME REDIS(yes|no) REPLICAS(1|3) TASKS(yes|no)
		local name=$1 use_redis=$2 count=$3 tasks=$4 args=(-stateless) i
		[[ $use_redis == yes ]] && args+=(-redis "$redis_url")
		for i in 1 2 3; do
			if ((i <= count)); then
				start_replica "$name$i" "${args[@]}"
			fi
			export "MCP_REPLICA$i=$replica_addr"
		done
		lb_port=$(free_port)
		stats_port=$(free_port)
		export MCP_BIND=127.0.0.1:$lb_port HAPROXY_STATS_BIND=127.0.0.1:$stats_port
		start_haproxy haproxy-stateless.cfg "$stats_port"
		"$tmp/lbtasks" -mode load -plain -url "http://127.0.0.1:$lb_port/mcp" -clients 16 -duration 10s | sed "s/^/$name: /"
		if [[ $tasks == yes ]]; then
			"$tmp/lbtasks" -mode load -url "http://127.0.0.1:$lb_port/mcp" -clients 16 -duration 10s | sed "s/^/$name: /"
		fi
		kill "${pids[-1]}" # this HAProxy
	}
	bench_config redis-3 yes 3 yes
	bench_config memory-3 no 3 no # tasks would be unknown on the other replicas
	bench_config memory-1 no 1 yes
	bench_config redis-1 yes 1 yes
fi

if ((status != 0)); then
	die "three replicas behind HAProxy: see the failures above ($((SECONDS - started)) s)"
fi
log "PASS: conformance, load, tasks, Redis restarted under load, a replica killed under load, a task's replica killed, notifications across replicas, and sticky sessions through HAProxy and Redis ($((SECONDS - started)) s)"
