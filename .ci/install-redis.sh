#!/usr/bin/env bash
# Installs Debian's redis-server (the store replicas share in the tests of
# the module store/redis and in .ci/balancer.sh) when it is missing, and
# prints the path of its binary. The tests start their own servers from
# it, on free loopback ports, without persistence: nothing listens on the
# package's default port, as the package's service is not started.
set -euo pipefail

bin=/usr/bin/redis-server
if [ ! -x "$bin" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "install-redis: redis-server is not installed, and installing it needs root: apt-get install redis-server" >&2
		exit 1
	fi
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	export DEBIAN_FRONTEND=noninteractive
	# The package would start its service on port 6379: a policy-rc.d
	# that forbids starting services keeps it from doing so, unless one is
	# there already.
	policy=/usr/sbin/policy-rc.d
	own_policy=
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod +x "$policy"
		own_policy=1
	fi
	if ! apt-get install -y -qq --no-install-recommends redis-server >"$log" 2>&1; then
		apt-get update -qq >>"$log" 2>&1 &&
			apt-get install -y -qq --no-install-recommends redis-server >>"$log" 2>&1 ||
			{ cat "$log" >&2; [ -z "$own_policy" ] || rm -f "$policy"; echo "install-redis: apt-get install redis-server failed" >&2; exit 1; }
	fi
	[ -z "$own_policy" ] || rm -f "$policy"
fi
"$bin" --version >&2
echo "$bin"
