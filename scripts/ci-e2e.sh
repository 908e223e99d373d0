#!/usr/bin/env bash
# End-to-end checks of the package in real n8n 2.8.4 (see docs/running-in-n8n.md):
#   installed-package check, credential check, browser (editor) check, queue-mode check.
# Works on a fresh clone, unattended (CI=true, no stdin). Installs chromium and redis-server
# with apt only when missing, n8n into .cache/ only when missing (about 4-8 minutes, once).
# Each step prints its elapsed seconds; every check runs even if an earlier one failed, and the
# script exits non-zero if any failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CI="${CI:-true}"
export DEBIAN_FRONTEND=noninteractive
exec </dev/null

TSX=./node_modules/.bin/tsx
STEP_TIMEOUT="${STEP_TIMEOUT:-900}"
script_started=$SECONDS
failed=()
summary=()

run_step() {
	local name="$1"
	shift
	local started=$SECONDS
	echo
	echo "::: ${name}"
	if timeout --kill-after=30 "${STEP_TIMEOUT}" "$@"; then
		summary+=("$(printf '%5d s  PASS  %s' $((SECONDS - started)) "${name}")")
	else
		summary+=("$(printf '%5d s  FAIL  %s' $((SECONDS - started)) "${name}")")
		failed+=("${name}")
	fi
	echo "::: ${name}: $((SECONDS - started)) s"
}

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
if ((${#missing[@]} > 0)); then
	sudo=()
	if [[ "$(id -u)" != 0 ]]; then sudo=(sudo -n); fi
	started=$SECONDS
	echo "::: apt-get install ${missing[*]}"
	"${sudo[@]}" apt-get update
	"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
	echo "::: apt-get install: $((SECONDS - started)) s"
fi

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
started=$SECONDS
echo "::: n8n install (.cache/)"
"${TSX}" scripts/n8n/install-n8n.ts
echo "::: n8n install: $((SECONDS - started)) s"

run_step "installed-package check" "${TSX}" scripts/n8n/check-installed-package.ts
run_step "credential check" "${TSX}" scripts/n8n/check-credential-test.ts
run_step "browser check" "${TSX}" scripts/n8n/check-editor.ts
run_step "queue-mode check" "${TSX}" scripts/n8n/check-queue-mode.ts

echo
echo "End-to-end summary:"
printf '  %s\n' "${summary[@]}"
echo "  total $((SECONDS - script_started)) s"
if ((${#failed[@]} > 0)); then
	echo "FAILED: ${failed[*]}"
	exit 1
fi
echo "All end-to-end checks passed."
