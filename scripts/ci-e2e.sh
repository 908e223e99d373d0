#!/usr/bin/env bash
# End-to-end checks of the package in real n8n (see docs/running-in-n8n.md):
#   installed-package check on n8n 2.8.4 and on 1.123.x (the compatibility check), credential
#   check, browser (editor) check and queue-mode check on 2.8.4.
# Works on a fresh clone, unattended (CI=true, no stdin). Installs chromium and redis-server
# with apt only when missing, each n8n version into .cache/n8n-<version>/ only when missing
# (about 4-8 minutes each, once).
# Each step prints its elapsed seconds; every check runs even if an earlier one failed, and the
# script exits non-zero if any failed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CI="${CI:-true}"
export DEBIAN_FRONTEND=noninteractive
exec </dev/null

TSX=./node_modules/.bin/tsx
STEP_TIMEOUT="${STEP_TIMEOUT:-900}"
# The n8n every check runs on, and the other one the installed-package check also runs on.
N8N_MAIN_VERSION=2.8.4
N8N_COMPAT_VERSION=1.123.x
export N8N_VERSION="${N8N_MAIN_VERSION}"
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
echo "::: n8n ${N8N_MAIN_VERSION} install (.cache/)"
"${TSX}" scripts/n8n/install-n8n.ts
echo "::: n8n ${N8N_MAIN_VERSION} install: $((SECONDS - started)) s"

run_step "installed-package check, n8n ${N8N_MAIN_VERSION}" "${TSX}" scripts/n8n/check-installed-package.ts
# n8n 1.x: its own install (skipped when .cache/ has it); its check runs only if that worked.
failures_before=${#failed[@]}
run_step "n8n ${N8N_COMPAT_VERSION} install (.cache/)" env N8N_VERSION="${N8N_COMPAT_VERSION}" "${TSX}" scripts/n8n/install-n8n.ts
if ((${#failed[@]} == failures_before)); then
	run_step "installed-package check, n8n ${N8N_COMPAT_VERSION}" env N8N_VERSION="${N8N_COMPAT_VERSION}" "${TSX}" scripts/n8n/check-installed-package.ts
	run_step "AI-agent check, n8n ${N8N_COMPAT_VERSION}" env N8N_VERSION="${N8N_COMPAT_VERSION}" "${TSX}" scripts/n8n/check-ai-agent.ts
	run_step "send-once, dry-run and Retry On Fail check, n8n ${N8N_COMPAT_VERSION} (regular mode)" env N8N_VERSION="${N8N_COMPAT_VERSION}" "${TSX}" scripts/n8n/check-send-once.ts --only=regular
fi
run_step "credential check" "${TSX}" scripts/n8n/check-credential-test.ts
run_step "browser check" "${TSX}" scripts/n8n/check-editor.ts
run_step "queue-mode check" "${TSX}" scripts/n8n/check-queue-mode.ts
run_step "AI-agent check, n8n ${N8N_MAIN_VERSION}" "${TSX}" scripts/n8n/check-ai-agent.ts
run_step "send-once, dry-run and Retry On Fail check (regular and queue mode)" "${TSX}" scripts/n8n/check-send-once.ts

echo
echo "End-to-end summary:"
printf '  %s\n' "${summary[@]}"
echo "  total $((SECONDS - script_started)) s"
if ((${#failed[@]} > 0)); then
	echo "FAILED: ${failed[*]}"
	exit 1
fi
echo "All end-to-end checks passed."
