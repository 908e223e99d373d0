#!/usr/bin/env bash
# End-to-end checks of the package in real n8n (see docs/running-in-n8n.md), on three n8n lines,
# through scripts/n8n/run-checks.ts: the single-instance checks of a version share one n8n, its
# queue checks one queue-mode set-up, and each check passes or fails on its own.
#   - 2.8.4 (Node 20): installed package, credential test, self-hosted service, AI agent, human
#     review, send-and-wait, send-once / Dry Run / Retry On Fail, the editor in Chromium; in queue
#     mode (Postgres, main + 2 workers) a burst of production-webhook executions, send-and-wait
#     across a restart, send-once / Retry On Fail on workers;
#   - 1.123.x, the newest 1.x (Node 20, legacy expression engine), and the newest 2.x
#     (N8N_NEWEST_VERSION below; Node 24 from the npm registry, its default expression engine):
#     the same single-instance checks but the editor; on the newest 2.x also the queue checks.
# Works on a fresh clone, unattended (CI=true, no stdin). Installs chromium, redis-server and
# postgresql with apt only when missing, each n8n version into .cache/n8n-<version>/ only when
# missing (about 4-8 minutes each, once; 1.123.x and the newest 2.x install in the background
# while the 2.8.4 checks run). `--install-only` installs them all and stops (.ci/run starts it in
# the background while the unit tests run).
# Each step prints its elapsed seconds; every step runs even if an earlier one failed, and the
# script exits non-zero if any failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CI="${CI:-true}"
export DEBIAN_FRONTEND=noninteractive
exec </dev/null

TSX=./node_modules/.bin/tsx
STEP_TIMEOUT="${STEP_TIMEOUT:-2400}"
# The n8n every check runs on, and the two other lines the package is proven on.
N8N_MAIN_VERSION=2.8.4
N8N_COMPAT_VERSION=1.123.x
# The newest n8n 2.x, by this rule: the newest 2.x release that installs from the npm registry
# with the xlsx override alone. 2.41.3 (the `latest` tag when this was written) needs about 20
# more, as parts of it are missing from the registry; 2.41.1 installs cleanly. Moving to a newer
# release is this one line (the install and Node 24 follow from the version number).
N8N_NEWEST_VERSION=2.41.1
export N8N_VERSION="${N8N_MAIN_VERSION}"
script_started=$SECONDS

if [[ "${1:-}" == "--install-only" ]]; then
	bash scripts/system-packages.sh chromium redis-server postgresql
	for version in "${N8N_MAIN_VERSION}" "${N8N_COMPAT_VERSION}" "${N8N_NEWEST_VERSION}"; do
		N8N_VERSION="${version}" "${TSX}" scripts/n8n/install-n8n.ts || echo "n8n ${version}: install failed (the checks will try again)"
	done
	exit 0
fi
failed=()
summary=()

run_step() {
	local name="$1"
	shift
	local started=$SECONDS
	echo
	echo "::: ${name}"
	local runner=(timeout --kill-after=30 "${STEP_TIMEOUT}")
	# A shell function (waiting for a background install) runs as is.
	if declare -F "$1" >/dev/null; then runner=(); fi
	if "${runner[@]}" "$@"; then
		summary+=("$(printf '%5d s  PASS  %s' $((SECONDS - started)) "${name}")")
	else
		summary+=("$(printf '%5d s  FAIL  %s' $((SECONDS - started)) "${name}")")
		failed+=("${name}")
	fi
	echo "::: ${name}: $((SECONDS - started)) s"
}

bash scripts/system-packages.sh chromium redis-server postgresql

if [[ ! -x "${TSX}" ]]; then
	started=$SECONDS
	echo "::: npm ci"
	npm ci --no-audit --no-fund
	echo "::: npm ci: $((SECONDS - started)) s"
fi

# Build and the n8n install are prerequisites: stop at once if they fail.
started=$SECONDS
echo "::: build"
npm run build
echo "::: build: $((SECONDS - started)) s"
latest="$(npm view n8n dist-tags.latest 2>/dev/null || true)"
echo "::: n8n lines: ${N8N_MAIN_VERSION}, ${N8N_COMPAT_VERSION}, ${N8N_NEWEST_VERSION} (the registry's latest n8n: ${latest:-unknown})"

# The other two lines install in the background, one after the other, while 2.8.4 is installed
# and checked (mostly downloads: they overlap well); each writes its exit code when done.
background_logs="$(mktemp -d "${TMPDIR:-/tmp}/mcn-ci-e2e-installs.XXXXXX")"
setsid bash -c '
	for version in "$@"; do
		N8N_VERSION="${version}" "'"${TSX}"'" scripts/n8n/install-n8n.ts >"'"${background_logs}"'/${version}.log" 2>&1
		echo $? >"'"${background_logs}"'/${version}.status"
	done' background-installs "${N8N_COMPAT_VERSION}" "${N8N_NEWEST_VERSION}" </dev/null &
background_installs=$!
trap 'kill -- -"${background_installs}" 2>/dev/null || true; rm -rf "${background_logs}"' EXIT

# Waits for one background install (at most INSTALL_TIMEOUT seconds) and prints its log; fails
# if the install failed, stopped or did not finish in time.
await_install() {
	local version="$1"
	local deadline=$((SECONDS + ${INSTALL_TIMEOUT:-2400}))
	while [[ ! -f "${background_logs}/${version}.status" ]]; do
		if { ! kill -0 "${background_installs}" 2>/dev/null || ((SECONDS > deadline)); } && [[ ! -f "${background_logs}/${version}.status" ]]; then
			echo "the background install of n8n ${version} did not finish"
			cat "${background_logs}/${version}.log" 2>/dev/null || true
			return 1
		fi
		sleep 2
	done
	cat "${background_logs}/${version}.log"
	return "$(cat "${background_logs}/${version}.status")"
}

started=$SECONDS
echo "::: n8n ${N8N_MAIN_VERSION} install (.cache/)"
"${TSX}" scripts/n8n/install-n8n.ts
echo "::: n8n ${N8N_MAIN_VERSION} install: $((SECONDS - started)) s"

# The checks every line runs on one n8n (the editor only on 2.8.4), and the queue-mode ones.
CHECKS=(installed-package credential-test self-hosted ai-agent human-review send-and-wait send-once)
QUEUE_CHECKS=(queue-mode send-and-wait-queue send-once-queue)
run_step "checks on one n8n ${N8N_MAIN_VERSION}: ${CHECKS[*]} editor" "${TSX}" scripts/n8n/run-checks.ts "${CHECKS[@]}" editor
run_step "queue-mode checks, n8n ${N8N_MAIN_VERSION} (Postgres, main + 2 workers): ${QUEUE_CHECKS[*]}" "${TSX}" scripts/n8n/run-checks.ts "${QUEUE_CHECKS[@]}"

# The other lines: their checks run only if their install worked (the wait is the rest of the
# install not hidden behind the 2.8.4 checks).
for version in "${N8N_COMPAT_VERSION}" "${N8N_NEWEST_VERSION}"; do
	failures_before=${#failed[@]}
	run_step "n8n ${version} install (.cache/; wait for the background install)" await_install "${version}"
	if ((${#failed[@]} == failures_before)); then
		run_step "checks on one n8n ${version}: ${CHECKS[*]}" env N8N_VERSION="${version}" "${TSX}" scripts/n8n/run-checks.ts "${CHECKS[@]}"
		# Users who scale out and update run the newest 2.x on Postgres: queue mode there too.
		if [[ "${version}" == "${N8N_NEWEST_VERSION}" ]]; then
			run_step "queue-mode checks, n8n ${version} (Postgres, main + 2 workers): ${QUEUE_CHECKS[*]}" env N8N_VERSION="${version}" "${TSX}" scripts/n8n/run-checks.ts "${QUEUE_CHECKS[@]}"
		fi
	fi
done

echo
echo "End-to-end summary:"
printf '  %s\n' "${summary[@]}"
echo "  total $((SECONDS - script_started)) s"
if ((${#failed[@]} > 0)); then
	echo "FAILED: ${failed[*]}"
	exit 1
fi
echo "All end-to-end checks passed."
