#!/usr/bin/env bash
# The test command of the README: installs what the tests need on a fresh
# machine (Debian's chromium for the browser tests, GNU parallel for the
# documented sharding recipe), then runs every test of the workspace.
# Run it as root or with sudo rights on a fresh machine; where the tools are
# already there it installs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v parallel >/dev/null 2>&1 || missing+=(parallel)
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update
  $sudo apt-get install -y "${missing[@]}"
fi

cargo test --workspace --locked
