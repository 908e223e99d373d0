#!/usr/bin/env bash
# Installs with apt the Debian packages named (chromium, redis-server, postgresql) that this
# machine lacks; does nothing when all are there. The real-n8n checks and the benchmark's
# queue-mode legs need them. Unattended: sudo without a prompt when not root, and another apt
# holding its lock is waited for rather than failed on.
set -euo pipefail

missing=()
for package in "$@"; do
	case "${package}" in
	postgresql) compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || [[ -n "${PG_BIN:-}" ]] || missing+=(postgresql) ;;
	*) command -v "${package}" >/dev/null 2>&1 || missing+=("${package}") ;;
	esac
done
((${#missing[@]} > 0)) || exit 0

sudo=()
if [[ "$(id -u)" != 0 ]]; then sudo=(sudo -n); fi
started=$SECONDS
echo "::: apt-get install ${missing[*]}"
"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update
"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"
echo "::: apt-get install: $((SECONDS - started)) s"
