#!/usr/bin/env bash
# Installs Debian's Chromium and ChromeDriver (packages chromium and
# chromium-driver) when they are missing, and prints the path of the
# browser: the MCP Apps host test (examples/board/browser_test.go) renders an
# app in it, headless, with its own empty profile and no network but
# loopback. Nothing is downloaded by a test tool: Playwright drives this
# binary (.ci/install-ext-apps.sh).
set -euo pipefail

bin=/usr/bin/chromium
if [ ! -x "$bin" ] || [ ! -x /usr/bin/chromedriver ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "install-chromium: chromium is not installed, and installing it needs root: apt-get install chromium chromium-driver" >&2
		exit 1
	fi
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -qq --no-install-recommends chromium chromium-driver >"$log" 2>&1; then
		apt-get update -qq >>"$log" 2>&1 &&
			apt-get install -y -qq --no-install-recommends chromium chromium-driver >>"$log" 2>&1 ||
			{ cat "$log" >&2; echo "install-chromium: apt-get install chromium chromium-driver failed" >&2; exit 1; }
	fi
fi
"$bin" --version >&2
echo "$bin"
