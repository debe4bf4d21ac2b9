#!/usr/bin/env bash
# Installs Debian/Ubuntu packages with apt-get, as root or through sudo without
# a password, and says what to run when it can do neither. bootstrap.sh and
# fuzz.sh call it with what they found missing.
#
#   scripts/install_packages.sh CALLER PKG...     (CALLER prefixes its messages)
#
# Exit status: 0 installed, 1 not possible here (the message says why).
set -euo pipefail
caller=$1
shift
say() { printf '%s: %s\n' "$caller" "$*" >&2; }

if ! command -v apt-get >/dev/null 2>&1; then
    say "missing: $*"
    say "this is not a Debian/Ubuntu system: install those (or their equivalents)"
    exit 1
fi
if [[ $(id -u) -eq 0 ]]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
else
    say "missing packages: $*"
    say "install them as root:  apt-get update && apt-get install -y $*"
    exit 1
fi
say "installing: $*"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
